package bind

import (
	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// The binder's side of the JSON building functions and aggregates
// (json_build_object, to_json, row_to_json, json_agg...; their
// definitions are package translate/jsonfunc, found through
// Env.JSONFuncs): the names func.go binds through them, and the API they
// bind with beyond the function API (funcdef.go): a whole-row reference
// as its columns (WholeRow), a json or jsonb value as its text
// (JSONText), the aggregate and window forms (AggregateWith,
// WindowFuncWith). COALESCE over json values is bound here (jsonCoalesce).

// JSONFuncs binds the JSON building functions and aggregates.
type JSONFuncs interface {
	// Build binds json_build_object, json_build_array, to_json, to_jsonb,
	// row_to_json, array_to_json and their jsonb forms.
	Build(b *Binder, fc *pg.FuncCall, name string) (Bound, error)
	// Aggregate binds json_agg, jsonb_agg, json_object_agg and
	// jsonb_object_agg, as aggregates or over a window.
	Aggregate(b *Binder, fc *pg.FuncCall, name string) (Bound, error)
	// Modify binds jsonb's modification operators: jsonb || jsonb,
	// jsonb - text, jsonb - int, jsonb - text[] and jsonb #- text[].
	Modify(b *Binder, op string, l, r Bound, loc int32) (Bound, bool, error)
}

// jsonBuildFuncs are the scalar functions JSONFuncs.Build binds.
var jsonBuildFuncs = map[string]bool{"json_build_object": true, "jsonb_build_object": true,
	"json_build_array": true, "jsonb_build_array": true, "to_json": true, "to_jsonb": true, "row_to_json": true, "array_to_json": true}

// jsonAggregates are the aggregates JSONFuncs.Aggregate binds.
var jsonAggregates = map[string]bool{"json_agg": true, "jsonb_agg": true, "json_object_agg": true, "jsonb_object_agg": true}

func (b *Binder) jsonBuild(fc *pg.FuncCall, name string) (Bound, error) {
	f := b.env.JSONFuncs()
	if f == nil {
		return Bound{}, b.ErrAt(pgerr.NotYet(name), fc.Location)
	}
	return f.Build(b, fc, name)
}

func (b *Binder) jsonAggregate(fc *pg.FuncCall, name string) (Bound, error) {
	f := b.env.JSONFuncs()
	if f == nil {
		return Bound{}, b.ErrAt(pgerr.NotYet(name), fc.Location)
	}
	return f.Aggregate(b, fc, name)
}

func (b *Binder) jsonbModifyOperator(op string, l, r Bound, loc int32) (Bound, bool, error) {
	f := b.env.JSONFuncs()
	if f == nil {
		return Bound{}, true, b.ErrAt(pgerr.NotYet("jsonb "+op), loc)
	}
	return f.Modify(b, op, l, r, loc)
}

// JSONBText binds x as jsonb: a jsonb value as it is, an untyped literal
// or text parsed as JSON (22P02 for bad JSON); ok is false for any other
// value.
func (b *Binder) JSONBText(x Bound) (Bound, bool) { return b.jsonbText(x) }

// IsJSONB reports a value typed jsonb.
func IsJSONB(x Bound) bool { return isJSONB(x) }

// UndefinedOperator is PostgreSQL's error for an operator with no
// definition for its operands' types.
func UndefinedOperator(op string, args []Bound) *pgerr.Error { return undefinedOperator(op, args) }

// AggregateWith binds aggregate name over fc's ORDER BY, FILTER and
// DISTINCT, its arguments bound by bindArgs (inside the aggregate).
func (b *Binder) AggregateWith(fc *pg.FuncCall, name string, bindArgs func() ([]Bound, error)) (Bound, error) {
	return b.aggregateWith(fc, name, bindArgs)
}

// WindowFuncWith binds window function name over fc's window, its
// arguments bound by bindArgs.
func (b *Binder) WindowFuncWith(fc *pg.FuncCall, name string, bindArgs func() ([]Bound, error)) (Bound, error) {
	return b.windowFuncWith(fc, name, bindArgs)
}

// IsRowKey reports a ROW(...) the binder made to compare rows, not one
// the statement wrote.
func IsRowKey(r *pg.RowExpr) bool { return isRowKey(r) }

// WholeRow binds a column reference naming a FROM item (t, or t.*) as its
// columns; ok is false when cr names a column.
func (b *Binder) WholeRow(cr *pg.ColumnRef) (keys []string, vals []Bound, ok bool, err error) {
	var parts []string
	star := false
	for _, f := range cr.Fields {
		switch f.Node.(type) {
		case *pg.Node_String_:
			parts = append(parts, f.GetString_().Sval)
		case *pg.Node_AStar:
			star = true
		}
	}
	if len(parts) == 0 || !star && len(parts) > 1 {
		// a.b is column b of a; only t and [schema.]t.* name a whole row.
		return nil, nil, false, nil
	}
	if !star {
		// A column of that name wins over a FROM item, as in PostgreSQL.
		if _, err := b.columnRef(cr); err == nil {
			return nil, nil, false, nil
		} else if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.UndefinedColumn && pe.Code != pgerr.UndefinedTable && pe.Code != pgerr.FeatureNotSupported {
			return nil, nil, false, nil
		}
	}
	for s := b.scope; s != nil; s = s.parent {
		it := s.findItem(parts)
		if it == nil {
			continue
		}
		for _, c := range it.cols {
			if c.hidden {
				continue
			}
			r := b.ref(c.id)
			r.Name = c.name
			if s != b.scope {
				if r, err = b.outerRef(s, r, c.name, cr.Location); err != nil {
					return nil, nil, true, err
				}
			}
			keys = append(keys, c.name)
			vals = append(vals, r)
		}
		return keys, vals, true, nil
	}
	if star {
		return nil, nil, true, b.ErrAt(pgerr.New(pgerr.UndefinedTable, "missing FROM-clause entry for table \"%s\"", parts[len(parts)-1]), cr.Location)
	}
	return nil, nil, false, nil
}

// jsonCoalesce binds COALESCE over json or jsonb values (with untyped
// literals, as coalesce(json_agg(x), '[]') writes it): ok is false unless
// the typed arguments are all json or all jsonb.
func (b *Binder) jsonCoalesce(args []Bound, loc int32) (Bound, bool, error) {
	var t *plan.Type
	for _, a := range args {
		if a.Unknown() {
			continue
		}
		if a.T.OID != pgtypes.JSON && a.T.OID != pgtypes.JSONB || t != nil && t.OID != a.T.OID {
			return Bound{}, false, nil
		}
		at := plan.Type{OID: a.T.OID, Typmod: -1}
		t = &at
	}
	if t == nil {
		return Bound{}, false, nil
	}
	in := make([]Bound, len(args))
	for i, a := range args {
		c, err := b.castTo(a, *t, loc)
		if err != nil {
			return Bound{}, true, err
		}
		in[i] = Bound{E: b.JSONText(c), T: plan.TText}
	}
	r, err := b.call("coalesce", in, loc)
	r.T = *t
	return r, true, err
}

// JSONText is a json or jsonb value as its text: text as it is, a struct,
// map or list column (typed jsonb) as jsonb writes it.
func (b *Binder) JSONText(a Bound) expr.Expr {
	if a.E == nil || a.Unknown() || arrow.TypeEqual(a.E.Type(), expr.Text) {
		return b.Coerce(a, expr.Text)
	}
	return jsonbGroupable(a).E
}
