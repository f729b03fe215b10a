package expr

import (
	"encoding/hex"
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgtext"
)

// PostgreSQL text output of every engine type (what ::text and the text
// wire format print).

const (
	usPerSec = int64(1_000_000)
	usPerDay = 86400 * usPerSec
)

// AppendText appends row i of arr (not NULL) as PostgreSQL prints it;
// timestamptz values print in loc (nil = UTC). Booleans print as
// "true"/"false" (the ::text form; the wire's text format uses t/f).
func AppendText(dst []byte, arr arrow.Array, i int, loc *time.Location) []byte {
	switch a := arr.(type) {
	case *array.Boolean:
		if a.Value(i) {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case *array.Int16:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int32:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.AppendInt(dst, a.Value(i), 10)
	case *array.Float32:
		return AppendFloat(dst, float64(a.Value(i)), 32)
	case *array.Float64:
		return AppendFloat(dst, a.Value(i), 64)
	case *array.Decimal128, *NumericArray:
		return FormatNumeric(arr, i, dst)
	case *array.String:
		return append(dst, a.Value(i)...)
	case *array.LargeString:
		return append(dst, a.Value(i)...)
	case *array.Binary:
		return appendBytea(dst, a.Value(i))
	case *array.FixedSizeBinary:
		if a.DataType().(*arrow.FixedSizeBinaryType).ByteWidth == 16 {
			return appendUUID(dst, a.Value(i))
		}
		return appendBytea(dst, a.Value(i))
	case *array.Date32:
		return AppendDate(dst, int32(a.Value(i)))
	case *array.Time64:
		return AppendTime(dst, int64(a.Value(i)))
	case *array.Timestamp:
		v := int64(a.Value(i))
		tt := a.DataType().(*arrow.TimestampType)
		if tt.Unit == arrow.Nanosecond {
			v = floorDiv(v, 1000)
		}
		if tt.TimeZone == "" {
			return AppendTimestamp(dst, v)
		}
		return AppendTimestamptz(dst, v, loc)
	case *array.MonthDayNanoInterval:
		return AppendInterval(dst, a.Value(i))
	}
	return append(dst, arr.ValueStr(i)...)
}

func appendBytea(dst, v []byte) []byte {
	dst = append(dst, `\x`...)
	return hex.AppendEncode(dst, v)
}

func appendUUID(dst, v []byte) []byte {
	for k, b := range v {
		if k == 4 || k == 6 || k == 8 || k == 10 {
			dst = append(dst, '-')
		}
		dst = hex.AppendEncode(dst, []byte{b})
	}
	return dst
}

// AppendFloat prints a float as PostgreSQL (extra_float_digits = 1): the
// shortest exact digits, in exponent form when the decimal exponent is
// below -4 or at least 15 (float8) / 6 (float4).
func AppendFloat(dst []byte, v float64, bitSize int) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, "NaN"...)
	case math.IsInf(v, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(v, -1):
		return append(dst, "-Infinity"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], v, 'e', -1, bitSize)
	// e is [-]d[.ddd]e[+-]XX
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	k := 0
	for k < len(e) && e[k] != 'e' {
		k++
	}
	mant := e[:k]
	exp, _ := strconv.Atoi(string(e[k+1:]))
	digits := make([]byte, 0, len(mant))
	for _, c := range mant {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	if neg {
		dst = append(dst, '-')
	}
	limit := 15
	if bitSize == 32 {
		limit = 6
	}
	if exp < -4 || exp >= limit {
		dst = append(dst, digits[0])
		if len(digits) > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if exp < 0 {
			dst = append(dst, '-')
			exp = -exp
		} else {
			dst = append(dst, '+')
		}
		if exp < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(exp), 10)
	}
	if exp < 0 {
		dst = append(dst, '0', '.')
		for z := 0; z < -exp-1; z++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	if len(digits) <= exp+1 {
		dst = append(dst, digits...)
		for z := len(digits); z < exp+1; z++ {
			dst = append(dst, '0')
		}
		return dst
	}
	dst = append(dst, digits[:exp+1]...)
	dst = append(dst, '.')
	return append(dst, digits[exp+1:]...)
}

// The date and time helpers below are internal/pgtext's, under the names
// the engine's date arithmetic uses.

func floorDiv(a, b int64) int64 { return pgtext.FloorDiv(a, b) }

// civil converts days since 1970-01-01 to a proleptic Gregorian date.
func civil(days int64) (y int64, m, d int) { return pgtext.Civil(days) }

// daysFromCivil is the inverse of civil.
func daysFromCivil(y int64, m, d int) int64 { return pgtext.DaysFromCivil(y, m, d) }

func appendPad(dst []byte, v int64, width int) []byte { return pgtext.AppendPad(dst, v, width) }

// appendYMD prints a date; years <= 0 print as BC (year 0 = 1 BC).
func appendYMD(dst []byte, y int64, m, d int) ([]byte, bool) { return pgtext.AppendYMD(dst, y, m, d) }

// AppendDate prints a date (days since 1970-01-01) as YYYY-MM-DD [BC].
func AppendDate(dst []byte, days int32) []byte { return pgtext.AppendDate(dst, days) }

// AppendTime prints microseconds since midnight as HH:MM:SS[.ffffff],
// trailing zeros of the fraction dropped.
func AppendTime(dst []byte, us int64) []byte { return pgtext.AppendTime(dst, us) }

// AppendTimestamp prints microseconds since the epoch (no zone).
func AppendTimestamp(dst []byte, us int64) []byte { return pgtext.AppendTimestamp(dst, us, pgtext.ISO) }

// AppendTimestamptz prints an instant in loc with its UTC offset.
func AppendTimestamptz(dst []byte, us int64, loc *time.Location) []byte {
	return pgtext.AppendTimestamptz(dst, us, pgtext.OffsetAt(us, loc), pgtext.ISO)
}

// zoneOffset is loc's UTC offset in seconds at the instant us.
func zoneOffset(us int64, loc *time.Location) int { return pgtext.OffsetAt(us, loc) }

// localToUTC converts a local wall time (µs) in loc to the instant, as
// PostgreSQL does for timestamp -> timestamptz: a time in a spring-forward
// gap takes the offset from before the transition, an ambiguous time in a
// fall-back overlap the offset from after it.
func localToUTC(local int64, loc *time.Location) int64 {
	if loc == nil || loc == time.UTC {
		return local
	}
	before := int64(zoneOffset(local-usPerDay, loc)) * usPerSec
	after := int64(zoneOffset(local+usPerDay, loc)) * usPerSec
	if before == after {
		return local - before
	}
	cBefore, cAfter := local-before, local-after
	okBefore := int64(zoneOffset(cBefore, loc))*usPerSec == before
	okAfter := int64(zoneOffset(cAfter, loc))*usPerSec == after
	switch {
	case okAfter:
		return cAfter
	case okBefore:
		return cBefore
	}
	return cBefore
}
