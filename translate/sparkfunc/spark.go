package sparkfunc

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// Spark's constructors of nested values, which PostgreSQL does not have:
// named_struct('a', x, 'b', y), struct(x, y) (fields named after the
// column an argument is, else col1, col2, ...) and map(k1, v1, k2, v2,
// ...). icegate types Iceberg struct and map columns jsonb, so each makes
// a jsonb object, which INSERT writes into a struct or map column by field
// name or key. array(1, 2) is ARRAY[1, 2] (translate/parse/spark_array.go).
// The date/time and round functions are ordinary calls the engine's
// catalogue resolves (engine/expr/spark_funcs.go).

// Builtins are Spark's functions by name, for bind.Env.SparkFuncs.
func Builtins() bind.FuncDefs {
	m := bind.FuncDefs{}
	for _, name := range []string{"named_struct", "struct", "map"} {
		m[name] = bind.FuncDef{Bind: bindConstructor}
	}
	for name := range sparkAliases {
		m[name] = bind.FuncDef{Bind: bindAlias}
	}
	return m
}

// bindConstructor binds named_struct, struct and map called without a
// schema; ok is false for other calls.
func bindConstructor(b *bind.Binder, fc *pg.FuncCall, name string) (bind.Bound, bool, error) {
	if len(fc.Funcname) != 1 {
		return bind.Bound{}, false, nil
	}
	switch name {
	case "named_struct", "struct", "map":
	default:
		return bind.Bound{}, false, nil
	}
	if fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 || fc.Over != nil || fc.FuncVariadic {
		return bind.Bound{}, true, b.ErrAt(pgerr.New(pgerr.WrongObjectType, "%s is not an aggregate function", name), fc.Location)
	}
	args, err := b.Exprs(fc.Args)
	if err != nil {
		return bind.Bound{}, true, err
	}
	var keys, vals []bind.Bound
	switch name {
	case "named_struct":
		if len(args) == 0 || len(args)%2 != 0 {
			return bind.Bound{}, true, b.ErrAt(pgerr.New(pgerr.UndefinedFunction,
				"function named_struct needs name, value pairs, got %d arguments", len(args)), fc.Location)
		}
		for k := 0; k < len(args); k += 2 {
			s := fc.Args[k].GetAConst().GetSval()
			if s == nil {
				return bind.Bound{}, true, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch,
					"the field names of named_struct must be string constants (argument %d)", k+1), fc.Location)
			}
			keys = append(keys, bind.Bound{E: &expr.Lit{V: s.Sval, T: expr.Text}, T: plan.TText})
			vals = append(vals, args[k+1])
		}
	case "struct":
		for k, a := range args {
			n := fmt.Sprintf("col%d", k+1)
			if cr := fc.Args[k].GetColumnRef(); cr != nil && len(cr.Fields) > 0 {
				if s := cr.Fields[len(cr.Fields)-1].GetString_(); s != nil {
					n = s.Sval
				}
			}
			keys = append(keys, bind.Bound{E: &expr.Lit{V: n, T: expr.Text}, T: plan.TText})
			vals = append(vals, a)
		}
	case "map":
		if len(args)%2 != 0 {
			return bind.Bound{}, true, b.ErrAt(pgerr.New(pgerr.UndefinedFunction,
				"function map needs key, value pairs, got %d arguments", len(args)), fc.Location)
		}
		for k := 0; k < len(args); k += 2 {
			keys = append(keys, args[k])
			vals = append(vals, args[k+1])
		}
		if keys, err = sparkCommon(b, keys, "map keys", fc.Location); err != nil {
			return bind.Bound{}, true, err
		}
		if vals, err = sparkCommon(b, vals, "map values", fc.Location); err != nil {
			return bind.Bound{}, true, err
		}
		for k, x := range keys {
			if x.IsNull() {
				return bind.Bound{}, true, b.ErrAt(pgerr.New(pgerr.NullValueNotAllowed, "cannot use null as map key"), fc.Location)
			}
			if isComposite(x) {
				return bind.Bound{}, true, b.ErrAt(pgerr.Unsupported("map keys of type %s", x.T), fc.Location)
			}
			keys[k] = bind.Bound{E: b.Coerce(x, expr.Text), T: plan.TText}
		}
	}
	fn := name
	if name == "struct" {
		fn = bind.SparkStructFn
	}
	call := &expr.Call{Fn: fn, T: expr.Text}
	for k := range keys {
		v, err := sparkJSON(b, vals[k], fc.Location)
		if err != nil {
			return bind.Bound{}, true, err
		}
		call.Args = append(call.Args, keys[k].E, v)
	}
	return bind.Bound{E: call, T: plan.TJSONB}.Named(name), true, nil
}

// isComposite reports a jsonb or array value.
func isComposite(x bind.Bound) bool {
	return !x.Unknown() && (x.T.OID == plan.TJSONB.OID || pgtypes.ElemOf(x.T.OID) != 0)
}

