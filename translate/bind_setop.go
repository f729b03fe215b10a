package translate

import (
	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// bindSetOp binds UNION / INTERSECT / EXCEPT [ALL]: both sides, cast to
// the common type of each column; names come from the left side. UNION
// without ALL is UNION ALL then DISTINCT.
func (b *binder) bindSetOp(sel *pg.SelectStmt) (*selectPlan, error) {
	left, err := b.bindSelect(sel.Larg)
	if err != nil {
		return nil, err
	}
	right, err := b.bindSelect(sel.Rarg)
	if err != nil {
		return nil, err
	}
	opName := map[pg.SetOperation]string{pg.SetOperation_SETOP_UNION: "UNION", pg.SetOperation_SETOP_INTERSECT: "INTERSECT", pg.SetOperation_SETOP_EXCEPT: "EXCEPT"}[sel.Op]
	if len(left.out) != len(right.out) {
		return nil, pgerr.New(pgerr.SyntaxError, "each %s query must have the same number of columns", opName)
	}
	p := &selectPlan{cols: []pgtypes.Column{}}
	sr := &setOpRel{op: map[string]string{"UNION": "union", "INTERSECT": "intersect", "EXCEPT": "except"}[opName], all: sel.All}
	lp := &projectRel{in: left.root}
	rp := &projectRel{in: right.root}
	for i := range left.out {
		lb, rb := b.ref(left.out[i]), b.ref(right.out[i])
		lb.t, rb.t = b.typeOfOutput(left, i), b.typeOfOutput(right, i)
		lt, rt := lb.e.Type(), rb.e.Type()
		if left.isUntyped(i) {
			lt = arrow.Null
		}
		if right.isUntyped(i) {
			rt = arrow.Null
		}
		t, err := expr.CommonType(opName, []arrow.DataType{lt, rt})
		if err != nil {
			return nil, err
		}
		if lt.ID() == arrow.NULL {
			lb.t = pgTypeOfArrow(t)
		}
		if rt.ID() == arrow.NULL {
			rb.t = pgTypeOfArrow(t)
		}
		pt := commonPG([]bound{lb, rb}, pgTypeOfArrow(t))
		if t.ID() == arrow.NULL {
			t, pt = expr.Text, tText
		}
		name := left.cols[i].Name
		lp.exprs = append(lp.exprs, castIfNeeded(lb.e, t))
		lp.cols = append(lp.cols, b.newCol(name, pt, t))
		rp.exprs = append(rp.exprs, castIfNeeded(rb.e, t))
		rp.cols = append(rp.cols, b.newCol(name, pt, t))
		id := b.newCol(name, pt, t)
		sr.cols = append(sr.cols, id)
		p.cols = append(p.cols, pgtypes.Column{Name: name, TypeOID: pt.OID, Typmod: pt.Typmod})
	}
	sr.ins = []rel{lp, rp}
	sr.inCols = [][]colID{lp.cols, rp.cols}
	var r rel = sr
	if sr.op == "union" && !sr.all {
		sr.all = true
		r = &aggRel{in: sr, groups: refsTo(b, sr.cols), groupCols: sr.cols}
	}
	p.out = sr.cols
	for i := range p.out {
		// Both sides untyped: the result stays untyped for an enclosing
		// set operation.
		p.untyped = append(p.untyped, left.isUntyped(i) && right.isUntyped(i))
	}
	saved := b.enterQuery()
	it := &rangeItem{name: "*SELECT*"}
	for i, id := range p.out {
		it.cols = append(it.cols, itemCol{name: p.cols[i].Name, id: id})
	}
	b.scope.items = append(b.scope.items, it)
	r, err = b.orderAndLimit(sel, r, p)
	b.leaveQuery(saved)
	if err != nil {
		return nil, err
	}
	p.root = r
	p.finish(b)
	return p, nil
}
