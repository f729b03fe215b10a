package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
)

// Comparisons involving arrays: containment and overlap, the ordering of
// whole arrays, and x OP ANY/ALL (array).

// containKernel is a @> b (every element of b is in a; a NULL element of b
// makes it false), a <@ b (the same, swapped) and a && b
// (some element in both; NULL elements never match).
func containKernel(fn string) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		big, small := readListVec(args[0]), readListVec(args[1])
		if fn == "<@" {
			big, small = small, big
		}
		if big.l == nil || small.l == nil {
			return nullResult(ev, Bool, args), nil
		}
		cmp, err := elemComparer(big.vals, small.vals)
		if err != nil {
			return vec{}, err
		}
		found := func(bs, be, k int) bool {
			for j := bs; j < be; j++ {
				if !big.elemNull(j) && cmp(j, k) == 0 {
					return true
				}
			}
			return false
		}
		return arrBoolRows(ev, n, c, func(i int) (bool, bool) {
			if big.null(i) || small.null(i) {
				return false, false
			}
			bs, be := big.bounds(i)
			ss, se := small.bounds(i)
			for k := ss; k < se; k++ {
				if small.elemNull(k) {
					if fn == "&&" {
						continue
					}
					return false, true
				}
				hit := found(bs, be, k)
				if fn == "&&" && hit {
					return true, true
				}
				if fn != "&&" && !hit {
					return false, true
				}
			}
			return fn != "&&", true
		}), nil
	}
}

// arrayCmpKernel orders arrays as PostgreSQL's btree does: element by
// element (NULL equal to NULL and above any value), then the shorter
// array first. = and <> use the same order, so {1,NULL} = {1,NULL}.
func arrayCmpKernel(op cmpOp) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		a, b := readListVec(args[0]), readListVec(args[1])
		if a.l == nil || b.l == nil {
			return nullResult(ev, Bool, args), nil
		}
		cmp, err := elemComparer(a.vals, b.vals)
		if err != nil {
			return vec{}, err
		}
		return arrBoolRows(ev, n, c, func(i int) (bool, bool) {
			if a.null(i) || b.null(i) {
				return false, false
			}
			as, ae := a.bounds(i)
			bs, be := b.bounds(i)
			return op.test(arrayCmp(as, ae, bs, be, a.elemNull, b.elemNull, cmp, nil, nil)), true
		}), nil
	}
}

// quantifiedKernel is x OP ANY (list) / x OP ALL (list). ANY is true when
// some comparison is true, else NULL when one was NULL (or x is NULL and
// the list is not empty), else false; ALL is false when some comparison is
// false, else NULL when one was NULL, else true. An empty list gives false
// for ANY and true for ALL.
func (c *compiler) quantifiedKernel(fn string, ts []arrow.DataType) (kernelFn, error) {
	any := fn[:3] == "any"
	op := fn[4:]
	switch op {
	case "=", "<>", "<", "<=", ">", ">=":
	default:
		return nil, noArrayFunction(fn, ts)
	}
	if len(ts) != 2 || !isListOrNull(ts[1]) {
		return nil, noArrayFunction(fn, ts)
	}
	if IsMultiDimList(ts[1]) {
		// x OP ANY (array of several dimensions): over all its elements.
		flat := []arrow.DataType{ts[0], flatType(ts[1])}
		k, err := c.quantifiedKernel(fn, flat)
		if err != nil {
			return nil, err
		}
		return flattenFirst(flat, []int{1}, k), nil
	}
	e, ok := listElem(ts[1])
	if !ok {
		e = ts[0]
	}
	_, r, ok := compareTypes(ts[0], e)
	if !ok {
		return nil, operatorError(op, []arrow.DataType{ts[0], e})
	}
	if kindOf(ts[0]) != kNull && kindOf(r) != kNull {
		if _, err := compareKernel(op, ts[0], r); err != nil {
			return nil, err
		}
	}
	cop := cmpOpOf(op)
	k := func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		lv := readListVec(args[1])
		x, xm := args[0].arr, args[0].idx()
		if lv.l == nil {
			return nullResult(ev, Bool, args), nil
		}
		var cmp func(j, k int) int
		if x.DataType().ID() != arrow.NULL && lv.vals.DataType().ID() != arrow.NULL {
			var err error
			if cmp, err = Comparator(x, lv.vals); err != nil {
				return vec{}, pgerr.Unsupported("comparing %s with elements of %s", PGTypeName(x.DataType()), arrTypeName(lv.l.DataType()))
			}
		}
		return arrBoolRows(ev, n, cst, func(i int) (bool, bool) {
			if lv.null(i) {
				return false, false
			}
			s, e := lv.bounds(i)
			if s == e {
				return !any, true
			}
			if x.IsNull(i & xm) {
				return false, false
			}
			sawNull := false
			for j := s; j < e; j++ {
				if cmp == nil || lv.elemNull(j) {
					sawNull = true
					continue
				}
				if cop.test(cmp(i&xm, j)) == any {
					return any, true
				}
			}
			if sawNull {
				return false, false
			}
			return !any, true
		}), nil
	}
	return c.withElems(r, ts, []int{1}, k), nil
}
