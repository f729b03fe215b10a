package wire

import (
	"encoding/binary"
	"math"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/internal/pgtypes"
)

// Binary array parameters (pgJDBC's setArray, psycopg 3's binary
// parameters, binary COPY FROM): array_recv's format read into the text
// array_out prints. The format: the number of dimensions, a has-nulls flag
// (0 or 1, not trusted), the element type's OID, each dimension's length
// and lower bound, then every element in row-major order, each a length
// (-1 for NULL) and the element type's binary value.

// maxArrayDims is PostgreSQL's MAXDIM.
const maxArrayDims = 6

// maxArrayItems is PostgreSQL's MaxArraySize: MaxAllocSize / sizeof(Datum).
const maxArrayItems = 0x3fffffff / 8

// binaryArrayElems maps the array types whose elements decodeBinaryParam
// decodes to their element type (pg_type.typarray of PostgreSQL 15).
var binaryArrayElems = map[uint32]uint32{
	1000: pgtypes.Bool, 1001: pgtypes.Bytea, 1002: pgtypes.Char, 1003: pgtypes.Name,
	1005: pgtypes.Int2, 1007: pgtypes.Int4, 1016: pgtypes.Int8, 1021: pgtypes.Float4,
	1022: pgtypes.Float8, 1009: pgtypes.Text, 1015: pgtypes.Varchar, 1014: pgtypes.BPChar,
	199: pgtypes.JSON, 3807: pgtypes.JSONB, 2951: pgtypes.UUID, 1182: pgtypes.Date,
	1183: pgtypes.Time, 1115: pgtypes.Timestamp, 1185: pgtypes.Timestamptz,
	1187: pgtypes.Interval, 1231: pgtypes.Numeric,
	1028: pgtypes.OID, 1011: pgtypes.XID, 1012: pgtypes.CID, 1008: pgtypes.Regproc,
	2207: pgtypes.Regprocedure, 2208: pgtypes.Regoper, 2210: pgtypes.Regclass,
	2211: pgtypes.Regtype, 4090: pgtypes.Regnamespace, 4097: pgtypes.Regrole,
}

// errInsufficientData is pq_getmsg*'s error for a value cut short.
func errInsufficientData() error {
	return pgerr.New(pgerr.ProtocolViolation, "insufficient data left in message")
}

// arrayReader reads the int32 fields of an array value.
type arrayReader struct {
	v   []byte
	pos int
}

func (r *arrayReader) int32() (int32, error) {
	if len(r.v)-r.pos < 4 {
		return 0, errInsufficientData()
	}
	n := int32(binary.BigEndian.Uint32(r.v[r.pos:]))
	r.pos += 4
	return n, nil
}

// decodeBinaryArray is array_recv for an array of elem followed by
// array_out: "{1,NULL,3}", "{{1,2},{3,4}}", "[0:1]={a,b}".
func decodeBinaryArray(v []byte, elem uint32) (string, error) {
	r := &arrayReader{v: v}
	ndim, err := r.int32()
	if err != nil {
		return "", err
	}
	if ndim < 0 {
		return "", pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid number of dimensions: %d", ndim)
	}
	if ndim > maxArrayDims {
		return "", pgerr.New(pgerr.ProgramLimitExceeded,
			"number of array dimensions (%d) exceeds the maximum allowed (%d)", ndim, maxArrayDims)
	}
	flags, err := r.int32()
	if err != nil {
		return "", err
	}
	if flags != 0 && flags != 1 {
		return "", pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid array flags")
	}
	sent, err := r.int32()
	if err != nil {
		return "", err
	}
	if uint32(sent) != elem {
		return "", pgerr.New(pgerr.DatatypeMismatch, "binary data has array element type %d (%s) instead of expected %d (%s)",
			uint32(sent), arrayTypeName(uint32(sent)), elem, arrayTypeName(elem))
	}
	dims := make([]int32, ndim)
	lbounds := make([]int32, ndim)
	for k := range dims {
		if dims[k], err = r.int32(); err != nil {
			return "", err
		}
		if lbounds[k], err = r.int32(); err != nil {
			return "", err
		}
	}
	nitems, err := arrayItems(dims, lbounds)
	if err != nil {
		return "", err
	}
	if nitems == 0 {
		if r.pos != len(v) {
			return "", badBinary()
		}
		return "{}", nil
	}
	var w pgtext.ArrayWriter
	out := w.Begin(nil, dims, lbounds)
	for item := range nitems {
		out = w.Next(out)
		n, err := r.int32()
		if err != nil {
			return "", err
		}
		if n == -1 {
			out = pgtext.AppendArrayNull(out)
			continue
		}
		if n < -1 || int(n) > len(v)-r.pos {
			return "", pgerr.New(pgerr.InvalidBinaryRepresentation, "insufficient data left in message")
		}
		s, err := decodeArrayElement(v[r.pos:r.pos+int(n)], elem, item+1)
		if err != nil {
			return "", err
		}
		r.pos += int(n)
		out = pgtext.AppendArrayElement(out, []byte(s))
	}
	out = w.End(out)
	if r.pos != len(v) {
		return "", badBinary()
	}
	return string(out), nil
}

// arrayItems is ArrayGetNItems followed by ArrayCheckBounds: the number of
// elements, within MaxArraySize, and upper bounds that fit in int32.
func arrayItems(dims, lbounds []int32) (int, error) {
	tooMany := func() error {
		return pgerr.New(pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", maxArrayItems)
	}
	total := int64(1)
	if len(dims) == 0 {
		total = 0
	}
	for _, d := range dims {
		if d < 0 {
			return 0, tooMany()
		}
		total *= int64(d)
		if total > math.MaxInt32 {
			return 0, tooMany()
		}
	}
	if total > maxArrayItems {
		return 0, tooMany()
	}
	for k, d := range dims {
		if int64(d)+int64(lbounds[k]) > math.MaxInt32 {
			return 0, pgerr.New(pgerr.ProgramLimitExceeded, "array lower bound is too large: %d", lbounds[k])
		}
	}
	return int(total), nil
}

// decodeArrayElement decodes element number pos (from 1) of an array as
// ReadArrayBinary does: a value shorter than its type's receive function
// reads is 08P01, one with bytes left over is 22P03.
func decodeArrayElement(v []byte, elem uint32, pos int) (string, error) {
	improper := func() error {
		return pgerr.New(pgerr.InvalidBinaryRepresentation, "improper binary format in array element %d", pos)
	}
	switch size := pgtypes.TypeSize(elem); {
	case elem == pgtypes.Numeric:
		if len(v) < 8 || len(v) < 8+2*int(binary.BigEndian.Uint16(v)) {
			return "", errInsufficientData()
		}
	case elem == pgtypes.JSONB:
		if len(v) == 0 {
			return "", errInsufficientData()
		}
	case size > 0 && elem != pgtypes.Name:
		if len(v) < int(size) {
			return "", errInsufficientData()
		}
		if len(v) > int(size) {
			return "", improper()
		}
	}
	s, err := decodeBinaryParam(v, elem)
	if err != nil {
		if isBadBinary(err) {
			return "", improper()
		}
		return "", err
	}
	if elem == pgtypes.Bool {
		// boolout, as array_out prints elements.
		return s[:1], nil
	}
	return s, nil
}

// arrayTypeName names a type in array_recv's message: "???" for one
// icegate does not know, as format_type does for an invalid OID.
func arrayTypeName(oid uint32) string {
	if name := pgtypes.TypeName(oid); name != "" {
		return name
	}
	if elem, ok := binaryArrayElems[oid]; ok {
		return arrayTypeName(elem) + "[]"
	}
	return "???"
}
