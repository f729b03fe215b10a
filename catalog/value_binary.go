package catalog

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
)

// DecodeValue decodes the spec's single-value binary serialization
// (Appendix D), used for lower/upper bounds, into the Go value of value.go.
// Values written before a type promotion decode too: 4-byte long (was int)
// and 4-byte double (was float).
func DecodeValue(t *PrimitiveType, b []byte) (any, error) {
	bad := func() error {
		return fmt.Errorf("decode %d-byte %s value: %w", len(b), t, ErrDataInvalid)
	}
	switch t.ID {
	case TBoolean:
		if len(b) != 1 {
			return nil, bad()
		}
		return b[0] != 0, nil
	case TInt, TDate:
		if len(b) != 4 {
			return nil, bad()
		}
		return int32(binary.LittleEndian.Uint32(b)), nil
	case TLong, TTime, TTimestamp, TTimestamptz, TTimestampNs, TTimestamptzNs:
		switch len(b) {
		case 8:
			return int64(binary.LittleEndian.Uint64(b)), nil
		case 4:
			return int64(int32(binary.LittleEndian.Uint32(b))), nil
		}
		return nil, bad()
	case TFloat:
		if len(b) != 4 {
			return nil, bad()
		}
		return math.Float32frombits(binary.LittleEndian.Uint32(b)), nil
	case TDouble:
		switch len(b) {
		case 8:
			return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
		case 4:
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), nil
		}
		return nil, bad()
	case TDecimal:
		if len(b) == 0 {
			return nil, bad()
		}
		return Decimal{Unscaled: BigIntFromTwosComplement(b), Scale: t.Scale}, nil
	case TString:
		return string(b), nil
	case TUUID:
		if len(b) != 16 {
			return nil, bad()
		}
		var u [16]byte
		copy(u[:], b)
		return u, nil
	case TFixed, TBinary:
		return append([]byte{}, b...), nil
	}
	return nil, fmt.Errorf("decode %s value: %w", t, ErrUnsupported)
}

// BigIntFromTwosComplement reads a big-endian two's-complement integer (the
// unscaled value of a decimal in Avro, Parquet and bounds).
func BigIntFromTwosComplement(b []byte) *big.Int {
	n := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(len(b)*8)))
	}
	return n
}
