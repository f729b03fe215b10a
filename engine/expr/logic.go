package expr

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Boolean logic with SQL's three-valued truth tables, NULL tests, and the
// non-strict functions that pick one of their arguments per row.

// andOr is AND (isAnd) or OR over two or more boolean vectors, 64 rows
// per word. With T the rows an argument makes TRUE and F those it makes
// FALSE: AND is TRUE where every argument is TRUE and FALSE where one is
// FALSE; OR is TRUE where one is TRUE and FALSE where every one is FALSE;
// NULL elsewhere.
func andOr(isAnd bool) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		vbuf, t := newWords(ev.mem, n)
		nw := len(t)
		nullable := false
		for _, a := range args {
			if a.arr.DataType().ID() == arrow.NULL || a.arr.NullN() > 0 {
				nullable = true
			}
		}
		// f is the FALSE rows of the result, tracked only with NULLs.
		var f []uint64
		if nullable {
			f = make([]uint64, nw)
		}
		for k := range t {
			if isAnd {
				t[k] = ^uint64(0)
			} else if f != nil {
				f[k] = ^uint64(0)
			}
		}
		for _, a := range args {
			var vals, valid []uint64
			var cv, cok uint64 // a constant's value and validity, as words
			switch {
			case a.arr.DataType().ID() == arrow.NULL:
			case a.c:
				if a.arr.IsValid(0) {
					cok = ^uint64(0)
					if a.arr.(*array.Boolean).Value(0) {
						cv = ^uint64(0)
					}
				}
			default:
				vals = wordsOf(boolsOf(a).b, a.arr.Data().Offset(), n)
				valid = ValidWords(a.arr)
				cok = ^uint64(0)
			}
			for k := 0; k < nw; k++ {
				v, ok := cv, cok
				if vals != nil {
					v = vals[k]
				}
				if valid != nil {
					ok = valid[k]
				}
				switch {
				case isAnd && f == nil:
					t[k] &= v
				case isAnd:
					t[k] &= v & ok
					f[k] |= ^v & ok
				case f == nil:
					t[k] |= v
				default:
					t[k] |= v & ok
					f[k] &= ^v & ok
				}
			}
		}
		clearTail(t, n)
		if f == nil {
			return vec{arr: makeFixed(Bool, n, nil, 0, vbuf), c: c}, nil
		}
		valid, vw := newWords(ev.mem, n)
		for k := range vw {
			vw[k] = t[k] | f[k]
		}
		clearTail(vw, n)
		nulls := n - CountWords(vw)
		if nulls == 0 {
			valid.Release()
			valid = nil
		}
		return vec{arr: makeFixed(Bool, n, valid, nulls, vbuf), c: c}, nil
	}
}

func notKernel(ev *evalCtx, args []vec) (vec, error) {
	if constNull(args) {
		return nullResult(ev, Bool, args), nil
	}
	n, c := outLen(ev, args)
	valid, nulls := andValidity(ev.mem, n, args)
	in := wordsOf(boolsOf(args[0]).b, args[0].arr.Data().Offset(), n)
	vbuf, w := newWords(ev.mem, n)
	for k := range w {
		w[k] = ^in[k]
	}
	return vec{arr: finishWords(vbuf, w, n, valid, nulls), c: c}, nil
}

// nullTest is IS NULL (want=true) or IS NOT NULL.
func nullTest(want bool) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		vbuf, w := newWords(ev.mem, n)
		a := args[0].arr
		var vw []uint64
		switch {
		case a.DataType().ID() == arrow.NULL:
			vw = make([]uint64, len(w))
		case args[0].c:
			if a.IsNull(0) {
				vw = make([]uint64, len(w))
			}
		default:
			vw = ValidWords(a)
		}
		for k := range w {
			m := ^uint64(0)
			if vw != nil {
				m = vw[k]
			}
			if want {
				m = ^m
			}
			w[k] = m
		}
		clearTail(w, n)
		return vec{arr: makeFixed(Bool, n, nil, 0, vbuf), c: c}, nil
	}
}

// gather builds the result of type t whose row i is row pick(i) of
// srcs[arg] (arg < 0: NULL). Arguments must already have type t (or Null).
func gather(ev *evalCtx, t arrow.DataType, srcs []vec, n int, c bool, pick func(i int) int) (vec, error) {
	parts := make([]arrow.Array, 0, len(srcs))
	base := make([]int, len(srcs))
	off := 0
	for j, s := range srcs {
		base[j] = -1
		if s.arr.DataType().ID() == arrow.NULL {
			continue
		}
		if !arrow.TypeEqual(s.arr.DataType(), t) {
			return vec{}, fmt.Errorf("gather: argument %d has type %s, want %s", j, s.arr.DataType(), t)
		}
		base[j] = off
		parts = append(parts, s.arr)
		off += s.arr.Len()
	}
	if len(parts) == 0 {
		return vec{arr: makeNulls(ev.mem, t, n), c: c}, nil
	}
	idxB := array.NewInt32Builder(ev.mem)
	defer idxB.Release()
	idxB.Reserve(n)
	for i := 0; i < n; i++ {
		j := pick(i)
		if j < 0 || base[j] < 0 {
			idxB.UnsafeAppendBoolToBitmap(false)
			continue
		}
		idxB.UnsafeAppend(int32(base[j] + i&srcs[j].idx()))
	}
	idx := idxB.NewArray()
	defer idx.Release()
	var all arrow.Array
	if len(parts) == 1 {
		all = parts[0]
		all.Retain()
	} else {
		var err error
		all, err = concat(ev.mem, parts)
		if err != nil {
			return vec{}, err
		}
	}
	defer all.Release()
	out, err := takeArray(ev.ctx, ev.mem, all, idx)
	if err != nil {
		return vec{}, err
	}
	return vec{arr: out, c: c}, nil
}

