package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine/expr"
)

// markColumns sets used[i] for every column e reads. It reports false when
// it meets an expression it does not know (then every column counts).
func markColumns(e expr.Expr, used []bool) bool {
	switch e := e.(type) {
	case nil, *expr.Lit:
		return true
	case *expr.Col:
		if e.Idx < 0 || e.Idx >= len(used) {
			return false
		}
		used[e.Idx] = true
		return true
	case *expr.Call:
		for _, a := range e.Args {
			if !markColumns(a, used) {
				return false
			}
		}
		return true
	case *expr.Cast:
		return markColumns(e.Arg, used)
	case *expr.Case:
		for _, w := range e.Whens {
			if !markColumns(w.Cond, used) || !markColumns(w.Then, used) {
				return false
			}
		}
		return markColumns(e.Else, used)
	}
	return false
}

// residualColumns returns which columns of the pair schema the residual
// reads (nil: all of them).
func residualColumns(e expr.Expr, width int) []bool {
	used := make([]bool, width)
	if !markColumns(e, used) {
		return nil
	}
	return used
}

// gatherForResidual is the batch the residual runs over for pairs li, ri
// (rows li of the left columns lcols beside rows ri of the right columns
// rcols): the columns it reads gathered, the others all-NULL stand-ins.
func (o *joinOp) gatherForResidual(lcols []arrow.Array, li []int32, rcols []arrow.Array, ri []int32) (arrow.RecordBatch, error) {
	if o.resCols == nil {
		return o.gatherPairs(lcols, li, rcols, ri, false)
	}
	n := len(li)
	nl := len(lcols)
	cols := make([]arrow.Array, len(o.resCols))
	defer func() { releaseAll(cols) }()
	for j, used := range o.resCols {
		var src arrow.Array
		idx := li
		if j < nl {
			src = lcols[j]
		} else {
			src, idx = rcols[j-nl], ri
		}
		if !used {
			cols[j] = o.nullColumn(j, n)
			continue
		}
		c, err := o.takeCols(nil, []arrow.Array{src}, idx)
		if err != nil {
			return nil, err
		}
		cols[j] = c[0]
	}
	return array.NewRecordBatch(o.pairSchema, cols, int64(n)), nil
}

// residualMask evaluates the residual over pairs and returns the
// positions where it is TRUE.
func (o *joinOp) residualMask(pairs arrow.RecordBatch) ([]int32, error) {
	m, err := o.residual.Eval(o.ctx, pairs)
	if err != nil {
		return nil, err
	}
	defer m.Release()
	mask, ok := m.(*array.Boolean)
	if !ok { // an untyped NULL condition matches nothing
		return nil, nil
	}
	keep := o.probe.keep[:0]
	defer func() { o.probe.keep = keep[:0] }()
	if mask.NullN() == 0 {
		for i := 0; i < mask.Len(); i++ {
			if mask.Value(i) {
				keep = append(keep, int32(i))
			}
		}
		return keep, nil
	}
	for i := 0; i < mask.Len(); i++ {
		if mask.IsValid(i) && mask.Value(i) {
			keep = append(keep, int32(i))
		}
	}
	return keep, nil
}
