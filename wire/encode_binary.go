package wire

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgnumeric"
	"github.com/icegate/icegate/internal/pgtypes"
)

// binaryEncoder chooses the binary-format encoder (PostgreSQL's *send
// functions) for oid and the Arrow type of the values.
func binaryEncoder(oid uint32, dt arrow.DataType, env *encodeEnv) (binder, error) {
	if dict, ok := dt.(*arrow.DictionaryType); ok {
		inner, err := binaryEncoder(oid, dict.ValueType, env)
		if err != nil {
			return nil, err
		}
		return bindDictionary(inner), nil
	}
	if b, ok, err := catalogBinary(oid, dt, env); ok {
		return b, err
	}
	switch oid {
	case pgtypes.Bool:
		if dt.ID() == arrow.BOOL {
			return func(arr arrow.Array) appendFunc {
				a := arr.(*array.Boolean)
				return func(dst []byte, i int) []byte {
					if a.Value(i) {
						return append(dst, 1)
					}
					return append(dst, 0)
				}
			}, nil
		}
	case pgtypes.Int2, pgtypes.Int4, pgtypes.Int8:
		if get := integerReader(dt); get != nil {
			width := pgtypes.TypeSize(oid)
			return func(arr arrow.Array) appendFunc {
				v := get(arr)
				switch width {
				case 2:
					return func(dst []byte, i int) []byte { return binary.BigEndian.AppendUint16(dst, uint16(v(i))) }
				case 4:
					return func(dst []byte, i int) []byte { return binary.BigEndian.AppendUint32(dst, uint32(v(i))) }
				}
				return func(dst []byte, i int) []byte { return binary.BigEndian.AppendUint64(dst, uint64(v(i))) }
			}, nil
		}
	case pgtypes.Float4:
		switch dt.ID() {
		case arrow.FLOAT32:
			return func(arr arrow.Array) appendFunc {
				v := arr.(*array.Float32).Float32Values()
				return func(dst []byte, i int) []byte { return binary.BigEndian.AppendUint32(dst, math.Float32bits(v[i])) }
			}, nil
		case arrow.FLOAT64:
			return func(arr arrow.Array) appendFunc {
				v := arr.(*array.Float64).Float64Values()
				return func(dst []byte, i int) []byte {
					return binary.BigEndian.AppendUint32(dst, math.Float32bits(float32(v[i])))
				}
			}, nil
		}
	case pgtypes.Float8:
		switch dt.ID() {
		case arrow.FLOAT64:
			return func(arr arrow.Array) appendFunc {
				v := arr.(*array.Float64).Float64Values()
				return func(dst []byte, i int) []byte { return binary.BigEndian.AppendUint64(dst, math.Float64bits(v[i])) }
			}, nil
		case arrow.FLOAT32:
			return func(arr arrow.Array) appendFunc {
				v := arr.(*array.Float32).Float32Values()
				return func(dst []byte, i int) []byte {
					return binary.BigEndian.AppendUint64(dst, math.Float64bits(float64(v[i])))
				}
			}, nil
		}
	case pgtypes.Numeric:
		if pgnumeric.IsType(dt) {
			return func(arr arrow.Array) appendFunc {
				a := arr.(*pgnumeric.Array)
				return func(dst []byte, i int) []byte {
					u, scale := a.Value(i)
					return appendNumericBinary(dst, u, scale)
				}
			}, nil
		}
		if t, ok := dt.(*arrow.Decimal128Type); ok {
			scale := t.Scale
			return func(arr arrow.Array) appendFunc {
				v := arr.(*array.Decimal128).Values()
				return func(dst []byte, i int) []byte { return appendNumericBinary(dst, v[i], scale) }
			}, nil
		}
		// Other representations: binary numeric from their text.
		if text := numericText(dt, env); text != nil {
			return func(arr arrow.Array) appendFunc {
				f := text(arr)
				var scratch []byte
				return func(dst []byte, i int) []byte {
					scratch = f(scratch[:0], i)
					return appendNumericBinaryFromText(dst, scratch)
				}
			}, nil
		}
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name, pgtypes.Unknown, pgtypes.Char, pgtypes.JSON:
		if b := stringText(dt); b != nil {
			return b, nil
		}
		if oid == pgtypes.JSON {
			return jsonEncoder(dt, env)
		}
	case pgtypes.Bytea:
		if get := bytesOf(dt); get != nil {
			return func(arr arrow.Array) appendFunc {
				value := get(arr)
				return func(dst []byte, i int) []byte { return append(dst, value(i)...) }
			}, nil
		}
	case pgtypes.UUID:
		if fsb, ok := dt.(*arrow.FixedSizeBinaryType); ok && fsb.ByteWidth == 16 {
			return func(arr arrow.Array) appendFunc {
				a := arr.(*array.FixedSizeBinary)
				return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
			}, nil
		}
	case pgtypes.Date:
		if dt.ID() == arrow.DATE32 {
			return func(arr arrow.Array) appendFunc {
				v := arr.(*array.Date32).Date32Values()
				return func(dst []byte, i int) []byte {
					d := int32(v[i])
					if d != dateInfinity && d != dateMinusInfinity {
						d -= unixToPostgresDays
					}
					return binary.BigEndian.AppendUint32(dst, uint32(d))
				}
			}, nil
		}
	case pgtypes.Time:
		if text := timeMicros(dt); text != nil {
			return func(arr arrow.Array) appendFunc {
				v := text(arr)
				return func(dst []byte, i int) []byte { return binary.BigEndian.AppendUint64(dst, uint64(v(i))) }
			}, nil
		}
	case pgtypes.Timestamp, pgtypes.Timestamptz:
		if ts, ok := dt.(*arrow.TimestampType); ok {
			unit := ts.Unit
			return func(arr arrow.Array) appendFunc {
				us := timestampMicros(arr, unit)
				return func(dst []byte, i int) []byte {
					v := us(i)
					if v != tsInfinity && v != tsMinusInfinity {
						v -= unixToPostgresMicros
					}
					return binary.BigEndian.AppendUint64(dst, uint64(v))
				}
			}, nil
		}
	case pgtypes.Interval:
		if b := intervalBinary(dt); b != nil {
			return b, nil
		}
	case pgtypes.JSONB:
		text, err := textEncoder(oid, dt, env)
		if err != nil {
			return nil, err
		}
		return func(arr arrow.Array) appendFunc {
			f := text(arr)
			return func(dst []byte, i int) []byte { return f(append(dst, 1), i) }
		}, nil
	default:
		if elem := pgtypes.ElemOf(oid); elem != 0 {
			return arrayBinary(elem, dt, env)
		}
	}
	return nil, unsupportedEncoding(oid, dt, formatBinary)
}