func concat(mem memory.Allocator, parts []arrow.Array) (arrow.Array, error) {
	if na, ok := parts[0].(*NumericArray); ok {
		_ = na
		st := make([]arrow.Array, len(parts))
		for i, p := range parts {
			st[i] = p.(*NumericArray).Storage()
		}
		s, err := array.Concatenate(st, mem)
		if err != nil {
			return nil, err
		}
		defer s.Release()
		return array.NewExtensionArrayWithStorage(theNumericType, s), nil
	}
	return array.Concatenate(parts, mem)
}

// takeArray is compute's take, also for NumericType.
func takeArray(ctx context.Context, mem memory.Allocator, a, idx arrow.Array) (arrow.Array, error) {
	ctx = compute.WithAllocator(ctx, mem)
	if na, ok := a.(*NumericArray); ok {
		s, err := compute.TakeArray(ctx, na.Storage(), idx)
		if err != nil {
			return nil, err
		}
		defer s.Release()
		return array.NewExtensionArrayWithStorage(theNumericType, s), nil
	}
	if a.DataType().ID() == arrow.INTERVAL_MONTH_DAY_NANO {
		return takeInterval(ctx, a, idx)
	}
	if d, leaf := listDepth(a.DataType()); d > 0 && leaf.ID() == arrow.INTERVAL_MONTH_DAY_NANO {
		return takeIntervalList(ctx, a, idx) // interval.go
	}
	return compute.TakeArray(ctx, a, idx)
}

// TakeArray gathers rows idx of a (NumericType included); a NULL index
// gives a NULL row. Exported for the operators.
func TakeArray(ctx context.Context, a, idx arrow.Array) (arrow.Array, error) {
	return takeArray(ctx, Allocator(ctx), a, idx)
}

// coalesceKernel is COALESCE: the first non-NULL argument.
func coalesceKernel(t arrow.DataType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		vs := make([]bitmap, len(args))
		for j, a := range args {
			vs[j] = nullableValidity(a)
		}
		return gather(ev, t, args, n, c, func(i int) int {
			for j := range vs {
				if vs[j].valid(i) {
					return j
				}
			}
			return -1
		})
	}
}

// nullifKernel is NULLIF(a, b): NULL when a = b, else a. widen, when not
// nil, converts a to b's type for the comparison.
func nullifKernel(t arrow.DataType, widen kernelFn) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		va, vb := nullableValidity(args[0]), nullableValidity(args[1])
		left := args[0]
		if widen != nil && left.arr.DataType().ID() != arrow.NULL {
			w, err := widen(ev, args[:1])
			if err != nil {
				return vec{}, err
			}
			defer w.arr.Release()
			left = w
		}
		var cmp rowCmpFn
		if left.arr.DataType().ID() != arrow.NULL && args[1].arr.DataType().ID() != arrow.NULL {
			cmp = rowComparer(left, args[1])
		}
		return gather(ev, t, args[:1], n, c, func(i int) int {
			if !va.valid(i) {
				return -1
			}
			if vb.valid(i) && cmp(i) == 0 {
				return -1
			}
			return 0
		})
	}
}

// extremeKernel is GREATEST (sign 1) or LEAST (sign -1), ignoring NULLs.
func extremeKernel(t arrow.DataType, sign int) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		k := len(args)
		vs := make([]bitmap, k)
		live := make([]bool, k)
		for j, a := range args {
			vs[j] = nullableValidity(a)
			live[j] = a.arr.DataType().ID() != arrow.NULL
		}
		cmps := make([][]rowCmpFn, k)
		for j := range args {
			cmps[j] = make([]rowCmpFn, k)
			for m := range args {
				if j != m && live[j] && live[m] {
					cmps[j][m] = rowComparer(args[j], args[m])
				}
			}
		}
		return gather(ev, t, args, n, c, func(i int) int {
			best := -1
			for j := 0; j < k; j++ {
				if !live[j] || !vs[j].valid(i) {
					continue
				}
				if best < 0 || cmps[j][best](i)*sign > 0 {
					best = j
				}
			}
			return best
		})
	}
}

// inKernel is x IN (v1, ...): TRUE if some vi = x; else NULL if x or some
// vi is NULL; else FALSE.
func inKernel(ev *evalCtx, args []vec) (vec, error) {
	if v, ok := inConst(ev, args); ok {
		return v, nil
	}
	n, c := outLen(ev, args)
	if args[0].arr.DataType().ID() == arrow.NULL {
		return nullResult(ev, Bool, args), nil
	}
	x := nullableValidity(args[0])
	k := len(args) - 1
	vs := make([]bitmap, k)
	cmps := make([]rowCmpFn, k)
	for j := 0; j < k; j++ {
		vs[j] = nullableValidity(args[j+1])
		if args[j+1].arr.DataType().ID() != arrow.NULL {
			cmps[j] = rowComparer(args[0], args[j+1])
		}
	}
	out := newBoolOut(ev.mem, n)
	valid := newBoolOut(ev.mem, n)
	nulls := 0
	for i := 0; i < n; i++ {
		if !x.valid(i) {
			nulls++
			continue
		}
		found, sawNull := false, false
		for j := 0; j < k; j++ {
			if cmps[j] == nil || !vs[j].valid(i) {
				sawNull = true
				continue
			}
			if cmps[j](i) == 0 {
				found = true
				break
			}
		}
		switch {
		case found:
			out.set(i)
			valid.set(i)
		case sawNull:
			nulls++
		default:
			valid.set(i)
		}
	}
	if nulls == 0 {
		valid.buf.Release()
		return vec{arr: out.finish(n, nil, 0), c: c}, nil
	}
	return vec{arr: out.finish(n, valid.buf, nulls), c: c}, nil
}
