package wire

import (
	"encoding/binary"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate"
)

// decodeParamsTyped is decodeParams for a statement that takes values
// (translate.TypedStatement): a binary parameter of a type
// decodeBinaryValue knows becomes its value in typed (its text stays nil),
// every other parameter its text form as decodeParams makes it. typed is
// nil when no parameter is such a value.
func decodeParamsTyped(values [][]byte, formats []int16, types []uint32) (text []*string, typed []any, err error) {
	if len(formats) > 1 && len(formats) != len(values) {
		return nil, nil, pgerr.New(pgerr.ProtocolViolation, "bind message has %d parameter formats but %d parameters", len(formats), len(values))
	}
	if len(values) != len(types) {
		return nil, nil, pgerr.New(pgerr.ProtocolViolation,
			"bind message supplies %d parameters, but prepared statement requires %d", len(values), len(types))
	}
	rest := values
	for k, v := range values {
		format := formatText
		switch {
		case len(formats) == 1:
			format = formats[0]
		case len(formats) > 1:
			format = formats[k]
		}
		if v == nil || format != formatBinary {
			continue
		}
		val, ok, err := decodeBinaryValue(v, types[k])
		if err != nil {
			if isBadBinary(err) {
				pgerr.As(err).Message = "incorrect binary data format in bind parameter " + strconv.Itoa(k+1)
			}
			return nil, nil, err
		}
		if !ok {
			continue
		}
		if typed == nil {
			typed = make([]any, len(values))
			rest = append([][]byte(nil), values...)
		}
		typed[k] = val
		rest[k] = nil // decoded: no text form
	}
	text, err = decodeParams(rest, formats, types)
	if err != nil {
		return nil, nil, err
	}
	return text, typed, nil
}

// decodeBinaryValue is the receive function of oid giving the value as
// translate holds it (translate.TypedStatement), without a text form; ok
// is false for a type it does not decode so, or a value whose text path
// decides (NaN numerics, dates and timestamps beyond the Arrow range).
// Its errors are decodeBinaryParam's.
func decodeBinaryValue(v []byte, oid uint32) (any, bool, error) {
	need := func(n int) error {
		if len(v) != n {
			return badBinary()
		}
		return nil
	}
	switch oid {
	case pgtypes.Bool:
		if err := need(1); err != nil {
			return nil, false, err
		}
		return v[0] != 0, true, nil
	case pgtypes.Int2:
		if err := need(2); err != nil {
			return nil, false, err
		}
		return int16(binary.BigEndian.Uint16(v)), true, nil
	case pgtypes.Int4:
		if err := need(4); err != nil {
			return nil, false, err
		}
		return int32(binary.BigEndian.Uint32(v)), true, nil
	case pgtypes.Int8:
		if err := need(8); err != nil {
			return nil, false, err
		}
		return int64(binary.BigEndian.Uint64(v)), true, nil
	case pgtypes.Float4:
		if err := need(4); err != nil {
			return nil, false, err
		}
		return math.Float32frombits(binary.BigEndian.Uint32(v)), true, nil
	case pgtypes.Float8:
		if err := need(8); err != nil {
			return nil, false, err
		}
		return math.Float64frombits(binary.BigEndian.Uint64(v)), true, nil
	case pgtypes.Text, pgtypes.Varchar:
		if !utf8.Valid(v) {
			return nil, false, invalidUTF8(v)
		}
		return string(v), true, nil
	case pgtypes.Bytea:
		return append([]byte{}, v...), true, nil
	case pgtypes.UUID:
		if err := need(16); err != nil {
			return nil, false, err
		}
		return append([]byte(nil), v...), true, nil
	case pgtypes.Date:
		if err := need(4); err != nil {
			return nil, false, err
		}
		d := int32(binary.BigEndian.Uint32(v))
		if d == dateInfinity || d == dateMinusInfinity {
			return d, true, nil
		}
		if d > math.MaxInt32-unixToPostgresDays-1 {
			return nil, false, nil
		}
		return d + unixToPostgresDays, true, nil
	case pgtypes.Time:
		if err := need(8); err != nil {
			return nil, false, err
		}
		us := int64(binary.BigEndian.Uint64(v))
		if us < 0 || us > microsPerDay {
			return nil, false, pgerr.New(pgerr.DatetimeFieldOverflow, "time out of range")
		}
		return us, true, nil
	case pgtypes.Timestamp, pgtypes.Timestamptz:
		if err := need(8); err != nil {
			return nil, false, err
		}
		us := int64(binary.BigEndian.Uint64(v))
		if us == tsInfinity || us == tsMinusInfinity {
			return us, true, nil
		}
		if us > math.MaxInt64-unixToPostgresMicros-1 {
			return nil, false, nil
		}
		return us + unixToPostgresMicros, true, nil
	case pgtypes.Interval:
		if err := need(16); err != nil {
			return nil, false, err
		}
		us := int64(binary.BigEndian.Uint64(v))
		if us > math.MaxInt64/1000 || us < math.MinInt64/1000 {
			return nil, false, nil
		}
		return arrow.MonthDayNanoInterval{
			Months:      int32(binary.BigEndian.Uint32(v[12:])),
			Days:        int32(binary.BigEndian.Uint32(v[8:])),
			Nanoseconds: us * 1000,
		}, true, nil
	case pgtypes.Numeric:
		return decodeNumericValue(v)
	}
	return nil, false, nil
}

// decodeNumericValue is numeric_recv giving a translate.Numeric: the
// base-10000 digits scaled to dscale, truncating digits dscale hides as
// numeric_recv does. NaN and the infinities have none (ok false).
func decodeNumericValue(v []byte) (any, bool, error) {
	if len(v) < 8 {
		return nil, false, badBinary()
	}
	ndigits := int(binary.BigEndian.Uint16(v))
	weight := int(int16(binary.BigEndian.Uint16(v[2:])))
	sign := binary.BigEndian.Uint16(v[4:])
	dscale := int(binary.BigEndian.Uint16(v[6:]))
	switch sign {
	case 0xC000, 0xD000, 0xF000:
		return nil, false, nil
	case 0, 0x4000:
	default:
		return nil, false, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid sign in external \"numeric\" value")
	}
	if len(v) != 8+2*ndigits || dscale > 0x3FFF {
		return nil, false, badBinary()
	}
	acc := new(big.Int)
	base := big.NewInt(10000)
	for k := 0; k < ndigits; k++ {
		d := binary.BigEndian.Uint16(v[8+2*k:])
		if d > 9999 {
			return nil, false, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid digit in external \"numeric\" value")
		}
		acc.Mul(acc, base).Add(acc, big.NewInt(int64(d)))
	}
	// acc * 10000^(weight-ndigits+1) is the value; Unscaled is it times
	// 10^dscale.
	e10 := 4*(weight-ndigits+1) + dscale
	if e10 > 0x3FFF*2 || e10 < -0x3FFF*2 {
		return nil, false, nil
	}
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e10))), nil)
	if e10 >= 0 {
		acc.Mul(acc, pow)
	} else {
		acc.Quo(acc, pow)
	}
	if acc.CmpAbs(decimal38) >= 0 {
		return nil, false, nil // beyond 38 digits: the text path decides
	}
	if sign == 0x4000 {
		acc.Neg(acc)
	}
	return translate.Numeric{Unscaled: acc, Scale: dscale}, true, nil
}

// decimal38 is 10^38, the first magnitude of 39 digits (never changed).
var decimal38 = new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