// integerReader reads any Arrow integer array as int64.
func integerReader(dt arrow.DataType) func(arrow.Array) func(int) int64 {
	switch dt.ID() {
	case arrow.INT8:
		return func(arr arrow.Array) func(int) int64 {
			v := arr.(*array.Int8).Int8Values()
			return func(i int) int64 { return int64(v[i]) }
		}
	case arrow.INT16:
		return func(arr arrow.Array) func(int) int64 {
			v := arr.(*array.Int16).Int16Values()
			return func(i int) int64 { return int64(v[i]) }
		}
	case arrow.INT32:
		return func(arr arrow.Array) func(int) int64 {
			v := arr.(*array.Int32).Int32Values()
			return func(i int) int64 { return int64(v[i]) }
		}
	case arrow.INT64:
		return func(arr arrow.Array) func(int) int64 {
			v := arr.(*array.Int64).Int64Values()
			return func(i int) int64 { return v[i] }
		}
	case arrow.UINT8:
		return func(arr arrow.Array) func(int) int64 {
			v := arr.(*array.Uint8).Uint8Values()
			return func(i int) int64 { return int64(v[i]) }
		}
	case arrow.UINT16:
		return func(arr arrow.Array) func(int) int64 {
			v := arr.(*array.Uint16).Uint16Values()
			return func(i int) int64 { return int64(v[i]) }
		}
	case arrow.UINT32:
		return func(arr arrow.Array) func(int) int64 {
			v := arr.(*array.Uint32).Uint32Values()
			return func(i int) int64 { return int64(v[i]) }
		}
	case arrow.UINT64:
		return func(arr arrow.Array) func(int) int64 {
			v := arr.(*array.Uint64).Uint64Values()
			return func(i int) int64 { return int64(v[i]) }
		}
	}
	return nil
}

// timeMicros reads Arrow time arrays as microseconds since midnight.
func timeMicros(dt arrow.DataType) func(arrow.Array) func(int) int64 {
	switch t := dt.(type) {
	case *arrow.Time64Type:
		unit := t.Unit
		return func(arr arrow.Array) func(int) int64 {
			v := arr.(*array.Time64).Time64Values()
			return func(i int) int64 { return toMicros(int64(v[i]), unit) }
		}
	case *arrow.Time32Type:
		unit := t.Unit
		return func(arr arrow.Array) func(int) int64 {
			v := arr.(*array.Time32).Time32Values()
			return func(i int) int64 { return toMicros(int64(v[i]), unit) }
		}
	}
	return nil
}

// appendNumericBinary is numeric_send of a Decimal128 with scale.
func appendNumericBinary(dst []byte, n decimal128.Num, scale int32) []byte {
	if out, ok := appendNumericBinary64(dst, n, scale); ok {
		return out
	}
	var buf [40]byte
	digits, neg := decimalDigits(&buf, n)
	return appendNumericBinaryDigits(dst, digits, int(scale), neg)
}

