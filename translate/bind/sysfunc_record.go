package bind

import (
	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// information_schema._pg_expandarray(anyarray) and the composite values it
// returns. pgJDBC's getPrimaryKeys selects
//
//	(information_schema._pg_expandarray(i.indkey)).n AS KEY_SEQ,
//	information_schema._pg_expandarray(i.indkey) AS KEYS
//
// and compares (result.KEYS).x outside: one row per element of indkey, the
// two calls in step. A call is bound as unnest over a list of (x, n)
// structs (engine/expr's _pg_expandarray kernel); the same call twice in
// one select list reads the same rows; (value).field selects a field
// (FieldSelection).

// expandArraySRF binds information_schema._pg_expandarray(array) in a
// select list: a column of the composite type (x, n).
func (b *Binder) expandArraySRF(fc *pg.FuncCall) (Bound, error) {
	if b.win == nil || b.where != "" || b.inAgg {
		where := b.where
		if where == "" {
			where = "this context"
		}
		return Bound{}, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed in %s", where), fc.Location)
	}
	args, err := b.exprs(fc.Args)
	if err != nil {
		return Bound{}, err
	}
	if len(args) != 1 || args[0].Unknown() {
		return Bound{}, b.ErrAt(UndefinedCall("information_schema._pg_expandarray", args), fc.Location)
	}
	lt, ok := args[0].E.Type().(*arrow.ListType)
	if !ok {
		return Bound{}, b.ErrAt(UndefinedCall("information_schema._pg_expandarray", args), fc.Location)
	}
	call := &expr.Call{Fn: "_pg_expandarray", Args: []expr.Expr{args[0].E}, T: expr.ExpandArrayType(lt.Elem())}
	key := call.String()
	for _, p := range b.pending {
		if p.srf == nil {
			continue
		}
		if p.srf.Fn == "unnest" && len(p.srf.Args) == 1 && p.srf.Args[0].String() == key {
			r := b.ref(p.srf.Cols[0])
			r.Name = "_pg_expandarray"
			return r, nil
		}
		return Bound{}, b.ErrAt(pgerr.NotYet("several set-returning functions in one select list"), fc.Location)
	}
	id := b.newCol("_pg_expandarray", plan.Type{OID: pgtypes.Record, Typmod: -1}, call.T.(*arrow.ListType).Elem())
	b.pending = append(b.pending, pendingJoin{srf: &plan.TableFunc{Fn: "unnest", Args: []expr.Expr{call}, Cols: []plan.ColID{id}}})
	r := b.ref(id)
	r.Name = "_pg_expandarray"
	return r, nil
}

// FieldSelection binds (x).field on a composite value (an Arrow struct):
// the field's value, named after the field. For the indirection binder:
// a String indirection of A_Indirection.
func (b *Binder) FieldSelection(x Bound, field string, loc int32) (Bound, error) {
	st, ok := x.E.Type().(*arrow.StructType)
	if !ok {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.WrongObjectType,
			"column notation .%s applied to type %s, which is not a composite type", field, x.T), loc)
	}
	idx, found := st.FieldIdx(field)
	if !found {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedColumn, "column \"%s\" not found in data type %s", field, x.T), loc)
	}
	ft := st.Field(idx).Type
	return Bound{
		E:    &expr.Call{Fn: "_record_field", Args: []expr.Expr{x.E, &expr.Lit{V: int32(idx), T: expr.Int4}}, T: ft},
		T:    pgTypeOfArrow(ft),
		Name: field, strong: true,
	}, nil
}
