package expr

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Casts involving arrays, for castKernel and CanCast to delegate to:
// text -> T[] (array_in), T[] -> text (array_out), S[] -> T[] (each
// element cast S -> T).

// listCastKernel is the kernel of a cast from or to a list type; ok is
// false when neither side is a list.
func listCastKernel(from, to arrow.DataType, loc *time.Location) (k kernelFn, ok bool, err error) {
	c := &compiler{tz: loc}
	fe, fromList := listElem(from)
	tl, toList := to.(*arrow.ListType)
	df, lf := listDepth(from)
	dt, lt := listDepth(to)
	switch {
	case fromList && toList && df != dt:
		if _, err := castKernel(lf, lt, loc); err != nil {
			return nil, true, cannotCastList(from, to)
		}
		return depthCast(to, df, dt), true, nil
	case toList && kindOf(from) == kText:
		k, err := c.arrayIn(tl)
		return k, true, err
	case fromList && kindOf(to) == kText:
		return c.arrayOut(), true, nil
	case fromList && toList:
		ek, err := castKernel(fe, tl.Elem(), loc)
		if err != nil {
			return nil, true, cannotCastList(from, to)
		}
		return func(ev *evalCtx, args []vec) (vec, error) {
			l := args[0].arr.(*array.List)
			vals := l.ListValues()
			cv, err := ek(arrSubEval(ev, vals.Len()), []vec{{arr: vals}})
			if err != nil {
				return vec{}, err
			}
			defer cv.arr.Release()
			ld := l.Data()
			d := array.NewData(to, ld.Len(), ld.Buffers(), []arrow.ArrayData{cv.arr.Data()}, ld.NullN(), ld.Offset())
			defer d.Release()
			return vec{arr: array.MakeFromData(d), c: args[0].c}, nil
		}, true, nil
	case fromList || toList:
		return nil, true, cannotCastList(from, to)
	}
	return nil, false, nil
}

func cannotCastList(from, to arrow.DataType) error {
	err := cannotCast(from, to)
	err.Message = "cannot cast type " + arrTypeName(from) + " to " + arrTypeName(to)
	return err
}

// canCastList reports whether a cast from or to a list type is supported;
// ok is false when neither side is a list.
func canCastList(from, to arrow.DataType) (can, ok bool) {
	fe, fromList := listElem(from)
	te, toList := listElem(to)
	if IsMultiDimList(from) {
		_, fe = listDepth(from)
	}
	if IsMultiDimList(to) {
		_, te = listDepth(to)
	}
	switch {
	case toList && (kindOf(from) == kText || kindOf(from) == kNull):
		return kindOf(te) != kInvalid, true
	case fromList && kindOf(to) == kText:
		return kindOf(fe) != kInvalid, true
	case fromList && toList:
		if df, lf := listDepth(from); df != 0 {
			if dt, lt := listDepth(to); dt != df {
				return CanCast(lf, lt), true
			}
		}
		return CanCast(fe, te), true
	case fromList || toList:
		return false, true
	}
	return false, false
}

// depthCast converts arrays between numbers of dimensions: only NULL and
// empty arrays fit (an empty array has no dimensions); any other value is
// dimsMismatch.
func depthCast(to arrow.DataType, from, want int) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		mv := readMDVec(args[0])
		o := newMDOut(ev.mem, n, want)
		var dims []int32
		for i := 0; i < n; i++ {
			if mv.null(i) {
				o.endRow(true, nil)
				continue
			}
			var err error
			dims, _, _, err = mv.row(i, dims)
			if err == nil && len(dims) > 0 {
				err = dimsMismatch(from, want)
			}
			if err != nil {
				o.release()
				return vec{}, err
			}
			o.endRow(false, nil)
		}
		out, err := o.finish(ev, to, nil)
		return vec{arr: out, c: c}, err
	}
}
