package lower

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// A correlated subquery that decorrelation cannot turn into a plain join
// (LIMIT in a correlated subquery, a LATERAL aggregate, outer references
// outside WHERE...) is a join with apply set: for each row of the left
// input the right side is planned again with the outer references
// replaced by that row's values, and joined to that one row. It is slow
// (a plan per distinct outer row) but always right.

// lowerApply lowers a dependent join.
func (l *Lowerer) lowerApply(x *plan.Join, need plan.ColSet) (engine.Operator, []plan.ColID, error) {
	leftOut := plan.SetOf(x.Left.OutCols())
	params := plan.ColSet{}
	for id := range plan.FreeRefs(x.Right) {
		if leftOut.Has(id) {
			params.Add(id)
		}
	}
	needL := plan.ColSet{}
	for id := range need {
		if leftOut.Has(id) {
			needL.Add(id)
		}
	}
	for id := range params {
		needL.Add(id)
	}
	if x.Cond != nil {
		for id := range plan.RefsOf(x.Cond) {
			if leftOut.Has(id) {
				needL.Add(id)
			}
		}
	}
	left, llayout, err := l.lower(x.Left, needL)
	if err != nil {
		return nil, nil, err
	}
	rightCols := x.Right.OutCols()
	if x.Cond != nil {
		// The right side keeps every column the condition may use.
		rightCols = append([]plan.ColID(nil), rightCols...)
	}
	both := append(append([]plan.ColID(nil), llayout...), rightCols...)
	var residual expr.Expr
	if x.Cond != nil {
		if residual, err = l.remap(x.Cond, both); err != nil {
			left.Close()
			return nil, nil, err
		}
	}
	op := &applyOp{l: l, x: x, left: left, llayout: llayout, rightCols: rightCols, residual: residual}
	// The schema: what the engine's join of these inputs yields.
	fields := append([]arrow.Field(nil), left.Schema().Fields()...)
	switch x.Typ {
	case plan.JoinSemi, plan.JoinAnti:
	case plan.JoinMark:
		fields = append(fields, arrow.Field{Name: "mark", Type: arrow.FixedWidthTypes.Boolean, Nullable: true})
	default:
		for _, id := range rightCols {
			m := l.q.Meta(id)
			fields = append(fields, arrow.Field{Name: m.Name, Type: m.ArrowType, Nullable: true})
		}
	}
	op.schema = arrow.NewSchema(fields, nil)
	layout := llayout
	switch x.Typ {
	case plan.JoinSemi, plan.JoinAnti:
	case plan.JoinMark:
		layout = append(append([]plan.ColID(nil), llayout...), x.Mark)
	default:
		layout = both
	}
	return op, layout, nil
}

// applyOp runs the right side of a dependent join once per left row.
type applyOp struct {
	l         *Lowerer
	x         *plan.Join
	left      engine.Operator
	llayout   []plan.ColID
	rightCols []plan.ColID
	residual  expr.Expr
	schema    *arrow.Schema
	ctx       context.Context

	batch arrow.RecordBatch // the left batch being expanded
	row   int
	inner engine.Operator // the join of one left row with its right side
}

func (o *applyOp) Open(ctx context.Context) error {
	o.ctx = ctx
	return o.left.Open(ctx)
}

func (o *applyOp) Next() (arrow.RecordBatch, error) {
	for {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		if o.inner != nil {
			b, err := o.inner.Next()
			if err != nil {
				return nil, err
			}
			if b != nil {
				return b, nil
			}
			err = o.inner.Close()
			o.inner = nil
			if err != nil {
				return nil, err
			}
		}
		if o.batch == nil || o.row >= int(o.batch.NumRows()) {
			if o.batch != nil {
				o.batch.Release()
				o.batch = nil
			}
			b, err := o.left.Next()
			if err != nil || b == nil {
				return nil, err
			}
			b.Retain()
			o.batch, o.row = b, 0
		}
		inner, err := o.joinRow(o.batch, o.row)
		o.row++
		if err != nil {
			return nil, err
		}
		if err := inner.Open(o.ctx); err != nil {
			inner.Close()
			return nil, err
		}
		o.inner = inner
	}
}

