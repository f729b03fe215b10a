package jsonfunc

import (
	"fmt"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// JSON building functions and aggregates (engine/expr/json_build.go):
// each value becomes a JSON fragment (to_json or to_jsonb of it; a json or
// jsonb value as it is; a row, whole-row reference or ROW(...) an object
// of its columns) and the functions assemble fragments. json_agg and its
// kin aggregate the fragments with array_agg (so ORDER BY, FILTER and
// DISTINCT work as there) and assemble the list.

var tJSON = plan.Type{OID: pgtypes.JSON, Typmod: -1}

// aggregateFinish are the aggregates bound here, with the function that
// assembles their aggregated fragments.
var aggregateFinish = map[string]string{"json_agg": "json_agg_finish", "jsonb_agg": "jsonb_agg_finish",
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
func frag(b *bind.Binder, n *pg.Node, jsonb, polymorphic bool, loc int32) (expr.Expr, jsonFragCategory, error) {
	if row, ok, err := row(b, n, jsonb, loc); ok || err != nil {
		return row, jsonFragComposite, err
	}
	a, err := b.Expr(n)
	if err != nil {
		return nil, 0, err
	}
	if polymorphic && a.Unknown() {
		return nil, 0, b.ErrAt(errUnknownPolymorphic(), loc)
	}
	e, err := fragOf(b, b.ResolveUnknown(a), jsonb, loc)
	cat := jsonFragScalar
	if pgtypes.ElemOf(a.T.OID) != 0 {
		cat = jsonFragComposite
	}
	return e, cat, err
}

// jsonFragOf is a bound value as a JSON fragment.
func fragOf(b *bind.Binder, a bind.Bound, jsonb bool, loc int32) (expr.Expr, error) {
	switch a.T.OID {
	case pgtypes.JSON, pgtypes.JSONB:
		return b.JSONText(a), nil
	}
	fn := "to_json"
	if jsonb {
		fn = "to_jsonb"
	}
	r, err := b.Call(fn, []bind.Bound{a}, loc)
	if err != nil {
		return nil, err
	}
	return r.E, nil
}

// jsonRow binds n when it is a row: ROW(...) (keys f1, f2, ...) or a
// whole-row reference to a FROM item (t or t.*; keys its column names).
func row(b *bind.Binder, n *pg.Node, jsonb bool, loc int32) (expr.Expr, bool, error) {
	fn := "json_row"
	if jsonb {
		fn = "jsonb_build_object"
	}
	var keys []string
	var vals []bind.Bound
	if r := n.GetRowExpr(); r != nil && !bind.IsRowKey(r) {
		// Fields may be rows themselves.
		call := &expr.Call{Fn: fn, T: expr.Text}
		for i, a := range r.Args {
			f, _, err := frag(b, a, jsonb, false, loc)
			if err != nil {
				return nil, true, err
			}
			call.Args = append(call.Args, &expr.Lit{V: fmt.Sprintf("f%d", i+1), T: expr.Text}, f)
		}
		return call, true, nil
	} else if cr := n.GetColumnRef(); cr != nil {
		var ok bool
		var err error
		keys, vals, ok, err = b.WholeRow(cr)
		if !ok || err != nil {
			return nil, ok, err
		}
	} else {
		return nil, false, nil
	}
	call := &expr.Call{Fn: fn, T: expr.Text}
	for i, v := range vals {
		f, err := fragOf(b, v, jsonb, loc)
		if err != nil {
			return nil, true, err
		}
		call.Args = append(call.Args, &expr.Lit{V: keys[i], T: expr.Text}, f)
	}
	return call, true, nil
}

// jsonBuild binds json_build_object, json_build_array, to_json, to_jsonb,
// row_to_json, array_to_json and their jsonb forms.
func bindBuild(b *bind.Binder, fc *pg.FuncCall, name string) (bind.Bound, error) {
	jsonb := name[:5] == "jsonb" || name == "to_jsonb"
	t := tJSON
	if jsonb {
		t = plan.TJSONB
	}
	if fc.FuncVariadic {
		return bind.Bound{}, b.ErrAt(pgerr.NotYet("VARIADIC"), fc.Location)
	}
	switch name {
	case "array_to_json":
		if len(fc.Args) == 2 {
			if c := fc.Args[1].GetAConst(); c == nil || c.GetBoolval().GetBoolval() {
				return bind.Bound{}, b.ErrAt(pgerr.NotYet("array_to_json with a pretty argument other than false"), fc.Location)
			}
		} else if len(fc.Args) != 1 {
			return bind.Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
		}
		a, err := b.Expr(fc.Args[0])
		if err != nil {
			return bind.Bound{}, err
		}
		if a.Unknown() {
			return bind.Bound{}, b.ErrAt(errUnknownPolymorphic(), fc.Location)
		}
		if pgtypes.ElemOf(a.T.OID) == 0 {
			return bind.Bound{}, b.ErrAt(bind.UndefinedCall(name, []bind.Bound{a}), fc.Location)
		}
		e, err := fragOf(b, a, false, fc.Location)
		return bind.Bound{E: e, T: t}.Named(name), err
	case "to_json", "to_jsonb", "row_to_json":
		if len(fc.Args) != 1 && !(name == "row_to_json" && len(fc.Args) == 2) {
			return bind.Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
		}
		pretty := false
		if len(fc.Args) == 2 {
			// row_to_json(x, pretty): a line per top-level field.
			c := fc.Args[1].GetAConst()
			if c == nil || c.GetBoolval() == nil && !c.Isnull {
				return bind.Bound{}, b.ErrAt(pgerr.NotYet("row_to_json with a pretty argument other than true or false"), fc.Location)
			}
			pretty = c.GetBoolval().GetBoolval()
		}
		if row, ok, err := row(b, fc.Args[0], jsonb, fc.Location); ok || err != nil {
			if call, isCall := row.(*expr.Call); pretty && isCall {
				call.Fn = "json_row_pretty"
			}
			return bind.Bound{E: row, T: t}.Named(name), err
		}
		a, err := b.Expr(fc.Args[0])
		if err != nil {
			return bind.Bound{}, err
		}
		if a.Unknown() {
			return bind.Bound{}, b.ErrAt(errUnknownPolymorphic(), fc.Location)
		}
		if name == "row_to_json" {
			return bind.Bound{}, b.ErrAt(bind.UndefinedCall(name, []bind.Bound{a}), fc.Location)
		}
		if name == "to_jsonb" {
			r, err := b.Call(name, []bind.Bound{a}, fc.Location)
			return r.Named(name), err
		}
		e, err := fragOf(b, a, false, fc.Location)
		return bind.Bound{E: e, T: t}.Named(name), err
	}
	object := name == "json_build_object" || name == "jsonb_build_object"
	if object && len(fc.Args)%2 != 0 {
		return bind.Bound{}, b.ErrAt(pgerr.New(pgerr.InvalidParameterValue, "argument list must have even number of elements").
			WithHint("The arguments of %s() must consist of alternating keys and values.", name), fc.Location)
	}
	call := &expr.Call{Fn: name, T: expr.Text}
	for i, n := range fc.Args {
		if object && i%2 == 0 {
			k, err := b.Expr(n)
			if err != nil {
				return bind.Bound{}, err
			}
			call.Args = append(call.Args, b.Coerce(b.ResolveUnknown(k), expr.Text))
			continue
		}
		f, _, err := frag(b, n, jsonb, false, fc.Location)
		if err != nil {
			return bind.Bound{}, err
		}
		call.Args = append(call.Args, f)
	}
	return bind.Bound{E: call, T: t}.Named(name), nil
}

// jsonAggregate binds json_agg, jsonb_agg, json_object_agg and
// jsonb_object_agg as array_agg of fragments, assembled.
func bindAggregate(b *bind.Binder, fc *pg.FuncCall, name string) (bind.Bound, error) {
	jsonb := name[:5] == "jsonb"
	object := name == "json_object_agg" || name == "jsonb_object_agg"
	want := 1
	if object {
		want = 2
	}
	if len(fc.Args) != want || fc.AggStar {
		return bind.Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
	}
	finish := aggregateFinish[name]
	bindAgg := b.AggregateWith
	if fc.Over != nil {
		bindAgg = b.WindowFuncWith // over a window: array_agg's window form
	}
	r, err := bindAgg(fc, "array_agg", func() ([]bind.Bound, error) {
		if !object {
			f, cat, err := frag(b, fc.Args[0], jsonb, true, fc.Location)
			if cat == jsonFragComposite && !jsonb {
				finish = "json_agg_finish_nl"
			}
			return []bind.Bound{{E: f, T: plan.TText}}, err
		}
		k, err := b.Expr(fc.Args[0])
		if err != nil {
			return nil, err
		}
		v, _, err := frag(b, fc.Args[1], jsonb, false, fc.Location)
		if err != nil {
			return nil, err
		}
		pair := &expr.Call{Fn: "json_object_pair", Args: []expr.Expr{b.Coerce(b.ResolveUnknown(k), expr.Text), v}, T: expr.Text}
		return []bind.Bound{{E: pair, T: plan.TText}}, nil
	})
	if err != nil {
		return bind.Bound{}, err
	}
	t := tJSON
	if jsonb {
		t = plan.TJSONB
	}
	return bind.Bound{E: &expr.Call{Fn: finish, Args: []expr.Expr{r.E}, T: expr.Text}, T: t}.Named(name), nil
}

// errUnknownPolymorphic is PostgreSQL's error for an untyped literal given
// to an anyelement argument.
func errUnknownPolymorphic() *pgerr.Error {
	return pgerr.New(pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
}

// Funcs binds the JSON building functions and aggregates for the binder
// (bind.Env.JSONFuncs).
type Funcs struct{}

var _ bind.JSONFuncs = Funcs{}

// Build binds json_build_object, json_build_array, to_json, to_jsonb,
// row_to_json, array_to_json and their jsonb forms.
func (Funcs) Build(b *bind.Binder, fc *pg.FuncCall, name string) (bind.Bound, error) {
	return bindBuild(b, fc, name)
}

// Aggregate binds json_agg, jsonb_agg, json_object_agg and
// jsonb_object_agg.
func (Funcs) Aggregate(b *bind.Binder, fc *pg.FuncCall, name string) (bind.Bound, error) {
	return bindAggregate(b, fc, name)
}

// Modify binds jsonb's modification operators (modify.go).
func (Funcs) Modify(b *bind.Binder, op string, l, r bind.Bound, loc int32) (bind.Bound, bool, error) {
	return bindModify(b, op, l, r, loc)
}
