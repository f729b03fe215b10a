package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Building arrays from arrays: array_append, array_prepend, array_cat,
// array_remove and array_replace.

// catKernelArr is array_append(list, x), array_prepend(x, list) and
// array_cat(list, list): a NULL array counts as empty unless every array
// argument of array_cat is NULL.
func catKernelArr(fn string, t *arrow.ListType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		type part struct {
			list  bool
			lv    listVec
			x     arrow.Array
			m     int
			isNul bool
		}
		parts := make([]part, len(args))
		srcs := make([]arrow.Array, len(args))
		for j, a := range args {
			if _, ok := listElem(a.arr.DataType()); ok || (fn == "array_cat") || (fn == "array_append" && j == 0) || (fn == "array_prepend" && j == 1) {
				parts[j] = part{list: true, lv: readListVec(a)}
				srcs[j] = parts[j].lv.vals
				continue
			}
			parts[j] = part{x: a.arr, m: a.idx(), isNul: a.arr.DataType().ID() == arrow.NULL}
			srcs[j] = a.arr
		}
		src, base, err := arrConcat(ev.mem, srcs...)
		if err != nil {
			return vec{}, err
		}
		if src != nil {
			defer src.Release()
		}
		o := newListOut(ev.mem, n)
		for i := 0; i < n; i++ {
			allNull := true
			for j, p := range parts {
				if !p.list {
					allNull = false
					if p.isNul || p.x.IsNull(i&p.m) {
						o.elem(-1)
					} else {
						o.elem(base[j] + i&p.m)
					}
					continue
				}
				if p.lv.null(i) {
					continue
				}
				allNull = false
				s, e := p.lv.bounds(i)
				for k := s; k < e; k++ {
					if p.lv.elemNull(k) {
						o.elem(-1)
					} else {
						o.elem(base[j] + k)
					}
				}
			}
			o.endRow(allNull)
		}
		out, err := o.finish(ev, t, src)
		return vec{arr: out, c: c}, err
	}
}

// removeKernel is array_remove(list, x) (drop the elements not distinct
// from x) and array_replace(list, x, y) (put y in their place).
func removeKernel(replace bool, t *arrow.ListType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		lv := readListVec(args[0])
		x, xm := args[1].arr, args[1].idx()
		var y arrow.Array
		var ym int
		srcs := []arrow.Array{lv.vals}
		if replace {
			y, ym = args[2].arr, args[2].idx()
			srcs = append(srcs, y)
		}
		src, base, err := arrConcat(ev.mem, srcs...)
		if err != nil {
			return vec{}, err
		}
		if src != nil {
			defer src.Release()
		}
		var cmp func(j, k int) int
		if lv.l != nil {
			if cmp, err = elemComparer(lv.vals, x); err != nil {
				return vec{}, err
			}
		}
		o := newListOut(ev.mem, n)
		for i := 0; i < n; i++ {
			if lv.null(i) {
				o.endRow(true)
				continue
			}
			s, e := lv.bounds(i)
			for j := s; j < e; j++ {
				match := x.DataType().ID() == arrow.NULL && lv.elemNull(j)
				if x.DataType().ID() != arrow.NULL {
					match = elemNotDistinct(lv.vals, x, cmp, j, i&xm)
				}
				switch {
				case !match && lv.elemNull(j):
					o.elem(-1)
				case !match:
					o.elem(base[0] + j)
				case replace:
					if base[1] < 0 || y.IsNull(i&ym) {
						o.elem(-1)
					} else {
						o.elem(base[1] + i&ym)
					}
				}
			}
			o.endRow(false)
		}
		out, err := o.finish(ev, t, src)
		return vec{arr: out, c: c}, err
	}
}