// joinRow plans the right side for row i of b and joins it to that row.
func (o *applyOp) joinRow(b arrow.RecordBatch, i int) (engine.Operator, error) {
	vals := make([]expr.Expr, b.NumCols())
	subst := map[plan.ColID]*expr.Lit{}
	for j := 0; j < int(b.NumCols()); j++ {
		lit, err := expr.ValueLit(b.Column(j), i)
		if err != nil {
			return nil, err
		}
		if dt, ok := o.left.Schema().Field(j).Type.(*arrow.DictionaryType); ok {
			lit.T = dt.ValueType
		}
		vals[j] = lit
		subst[o.llayout[j]] = lit
	}
	fields := make([]arrow.Field, len(vals))
	for j, v := range vals {
		fields[j] = arrow.Field{Name: o.left.Schema().Field(j).Name, Type: v.Type(), Nullable: true}
	}
	row, err := exec.NewValues(arrow.NewSchema(fields, nil), [][]expr.Expr{vals}, o.l.opts)
	if err != nil {
		return nil, err
	}
	var origin map[plan.Rel]plan.Rel
	if o.l.Stats != nil {
		// EXPLAIN ANALYZE counts each row's run as a loop of the nodes
		// of the plan.
		origin = map[plan.Rel]plan.Rel{}
	}
	right, err := substituteRel(o.x.Right, subst, origin)
	if err != nil {
		row.Close()
		return nil, err
	}
	o.l.origin = origin
	// The marks of the row's copy of the plan end with it (markOrderFree).
	marks := o.l.orderFree
	o.l.orderFree = nil
	rop, err := o.l.lowerExact(right, o.rightCols)
	o.l.origin, o.l.orderFree = nil, marks
	if err != nil {
		row.Close()
		return nil, err
	}
	// NOT IN over a per-row subquery counts a NULL comparison as no match
	// (the engine's null-aware join needs an equality key).
	spec := exec.JoinSpec{Type: execJoinType(o.x.Typ), Residual: o.residual, Single: o.x.Single}
	j, err := exec.NewNestedLoopJoin(row, rop, spec, o.l.opts)
	if err != nil {
		row.Close()
		rop.Close()
		return nil, err
	}
	return j, nil
}

func (o *applyOp) Close() error {
	var err error
	if o.inner != nil {
		err = o.inner.Close()
		o.inner = nil
	}
	if o.batch != nil {
		o.batch.Release()
		o.batch = nil
	}
	if cerr := o.left.Close(); err == nil {
		err = cerr
	}
	return err
}

func (o *applyOp) Schema() *arrow.Schema { return o.schema }

// substituteRel copies r with the columns of subst replaced by constants
// in every expression; origin, when not nil, maps each copy to its node.
func substituteRel(r plan.Rel, subst map[plan.ColID]*expr.Lit, origin map[plan.Rel]plan.Rel) (plan.Rel, error) {
	var err error
	sub := func(e expr.Expr) expr.Expr {
		if err != nil {
			return e
		}
		out, rerr := plan.RewriteExpr(e, func(e expr.Expr) (expr.Expr, error) {
			if c, ok := e.(*expr.Col); ok {
				if lit, ok := subst[plan.ColID(c.Idx)]; ok {
					if !arrow.TypeEqual(lit.T, c.T) {
						return &expr.Cast{Arg: lit, T: c.T}, nil
					}
					return lit, nil
				}
			}
			return e, nil
		})
		if rerr != nil {
			err = rerr
		}
		return out
	}
	var child func(plan.Rel) plan.Rel
	child = func(c plan.Rel) plan.Rel {
		n := plan.Map(c, child, sub)
		if origin != nil {
			origin[n] = c
		}
		return n
	}
	out := child(r)
	return out, err
}
