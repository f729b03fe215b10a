package translate

import (
	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// arrayExpr binds ARRAY[a, b, ...]: the elements take their common type.
func (b *binder) arrayExpr(a *pg.A_ArrayExpr) (bound, error) {
	if len(a.Elements) == 0 {
		return bound{}, b.errAt(pgerr.New("42P18", "cannot determine type of empty array").
			WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[]."), a.Location)
	}
	elems, err := b.exprs(a.Elements)
	if err != nil {
		return bound{}, err
	}
	types := make([]arrow.DataType, len(elems))
	for i, e := range elems {
		types[i] = e.arrowType()
	}
	t, err := expr.CommonType("ARRAY", types)
	if err != nil {
		return bound{}, b.errAt(err, a.Location)
	}
	if t.ID() == arrow.NULL {
		t = expr.Text
	}
	for i := range elems {
		elems[i] = bound{e: b.coerce(elems[i], t), t: pgTypeOfArrow(t)}
	}
	r, err := b.call("array", elems, a.Location)
	if err != nil {
		return bound{}, err
	}
	if arr := pgtypes.ArrayOf(commonPG(elems, pgTypeOfArrow(t)).OID); arr != 0 {
		r.t = pgType{arr, -1}
	}
	r.name, r.strong = "array", true
	return r, nil
}

// indirection binds x[i], x[lo:hi] (arrays) on any expression.
func (b *binder) indirection(ind *pg.A_Indirection) (bound, error) {
	x, err := b.expr(ind.Arg)
	if err != nil {
		return bound{}, err
	}
	loc := nodeLocation(ind.Arg)
	for _, n := range ind.Indirection {
		idx := n.GetAIndices()
		if idx == nil {
			return bound{}, b.errAt(notYet("field selection from a composite value"), loc)
		}
		if pgtypes.ElemOf(x.t.OID) == 0 && x.t.OID != tJSONB.OID {
			return bound{}, b.errAt(pgerr.New(pgerr.DatatypeMismatch,
				"cannot subscript type %s because it does not support subscripting", x.t), loc)
		}
		bound1 := func(n *pg.Node) (bound, error) {
			if n == nil {
				return bound{e: &expr.Lit{V: nil, T: expr.Int4}, t: tInt4}, nil
			}
			v, err := b.expr(n)
			if err != nil {
				return bound{}, err
			}
			return bound{e: b.coerce(v, expr.Int4), t: tInt4}, nil
		}
		elemType := pgType{pgtypes.ElemOf(x.t.OID), -1}
		if idx.IsSlice {
			lo, err := bound1(idx.Lidx)
			if err != nil {
				return bound{}, err
			}
			hi, err := bound1(idx.Uidx)
			if err != nil {
				return bound{}, err
			}
			r, err := b.call("array_slice", []bound{x, lo, hi}, loc)
			if err != nil {
				return bound{}, err
			}
			r.t, r.name, r.strong = x.t, x.name, x.strong
			x = r
			continue
		}
		i, err := bound1(idx.Uidx)
		if err != nil {
			return bound{}, err
		}
		r, err := b.call("array_subscript", []bound{x, i}, loc)
		if err != nil {
			return bound{}, err
		}
		if elemType.OID != 0 {
			r.t = elemType
		}
		r.name, r.strong = x.name, x.strong // a subscript keeps its array's name
		x = r
	}
	return x, nil
}
