package expr

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// PostgreSQL's interval: months, days and microseconds, each signed on its
// own. The engine stores it as Arrow's MonthDayNanoInterval with whole
// microseconds in the nanoseconds field.

// ival is an interval as PostgreSQL computes with it.
type ival struct {
	months int32
	days   int32
	us     int64
}

func ivalOf(v arrow.MonthDayNanoInterval) ival {
	return ival{months: v.Months, days: v.Days, us: v.Nanoseconds / 1000}
}

func (v ival) arrow() arrow.MonthDayNanoInterval {
	return arrow.MonthDayNanoInterval{Months: v.months, Days: v.days, Nanoseconds: v.us * 1000}
}

// maxIntervalUS bounds the microseconds field: the nanoseconds of the Arrow
// value must not overflow.
const maxIntervalUS = math.MaxInt64 / 1000

func intervalOverflow() *pgerr.Error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "interval out of range")
}

// ivalFrom builds an interval from wide fields, checking each range.
func ivalFrom(months, days, us int64) (ival, error) {
	if months < math.MinInt32 || months > math.MaxInt32 || days < math.MinInt32 || days > math.MaxInt32 ||
		us < -maxIntervalUS || us > maxIntervalUS {
		return ival{}, intervalOverflow()
	}
	return ival{months: int32(months), days: int32(days), us: us}, nil
}

// span is the interval's position in PostgreSQL's order (a month counts
// 30 days, a day 24 hours): whole days and the microseconds within a day,
// so that equal spans compare and hash equal.
func (v ival) span() (days, us int64) {
	d := int64(v.months)*30 + int64(v.days)
	q := floorDiv(v.us, usPerDay)
	return d + q, v.us - q*usPerDay
}

func cmpIval(a, b ival) int {
	da, ua := a.span()
	db, ub := b.span()
	if c := cmpOrd(da, db); c != 0 {
		return c
	}
	return cmpOrd(ua, ub)
}

// IntervalSpan returns the key of an interval for grouping and hashing:
// two intervals PostgreSQL calls equal ('1 day' and '24 hours') get the
// same pair.
func IntervalSpan(v arrow.MonthDayNanoInterval) (days, us int64) {
	return ivalOf(v).span()
}

// AppendInterval prints an interval as PostgreSQL with IntervalStyle
// postgres: "1 year 2 mons 3 days 04:05:06.5", "-1 days +02:00:00",
// "00:00:00". After a negative field, positive ones carry a '+'.
func AppendInterval(dst []byte, v arrow.MonthDayNanoInterval) []byte {
	return appendIval(dst, ivalOf(v))
}

func appendIval(dst []byte, v ival) []byte {
	return pgtext.AppendInterval(dst, pgtext.Interval{Months: v.months, Days: v.days, Micros: v.us})
}

func (v ival) neg() (ival, error) {
	if v.months == math.MinInt32 || v.days == math.MinInt32 {
		return ival{}, intervalOverflow()
	}
	return ival{months: -v.months, days: -v.days, us: -v.us}, nil
}

func addIval(a, b ival) (ival, error) {
	return ivalFrom(int64(a.months)+int64(b.months), int64(a.days)+int64(b.days), a.us+b.us)
}

func subIval(a, b ival) (ival, error) {
	return ivalFrom(int64(a.months)-int64(b.months), int64(a.days)-int64(b.days), a.us-b.us)
}

// tsRound rounds to microsecond precision as PostgreSQL's TSROUND.
func tsRound(f float64) float64 { return math.RoundToEven(f*1e6) / 1e6 }

// mulIval is interval * float8 (PostgreSQL's interval_mul: fractions of
// months spill into days, fractions of days into seconds).
func mulIval(v ival, f float64) (ival, error) {
	mf := float64(v.months) * f
	df := float64(v.days) * f
	if math.IsNaN(mf) || mf > math.MaxInt32 || mf < math.MinInt32 || math.IsNaN(df) || df > math.MaxInt32 || df < math.MinInt32 {
		return ival{}, intervalOverflow()
	}
	months := int64(int32(mf))
	days := int64(int32(df))
	monthRem := tsRound((mf - float64(months)) * 30)
	secRem := tsRound((df - float64(days) + monthRem - float64(int32(monthRem))) * 86400)
	if math.Abs(secRem) >= 86400 {
		days += int64(int32(secRem / 86400))
		secRem -= float64(int32(secRem/86400)) * 86400
	}
	days += int64(int32(monthRem))
	t := math.RoundToEven(float64(v.us)*f + secRem*1e6)
	if math.IsNaN(t) || t >= 9.223372036854775807e18 || t < -9.223372036854775808e18 {
		return ival{}, intervalOverflow()
	}
	return ivalFrom(months, days, int64(t))
}

