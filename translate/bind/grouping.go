package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// aggregation builds the aggregation of a query over in. With grouping
// sets it is one aggregation per set, each padded with NULL for the keys
// its set lacks, under UNION ALL; GROUPING(...) calls are constants per
// set.
func (b *Binder) aggregation(agg *aggScope, in plan.Rel) plan.Rel {
	if agg.sets == nil {
		r := &plan.Agg{In: in, Groups: exprsOf(agg.groups), GroupCols: agg.groupCols, Aggs: agg.aggs, AggCols: agg.aggCols}
		if len(agg.grouping) == 0 {
			return r
		}
		p := &plan.Project{In: r, Exprs: refsTo(b, r.OutCols()), Cols: r.OutCols()}
		for _, g := range agg.grouping {
			p.Exprs = append(p.Exprs, &expr.Lit{V: int32(0), T: expr.Int4})
			p.Cols = append(p.Cols, g.ID)
		}
		return p
	}
	u := &plan.SetOp{Op: "union", All: true}
	u.Cols = append(append([]plan.ColID(nil), agg.groupCols...), agg.aggCols...)
	for _, g := range agg.grouping {
		u.Cols = append(u.Cols, g.ID)
	}
	for _, set := range agg.sets {
		member := map[int]bool{}
		for _, i := range set {
			member[i] = true
		}
		r := &plan.Agg{In: in}
		p := &plan.Project{In: r}
		for i, g := range agg.groups {
			if member[i] {
				id := b.newCol(b.q.Meta(agg.groupCols[i]).Name, g.T, g.E.Type())
				r.Groups = append(r.Groups, g.E)
				r.GroupCols = append(r.GroupCols, id)
				p.Exprs = append(p.Exprs, b.ref(id).E)
			} else {
				p.Exprs = append(p.Exprs, &expr.Lit{V: nil, T: g.E.Type()})
			}
		}
		for _, a := range agg.aggs {
			id := b.newCol(a.Name, a.PGType, a.T)
			r.Aggs = append(r.Aggs, a)
			r.AggCols = append(r.AggCols, id)
			p.Exprs = append(p.Exprs, b.ref(id).E)
		}
		for _, g := range agg.grouping {
			v := int32(0)
			for _, arg := range g.Args {
				v <<= 1
				if !member[arg] {
					v |= 1
				}
			}
			p.Exprs = append(p.Exprs, &expr.Lit{V: v, T: expr.Int4})
		}
		for _, id := range u.Cols {
			m := b.q.Meta(id)
			p.Cols = append(p.Cols, b.newCol(m.Name, m.T, m.ArrowType))
		}
		u.Ins = append(u.Ins, p)
		u.InCols = append(u.InCols, p.Cols)
	}
	return u
}

// groupingFunc binds GROUPING(a, ...): a bit per argument, set when the
// row's grouping set does not group by it.
func (b *Binder) groupingFunc(g *pg.GroupingFunc) (Bound, error) {
	agg := b.agg
	if agg == nil || b.inAgg {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level"), g.Location)
	}
	if len(g.Args) > 31 {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.TooManyArguments, "GROUPING must have fewer than 32 arguments"), g.Location)
	}
	b.agg = nil
	defer func() { b.agg = agg }()
	call := plan.GroupingCall{}
	for _, n := range g.Args {
		x, err := b.Expr(n)
		if err != nil {
			return Bound{}, err
		}
		i := agg.findGroup(x.E)
		if i < 0 {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level"), NodeLocation(n))
		}
		call.Args = append(call.Args, i)
	}
	call.ID = b.newCol("grouping", plan.TInt4, expr.Int4)
	agg.grouping = append(agg.grouping, call)
	r := b.ref(call.ID)
	r.Name = "grouping"
	return r, nil
}
