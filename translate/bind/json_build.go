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

// JSON building functions and aggregates (engine/expr/json_build.go):
// each value becomes a JSON fragment (to_json or to_jsonb of it; a json or
// jsonb value as it is; a row, whole-row reference or ROW(...) an object
// of its columns) and the functions assemble fragments. json_agg and its
// kin aggregate the fragments with array_agg (so ORDER BY, FILTER and
// DISTINCT work as there) and assemble the list.

var tJSON = plan.Type{OID: pgtypes.JSON, Typmod: -1}

// jsonBuildFuncs are the scalar functions bound here.
var jsonBuildFuncs = map[string]bool{"json_build_object": true, "jsonb_build_object": true,
	"json_build_array": true, "jsonb_build_array": true, "to_json": true, "to_jsonb": true, "row_to_json": true, "array_to_json": true}

// jsonAggregates are the aggregates bound here, with the function that
// assembles their aggregated fragments.
var jsonAggregates = map[string]string{"json_agg": "json_agg_finish", "jsonb_agg": "jsonb_agg_finish",
	"json_object_agg": "json_object_agg_finish", "jsonb_object_agg": "jsonb_object_agg_finish"}

// jsonFragCategory says what a fragment holds: json_agg puts a line break
// before rows and arrays after the first.
type jsonFragCategory int

const (
	jsonFragScalar jsonFragCategory = iota
	jsonFragComposite
)

// jsonFrag binds n as a JSON fragment: text holding JSON (NULL for SQL
// NULL), written as json writes it, or as jsonb does when jsonb.
// An untyped literal is text, or refused when polymorphic (the argument
// of to_json, json_agg: "anyelement" in PostgreSQL).
func (b *Binder) jsonFrag(n *pg.Node, jsonb, polymorphic bool, loc int32) (expr.Expr, jsonFragCategory, error) {
	if row, ok, err := b.jsonRow(n, jsonb, loc); ok || err != nil {
		return row, jsonFragComposite, err
	}
	a, err := b.Expr(n)
	if err != nil {
		return nil, 0, err
	}
	if polymorphic && a.Unknown() {
		return nil, 0, b.ErrAt(errUnknownPolymorphic(), loc)
	}
	e, err := b.jsonFragOf(a.resolveUnknownIn(b), jsonb, loc)
	cat := jsonFragScalar
	if pgtypes.ElemOf(a.T.OID) != 0 {
		cat = jsonFragComposite
	}
	return e, cat, err
}

// jsonFragOf is a bound value as a JSON fragment.
func (b *Binder) jsonFragOf(a Bound, jsonb bool, loc int32) (expr.Expr, error) {
	switch a.T.OID {
	case pgtypes.JSON, pgtypes.JSONB:
		return b.jsonText(a), nil
	}
	fn := "to_json"
	if jsonb {
		fn = "to_jsonb"
	}
	r, err := b.call(fn, []Bound{a}, loc)
	if err != nil {
		return nil, err
	}
	return r.E, nil
}

// jsonRow binds n when it is a row: ROW(...) (keys f1, f2, ...) or a
// whole-row reference to a FROM item (t or t.*; keys its column names).
func (b *Binder) jsonRow(n *pg.Node, jsonb bool, loc int32) (expr.Expr, bool, error) {
	fn := "json_row"
	if jsonb {
		fn = "jsonb_build_object"
	}
	var keys []string
	var vals []Bound
	if r := n.GetRowExpr(); r != nil && !isRowKey(r) {
		// Fields may be rows themselves.
		call := &expr.Call{Fn: fn, T: expr.Text}
		for i, a := range r.Args {
			f, _, err := b.jsonFrag(a, jsonb, false, loc)
			if err != nil {
				return nil, true, err
			}
			call.Args = append(call.Args, &expr.Lit{V: fmt.Sprintf("f%d", i+1), T: expr.Text}, f)
		}
		return call, true, nil
	} else if cr := n.GetColumnRef(); cr != nil {
		var ok bool
		var err error
		keys, vals, ok, err = b.wholeRow(cr)
		if !ok || err != nil {
			return nil, ok, err
		}
	} else {
		return nil, false, nil
	}
	call := &expr.Call{Fn: fn, T: expr.Text}
	for i, v := range vals {
		f, err := b.jsonFragOf(v, jsonb, loc)
		if err != nil {
			return nil, true, err
		}
		call.Args = append(call.Args, &expr.Lit{V: keys[i], T: expr.Text}, f)
	}
	return call, true, nil
}

