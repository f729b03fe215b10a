package expr

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// arrayKernel picks the kernel of an array function (arrays_more.go lists
// them); ok is false for other names.
func (c *compiler) arrayKernel(fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	n := len(ts)
	bad := func() (kernelFn, bool, error) { return nil, true, noArrayFunction(fn, ts) }
	resList, _ := res.(*arrow.ListType)
	if k, ok, err := c.multiDimKernel(fn, ts, res); ok {
		return k, true, err
	}
	switch fn {
	case "array":
		if resList == nil {
			return bad()
		}
		for _, t := range ts {
			if kindOf(t) != kNull && !arrow.TypeEqual(t, resList.Elem()) {
				return bad()
			}
		}
		return arrayCtor(resList), true, nil
	case "array_subscript":
		if _, ok := listElem(ts[0]); n != 2 || !ok {
			return bad()
		}
		return subscriptKernel, true, nil
	case "array_slice":
		if _, ok := listElem(ts[0]); n != 3 || !ok || resList == nil {
			return bad()
		}
		return sliceKernel(resList), true, nil
	case "array_length", "array_lower", "array_upper", "cardinality", "array_ndims":
		if _, ok := listElem(ts[0]); !ok {
			return bad()
		}
		return dimKernel(fn), true, nil
	case "array_dims":
		if _, ok := listElem(ts[0]); n != 1 || !ok {
			return bad()
		}
		return dimsTextKernel, true, nil
	case "array_position", "array_positions":
		e, err := kernelElem(ts, []int{0}, []int{1})
		if err != nil {
			return nil, true, err
		}
		return c.withElems(e, ts, []int{0}, positionKernel(fn == "array_positions")), true, nil
	case "array_append", "array_prepend", "array_cat":
		if resList == nil {
			return bad()
		}
		lists := map[string][]int{"array_append": {0}, "array_prepend": {1}, "array_cat": {0, 1}}[fn]
		for _, j := range lists {
			if !isListOrNull(ts[j]) {
				return bad()
			}
		}
		return c.withElems(resList.Elem(), ts, lists, catKernelArr(fn, resList)), true, nil
	case "array_remove", "array_replace":
		if resList == nil || !isListOrNull(ts[0]) {
			return bad()
		}
		if err := comparableElem(resList.Elem()); err != nil {
			return nil, true, err
		}
		return c.withElems(resList.Elem(), ts, []int{0}, removeKernel(fn == "array_replace", resList)), true, nil
	case "array_to_string":
		if _, ok := listElem(ts[0]); (n != 2 && n != 3) || !ok {
			return bad()
		}
		return c.arrayToString(), true, nil
	case "array_in":
		if n != 1 || !allKinds(ts, kText) || resList == nil {
			return bad()
		}
		k, err := c.arrayIn(resList)
		return k, true, err
	case "array_out":
		if _, ok := listElem(ts[0]); n != 1 || !ok {
			return bad()
		}
		return c.arrayOut(), true, nil
	case "string_to_array":
		if (n != 2 && n != 3) || !allKinds(ts, kText) {
			return bad()
		}
		return stringToArray, true, nil
	case "@>", "<@", "&&":
		e, err := kernelElem(ts, []int{0, 1}, nil)
		if err != nil {
			return nil, true, err
		}
		return c.withElems(e, ts, []int{0, 1}, containKernel(fn)), true, nil
	case "array_eq", "array_ne", "array_lt", "array_le", "array_gt", "array_ge":
		e, err := kernelElem(ts, []int{0, 1}, nil)
		if err != nil {
			return nil, true, err
		}
		return c.withElems(e, ts, []int{0, 1}, arrayCmpKernel(cmpOpOf(arrayCompareOps[fn]))), true, nil
	}
	return nil, false, nil
}

// kernelElem is the element type a kernel compares in, checked comparable.
func kernelElem(ts []arrow.DataType, lists, scalars []int) (arrow.DataType, error) {
	for _, j := range append(append([]int(nil), lists...), scalars...) {
		if j >= len(ts) {
			return nil, noArrayFunction("array function", ts)
		}
	}
	e, ok := elemCommon(ts, lists, scalars)
	if !ok {
		return nil, noArrayFunction("array function", ts)
	}
	return e, comparableElem(e)
}

