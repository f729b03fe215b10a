package translate

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// aggregation builds the aggregation of a query over in. With grouping
// sets it is one aggregation per set, each padded with NULL for the keys
// its set lacks, under UNION ALL; GROUPING(...) calls are constants per
// set.
func (b *binder) aggregation(agg *aggScope, in rel) rel {
	if agg.sets == nil {
		r := &aggRel{in: in, groups: exprsOf(agg.groups), groupCols: agg.groupCols, aggs: agg.aggs, aggCols: agg.aggCols}
		if len(agg.grouping) == 0 {
			return r
		}
		p := &projectRel{in: r, exprs: refsTo(b, r.outCols()), cols: r.outCols()}
		for _, g := range agg.grouping {
			p.exprs = append(p.exprs, &expr.Lit{V: int32(0), T: expr.Int4})
			p.cols = append(p.cols, g.id)
		}
		return p
	}
	u := &setOpRel{op: "union", all: true}
	u.cols = append(append([]colID(nil), agg.groupCols...), agg.aggCols...)
	for _, g := range agg.grouping {
		u.cols = append(u.cols, g.id)
	}
	for _, set := range agg.sets {
		member := map[int]bool{}
		for _, i := range set {
			member[i] = true
		}
		r := &aggRel{in: in}
		p := &projectRel{in: r}
		for i, g := range agg.groups {
			if member[i] {
				id := b.newCol(b.q.meta(agg.groupCols[i]).name, g.t, g.e.Type())
				r.groups = append(r.groups, g.e)
				r.groupCols = append(r.groupCols, id)
				p.exprs = append(p.exprs, b.ref(id).e)
			} else {
				p.exprs = append(p.exprs, &expr.Lit{V: nil, T: g.e.Type()})
			}
		}
		for _, a := range agg.aggs {
			id := b.newCol(a.Name, a.pt, a.T)
			r.aggs = append(r.aggs, a)
			r.aggCols = append(r.aggCols, id)
			p.exprs = append(p.exprs, b.ref(id).e)
		}
		for _, g := range agg.grouping {
			v := int32(0)
			for _, arg := range g.args {
				v <<= 1
				if !member[arg] {
					v |= 1
				}
			}
			p.exprs = append(p.exprs, &expr.Lit{V: v, T: expr.Int4})
		}
		for _, id := range u.cols {
			m := b.q.meta(id)
			p.cols = append(p.cols, b.newCol(m.name, m.t, m.at))
		}
		u.ins = append(u.ins, p)
		u.inCols = append(u.inCols, p.cols)
	}
	return u
}

// groupingFunc binds GROUPING(a, ...): a bit per argument, set when the
// row's grouping set does not group by it.
func (b *binder) groupingFunc(g *pg.GroupingFunc) (bound, error) {
	agg := b.agg
	if agg == nil || b.inAgg {
		return bound{}, b.errAt(pgerr.New(pgerr.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level"), g.Location)
	}
	if len(g.Args) > 31 {
		return bound{}, b.errAt(pgerr.New("54023", "GROUPING must have fewer than 32 arguments"), g.Location)
	}
	b.agg = nil
	defer func() { b.agg = agg }()
	call := groupingCall{}
	for _, n := range g.Args {
		x, err := b.expr(n)
		if err != nil {
			return bound{}, err
		}
		i := agg.findGroup(x.e)
		if i < 0 {
			return bound{}, b.errAt(pgerr.New(pgerr.GroupingError, "arguments to GROUPING must be grouping expressions of the associated query level"), nodeLocation(n))
		}
		call.args = append(call.args, i)
	}
	call.id = b.newCol("grouping", tInt4, expr.Int4)
	agg.grouping = append(agg.grouping, call)
	r := b.ref(call.id)
	r.name = "grouping"
	return r, nil
}
