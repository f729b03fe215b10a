package wire

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// Formats of values on the wire.
const (
	formatText   int16 = 0
	formatBinary int16 = 1
)

// appendFunc appends the encoding of row i of the array it was bound to (a
// non-NULL value) to dst.
type appendFunc func(dst []byte, i int) []byte

// binder binds an encoder to the array of one batch. The type switch on the
// Arrow array happens here, once per batch; appendFunc runs per value with
// the typed array captured.
type binder func(arr arrow.Array) appendFunc

// encodeEnv carries the session settings encoders depend on, read once per
// statement execution.
type encodeEnv struct {
	loc              *time.Location // TimeZone, for timestamptz
	extraFloatDigits int
}

// columnEncoder encodes one result column. It is chosen once, by the
// column's OID, the Arrow type of its first batch and the format.
type columnEncoder struct {
	dt   arrow.DataType
	bind binder
}

// rowEncoder turns batches into DataRow messages for one result.
type rowEncoder struct {
	cols    []pgtypes.Column
	formats []int16
	env     *encodeEnv
	encs    []columnEncoder
	fns     []appendFunc
	nulls   []nullMap
}

func newRowEncoder(cols []pgtypes.Column, formats []int16, env *encodeEnv) *rowEncoder {
	return &rowEncoder{
		cols:    cols,
		formats: formats,
		env:     env,
		encs:    make([]columnEncoder, len(cols)),
		fns:     make([]appendFunc, len(cols)),
		nulls:   make([]nullMap, len(cols)),
	}
}

// nullMap reads an array's validity bitmap without an interface call per
// value.
type nullMap struct {
	bits   []byte
	offset int
}

func newNullMap(arr arrow.Array) nullMap {
	if arr.NullN() == 0 {
		return nullMap{}
	}
	if arr.DataType().ID() == arrow.NULL {
		return nullMap{bits: allNull, offset: -1}
	}
	return nullMap{bits: arr.NullBitmapBytes(), offset: arr.Data().Offset()}
}

var allNull = []byte{0}

func (m nullMap) isNull(i int) bool {
	if m.bits == nil {
		return false
	}
	if m.offset < 0 {
		return true
	}
	return bitutil.BitIsNotSet(m.bits, m.offset+i)
}

// bindBatch prepares the encoders for batch.
func (e *rowEncoder) bindBatch(batch arrow.RecordBatch) error {
	if int(batch.NumCols()) != len(e.cols) {
		return pgerr.New(pgerr.InternalError, "result batch has %d columns, statement described %d", batch.NumCols(), len(e.cols))
	}
	for j := range e.cols {
		col := batch.Column(j)
		enc := &e.encs[j]
		if enc.bind == nil || !arrow.TypeEqual(enc.dt, col.DataType()) {
			b, err := chooseEncoder(e.cols[j], col.DataType(), e.formats[j], e.env)
			if err != nil {
				return err
			}
			enc.dt, enc.bind = col.DataType(), b
		}
		e.fns[j] = enc.bind(col)
		e.nulls[j] = newNullMap(col)
	}
	return nil
}

// appendRows appends DataRow messages for rows [from, to) of the bound
// batch to dst.
func (e *rowEncoder) appendRows(dst []byte, from, to int) []byte {
	for i := from; i < to; i++ {
		start := len(dst)
		dst = append(dst, 'D', 0, 0, 0, 0)
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(e.fns)))
		for j, fn := range e.fns {
			if e.nulls[j].isNull(i) {
				dst = append(dst, 0xff, 0xff, 0xff, 0xff)
				continue
			}
			lenPos := len(dst)
			dst = append(dst, 0, 0, 0, 0)
			dst = fn(dst, i)
			binary.BigEndian.PutUint32(dst[lenPos:], uint32(len(dst)-lenPos-4))
		}
		binary.BigEndian.PutUint32(dst[start+1:], uint32(len(dst)-start-1))
	}
	return dst
}

// chooseEncoder picks the encoder of a column by OID, Arrow type and format.
func chooseEncoder(col pgtypes.Column, dt arrow.DataType, format int16, env *encodeEnv) (binder, error) {
	if dict, ok := dt.(*arrow.DictionaryType); ok {
		inner, err := chooseEncoder(col, dict.ValueType, format, env)
		if err != nil {
			return nil, err
		}
		return bindDictionary(inner), nil
	}
	if format == formatBinary {
		return binaryEncoder(col.TypeOID, dt, env)
	}
	return textEncoder(col.TypeOID, dt, env)
}

// bindDictionary encodes a dictionary array through the encoder of its
// values.
func bindDictionary(inner binder) binder {
	return func(arr arrow.Array) appendFunc {
		d := arr.(*array.Dictionary)
		f := inner(d.Dictionary())
		return func(dst []byte, i int) []byte { return f(dst, d.GetValueIndex(i)) }
	}
}

// unsupportedEncoding is the error for an OID/Arrow type pair wire cannot
// encode.
func unsupportedEncoding(oid uint32, dt arrow.DataType, format int16) error {
	name := pgtypes.TypeName(oid)
	if name == "" {
		name = fmt.Sprintf("OID %d", oid)
	}
	kind := "text"
	if format == formatBinary {
		kind = "binary"
	}
	return pgerr.Unsupported("%s output of type %s from Arrow type %s", kind, name, dt)
}

// binaryOutputSupported reports whether wire has a binary encoder for oid;
// Bind checks it so the error comes before any row.
func binaryOutputSupported(oid uint32) bool {
	if handled, err := catalogBinaryOutput(oid); handled {
		return err == nil
	}
	switch oid {
	case pgtypes.Bool, pgtypes.Int2, pgtypes.Int4, pgtypes.Int8, pgtypes.OID, pgtypes.Float4, pgtypes.Float8,
		pgtypes.Numeric, pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name, pgtypes.Unknown, pgtypes.Char,
		pgtypes.Bytea, pgtypes.Date, pgtypes.Time, pgtypes.Timestamp, pgtypes.Timestamptz, pgtypes.UUID,
		pgtypes.JSON, pgtypes.JSONB, pgtypes.Interval:
		return true
	}
	if elem := pgtypes.ElemOf(oid); elem != 0 {
		return binaryOutputSupported(elem)
	}
	return false
}