// appendNumericBinaryFromText is numeric_send of a number in numeric text
// form ("-12.340", "NaN", "Infinity").
func appendNumericBinaryFromText(dst, txt []byte) []byte {
	switch string(txt) {
	case "NaN":
		return append(dst, 0, 0, 0, 0, 0xC0, 0, 0, 0)
	case "Infinity":
		return append(dst, 0, 0, 0, 0, 0xD0, 0, 0, 0)
	case "-Infinity":
		return append(dst, 0, 0, 0, 0, 0xF0, 0, 0, 0)
	}
	neg := len(txt) > 0 && txt[0] == '-'
	if neg {
		txt = txt[1:]
	}
	var digits []byte
	scale := 0
	seenPoint := false
	for _, ch := range txt {
		switch {
		case ch == '.':
			seenPoint = true
		case ch >= '0' && ch <= '9':
			digits = append(digits, ch)
			if seenPoint {
				scale++
			}
		}
	}
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	return appendNumericBinaryDigits(dst, digits, scale, neg)
}

// appendNumericBinaryDigits writes ndigits, weight, sign, dscale and the
// base-10000 digits of the decimal digits with scale decimals.
func appendNumericBinaryDigits(dst, digits []byte, scale int, neg bool) []byte {
	if scale < 0 {
		digits = append(slices.Clip(digits), make([]byte, -scale)...)
		for k := len(digits) + scale; k < len(digits); k++ {
			digits[k] = '0'
		}
		scale = 0
	}
	intLen := len(digits) - scale
	// Left-pad so the integer part is whole groups of four (and at least the
	// fraction is all there), then right-pad the fraction.
	lead := 0
	if intLen < 0 {
		lead = -intLen
		intLen = 0
	}
	lead += (4 - intLen%4) % 4
	var stack [12]int16 // Decimal128's 38 digits fit without allocating
	groups := stack[:0]
	total := lead + len(digits)
	for k := 0; k < total; k += 4 {
		var g int16
		for d := k; d < k+4; d++ {
			g *= 10
			if p := d - lead; p >= 0 && p < len(digits) {
				g += int16(digits[p] - '0')
			}
		}
		groups = append(groups, g)
	}
	gs := groups
	weight := (intLen+(4-intLen%4)%4)/4 - 1
	for len(gs) > 0 && gs[0] == 0 {
		gs = gs[1:]
		weight--
	}
	for len(gs) > 0 && gs[len(gs)-1] == 0 {
		gs = gs[:len(gs)-1]
	}
	sign := uint16(0)
	if len(gs) == 0 {
		weight = 0
	} else if neg {
		sign = 0x4000
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(gs)))
	dst = binary.BigEndian.AppendUint16(dst, uint16(int16(weight)))
	dst = binary.BigEndian.AppendUint16(dst, sign)
	dst = binary.BigEndian.AppendUint16(dst, uint16(scale))
	for _, g := range gs {
		dst = binary.BigEndian.AppendUint16(dst, uint16(g))
	}
	return dst
}

// pow10u64 holds 10^0 to 10^19.
var pow10u64 = [20]uint64{
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// appendNumericBinary64 is numeric_send of a Decimal128 whose magnitude
// fits in 64 bits and whose scale is 0 to 15 (every numeric(P,S) of a
// usual table): the base-10000 digits come straight from integer division,
// without the decimal digits. ok is false for other values.
func appendNumericBinary64(dst []byte, n decimal128.Num, scale int32) (out []byte, ok bool) {
	hi, lo := n.HighBits(), n.LowBits()
	var u uint64
	neg := false
	switch {
	case hi == 0:
		u = lo
	case hi == -1 && lo != 0:
		u, neg = -lo, true
	default:
		return dst, false
	}
	if scale < 0 || scale > 15 {
		return dst, false
	}
	s := int(scale)
	pad := (4 - s%4) % 4
	ip, fp := u/pow10u64[s], u%pow10u64[s]
	fp *= pow10u64[pad] // below 10^16: no overflow
	nfrac := (s + pad) / 4

	var groups [9]uint16 // 5 integer groups (20 digits) and 4 fraction groups
	var intg [5]uint16
	ni := 0
	for ip != 0 {
		intg[ni] = uint16(ip % 10000)
		ip /= 10000
		ni++
	}
	for j := 0; j < ni; j++ {
		groups[j] = intg[ni-1-j]
	}
	for j := nfrac - 1; j >= 0; j-- {
		groups[ni+j] = uint16(fp % 10000)
		fp /= 10000
	}
	gs := groups[:ni+nfrac]
	weight := ni - 1
	for len(gs) > 0 && gs[0] == 0 {
		gs = gs[1:]
		weight--
	}
	for len(gs) > 0 && gs[len(gs)-1] == 0 {
		gs = gs[:len(gs)-1]
	}
	sign := uint16(0)
	if len(gs) == 0 {
		weight = 0
	} else if neg {
		sign = 0x4000
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(gs)))
	dst = binary.BigEndian.AppendUint16(dst, uint16(int16(weight)))
	dst = binary.BigEndian.AppendUint16(dst, sign)
	dst = binary.BigEndian.AppendUint16(dst, uint16(scale))
	for _, g := range gs {
		dst = binary.BigEndian.AppendUint16(dst, g)
	}
	return dst, true
}
