package bind

import (
	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// bindSetOp binds UNION / INTERSECT / EXCEPT [ALL]: both sides, cast to
// the common type of each column; names come from the left side. UNION
// without ALL is UNION ALL then DISTINCT.
func (b *Binder) bindSetOp(sel *pg.SelectStmt) (*plan.Select, error) {
	left, err := b.BindSelect(sel.Larg)
	if err != nil {
		return nil, err
	}
	right, err := b.BindSelect(sel.Rarg)
	if err != nil {
		return nil, err
	}
	opName := map[pg.SetOperation]string{pg.SetOperation_SETOP_UNION: "UNION", pg.SetOperation_SETOP_INTERSECT: "INTERSECT", pg.SetOperation_SETOP_EXCEPT: "EXCEPT"}[sel.Op]
	if len(left.Out) != len(right.Out) {
		return nil, pgerr.New(pgerr.SyntaxError, "each %s query must have the same number of columns", opName)
	}
	p := &plan.Select{Cols: []pgtypes.Column{}}
	sr := &plan.SetOp{Op: map[string]string{"UNION": "union", "INTERSECT": "intersect", "EXCEPT": "except"}[opName], All: sel.All}
	lp := &plan.Project{In: left.Root}
	rp := &plan.Project{In: right.Root}
	for i := range left.Out {
		lb, rb := b.ref(left.Out[i]), b.ref(right.Out[i])
		lb.T, rb.T = b.typeOfOutput(left, i), b.typeOfOutput(right, i)
		lt, rt := lb.E.Type(), rb.E.Type()
		if left.IsUntyped(i) {
			lt = arrow.Null
		}
		if right.IsUntyped(i) {
			rt = arrow.Null
		}
		t, err := expr.CommonType(opName, []arrow.DataType{lt, rt})
		if err != nil {
			return nil, err
		}
		if lt.ID() == arrow.NULL {
			lb.T = pgTypeOfArrow(t)
		}
		if rt.ID() == arrow.NULL {
			rb.T = pgTypeOfArrow(t)
		}
		pt := commonPG([]Bound{lb, rb}, pgTypeOfArrow(t))
		if t.ID() == arrow.NULL {
			t, pt = expr.Text, plan.TText
		}
		name := left.Cols[i].Name
		lp.Exprs = append(lp.Exprs, CastIfNeeded(lb.E, t))
		lp.Cols = append(lp.Cols, b.newCol(name, pt, t))
		rp.Exprs = append(rp.Exprs, CastIfNeeded(rb.E, t))
		rp.Cols = append(rp.Cols, b.newCol(name, pt, t))
		id := b.newCol(name, pt, t)
		if lb.enum != "" && lb.enum == rb.enum {
			// Both sides of one enum type: so is the result (enum.go).
			id = b.q.Add(plan.ColMeta{Name: name, T: pt, ArrowType: t, Enum: lb.enum})
		}
		sr.Cols = append(sr.Cols, id)
		p.Cols = append(p.Cols, pgtypes.Column{Name: name, TypeOID: pt.OID, Typmod: pt.Typmod})
	}
	sr.Ins = []plan.Rel{lp, rp}
	sr.InCols = [][]plan.ColID{lp.Cols, rp.Cols}
	var r plan.Rel = sr
	if sr.Op == "union" && !sr.All {
		sr.All = true
		r = &plan.Agg{In: sr, Groups: refsTo(b, sr.Cols), GroupCols: sr.Cols}
	}
	p.Out = sr.Cols
	for i := range p.Out {
		// Both sides untyped: the result stays untyped for an enclosing
		// set operation.
		p.Untyped = append(p.Untyped, left.IsUntyped(i) && right.IsUntyped(i))
	}
	saved := b.enterQuery()
	it := &rangeItem{name: "*SELECT*"}
	for i, id := range p.Out {
		it.cols = append(it.cols, itemCol{name: p.Cols[i].Name, id: id})
	}
	b.scope.items = append(b.scope.items, it)
	r, err = b.orderAndLimit(sel, r, p)
	b.leaveQuery(saved)
	if err != nil {
		return nil, err
	}
	p.Root = r
	b.finish(p)
	return p, nil
}
