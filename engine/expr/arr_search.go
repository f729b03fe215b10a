package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// Searching arrays: array_position and array_positions find elements not
// distinct from a value (so they find NULLs too).

// elemNotDistinct is IS NOT DISTINCT FROM between element j of vals and row k
// of x.
func elemNotDistinct(vals, x arrow.Array, cmp func(j, k int) int, j, k int) bool {
	vn, xn := vals.IsNull(j), x.IsNull(k)
	if vn || xn {
		return vn && xn
	}
	return cmp(j, k) == 0
}

// positionKernel is array_position(list, x [, start]) (the first element
// not distinct from x) and array_positions(list, x) (all of them).
func positionKernel(all bool) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		lv := readListVec(args[0])
		x, xm := args[1].arr, args[1].idx()
		var cmp func(j, k int) int
		if lv.l != nil {
			var err error
			if cmp, err = elemComparer(lv.vals, x); err != nil {
				return vec{}, err
			}
		}
		if !all {
			var start arrInt4
			hasStart := len(args) > 2
			if hasStart {
				start = readArrInt4(args[2])
			}
			for i := 0; hasStart && i < n; i++ {
				if _, ok := start.get(i); !ok && !lv.null(i) {
					return vec{}, pgerr.New(pgerr.NullValueNotAllowed, "initial position must not be null")
				}
			}
			return arrInt4Rows(ev, n, c, func(i int) (int32, bool) {
				if lv.null(i) {
					return 0, false
				}
				s, e := lv.bounds(i)
				from := s
				if hasStart {
					if p, _ := start.get(i); p > 1 {
						from = s + int(min(int64(p)-1, int64(e-s)))
					}
				}
				for j := from; j < e; j++ {
					if elemNotDistinct(lv.vals, x, cmp, j, i&xm) {
						return int32(j - s + 1), true
					}
				}
				return 0, false
			}), nil
		}
		longest := 0
		for i := 0; i < n; i++ {
			if !lv.null(i) {
				s, e := lv.bounds(i)
				longest = max(longest, e-s)
			}
		}
		nb := array.NewInt32Builder(ev.mem)
		for p := 1; p <= longest; p++ {
			nb.Append(int32(p))
		}
		ordinals := nb.NewArray()
		nb.Release()
		defer ordinals.Release()
		o := newListOut(ev.mem, n)
		for i := 0; i < n; i++ {
			if lv.null(i) {
				o.endRow(true)
				continue
			}
			s, e := lv.bounds(i)
			for j := s; j < e; j++ {
				if elemNotDistinct(lv.vals, x, cmp, j, i&xm) {
					o.elem(j - s)
				}
			}
			o.endRow(false)
		}
		out, err := o.finish(ev, arrow.ListOf(Int4), ordinals)
		return vec{arr: out, c: c}, err
	}
}
