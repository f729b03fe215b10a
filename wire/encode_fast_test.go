package wire

import (
	"bytes"
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// numericBinaryGeneric is numeric_send through the decimal digits of n,
// the path every Decimal128 can take.
func numericBinaryGeneric(n decimal128.Num, scale int32) []byte {
	var buf [40]byte
	digits, neg := decimalDigits(&buf, n)
	return appendNumericBinaryDigits(nil, digits, int(scale), neg)
}

// TestNumericBinaryMatchesDigits checks that binary numeric of Decimal128
// values is the same as through their decimal digits, for edge values and
// random ones of every magnitude and scale.
func TestNumericBinaryMatchesDigits(t *testing.T) {
	var vals []decimal128.Num
	for _, v := range []int64{0, 1, -1, 5, -5, 9999, 10000, -10000, 12345678, 100000000, 1 << 62, math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		vals = append(vals, decimal128.FromI64(v))
	}
	vals = append(vals, decimal128.FromU64(math.MaxUint64), decimal128.FromU64(1<<63),
		decimal128.FromU64(math.MaxUint64).Negate(), decimal128.FromU64(1<<63).Negate(),
		decimal128.FromBigInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(37), nil)))
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 20000; i++ {
		v := decimal128.FromU64(r.Uint64() >> uint(r.Intn(64)))
		if i%3 == 0 {
			v = decimal128.New(int64(r.Uint64()>>uint(r.Intn(64))), r.Uint64())
		}
		if r.Intn(2) == 0 {
			v = v.Negate()
		}
		vals = append(vals, v)
	}
	for _, v := range vals {
		for scale := int32(-3); scale <= 38; scale++ {
			want := numericBinaryGeneric(v, scale)
			got := appendNumericBinary([]byte("x"), v, scale)
			if !bytes.Equal(got[1:], want) {
				t.Fatalf("%s scale %d: got % x, want % x", v.BigInt(), scale, got[1:], want)
			}
		}
	}
}
