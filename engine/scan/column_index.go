package scan

import (
	"cmp"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
)

// intIndex is a cached integer column's values in ascending order with
// the row of each, so that an equality on the column finds its rows by
// binary search instead of comparing every row. Nulls are left out (they
// equal nothing).
type intIndex struct {
	vals []int64
	rows []int32
}

// newIntIndex indexes an Int64 or Int32 array, or returns nil for other
// types.
func newIntIndex(a arrow.Array) *intIndex {
	var at func(i int) int64
	switch a := a.(type) {
	case *array.Int64:
		at = func(i int) int64 { return a.Value(i) }
	case *array.Int32:
		at = func(i int) int64 { return int64(a.Value(i)) }
	default:
		return nil
	}
	n := a.Len()
	rows := make([]int32, 0, n-a.NullN())
	for i := range n {
		if a.IsValid(i) {
			rows = append(rows, int32(i))
		}
	}
	slices.SortStableFunc(rows, func(x, y int32) int { return cmp.Compare(at(int(x)), at(int(y))) })
	vals := make([]int64, len(rows))
	for i, r := range rows {
		vals[i] = at(int(r))
	}
	return &intIndex{vals: vals, rows: rows}
}

func (ix *intIndex) bytes() int64 { return int64(len(ix.vals))*8 + int64(len(ix.rows))*4 }

// find returns the rows holding one of vals, ascending.
func (ix *intIndex) find(vals []int64) []int32 {
	var out []int32
	for _, v := range vals {
		i, _ := slices.BinarySearch(ix.vals, v)
		for ; i < len(ix.vals) && ix.vals[i] == v; i++ {
			out = append(out, ix.rows[i])
		}
	}
	if len(vals) > 1 {
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out
}

// intEquality returns the integers an equality or IN predicate compares
// its column with, and ok false for any other predicate or a value that is
// not a Go integer (then every row is read and the filter decides).
func intEquality(p catalog.Predicate) ([]int64, bool) {
	if p.Op != catalog.OpEq && p.Op != catalog.OpIn || len(p.Values) == 0 {
		return nil, false
	}
	out := make([]int64, 0, len(p.Values))
	for _, v := range p.Values {
		var x int64
		switch v := v.(type) {
		case int64:
			x = v
		case int32:
			x = int64(v)
		case int:
			x = int64(v)
		case int16:
			x = int64(v)
		case int8:
			x = int64(v)
		default:
			return nil, false
		}
		out = append(out, x)
	}
	return out, true
}

// spansOf turns ascending rows into the spans of consecutive ones.
func spansOf(rows []int32) []rowSpan {
	var spans []rowSpan
	for _, r := range rows {
		spans = appendSpan(spans, rowSpan{int64(r), int64(r) + 1})
	}
	return spans
}
