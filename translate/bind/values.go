package bind

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// bindValues binds VALUES (...), (...) [ORDER BY ...] [LIMIT ...]: constant
// rows whose columns (column1, column2, ...) take the common type of their
// values. ORDER BY may name the columns, their ordinals or expressions of
// them.
func (b *Binder) bindValues(sel *pg.SelectStmt) (*plan.Select, error) {
	saved := b.enterQuery()
	defer b.leaveQuery(saved)
	var rows [][]Bound
	for _, n := range sel.ValuesLists {
		items := n.GetList().GetItems()
		if len(rows) > 0 && len(items) != len(rows[0]) {
			return nil, b.ErrAt(pgerr.New(pgerr.SyntaxError, "VALUES lists must all be the same length"), NodeLocation(n))
		}
		row := make([]Bound, len(items))
		for i, it := range items {
			if containsAggregate(it) {
				return nil, b.ErrAt(pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in VALUES"), NodeLocation(it))
			}
			x, err := b.Expr(it)
			if err != nil {
				return nil, err
			}
			row[i] = x
		}
		rows = append(rows, row)
	}
	if len(b.pending) > 0 {
		return nil, pgerr.NotYetPlural("correlated subqueries in VALUES")
	}
	ncol := len(rows[0])
	vr := &plan.Values{Rows: make([][]expr.Expr, len(rows))}
	for r := range rows {
		vr.Rows[r] = make([]expr.Expr, ncol)
	}
	p := &plan.Select{Cols: []pgtypes.Column{}}
	it := &rangeItem{name: "*VALUES*"}
	for c := 0; c < ncol; c++ {
		col := make([]Bound, len(rows))
		types := make([]arrow.DataType, len(rows))
		for r := range rows {
			col[r], types[r] = rows[r][c], rows[r][c].arrowType()
		}
		t, err := expr.CommonType("VALUES", types)
		if err != nil {
			return nil, b.ErrAt(err, NodeLocation(sel.ValuesLists[0]))
		}
		for r := range rows {
			vr.Rows[r][c] = b.Coerce(col[r], t)
		}
		pt := commonPG(col, pgTypeOfArrow(t))
		name := fmt.Sprintf("column%d", c+1)
		id := b.newCol(name, pt, t)
		vr.Cols = append(vr.Cols, id)
		it.cols = append(it.cols, itemCol{name: name, id: id})
		p.Cols = append(p.Cols, pgtypes.Column{Name: name, TypeOID: pt.OID, Typmod: pt.Typmod})
	}
	if b.LitErr != nil {
		return nil, b.LitErr
	}
	b.scope.items = append(b.scope.items, it)
	p.Out = vr.Cols
	r, err := b.orderAndLimit(sel, vr, p)
	if err != nil {
		return nil, err
	}
	p.Root = r
	b.finish(p)
	return p, nil
}

// orderAndLimit binds the ORDER BY and LIMIT of a VALUES list or a set
// operation over its output columns p.out.
func (b *Binder) orderAndLimit(sel *pg.SelectStmt, r plan.Rel, p *plan.Select) (plan.Rel, error) {
	targets := make([]target, len(p.Out))
	for i, id := range p.Out {
		targets[i] = target{name: p.Cols[i].Name, e: b.ref(id)}
	}
	keys, junk, err := b.bindOrderBy(sel.SortClause, targets, false)
	if err != nil {
		return nil, err
	}
	if len(junk) > 0 {
		return nil, b.ErrAt(pgerr.NotYet("ORDER BY expressions that are not output columns here"), NodeLocation(sel.SortClause[0]))
	}
	if len(keys) > 0 {
		sk := make([]plan.SortKey, len(keys))
		for i, k := range keys {
			sk[i] = k.SortKey
			sk[i].E = b.ref(p.Out[k.out]).E
		}
		r = &plan.Sort{In: r, Keys: sk}
	}
	return b.bindLimit(sel, r)
}
