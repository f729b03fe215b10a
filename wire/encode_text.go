package wire

import (
	"encoding/hex"
	"strconv"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgtypes"
)

// textEncoder chooses the text-format encoder for oid and the Arrow type the
// values arrive in. Output is byte-identical to PostgreSQL 16's output
// functions with the default DateStyle (ISO, MDY) and bytea_output (hex).
func textEncoder(oid uint32, dt arrow.DataType, env *encodeEnv) (binder, error) {
	if b, ok, err := catalogText(oid, dt, env); ok {
		return b, err
	}
	switch oid {
	case pgtypes.Bool:
		if dt.ID() == arrow.BOOL {
			return bindBoolText, nil
		}
	case pgtypes.Int2, pgtypes.Int4, pgtypes.Int8:
		if b := integerText(dt); b != nil {
			return b, nil
		}
	case pgtypes.Float4, pgtypes.Float8:
		if b := floatText(dt, env.extraFloatDigits); b != nil {
			return b, nil
		}
	case pgtypes.Numeric:
		if b := numericText(dt, env); b != nil {
			return b, nil
		}
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name, pgtypes.Unknown, pgtypes.Char, pgtypes.JSON:
		if b := stringText(dt); b != nil {
			return b, nil
		}
		if oid == pgtypes.JSON {
			return jsonEncoder(dt, env)
		}
	case pgtypes.Bytea:
		if b := byteaText(dt); b != nil {
			return b, nil
		}
	case pgtypes.UUID:
		if fsb, ok := dt.(*arrow.FixedSizeBinaryType); ok && fsb.ByteWidth == 16 {
			return bindUUIDText, nil
		}
		if b := stringText(dt); b != nil {
			return b, nil
		}
	case pgtypes.Date:
		if dt.ID() == arrow.DATE32 {
			return bindDateText, nil
		}
	case pgtypes.Time:
		if b := timeText(dt); b != nil {
			return b, nil
		}
	case pgtypes.Timestamp:
		if ts, ok := dt.(*arrow.TimestampType); ok {
			return timestampText(ts.Unit, ' '), nil
		}
	case pgtypes.Timestamptz:
		if ts, ok := dt.(*arrow.TimestampType); ok {
			return timestamptzText(ts.Unit, env, ' '), nil
		}
	case pgtypes.JSONB:
		if isStringType(dt) {
			return jsonbFromText(dt), nil
		}
		return jsonEncoder(dt, env)
	case pgtypes.Interval:
		if b := intervalText(dt); b != nil {
			return b, nil
		}
	case pgtypes.Void:
		return func(arrow.Array) appendFunc { return func(dst []byte, _ int) []byte { return dst } }, nil
	default:
		if elem := pgtypes.ElemOf(oid); elem != 0 {
			return arrayText(elem, dt, env)
		}
	}
	if b := stringText(dt); b != nil {
		// Types wire has no encoder for but the engine already rendered as
		// text (regclass names, intervals...) go out as they are.
		return b, nil
	}
	return nil, unsupportedEncoding(oid, dt, formatText)
}

func bindBoolText(arr arrow.Array) appendFunc {
	a := arr.(*array.Boolean)
	return func(dst []byte, i int) []byte {
		if a.Value(i) {
			return append(dst, 't')
		}
		return append(dst, 'f')
	}
}

// integerText formats any Arrow integer type in decimal.
func integerText(dt arrow.DataType) binder {
	switch dt.ID() {
	case arrow.INT8:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Int8).Int8Values()
			return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(v[i]), 10) }
		}
	case arrow.INT16:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Int16).Int16Values()
			return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(v[i]), 10) }
		}
	case arrow.INT32:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Int32).Int32Values()
			return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(v[i]), 10) }
		}
	case arrow.INT64:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Int64).Int64Values()
			return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, v[i], 10) }
		}
	case arrow.UINT8:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Uint8).Uint8Values()
			return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(v[i]), 10) }
		}
	case arrow.UINT16:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Uint16).Uint16Values()
			return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(v[i]), 10) }
		}
	case arrow.UINT32:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Uint32).Uint32Values()
			return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(v[i]), 10) }
		}
	case arrow.UINT64:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Uint64).Uint64Values()
			return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, v[i], 10) }
		}
	}
	return nil
}

