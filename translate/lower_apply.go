package translate

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
)

// A correlated subquery that decorrelation cannot turn into a plain join
// (LIMIT in a correlated subquery, a LATERAL aggregate, outer references
// outside WHERE...) is a join with apply set: for each row of the left
// input the right side is planned again with the outer references
// replaced by that row's values, and joined to that one row. It is slow
// (a plan per distinct outer row) but always right.

// lowerApply lowers a dependent join.
func (l *lowerer) lowerApply(x *joinRel, need colSet) (engine.Operator, []colID, error) {
	leftOut := setOf(x.left.outCols())
	params := colSet{}
	for id := range freeRefs(x.right) {
		if leftOut.has(id) {
			params.add(id)
		}
	}
	needL := colSet{}
	for id := range need {
		if leftOut.has(id) {
			needL.add(id)
		}
	}
	for id := range params {
		needL.add(id)
	}
	if x.cond != nil {
		for id := range refsOf(x.cond) {
			if leftOut.has(id) {
				needL.add(id)
			}
		}
	}
	left, llayout, err := l.lower(x.left, needL)
	if err != nil {
		return nil, nil, err
	}
	rightCols := x.right.outCols()
	if x.cond != nil {
		// The right side keeps every column the condition may use.
		rightCols = append([]colID(nil), rightCols...)
	}
	both := append(append([]colID(nil), llayout...), rightCols...)
	var residual expr.Expr
	if x.cond != nil {
		if residual, err = l.remap(x.cond, both); err != nil {
			left.Close()
			return nil, nil, err
		}
	}
	op := &applyOp{l: l, x: x, left: left, llayout: llayout, rightCols: rightCols, residual: residual}
	// The schema: what the engine's join of these inputs yields.
	fields := append([]arrow.Field(nil), left.Schema().Fields()...)
	switch x.typ {
	case joinSemi, joinAnti:
	case joinMark:
		fields = append(fields, arrow.Field{Name: "mark", Type: arrow.FixedWidthTypes.Boolean, Nullable: true})
	default:
		for _, id := range rightCols {
			m := l.q.meta(id)
			fields = append(fields, arrow.Field{Name: m.name, Type: m.at, Nullable: true})
		}
	}
	op.schema = arrow.NewSchema(fields, nil)
	layout := llayout
	switch x.typ {
	case joinSemi, joinAnti:
	case joinMark:
		layout = append(append([]colID(nil), llayout...), x.mark)
	default:
		layout = both
	}
	return op, layout, nil
}

// applyOp runs the right side of a dependent join once per left row.
type applyOp struct {
	l         *lowerer
	x         *joinRel
	left      engine.Operator
	llayout   []colID
	rightCols []colID
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
	subst := map[colID]*expr.Lit{}
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
	right, err := substituteRel(o.x.right, subst)
	if err != nil {
		row.Close()
		return nil, err
	}
	rop, err := o.l.lowerExact(right, o.rightCols)
	if err != nil {
		row.Close()
		return nil, err
	}
	// NOT IN over a per-row subquery counts a NULL comparison as no match
	// (the engine's null-aware join needs an equality key).
	spec := exec.JoinSpec{Type: execJoinType(o.x.typ), Residual: o.residual, Single: o.x.single}
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
// in every expression.
func substituteRel(r rel, subst map[colID]*expr.Lit) (rel, error) {
	var err error
	sub := func(e expr.Expr) expr.Expr {
		if e == nil || err != nil {
			return e
		}
		out, rerr := rewriteExpr(e, func(e expr.Expr) (expr.Expr, error) {
			if c, ok := e.(*expr.Col); ok {
				if lit, ok := subst[colID(c.Idx)]; ok {
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
	subs := func(es []expr.Expr) []expr.Expr {
		out := make([]expr.Expr, len(es))
		for i, e := range es {
			out[i] = sub(e)
		}
		return out
	}
	keys := func(ks []sortKey) []sortKey {
		out := make([]sortKey, len(ks))
		for i, k := range ks {
			out[i] = k
			out[i].E = sub(k.E)
		}
		return out
	}
	child := func(c rel) rel {
		if err != nil {
			return c
		}
		n, cerr := substituteRel(c, subst)
		if cerr != nil {
			err = cerr
		}
		return n
	}
	var out rel
	switch x := r.(type) {
	case *scanRel, *oneRowRel, *workTableRel, *sysRel, *metaRel, *changesRel, *cteScanRel:
		out = r
	case *valuesRel:
		n := *x
		n.rows = make([][]expr.Expr, len(x.rows))
		for i, row := range x.rows {
			n.rows[i] = subs(row)
		}
		out = &n
	case *filterRel:
		n := *x
		n.in, n.pred = child(x.in), sub(x.pred)
		out = &n
	case *projectRel:
		n := *x
		n.in, n.exprs = child(x.in), subs(x.exprs)
		out = &n
	case *aggRel:
		n := *x
		n.in, n.groups = child(x.in), subs(x.groups)
		n.aggs = make([]aggCall, len(x.aggs))
		for i, a := range x.aggs {
			n.aggs[i] = a
			n.aggs[i].Arg, n.aggs[i].Filter = sub(a.Arg), sub(a.Filter)
			n.aggs[i].Args, n.aggs[i].OrderBy = subs(a.Args), keys(a.OrderBy)
		}
		out = &n
	case *joinRel:
		n := *x
		n.left, n.right, n.cond = child(x.left), child(x.right), sub(x.cond)
		out = &n
	case *sortRel:
		n := *x
		n.in, n.keys = child(x.in), keys(x.keys)
		out = &n
	case *limitRel:
		n := *x
		n.in = child(x.in)
		out = &n
	case *windowRel:
		n := *x
		n.in, n.partition, n.order = child(x.in), subs(x.partition), keys(x.order)
		n.calls = make([]windowCall, len(x.calls))
		for i, c := range x.calls {
			n.calls[i] = c
			n.calls[i].args, n.calls[i].filter = subs(c.args), sub(c.filter)
		}
		out = &n
	case *setOpRel:
		n := *x
		n.ins = make([]rel, len(x.ins))
		for i, in := range x.ins {
			n.ins[i] = child(in)
		}
		out = &n
	case *tableFuncRel:
		n := *x
		n.in, n.args = child(x.in), subs(x.args)
		out = &n
	case *recursiveRel:
		n := *x
		n.anchor, n.recursive = child(x.anchor), child(x.recursive)
		out = &n
	default:
		return nil, fmt.Errorf("substitute: unknown plan node %T", r)
	}
	return out, err
}
