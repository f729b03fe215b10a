package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// bindConflictUpdate binds DO UPDATE SET ... [WHERE ...] in the scope of
// the target (the existing row) and EXCLUDED (the proposed one): the
// updated row, one expression per table column typed as the column, and
// the condition (true without WHERE).
func (b *Binder) bindConflictUpdate(u *upsert) ([]expr.Expr, expr.Expr, error) {
	tg := u.tg
	set := refsTo(b, tg.ids)
	assigned := map[int]bool{}
	for _, n := range u.oc.TargetList {
		rt := n.GetResTarget()
		if rt == nil {
			return nil, nil, pgerr.NotYet("this SET item")
		}
		if len(rt.Indirection) > 0 {
			return nil, nil, b.ErrAt(pgerr.NotYet("SET of a field or element of a column"), rt.Location)
		}
		i := FindColumn(tg.cols, rt.Name, b.identQuoted(rt.Location, 0))
		if i < 0 {
			return nil, nil, b.ErrAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", rt.Name, tg.tn.Name), rt.Location)
		}
		if assigned[i] {
			return nil, nil, b.ErrAt(pgerr.New(pgerr.SyntaxError, "multiple assignments to same column \"%s\"", rt.Name), rt.Location)
		}
		assigned[i] = true
		val, err := b.setSource(rt.Val)
		if err != nil {
			return nil, nil, err
		}
		if val.GetSetToDefault() != nil {
			d, err := b.ColumnDefault(tg.table, tg.schema.Fields[i], tg.cols[i])
			if err != nil {
				return nil, nil, err
			}
			set[i] = d
			continue
		}
		b.where = "UPDATE"
		x, err := b.Expr(val)
		b.where = ""
		if err != nil {
			return nil, nil, err
		}
		if set[i], err = b.Assign(x, tg.cols[i], NodeLocation(val)); err != nil {
			return nil, nil, err
		}
	}
	if b.LitErr != nil {
		return nil, nil, b.LitErr
	}
	if u.oc.WhereClause == nil {
		return set, &expr.Lit{V: true, T: expr.Bool}, nil
	}
	b.where = "WHERE"
	w, err := b.Expr(u.oc.WhereClause)
	b.where = ""
	if err != nil {
		return nil, nil, err
	}
	where, err := b.asBool(w, "WHERE", NodeLocation(u.oc.WhereClause))
	if err != nil {
		return nil, nil, err
	}
	if b.LitErr != nil {
		return nil, nil, b.LitErr
	}
	return set, where, nil
}

// setSource is the expression a SET item assigns: the item's value, or
// for (a, b) = (x, y) the element of the row that goes to this column.
func (b *Binder) setSource(val *pg.Node) (*pg.Node, error) {
	mar := val.GetMultiAssignRef()
	if mar == nil {
		return val, nil
	}
	row := mar.Source.GetRowExpr()
	if row == nil {
		if mar.Source.GetSubLink() != nil {
			return nil, b.ErrAt(pgerr.NotYet("a subquery as the source of a multiple-column SET"), NodeLocation(mar.Source))
		}
		return nil, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported, "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression"), NodeLocation(mar.Source))
	}
	if len(row.Args) != int(mar.Ncolumns) {
		return nil, b.ErrAt(pgerr.New(pgerr.SyntaxError, "number of columns does not match number of values"), row.Location)
	}
	return row.Args[mar.Colno-1], nil
}
