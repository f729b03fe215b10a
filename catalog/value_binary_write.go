package catalog

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
)

// EncodeValue writes a Go value of value.go in the spec's single-value
// binary serialization (Appendix D), the inverse of DecodeValue; used for
// bounds and partition summaries.
func EncodeValue(t *PrimitiveType, v any) ([]byte, error) {
	bad := func() error {
		return fmt.Errorf("encode %v (%T) as %s: %w", v, v, t, ErrDataInvalid)
	}
	switch t.ID {
	case TBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, bad()
		}
		if b {
			return []byte{1}, nil
		}
		return []byte{0}, nil
	case TInt, TDate:
		n, ok := asInt64(v)
		if !ok || n < math.MinInt32 || n > math.MaxInt32 {
			return nil, bad()
		}
		return binary.LittleEndian.AppendUint32(nil, uint32(int32(n))), nil
	case TLong, TTime, TTimestamp, TTimestamptz, TTimestampNs, TTimestamptzNs:
		n, ok := asInt64(v)
		if !ok {
			return nil, bad()
		}
		return binary.LittleEndian.AppendUint64(nil, uint64(n)), nil
	case TFloat:
		switch f := v.(type) {
		case float32:
			return binary.LittleEndian.AppendUint32(nil, math.Float32bits(f)), nil
		case float64:
			return binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(f))), nil
		}
		return nil, bad()
	case TDouble:
		switch f := v.(type) {
		case float32:
			return binary.LittleEndian.AppendUint64(nil, math.Float64bits(float64(f))), nil
		case float64:
			return binary.LittleEndian.AppendUint64(nil, math.Float64bits(f)), nil
		}
		return nil, bad()
	case TDecimal:
		d, ok := v.(Decimal)
		if !ok || d.Unscaled == nil {
			return nil, bad()
		}
		return TwosComplement(d.Unscaled, 0), nil
	case TString:
		s, ok := v.(string)
		if !ok {
			return nil, bad()
		}
		return []byte(s), nil
	case TUUID:
		u, ok := v.([16]byte)
		if !ok {
			return nil, bad()
		}
		return append([]byte(nil), u[:]...), nil
	case TFixed, TBinary:
		b, ok := v.([]byte)
		if !ok {
			return nil, bad()
		}
		return append([]byte{}, b...), nil
	}
	return nil, fmt.Errorf("encode %s value: %w", t, ErrUnsupported)
}

// TwosComplement writes n as big-endian two's complement in the fewest
// bytes that hold it, or in exactly size bytes when size > 0 (sign
// extended), the inverse of BigIntFromTwosComplement.
func TwosComplement(n *big.Int, size int) []byte {
	var b []byte
	if n.Sign() >= 0 {
		b = n.Bytes()
		if len(b) == 0 || b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
	} else {
		// -n-1 has the complement bits of n.
		m := new(big.Int).Neg(n)
		m.Sub(m, big.NewInt(1))
		b = m.Bytes()
		for i := range b {
			b[i] = ^b[i]
		}
		if len(b) == 0 || b[0]&0x80 == 0 {
			b = append([]byte{0xff}, b...)
		}
	}
	if size > len(b) {
		pad := byte(0)
		if n.Sign() < 0 {
			pad = 0xff
		}
		out := make([]byte, size)
		for i := range size - len(b) {
			out[i] = pad
		}
		copy(out[size-len(b):], b)
		return out
	}
	return b
}

// decimalBytes is the fixed size Avro and Parquet use for a decimal of
// precision p: the fewest bytes whose two's complement holds 10^p - 1.
func decimalBytes(p int) int {
	for n := 1; ; n++ {
		if float64(p) <= math.Floor(math.Log10(math.Pow(2, float64(8*n-1))-1)) {
			return n
		}
	}
}