// wholeRow binds a column reference naming a FROM item (t, or t.*) as its
// columns; ok is false when cr names a column.
func (b *Binder) wholeRow(cr *pg.ColumnRef) (keys []string, vals []Bound, ok bool, err error) {
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

// jsonBuild binds json_build_object, json_build_array, to_json, to_jsonb,
// row_to_json, array_to_json and their jsonb forms.
func (b *Binder) jsonBuild(fc *pg.FuncCall, name string) (Bound, error) {
	jsonb := name[:5] == "jsonb" || name == "to_jsonb"
	t := tJSON
	if jsonb {
		t = plan.TJSONB
	}
	if fc.FuncVariadic {
		return Bound{}, b.ErrAt(pgerr.NotYet("VARIADIC"), fc.Location)
	}
	switch name {
	case "array_to_json":
		if len(fc.Args) == 2 {
			if c := fc.Args[1].GetAConst(); c == nil || c.GetBoolval().GetBoolval() {
				return Bound{}, b.ErrAt(pgerr.NotYet("array_to_json with a pretty argument other than false"), fc.Location)
			}
		} else if len(fc.Args) != 1 {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
		}
		a, err := b.Expr(fc.Args[0])
		if err != nil {
			return Bound{}, err
		}
		if a.Unknown() {
			return Bound{}, b.ErrAt(errUnknownPolymorphic(), fc.Location)
		}
		if pgtypes.ElemOf(a.T.OID) == 0 {
			return Bound{}, b.ErrAt(UndefinedCall(name, []Bound{a}), fc.Location)
		}
		e, err := b.jsonFragOf(a, false, fc.Location)
		return Bound{E: e, T: t, Name: name, strong: true}, err
	case "to_json", "to_jsonb", "row_to_json":
		if len(fc.Args) != 1 && !(name == "row_to_json" && len(fc.Args) == 2) {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
		}
		pretty := false
		if len(fc.Args) == 2 {
			// row_to_json(x, pretty): a line per top-level field.
			c := fc.Args[1].GetAConst()
			if c == nil || c.GetBoolval() == nil && !c.Isnull {
				return Bound{}, b.ErrAt(pgerr.NotYet("row_to_json with a pretty argument other than true or false"), fc.Location)
			}
			pretty = c.GetBoolval().GetBoolval()
		}
		if row, ok, err := b.jsonRow(fc.Args[0], jsonb, fc.Location); ok || err != nil {
			if call, isCall := row.(*expr.Call); pretty && isCall {
				call.Fn = "json_row_pretty"
			}
			return Bound{E: row, T: t, Name: name, strong: true}, err
		}
		a, err := b.Expr(fc.Args[0])
		if err != nil {
			return Bound{}, err
		}
		if a.Unknown() {
			return Bound{}, b.ErrAt(errUnknownPolymorphic(), fc.Location)
		}
		if name == "row_to_json" {
			return Bound{}, b.ErrAt(UndefinedCall(name, []Bound{a}), fc.Location)
		}
		if name == "to_jsonb" {
			r, err := b.call(name, []Bound{a}, fc.Location)
			r.Name, r.strong = name, true
			return r, err
		}
		e, err := b.jsonFragOf(a, false, fc.Location)
		return Bound{E: e, T: t, Name: name, strong: true}, err
	}
	object := name == "json_build_object" || name == "jsonb_build_object"
	if object && len(fc.Args)%2 != 0 {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.InvalidParameterValue, "argument list must have even number of elements").
			WithHint("The arguments of %s() must consist of alternating keys and values.", name), fc.Location)
	}
	call := &expr.Call{Fn: name, T: expr.Text}
	for i, n := range fc.Args {
		if object && i%2 == 0 {
			k, err := b.Expr(n)
			if err != nil {
				return Bound{}, err
			}
			call.Args = append(call.Args, b.Coerce(k.resolveUnknownIn(b), expr.Text))
			continue
		}
		f, _, err := b.jsonFrag(n, jsonb, false, fc.Location)
		if err != nil {
			return Bound{}, err
		}
		call.Args = append(call.Args, f)
	}
	return Bound{E: call, T: t, Name: name, strong: true}, nil
}

// jsonAggregate binds json_agg, jsonb_agg, json_object_agg and
// jsonb_object_agg as array_agg of fragments, assembled.
func (b *Binder) jsonAggregate(fc *pg.FuncCall, name string) (Bound, error) {
	jsonb := name[:5] == "jsonb"
	object := name == "json_object_agg" || name == "jsonb_object_agg"
	want := 1
	if object {
		want = 2
	}
	if len(fc.Args) != want || fc.AggStar {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
	}
	finish := jsonAggregates[name]
	bindAgg := b.aggregateWith
	if fc.Over != nil {
		bindAgg = b.windowFuncWith // over a window: array_agg's window form
	}
	r, err := bindAgg(fc, "array_agg", func() ([]Bound, error) {
		if !object {
			f, cat, err := b.jsonFrag(fc.Args[0], jsonb, true, fc.Location)
			if cat == jsonFragComposite && !jsonb {
				finish = "json_agg_finish_nl"
			}
			return []Bound{{E: f, T: plan.TText}}, err
		}
		k, err := b.Expr(fc.Args[0])
		if err != nil {
			return nil, err
		}
		v, _, err := b.jsonFrag(fc.Args[1], jsonb, false, fc.Location)
		if err != nil {
			return nil, err
		}
		pair := &expr.Call{Fn: "json_object_pair", Args: []expr.Expr{b.Coerce(k.resolveUnknownIn(b), expr.Text), v}, T: expr.Text}
		return []Bound{{E: pair, T: plan.TText}}, nil
	})
	if err != nil {
		return Bound{}, err
	}
	t := tJSON
	if jsonb {
		t = plan.TJSONB
	}
	return Bound{E: &expr.Call{Fn: finish, Args: []expr.Expr{r.E}, T: expr.Text}, T: t, Name: name, strong: true}, nil
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
		in[i] = Bound{E: b.jsonText(c), T: plan.TText}
	}
	r, err := b.call("coalesce", in, loc)
	r.T = *t
	return r, true, err
}

// errUnknownPolymorphic is PostgreSQL's error for an untyped literal given
// to an anyelement argument.
func errUnknownPolymorphic() *pgerr.Error {
	return pgerr.New(pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
}

// jsonText is a json or jsonb value as its text: text as it is, a struct,
// map or list column (typed jsonb) as jsonb writes it.
func (b *Binder) jsonText(a Bound) expr.Expr {
	if a.E == nil || a.Unknown() || arrow.TypeEqual(a.E.Type(), expr.Text) {
		return b.Coerce(a, expr.Text)
	}
	return jsonbGroupable(a).E
}
