package wire

import (
	"bytes"
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgtext"
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

// TestFloatFixedRangeMatchesStrconv checks float8out and float4out of
// values around every decimal exponent where the fixed notation applies
// against strconv's shortest 'f' and 'e' forms (the same digits; the ties
// where PostgreSQL differs are in testdata/float_golden.tsv).
func TestFloatFixedRangeMatchesStrconv(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, bitSize := range []int{64, 32} {
		digits := 15
		if bitSize == 32 {
			digits = 6
		}
		for exp := -7; exp <= 18; exp++ {
			for i := 0; i < 3000; i++ {
				f := (1 + 9*r.Float64()) * math.Pow(10, float64(exp))
				if i%4 == 0 {
					f = math.Round(f*1e4) / 1e4 // few digits, like money
				}
				if i%2 == 1 {
					f = -f
				}
				var got string
				if bitSize == 32 {
					f = float64(float32(f))
					got = string(appendFloat4([]byte("x"), float32(f), 1)[1:])
				} else {
					got = string(appendFloat8([]byte("x"), f, 1)[1:])
				}
				want := strconv.FormatFloat(f, 'e', -1, bitSize)
				if isHalfway(want, f, bitSize) {
					continue // PostgreSQL prints more digits; see the golden file
				}
				if e := parseE([]byte(want)); e.exp >= -4 && e.exp < digits {
					want = strconv.FormatFloat(f, 'f', -1, bitSize)
				}
				if got != want {
					t.Fatalf("%d-bit %b: got %s, want %s", bitSize, f, got, want)
				}
			}
		}
	}
}

// isHalfway reports whether the decimal s lies exactly halfway between f and
// its neighbour away from zero or toward it.
func isHalfway(s string, f float64, bitSize int) bool {
	dec, ok := new(big.Rat).SetString(s)
	if !ok {
		return false
	}
	diff := new(big.Rat).Sub(dec, new(big.Rat).SetFloat64(f))
	for _, dir := range []float64{math.Inf(1), math.Inf(-1)} {
		next := math.Nextafter(f, dir)
		if bitSize == 32 {
			next = float64(math.Nextafter32(float32(f), float32(dir)))
		}
		half := new(big.Rat).Sub(new(big.Rat).SetFloat64(next), new(big.Rat).SetFloat64(f))
		half.Quo(half, big.NewRat(2, 1))
		if diff.Cmp(half) == 0 {
			return true
		}
	}
	return false
}

// BenchmarkFloat8Text is float8out of values like a table's measures.
func BenchmarkFloat8Text(b *testing.B) {
	vals := make([]float64, 1024)
	for i := range vals {
		vals[i] = float64(i) * 1.37
		if i%3 == 0 {
			vals[i] = float64(i*7919%100000) / 100
		}
	}
	var buf []byte
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = buf[:0]
		for _, f := range vals {
			buf = appendFloat8(buf, f, 1)
		}
	}
}

// TestTimestamptzTextMatchesPgtext checks the timestamptz text encoder,
// which reuses the date and offset text of the previous value, against
// formatting each value afresh, in zones with and without daylight saving
// and fractional offsets, for runs of near values and for jumps.
func TestTimestamptzTextMatchesPgtext(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	var vals []int64
	v := int64(-70_000_000_000_000_000) // far in the BC years
	for i := 0; i < 20000; i++ {
		switch i % 4 {
		case 0:
			v = r.Int63n(1<<62) - 1<<61
		default:
			v += r.Int63n(4 * 3600 * microsPerSecond)
		}
		vals = append(vals, v)
	}
	vals = append(vals, tsInfinity, tsMinusInfinity, 0, -1, 1)
	for _, zone := range []string{"UTC", "Europe/Amsterdam", "America/St_Johns", "Asia/Kolkata", "Australia/Lord_Howe"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		for _, sep := range []byte{' ', 'T'} {
			b := timestamptzText(arrow.Microsecond, &encodeEnv{loc: loc}, sep)
			tb := array.NewTimestampBuilder(memory.DefaultAllocator, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
			for _, x := range vals {
				tb.Append(arrow.Timestamp(x))
			}
			arr := tb.NewArray()
			fn := b(arr)
			z := &pgtext.ZoneCache{Loc: loc}
			for i, x := range vals {
				off := 0
				if x != tsInfinity && x != tsMinusInfinity {
					off = z.Offset(x)
				}
				want := pgtext.AppendTimestamptz(nil, x, off, dateStyle(sep))
				if got := fn([]byte("x"), i); string(got[1:]) != string(want) {
					t.Fatalf("%s %d: got %s, want %s", zone, x, got[1:], want)
				}
			}
			arr.Release()
		}
	}
}

// TestFixedTieShortCut checks that fixedTie's length test only rules out
// numbers the full tie test rules out too, on fixed-notation texts of
// every length, float4 and float8.
func TestFixedTieShortCut(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for _, bitSize := range []int{64, 32} {
		for i := 0; i < 200000; i++ {
			f := (1 + 9*r.Float64()) * math.Pow(10, float64(r.Intn(20)-4))
			f = math.Round(f*math.Pow(10, float64(r.Intn(8)))) / math.Pow(10, float64(r.Intn(8)))
			if bitSize == 32 {
				f = float64(float32(f))
			}
			s := strconv.AppendFloat(nil, f, 'f', -1, bitSize)
			var mant uint64
			scale, point := 0, false
			for _, ch := range s {
				if ch == '.' {
					point = true
				} else if ch >= '0' && ch <= '9' {
					mant = mant*10 + uint64(ch-'0')
					if point {
						scale--
					}
				}
			}
			digits := 15
			if bitSize == 32 {
				digits = 6
			}
			if a := math.Abs(f); a >= fixedAbove(digits) || a < fixedFrom(bitSize) {
				continue // outside the range appendFloat hands to fixedTie
			}
			if got, want := fixedTie(s, f, bitSize), isTie(mant, scale, f, bitSize); got != want {
				t.Fatalf("%d-bit %s: fixedTie %v, isTie %v", bitSize, s, got, want)
			}
		}
	}
}
