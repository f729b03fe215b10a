package pgtext

import (
	"testing"
	"time"
)

// BenchmarkAppend prints 1024 values of each type per iteration.
func BenchmarkAppend(b *testing.B) {
	loc, err := time.LoadLocation("Europe/Amsterdam")
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 64<<10)
	b.Run("date", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			buf = buf[:0]
			for k := int32(0); k < 1024; k++ {
				buf = AppendDate(buf, 19000+k*37)
			}
		}
	})
	b.Run("timestamp", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			buf = buf[:0]
			for k := int64(0); k < 1024; k++ {
				buf = AppendTimestamp(buf, 1706704496500000+k*3_600_000_123, ISO)
			}
		}
	})
	b.Run("timestamptz", func(b *testing.B) {
		z := &ZoneCache{Loc: loc}
		for i := 0; i < b.N; i++ {
			buf = buf[:0]
			for k := int64(0); k < 1024; k++ {
				us := 1706704496500000 + k*3_600_000_000
				buf = AppendTimestamptz(buf, us, z.Offset(us), ISO)
			}
		}
	})
	b.Run("interval", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			buf = buf[:0]
			for k := int64(0); k < 1024; k++ {
				buf = AppendInterval(buf, Interval{Months: int32(k % 30), Days: int32(k%7 - 3), Micros: k * 1_234_567})
			}
		}
	})
	b.Run("arrayelement", func(b *testing.B) {
		words := [][]byte{[]byte("a"), []byte(""), []byte("b c"), []byte(`q"x`), []byte("NULL"), []byte("customer#1")}
		for i := 0; i < b.N; i++ {
			buf = buf[:0]
			for k := 0; k < 1024; k++ {
				buf = AppendArrayElement(buf, words[k%len(words)])
			}
		}
	})
}
