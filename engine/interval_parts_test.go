package engine

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestIntervalPartsRoundTrip: an interval column written as the struct of
// its parts reads back as the same intervals, nulls in place.
func TestIntervalPartsRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	n := 0
	st := IntervalPartsType(func() int { n++; return n })
	if !IsIntervalParts(st) {
		t.Fatalf("IsIntervalParts(%v) = false", st)
	}
	vals := []arrow.MonthDayNanoInterval{{Months: 1, Days: -2, Nanoseconds: 0}, {}, {Months: -10, Days: 3, Nanoseconds: 14706789000000}, {Nanoseconds: -1000}}
	b := array.NewMonthDayNanoIntervalBuilder(mem)
	b.AppendValues(vals, []bool{true, false, true, true})
	in := b.NewArray()
	b.Release()
	defer in.Release()
	parts, ok := IntervalToParts(in, ArrowType(st), mem)
	if !ok {
		t.Fatal("IntervalToParts refused an interval array")
	}
	defer parts.Release()
	if parts.NullN() != 1 || parts.Len() != 4 {
		t.Fatalf("parts: %d rows, %d nulls", parts.Len(), parts.NullN())
	}
	if got := parts.(*array.Struct).Field(2).(*array.Int64).Value(2); got != 14706789000 {
		t.Fatalf("microseconds of row 2: %d", got)
	}
	back, err := IntervalFromParts(parts, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	iv := back.(*array.MonthDayNanoInterval)
	for i, v := range vals {
		if i == 1 {
			if !iv.IsNull(i) {
				t.Fatalf("row 1 is not null: %v", iv.Value(i))
			}
			continue
		}
		if iv.Value(i) != v {
			t.Fatalf("row %d: %v, want %v", i, iv.Value(i), v)
		}
	}
	if _, ok := IntervalToParts(in, arrow.PrimitiveTypes.Int64, mem); ok {
		t.Fatal("IntervalToParts converted to int64")
	}
}

// TestIntervalListPartsRoundTrip: an interval[] column is stored as lists
// of the parts and reads back as the same lists of intervals, NULL lists
// and NULL elements in place.
func TestIntervalListPartsRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	n := 0
	lt := arrow.ListOf(ArrowType(IntervalPartsType(func() int { n++; return n })))
	b := array.NewListBuilder(mem, arrow.FixedWidthTypes.MonthDayNanoInterval)
	vb := b.ValueBuilder().(*array.MonthDayNanoIntervalBuilder)
	b.Append(true)
	vb.Append(arrow.MonthDayNanoInterval{Months: 1, Days: 2, Nanoseconds: 3000})
	vb.AppendNull()
	b.AppendNull()
	b.Append(true) // {}
	b.Append(true)
	vb.Append(arrow.MonthDayNanoInterval{Days: -1})
	in := b.NewArray()
	b.Release()
	defer in.Release()
	parts, ok := IntervalToParts(in, lt, mem)
	if !ok {
		t.Fatal("IntervalToParts refused a list of intervals")
	}
	defer parts.Release()
	if !arrow.TypeEqual(parts.DataType(), lt) {
		t.Fatalf("parts are %s, want %s", parts.DataType(), lt)
	}
	back, err := IntervalFromParts(parts, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	if !arrow.TypeEqual(back.DataType(), IntervalOfParts(lt)) {
		t.Fatalf("read back as %s, want %s", back.DataType(), IntervalOfParts(lt))
	}
	if !array.Equal(back, in) {
		t.Fatalf("read back %v, want %v", back, in)
	}
}