func floatText(dt arrow.DataType, efd int) binder {
	switch dt.ID() {
	case arrow.FLOAT32:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Float32).Float32Values()
			return func(dst []byte, i int) []byte { return appendFloat4(dst, v[i], efd) }
		}
	case arrow.FLOAT64:
		return func(arr arrow.Array) appendFunc {
			v := arr.(*array.Float64).Float64Values()
			return func(dst []byte, i int) []byte { return appendFloat8(dst, v[i], efd) }
		}
	}
	return integerText(dt)
}

func isStringType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return true
	}
	return false
}

// stringText copies string values as they are.
func stringText(dt arrow.DataType) binder {
	switch dt.ID() {
	case arrow.STRING:
		return func(arr arrow.Array) appendFunc {
			a := arr.(*array.String)
			return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
		}
	case arrow.LARGE_STRING:
		return func(arr arrow.Array) appendFunc {
			a := arr.(*array.LargeString)
			return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
		}
	case arrow.STRING_VIEW:
		return func(arr arrow.Array) appendFunc {
			a := arr.(*array.StringView)
			return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
		}
	}
	return nil
}

// bytesOf returns a binder giving the raw bytes of binary-like arrays, or
// nil.
func bytesOf(dt arrow.DataType) func(arr arrow.Array) func(i int) []byte {
	switch dt.ID() {
	case arrow.BINARY:
		return func(arr arrow.Array) func(int) []byte { return arr.(*array.Binary).Value }
	case arrow.LARGE_BINARY:
		return func(arr arrow.Array) func(int) []byte { return arr.(*array.LargeBinary).Value }
	case arrow.BINARY_VIEW:
		return func(arr arrow.Array) func(int) []byte { return arr.(*array.BinaryView).Value }
	case arrow.FIXED_SIZE_BINARY:
		return func(arr arrow.Array) func(int) []byte { return arr.(*array.FixedSizeBinary).Value }
	case arrow.STRING:
		return func(arr arrow.Array) func(int) []byte {
			a := arr.(*array.String)
			return func(i int) []byte { return unsafeBytes(a.Value(i)) }
		}
	}
	return nil
}

// byteaText is PostgreSQL's hex output: \x and lower-case hex digits.
func byteaText(dt arrow.DataType) binder {
	get := bytesOf(dt)
	if get == nil {
		return nil
	}
	return func(arr arrow.Array) appendFunc {
		value := get(arr)
		return func(dst []byte, i int) []byte { return appendByteaHex(dst, value(i)) }
	}
}

func appendByteaHex(dst, b []byte) []byte {
	dst = append(dst, '\\', 'x')
	return hex.AppendEncode(dst, b)
}

func bindUUIDText(arr arrow.Array) appendFunc {
	a := arr.(*array.FixedSizeBinary)
	return func(dst []byte, i int) []byte { return appendUUID(dst, a.Value(i)) }
}

// appendUUID formats 16 bytes as lower-case 8-4-4-4-12.
func appendUUID(dst, u []byte) []byte {
	dst = hex.AppendEncode(dst, u[0:4])
	dst = append(dst, '-')
	dst = hex.AppendEncode(dst, u[4:6])
	dst = append(dst, '-')
	dst = hex.AppendEncode(dst, u[6:8])
	dst = append(dst, '-')
	dst = hex.AppendEncode(dst, u[8:10])
	dst = append(dst, '-')
	return hex.AppendEncode(dst, u[10:16])
}

// unsafeBytes views s as bytes without copying; the result is read-only.
func unsafeBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