// divIval is interval / float8 (interval_div).
func divIval(v ival, f float64) (ival, error) {
	if f == 0 {
		return ival{}, pgerr.New(pgerr.DivisionByZero, "division by zero")
	}
	mf := float64(v.months) / f
	df := float64(v.days) / f
	if math.IsNaN(mf) || math.IsNaN(df) {
		return ival{}, intervalOverflow()
	}
	months := int64(int32(mf))
	days := int64(int32(df))
	monthRem := tsRound((mf - float64(months)) * 30)
	secRem := tsRound((df - float64(days) + monthRem - float64(int32(monthRem))) * 86400)
	if math.Abs(secRem) >= 86400 {
		days += int64(int32(secRem / 86400))
		secRem -= float64(int32(secRem/86400)) * 86400
	}
	days += int64(int32(monthRem))
	t := math.RoundToEven(float64(v.us)/f + secRem*1e6)
	if math.IsNaN(t) || t >= 9.223372036854775807e18 || t < -9.223372036854775808e18 {
		return ival{}, intervalOverflow()
	}
	return ivalFrom(months, days, int64(t))
}

// justifyHours moves whole days out of the time field (justify_hours).
func justifyHours(v ival) (ival, error) {
	d := int64(v.days) + v.us/usPerDay
	us := v.us % usPerDay
	if d > 0 && us < 0 {
		us += usPerDay
		d--
	} else if d < 0 && us > 0 {
		us -= usPerDay
		d++
	}
	return ivalFrom(int64(v.months), d, us)
}

// justifyDays moves whole 30-day months out of the days field.
func justifyDays(v ival) (ival, error) {
	m := int64(v.months) + int64(v.days)/30
	d := int64(v.days) % 30
	if m > 0 && d < 0 {
		d += 30
		m--
	} else if m < 0 && d > 0 {
		d -= 30
		m++
	}
	return ivalFrom(m, d, v.us)
}

// justifyInterval is justify_interval: both, with one sign throughout.
func justifyInterval(v ival) (ival, error) {
	// PostgreSQL 15 moves whole days out of the time first, whatever the
	// signs: justify_interval('720:00:00') is 1 mon.
	m, d, us := int64(v.months), int64(v.days), v.us
	d += us / usPerDay
	us %= usPerDay
	m += d / 30
	d %= 30
	if m > 0 && (d < 0 || (d == 0 && us < 0)) {
		d += 30
		m--
	} else if m < 0 && (d > 0 || (d == 0 && us > 0)) {
		d -= 30
		m++
	}
	d += us / usPerDay
	us %= usPerDay
	if d > 0 && us < 0 {
		us += usPerDay
		d--
	} else if d < 0 && us > 0 {
		us -= usPerDay
		d++
	}
	return ivalFrom(m, d, us)
}

// takeInterval gathers rows of an interval array through its 16-byte
// FixedSizeBinary view (compute's take has no kernel for the interval
// type).
func takeInterval(ctx context.Context, a, idx arrow.Array) (arrow.Array, error) {
	fsb := &arrow.FixedSizeBinaryType{ByteWidth: 16}
	d := a.Data()
	vd := array.NewData(fsb, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
	defer vd.Release()
	view := array.MakeFromData(vd)
	defer view.Release()
	t, err := compute.TakeArray(ctx, view, idx)
	if err != nil {
		return nil, err
	}
	defer t.Release()
	td := t.Data()
	out := array.NewData(Interval, td.Len(), td.Buffers(), nil, td.NullN(), td.Offset())
	defer out.Release()
	return array.MakeFromData(out), nil
}

// takeIntervalList is takeInterval for lists (of lists) of intervals
// (interval[]), which Arrow's take does not gather: it gathers them as
// lists of 16-byte values and gives them back their type.
func takeIntervalList(ctx context.Context, a, idx arrow.Array) (arrow.Array, error) {
	fsb := &arrow.FixedSizeBinaryType{ByteWidth: 16}
	vd := retypeListLeaf(a.Data(), leafReplaced(a.DataType(), fsb))
	defer vd.Release()
	view := array.MakeFromData(vd)
	defer view.Release()
	t, err := compute.TakeArray(ctx, view, idx)
	if err != nil {
		return nil, err
	}
	defer t.Release()
	out := retypeListLeaf(t.Data(), a.DataType())
	defer out.Release()
	return array.MakeFromData(out), nil
}

// leafReplaced is the list type t with its innermost element type leaf.
func leafReplaced(t, leaf arrow.DataType) arrow.DataType {
	lt, ok := t.(*arrow.ListType)
	if !ok {
		return leaf
	}
	f := lt.ElemField()
	f.Type = leafReplaced(f.Type, leaf)
	return arrow.ListOfField(f)
}

// retypeListLeaf is d, a list (of lists) of fixed 16-byte values, given
// type to of the same shape: its buffers shared.
func retypeListLeaf(d arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	lt, ok := to.(*arrow.ListType)
	if !ok {
		return array.NewData(to, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
	}
	child := retypeListLeaf(d.Children()[0], lt.Elem())
	defer child.Release()
	return array.NewData(to, d.Len(), d.Buffers(), []arrow.ArrayData{child}, d.NullN(), d.Offset())
}
