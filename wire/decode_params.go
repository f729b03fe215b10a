package wire

import (
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/internal/pgtypes"
)

// decodeParams turns Bind's parameter values into the text form
// Statement.Execute takes: text values are copied, binary values of the
// types wire knows (and arrays of them) are decoded and printed as
// PostgreSQL would print them.
func decodeParams(values [][]byte, formats []int16, types []uint32) ([]*string, error) {
	if len(formats) > 1 && len(formats) != len(values) {
		return nil, pgerr.New(pgerr.ProtocolViolation, "bind message has %d parameter formats but %d parameters", len(formats), len(values))
	}
	if len(values) != len(types) {
		return nil, pgerr.New(pgerr.ProtocolViolation,
			"bind message supplies %d parameters, but prepared statement requires %d", len(values), len(types))
	}
	out := make([]*string, len(values))
	for k, v := range values {
		if v == nil {
			continue
		}
		format := formatText
		switch {
		case len(formats) == 1:
			format = formats[0]
		case len(formats) > 1:
			format = formats[k]
		}
		var s string
		switch format {
		case formatText:
			if !utf8.Valid(v) {
				return nil, invalidUTF8(v)
			}
			s = string(v)
		case formatBinary:
			var err error
			if s, err = decodeBinaryParam(v, types[k]); err != nil {
				if isBadBinary(err) {
					pgerr.As(err).Message = "incorrect binary data format in bind parameter " + strconv.Itoa(k+1)
				}
				return nil, err
			}
		default:
			return nil, pgerr.New(pgerr.ProtocolViolation, "unsupported format code: %d", format)
		}
		out[k] = &s
	}
	return out, nil
}

// badBinaryMessage is the error of a value whose receive function did not
// read it whole.
const badBinaryMessage = "incorrect binary data format"

func badBinary() error {
	return pgerr.New(pgerr.InvalidBinaryRepresentation, badBinaryMessage)
}

// isBadBinary reports whether err is badBinary's error (not one a receive
// function raised with its own message).
func isBadBinary(err error) bool {
	pe := pgerr.As(err)
	return pe != nil && pe.Code == pgerr.InvalidBinaryRepresentation && pe.Message == badBinaryMessage
}