// arrayCtor is ARRAY[v1, v2, ...]: one list per row of the arguments.
func arrayCtor(t *arrow.ListType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		srcs := make([]arrow.Array, len(args))
		for j, a := range args {
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
			for j, a := range args {
				if base[j] < 0 || a.arr.IsNull(i&a.idx()) {
					o.elem(-1)
					continue
				}
				o.elem(base[j] + i&a.idx())
			}
			o.endRow(false)
		}
		out, err := o.finish(ev, t, src)
		return vec{arr: out, c: c}, err
	}
}

// subscriptKernel is a[i]: NULL outside 1..length.
func subscriptKernel(ev *evalCtx, args []vec) (vec, error) {
	n, c := outLen(ev, args)
	lv, k := readListVec(args[0]), readArrInt4(args[1])
	elem := args[0].arr.DataType().(*arrow.ListType).Elem()
	ib := array.NewInt32Builder(ev.mem)
	defer ib.Release()
	ib.Reserve(n)
	for i := 0; i < n; i++ {
		p, ok := k.get(i)
		if !ok || lv.null(i) {
			ib.UnsafeAppendBoolToBitmap(false)
			continue
		}
		s, e := lv.bounds(i)
		if p < 1 || int64(p) > int64(e-s) {
			ib.UnsafeAppendBoolToBitmap(false)
			continue
		}
		ib.UnsafeAppend(int32(s) + p - 1)
	}
	idx := ib.NewArray()
	defer idx.Release()
	if lv.l == nil {
		return vec{arr: makeNulls(ev.mem, elem, n), c: c}, nil
	}
	out, err := takeArray(ev.ctx, ev.mem, lv.vals, idx)
	if err != nil {
		return vec{}, fmt.Errorf("array subscript: %w", err)
	}
	return vec{arr: out, c: c}, nil
}

// sliceKernel is a[lo:hi]: bounds clamped to the array, NULL bounds open,
// an empty array when nothing is left.
func sliceKernel(t *arrow.ListType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		lv, lo, hi := readListVec(args[0]), readArrInt4(args[1]), readArrInt4(args[2])
		o := newListOut(ev.mem, n)
		for i := 0; i < n; i++ {
			if lv.null(i) {
				o.endRow(true)
				continue
			}
			s, e := lv.bounds(i)
			from, to := int64(1), int64(e-s)
			if v, ok := lo.get(i); ok {
				from = max(from, int64(v))
			}
			if v, ok := hi.get(i); ok {
				to = min(to, int64(v))
			}
			for p := from; p <= to; p++ {
				o.elem(s + int(p) - 1)
			}
			o.endRow(false)
		}
		out, err := o.finish(ev, t, lv.vals)
		return vec{arr: out, c: c}, err
	}
}

// dimKernel is array_length, array_lower, array_upper (list, dim),
// cardinality and array_ndims (list), over arrays of any number of
// dimensions (nested lists); lower bounds are always 1.
func dimKernel(fn string) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		mv := readMDVec(args[0])
		var dim arrInt4
		if len(args) > 1 {
			dim = readArrInt4(args[1])
		}
		var dims []int32
		var rowErr error
		res := arrInt4Rows(ev, n, c, func(i int) (int32, bool) {
			if mv.null(i) || rowErr != nil {
				return 0, false
			}
			dims, _, _, rowErr = mv.row(i, dims)
			if rowErr != nil {
				return 0, false
			}
			switch fn {
			case "cardinality":
				size := int32(len(dims))
				if size > 0 {
					size = 1
					for _, d := range dims {
						size *= d
					}
				}
				return size, true
			case "array_ndims":
				return int32(len(dims)), len(dims) > 0
			}
			d, ok := dim.get(i)
			if !ok || d < 1 || int(d) > len(dims) {
				return 0, false
			}
			if fn == "array_lower" {
				return 1, true
			}
			return dims[d-1], true
		})
		if rowErr != nil {
			res.arr.Release()
			return vec{}, rowErr
		}
		return res, nil
	}
}

// dimsTextKernel is array_dims: [1:n][1:m]..., NULL for an empty array.
func dimsTextKernel(ev *evalCtx, args []vec) (vec, error) {
	n, c := outLen(ev, args)
	mv := readMDVec(args[0])
	var dims []int32
	return arrTextRows(ev, n, c, func(i int, dst []byte) ([]byte, bool, error) {
		if mv.null(i) {
			return dst, false, nil
		}
		var err error
		dims, _, _, err = mv.row(i, dims)
		if err != nil || len(dims) == 0 {
			return dst, false, err
		}
		for _, d := range dims {
			dst = append(dst, "[1:"...)
			dst = strconv.AppendInt(dst, int64(d), 10)
			dst = append(dst, ']')
		}
		return dst, true, nil
	})
}
