package translate

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// bindValues binds VALUES (...), (...) [ORDER BY ...] [LIMIT ...]: constant
// rows whose columns (column1, column2, ...) take the common type of their
// values. ORDER BY may name the columns, their ordinals or expressions of
// them.
func (b *binder) bindValues(sel *pg.SelectStmt, p *selectPlan) (*selectPlan, error) {
	var rows [][]bound
	for _, n := range sel.ValuesLists {
		items := n.GetList().GetItems()
		if len(rows) > 0 && len(items) != len(rows[0]) {
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "VALUES lists must all be the same length"), nodeLocation(n))
		}
		row := make([]bound, len(items))
		for i, it := range items {
			if containsAggregate(it) {
				return nil, b.errAt(pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in VALUES"), nodeLocation(it))
			}
			x, err := b.expr(it)
			if err != nil {
				return nil, err
			}
			row[i] = x
		}
		rows = append(rows, row)
	}
	ncol := len(rows[0])
	p.values = make([][]expr.Expr, len(rows))
	for r := range rows {
		p.values[r] = make([]expr.Expr, ncol)
	}
	sc := &scope{pos: map[int]int{}}
	for c := 0; c < ncol; c++ {
		col := make([]bound, len(rows))
		types := make([]arrow.DataType, len(rows))
		for r := range rows {
			col[r], types[r] = rows[r][c], rows[r][c].arrowType()
		}
		t, err := expr.CommonType("VALUES", types)
		if err != nil {
			return nil, b.errAt(err, nodeLocation(sel.ValuesLists[0]))
		}
		for r := range rows {
			p.values[r][c] = b.coerce(col[r], t)
		}
		pt := commonPG(col, pgTypeOfArrow(t))
		name := fmt.Sprintf("column%d", c+1)
		sc.cols = append(sc.cols, column{Name: name, Type: pt, Arrow: t})
		sc.use(c)
		p.output = append(p.output, &expr.Col{Idx: c, Name: name, T: t})
		p.cols = append(p.cols, pgtypes.Column{Name: name, TypeOID: pt.OID, Typmod: pt.Typmod})
	}
	if b.litErr != nil {
		return nil, b.litErr
	}
	b.scope = sc
	targets := make([]target, ncol)
	for c := range targets {
		targets[c] = target{name: sc.cols[c].Name, e: bound{e: p.output[c], t: sc.cols[c].Type}}
	}
	var err error
	if p.sort, err = b.bindOrderBy(sel.SortClause, targets, false); err != nil {
		return nil, err
	}
	if p.limit, err = b.limitValue(sel.LimitCount, "LIMIT"); err != nil {
		return nil, err
	}
	off, err := b.limitValue(sel.LimitOffset, "OFFSET")
	if err != nil {
		return nil, err
	}
	if off > 0 {
		p.offset = off
	}
	return p, nil
}
