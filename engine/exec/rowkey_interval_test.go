package exec

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Intervals group as PostgreSQL compares them: a month is 30 days and a
// day 24 hours, so '1 day' and '24 hours' fall in one group (PostgreSQL:
// SELECT count(DISTINCT x) FROM (VALUES (interval '1 day'), ('24 hours'),
// ('1 mon'), ('30 days'), ('-1 day +24:00:00'), ('0')) v(x) gives 3).
func TestIntervalKeys(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const day = int64(86_400_000_000_000)
	vals := []arrow.MonthDayNanoInterval{
		{Days: 1},                           // 1 day
		{Nanoseconds: day},                  // 24 hours
		{Months: 1},                         // 1 mon
		{Days: 30},                          // 30 days
		{Days: -1, Nanoseconds: day},        // -1 day +24:00:00 = 0
		{},                                  // 0
		{Nanoseconds: -1000},                // -00:00:00.000001
		{Days: -1, Nanoseconds: day - 1000}, // also -00:00:00.000001
	}
	b := array.NewMonthDayNanoIntervalBuilder(mem)
	defer b.Release()
	b.AppendValues(vals, nil)
	b.AppendNull()
	a := b.NewArray()
	defer a.Release()
	w, err := newKeyWriter(a)
	if err != nil {
		t.Fatal(err)
	}
	key := func(i int) []byte { return w(nil, i) }
	cases := []struct {
		i, j  int
		equal bool
	}{
		{0, 1, true}, {2, 3, true}, {4, 5, true}, {6, 7, true},
		{0, 2, false}, {0, 5, false}, {5, 6, false}, {8, 5, false}, {8, 8, true},
	}
	for _, c := range cases {
		if got := bytes.Equal(key(c.i), key(c.j)); got != c.equal {
			t.Errorf("rows %d and %d: equal keys %v, want %v", c.i, c.j, got, c.equal)
		}
	}
}
