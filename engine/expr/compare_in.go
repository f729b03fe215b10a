package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// x IN (constants): the list is turned into typed values once per batch
// and each row is looked up without per-row calls (a scan of the list
// when it is short, a Go map otherwise). inKernel falls back to the row
// comparers for other shapes (a list with columns, floats, NumericType).

// inMapFrom is the list length from which the lookup uses a map.
const inMapFrom = 9

// inConst evaluates x IN (list) when every list item is a constant and x
// has a typed path; ok is false otherwise.
func inConst(ev *evalCtx, args []vec) (vec, bool) {
	x := args[0]
	if x.c {
		return vec{}, false
	}
	for _, a := range args[1:] {
		if !a.c {
			return vec{}, false
		}
	}
	n := ev.n
	vbuf, w := newWords(ev.mem, n)
	var ok, sawNull bool
	switch kindOf(x.arr.DataType()) {
	case kInt2:
		sawNull, ok = inOrdered[int16](w, n, x, args[1:])
	case kInt4, kDate:
		sawNull, ok = inOrdered[int32](w, n, x, args[1:])
	case kInt8, kTime, kTimestamp, kTimestamptz:
		sawNull, ok = inOrdered[int64](w, n, x, args[1:])
	case kText, kBytea:
		sawNull, ok = inBytes(w, n, x, args[1:])
	case kDecimal:
		sawNull, ok = inDecimal(w, n, x, args[1:])
	}
	if !ok {
		vbuf.Release()
		return vec{}, false
	}
	// Valid rows: x is not NULL, and either x was found or no list item
	// is NULL (x IN (..., NULL) is NULL when not found).
	xv := ValidWords(x.arr)
	if xv == nil && !sawNull {
		return vec{arr: finishWords(vbuf, w, n, nil, 0)}, true
	}
	valid, vw := newWords(ev.mem, n)
	for k := range vw {
		m := ^uint64(0)
		if xv != nil {
			m = xv[k]
		}
		if sawNull {
			m &= w[k]
		}
		vw[k] = m
	}
	clearTail(vw, n)
	nulls := n - CountWords(vw)
	if nulls == 0 {
		valid.Release()
		valid = nil
	}
	return vec{arr: finishWords(vbuf, w, n, valid, nulls)}, true
}

// listItems returns the non-NULL constants of the list and whether one
// was NULL; ok is false when an item's type is not want.
func listItems(list []vec, want arrow.Type) (items []arrow.Array, sawNull, ok bool) {
	for _, a := range list {
		if a.arr.DataType().ID() == arrow.NULL || a.arr.IsNull(0) {
			sawNull = true
			continue
		}
		if a.arr.DataType().ID() != want {
			return nil, false, false
		}
		items = append(items, a.arr)
	}
	return items, sawNull, true
}

func inOrdered[T ordered](w []uint64, n int, x vec, list []vec) (bool, bool) {
	items, sawNull, ok := listItems(list, x.arr.DataType().ID())
	if !ok {
		return false, false
	}
	set := make([]T, len(items))
	for i, it := range items {
		set[i] = values[T](it)[0]
	}
	a := values[T](x.arr)[:n]
	if len(set) >= inMapFrom {
		m := make(map[T]struct{}, len(set))
		for _, v := range set {
			m[v] = struct{}{}
		}
		for k := range w {
			base := k << 6
			var bits uint64
			for j, v := range a[base:min(base+64, n)] {
				_, hit := m[v]
				bits |= b2u(hit) << j
			}
			w[k] = bits
		}
		return sawNull, true
	}
	for k := range w {
		base := k << 6
		var bits uint64
		for j, v := range a[base:min(base+64, n)] {
			hit := false
			for _, s := range set {
				if v == s {
					hit = true
					break
				}
			}
			bits |= b2u(hit) << j
		}
		w[k] = bits
	}
	return sawNull, true
}

func inBytes(w []uint64, n int, x vec, list []vec) (bool, bool) {
	items, sawNull, ok := listItems(list, x.arr.DataType().ID())
	if !ok {
		return false, false
	}
	set := make([]string, len(items))
	for i, it := range items {
		set[i] = string(binaryOf(vec{arr: it, c: true}).get(0))
	}
	a := binaryOf(x)
	offs, data := a.offs[:n+1], a.data
	if len(set) >= inMapFrom {
		m := make(map[string]struct{}, len(set))
		for _, v := range set {
			m[v] = struct{}{}
		}
		for k := range w {
			base := k << 6
			var bits uint64
			for i := base; i < min(base+64, n); i++ {
				_, hit := m[string(data[offs[i]:offs[i+1]])]
				bits |= b2u(hit) << (i - base)
			}
			w[k] = bits
		}
		return sawNull, true
	}
	ss := newStrSet(set)
	for k := range w {
		base := k << 6
		w[k] = ss.match(offs, data, base, min(base+64, n))
	}
	return sawNull, true
}

func inDecimal(w []uint64, n int, x vec, list []vec) (bool, bool) {
	xt, ok := x.arr.DataType().(*arrow.Decimal128Type)
	if !ok {
		return false, false
	}
	items, sawNull, ok := listItems(list, arrow.DECIMAL128)
	if !ok {
		return false, false
	}
	var set []decimal128.Num
	for _, it := range items {
		bd := decConstAt(values[decimal128.Num](it)[0], it.DataType().(*arrow.Decimal128Type).Scale, xt.Scale, opEq)
		if !bd.fixed { // a constant the column's scale cannot hold never matches
			set = append(set, bd.v)
		}
	}
	a := values[decimal128.Num](x.arr)[:n]
	for k := range w {
		base := k << 6
		var bits uint64
		for j, v := range a[base:min(base+64, n)] {
			hit := false
			for _, s := range set {
				if v == s {
					hit = true
					break
				}
			}
			bits |= b2u(hit) << j
		}
		w[k] = bits
	}
	return sawNull, true
}
