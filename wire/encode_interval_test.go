package wire

import (
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// The wire's interval text is the engine's ::text (both PostgreSQL's
// interval_out with IntervalStyle postgres), and the binary form is
// int64 microseconds, int32 days, int32 months, big endian.
func TestIntervalTextAndBinary(t *testing.T) {
	const us = int64(1000) // nanoseconds per microsecond
	cases := []struct {
		v    arrow.MonthDayNanoInterval
		text string // PostgreSQL 15's output
	}{
		{arrow.MonthDayNanoInterval{Months: 14, Days: 3, Nanoseconds: 14706500000 * us}, "1 year 2 mons 3 days 04:05:06.5"},
		{arrow.MonthDayNanoInterval{Days: -1, Nanoseconds: 7200000000 * us}, "-1 days +02:00:00"},
		{arrow.MonthDayNanoInterval{}, "00:00:00"},
		{arrow.MonthDayNanoInterval{Nanoseconds: -1 * us}, "-00:00:00.000001"},
		{arrow.MonthDayNanoInterval{Months: -14}, "-1 years -2 mons"},
		{arrow.MonthDayNanoInterval{Months: 1, Days: -1}, "1 mon -1 days"},
		{arrow.MonthDayNanoInterval{Nanoseconds: 360000000000 * us}, "100:00:00"},
		{arrow.MonthDayNanoInterval{Months: -1, Days: 1, Nanoseconds: -1000000 * us}, "-1 mons +1 day -00:00:01"},
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewMonthDayNanoIntervalBuilder(mem)
	defer b.Release()
	for _, c := range cases {
		b.Append(c.v)
	}
	arr := b.NewArray()
	defer arr.Release()
	text := intervalText(arr.DataType())(arr)
	bin := intervalBinary(arr.DataType())(arr)
	for i, c := range cases {
		if got := string(text(nil, i)); got != c.text {
			t.Errorf("wire text of %+v = %q, want %q", c.v, got, c.text)
		}
		if got := string(expr.AppendInterval(nil, c.v)); got != c.text {
			t.Errorf("engine text of %+v = %q, want %q", c.v, got, c.text)
		}
		raw := bin(nil, i)
		if len(raw) != 16 || int64(binary.BigEndian.Uint64(raw)) != c.v.Nanoseconds/us ||
			int32(binary.BigEndian.Uint32(raw[8:])) != c.v.Days || int32(binary.BigEndian.Uint32(raw[12:])) != c.v.Months {
			t.Errorf("binary of %+v = %x", c.v, raw)
		}
	}
}