// decodeBinaryParam is the *recv function of oid followed by its output
// function.
func decodeBinaryParam(v []byte, oid uint32) (string, error) {
	need := func(n int) error {
		if len(v) != n {
			return badBinary()
		}
		return nil
	}
	var buf []byte
	if pgtypes.IsOIDType(oid) {
		// oidrecv, and the reg* types' receive functions that call it.
		if err := need(4); err != nil {
			return "", err
		}
		return strconv.FormatUint(uint64(binary.BigEndian.Uint32(v)), 10), nil
	}
	switch oid {
	case pgtypes.Bool:
		if err := need(1); err != nil {
			return "", err
		}
		if v[0] != 0 {
			return "true", nil
		}
		return "false", nil
	case pgtypes.Int2:
		if err := need(2); err != nil {
			return "", err
		}
		return strconv.Itoa(int(int16(binary.BigEndian.Uint16(v)))), nil
	case pgtypes.Int4:
		if err := need(4); err != nil {
			return "", err
		}
		return strconv.Itoa(int(int32(binary.BigEndian.Uint32(v)))), nil
	case pgtypes.Int8:
		if err := need(8); err != nil {
			return "", err
		}
		return strconv.FormatInt(int64(binary.BigEndian.Uint64(v)), 10), nil
	case pgtypes.Float4:
		if err := need(4); err != nil {
			return "", err
		}
		buf = appendFloat4(buf, math.Float32frombits(binary.BigEndian.Uint32(v)), 1)
	case pgtypes.Float8:
		if err := need(8); err != nil {
			return "", err
		}
		buf = appendFloat8(buf, math.Float64frombits(binary.BigEndian.Uint64(v)), 1)
	case pgtypes.Char:
		// charrecv takes one byte; its text form is what charin reads back.
		if err := need(1); err != nil {
			return "", err
		}
		return string(appendCharOut(nil, v[0])), nil
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name, pgtypes.Unknown, pgtypes.JSON, pgtypes.PgNodeTree:
		if !utf8.Valid(v) {
			return "", invalidUTF8(v)
		}
		return string(v), nil
	case pgtypes.JSONB:
		if len(v) == 0 || v[0] != 1 {
			return "", pgerr.New(pgerr.InvalidBinaryRepresentation, "unsupported jsonb version number")
		}
		if !utf8.Valid(v[1:]) {
			return "", invalidUTF8(v[1:])
		}
		return string(v[1:]), nil
	case pgtypes.Bytea:
		buf = appendByteaHex(buf, v)
	case pgtypes.UUID:
		if err := need(16); err != nil {
			return "", err
		}
		buf = appendUUID(buf, v)
	case pgtypes.Date:
		if err := need(4); err != nil {
			return "", err
		}
		d := int32(binary.BigEndian.Uint32(v))
		if d != dateInfinity && d != dateMinusInfinity {
			d += unixToPostgresDays
		}
		buf = pgtext.AppendDate(buf, d)
	case pgtypes.Time:
		if err := need(8); err != nil {
			return "", err
		}
		us := int64(binary.BigEndian.Uint64(v))
		if us < 0 || us > microsPerDay {
			return "", pgerr.New(pgerr.DatetimeFieldOverflow, "time out of range")
		}
		buf = pgtext.AppendTime(buf, us)
	case pgtypes.Timestamp, pgtypes.Timestamptz:
		if err := need(8); err != nil {
			return "", err
		}
		us := int64(binary.BigEndian.Uint64(v))
		if us != tsInfinity && us != tsMinusInfinity {
			us += unixToPostgresMicros
		}
		if oid == pgtypes.Timestamptz {
			buf = pgtext.AppendTimestamptz(buf, us, 0, pgtext.ISO)
		} else {
			buf = pgtext.AppendTimestamp(buf, us, pgtext.ISO)
		}
	case pgtypes.Numeric:
		return decodeNumericBinary(v)
	case pgtypes.Interval:
		if err := need(16); err != nil {
			return "", err
		}
		buf = pgtext.AppendInterval(buf, pgtext.Interval{
			Micros: int64(binary.BigEndian.Uint64(v)),
			Days:   int32(binary.BigEndian.Uint32(v[8:])),
			Months: int32(binary.BigEndian.Uint32(v[12:])),
		})
	default:
		if elem, ok := binaryArrayElems[oid]; ok {
			return decodeBinaryArray(v, elem)
		}
		name := pgtypes.TypeName(oid)
		if name == "" {
			name = "OID " + strconv.FormatUint(uint64(oid), 10)
		}
		return "", pgerr.Unsupported("binary format for parameters of type %s", name)
	}
	return string(buf), nil
}

// decodeNumericBinary is numeric_recv followed by numeric_out.
func decodeNumericBinary(v []byte) (string, error) {
	if len(v) < 8 {
		return "", badBinary()
	}
	ndigits := int(binary.BigEndian.Uint16(v))
	weight := int(int16(binary.BigEndian.Uint16(v[2:])))
	sign := binary.BigEndian.Uint16(v[4:])
	dscale := int(binary.BigEndian.Uint16(v[6:]))
	switch sign {
	case 0xC000:
		return "NaN", nil
	case 0xD000:
		return "Infinity", nil
	case 0xF000:
		return "-Infinity", nil
	case 0, 0x4000:
	default:
		return "", pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid sign in external \"numeric\" value")
	}
	if len(v) != 8+2*ndigits || dscale > 0x3FFF {
		return "", badBinary()
	}
	digit := func(k int) int { // base-10000 digit at group position k (0 = weight)
		if k < 0 || k >= ndigits {
			return 0
		}
		d := int(binary.BigEndian.Uint16(v[8+2*k:]))
		return d
	}
	for k := 0; k < ndigits; k++ {
		if digit(k) > 9999 {
			return "", pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid digit in external \"numeric\" value")
		}
	}
	var out []byte
	if sign == 0x4000 && ndigits > 0 {
		out = append(out, '-')
	}
	// Integer part: groups 0..weight.
	if weight < 0 {
		out = append(out, '0')
	} else {
		for k := 0; k <= weight; k++ {
			d := digit(k)
			if k == 0 {
				out = strconv.AppendInt(out, int64(d), 10)
			} else {
				out = append(out, byte('0'+d/1000), byte('0'+d/100%10), byte('0'+d/10%10), byte('0'+d%10))
			}
		}
	}
	if dscale > 0 {
		out = append(out, '.')
		written := 0
		for k := weight + 1; written < dscale; k++ {
			d := digit(k)
			for _, ch := range [4]byte{byte('0' + d/1000), byte('0' + d/100%10), byte('0' + d/10%10), byte('0' + d%10)} {
				if written < dscale {
					out = append(out, ch)
					written++
				}
			}
		}
	}
	return string(out), nil
}