// sparkJSON is x as jsonb text: a jsonb value as it is, NULL as NULL,
// anything else through to_jsonb.
func sparkJSON(b *bind.Binder, x bind.Bound, loc int32) (expr.Expr, error) {
	switch {
	case x.IsNull():
		return &expr.Lit{V: nil, T: expr.Text}, nil
	case !x.Unknown() && x.T.OID == plan.TJSONB.OID:
		return x.E, nil
	}
	r, err := b.Call("to_jsonb", []bind.Bound{b.ResolveUnknown(x)}, loc)
	if err != nil {
		return nil, err
	}
	return r.E, nil
}

// sparkCommon gives a map's keys or values one type, as Spark does: the
// common type PostgreSQL would find (a quoted literal is a string, as in
// Spark), else text for scalars; jsonb and arrays must all be of one type.
func sparkCommon(b *bind.Binder, xs []bind.Bound, what string, loc int32) ([]bind.Bound, error) {
	var types []arrow.DataType
	var comp *plan.Type
	for _, x := range xs {
		if x.IsNull() {
			continue
		}
		if x.Unknown() {
			types = append(types, expr.Text) // Spark's string literal
			continue
		}
		if isComposite(x) {
			if comp != nil && *comp != x.T {
				return nil, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "%s of types %s and %s cannot be matched", what, *comp, x.T), loc)
			}
			t := x.T
			comp = &t
		}
		types = append(types, x.ArrowType())
	}
	if comp != nil {
		for _, x := range xs {
			if !x.IsNull() && (x.Unknown() || x.T != *comp) {
				return nil, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "%s of types %s and %s cannot be matched", what, *comp, x.T), loc)
			}
		}
		return xs, nil
	}
	t, err := expr.CommonType(what, types)
	if err != nil {
		t = expr.Text
	}
	out := make([]bind.Bound, len(xs))
	for k, x := range xs {
		if x.IsNull() {
			out[k] = x
			continue
		}
		out[k] = bind.Bound{E: b.Coerce(x, t), T: bind.PGTypeOfArrow(t)}
	}
	return out, nil
}

// sparkAliases are Spark functions PostgreSQL lacks that are PostgreSQL
// functions or operators under another name, with Spark's semantics:
//
//	nvl(a, b) ifnull(a, b)      coalesce(a, b)
//	lcase(s) ucase(s)           lower(s), upper(s)
//	instr(s, sub)               strpos(s, sub): 1-based, 0 when absent
//	datediff(end, start)        end::date - start::date (days, int)
//	date_add(d, n) date_sub     d::date + n, d::date - n (date); date_add(ts,
//	                            interval) is PostgreSQL 16's: ts::timestamptz + interval
//	array_contains(arr, v)      v = ANY(arr): NULL for a NULL array, and
//	                            when v is absent but arr has NULLs
var sparkAliases = map[string]struct {
	n  int
	fn string
}{
	"nvl": {2, "coalesce"}, "ifnull": {2, "coalesce"}, "lcase": {1, "lower"}, "ucase": {1, "upper"},
	"instr": {2, "strpos"}, "datediff": {2, "-"}, "date_add": {2, "+"}, "date_sub": {2, "-"},
	"array_contains": {2, "any:="},
}

// bindAlias binds a call of sparkAliases; ok is false for other names.
func bindAlias(b *bind.Binder, fc *pg.FuncCall, name string) (bind.Bound, bool, error) {
	al, found := sparkAliases[name]
	if !found || len(fc.Funcname) != 1 || fc.Over != nil || fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 {
		return bind.Bound{}, false, nil
	}
	args, err := b.Exprs(fc.Args)
	if err != nil {
		return bind.Bound{}, true, err
	}
	if len(args) != al.n {
		return bind.Bound{}, true, b.ErrAt(bind.UndefinedCall(name, args).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
	}
	toDate := func(k int) error {
		if args[k].Unknown() || args[k].T.OID != plan.TDate.OID {
			d, err := b.CastTo(args[k], plan.TDate, fc.Location)
			if err != nil {
				return err
			}
			args[k] = d
		}
		return nil
	}
	switch name {
	case "datediff":
		if err := toDate(0); err != nil {
			return bind.Bound{}, true, err
		}
		if err := toDate(1); err != nil {
			return bind.Bound{}, true, err
		}
	case "date_add", "date_sub":
		if name == "date_add" && !args[1].Unknown() && args[1].T.OID == plan.TInterval.OID {
			// PostgreSQL 16's date_add(timestamptz, interval) wins.
			ts, err := b.CastTo(args[0], plan.TTimestamptz, fc.Location)
			if err != nil {
				return bind.Bound{}, true, err
			}
			args[0] = ts
			break
		}
		if err := toDate(0); err != nil {
			return bind.Bound{}, true, err
		}
		if args[1].Unknown() {
			args[1] = bind.Bound{E: b.Coerce(args[1], expr.Int4), T: plan.TInt4}
		}
	case "array_contains":
		args[0], args[1] = b.ResolveUnknown(args[1]), args[0]
		if args[1].Unknown() {
			if arr := pgtypes.ArrayOf(args[0].T.OID); arr != 0 {
				t := plan.Type{OID: arr, Typmod: -1}
				args[1] = bind.Bound{E: b.Coerce(args[1], plan.ArrowOf(t)), T: t}
			}
		}
	}
	r, err := b.Call(al.fn, args, fc.Location)
	if err != nil {
		return bind.Bound{}, true, err
	}
	return r.Named(name), true, nil
}
