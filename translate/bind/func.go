package bind

import (
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/settings"
)

// AggregateNames are the aggregate functions icegate computes.
var AggregateNames = map[string]bool{"count": true, "sum": true, "avg": true, "min": true, "max": true,
	"bool_and": true, "bool_or": true, "every": true, "string_agg": true, "array_agg": true,
	"stddev": true, "stddev_samp": true, "stddev_pop": true, "variance": true, "var_samp": true, "var_pop": true,
	"percentile_cont": true, "percentile_disc": true, "mode": true,
	"json_agg": true, "jsonb_agg": true, "json_object_agg": true, "jsonb_object_agg": true}

// orderedSetAggregates take WITHIN GROUP (ORDER BY ...).
var orderedSetAggregates = map[string]bool{"percentile_cont": true, "percentile_disc": true, "mode": true}

// funcName is the function's name without a pg_catalog qualifier.
func funcName(fc *pg.FuncCall) string {
	if len(fc.Funcname) == 0 {
		return ""
	}
	return fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval()
}

func (b *Binder) funcCall(fc *pg.FuncCall) (Bound, error) {
	if len(fc.Funcname) != 2 || fc.Funcname[0].GetString_().GetSval() != "iceberg" {
		args, err := b.positionalArgs(fc, funcName(fc)) // named_args.go
		if err != nil {
			return Bound{}, err
		}
		// The positional form means the same: a later bind of the
		// statement reads it as is.
		fc.Args = args
	}
	if r, ok, err := b.sysFunc(fc); ok {
		return r, err
	}
	name := funcName(fc)
	if len(fc.Funcname) == 2 && fc.Funcname[0].GetString_().GetSval() == "iceberg" {
		return b.icebergFunc(fc, name) // iceberg_from.go
	}
	if len(fc.Funcname) > 1 {
		schema := fc.Funcname[0].GetString_().GetSval()
		if schema != "pg_catalog" {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s.%s does not exist", schema, name), fc.Location)
		}
	}
	if r, ok, err := b.sparkFunc(fc, name); ok { // funcdef.go
		return r, err
	}
	if fc.Over != nil {
		if !exec.IsWindowOnly(name) && !AggregateNames[name] {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.WrongObjectType,
				"OVER specified, but %s is not a window function nor an aggregate function", name), fc.Location)
		}
		if _, ok := jsonAggregates[name]; ok { // json_build.go
			return b.jsonAggregate(fc, name)
		}
		return b.windowFunc(fc, name)
	}
	if exec.IsWindowOnly(name) {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.WrongObjectType, "window function %s requires an OVER clause", name), fc.Location)
	}
	if _, ok := jsonAggregates[name]; ok { // json_build.go
		return b.jsonAggregate(fc, name)
	}
	if AggregateNames[name] {
		return b.aggregate(fc, name)
	}
	if SetReturningFuncs[name] {
		return b.selectListSRF(fc, name)
	}
	if fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.WrongObjectType,
			"%s is not an aggregate function", name), fc.Location)
	}
	if jsonBuildFuncs[name] { // json_build.go
		return b.jsonBuild(fc, name)
	}
	if r, ok, err := b.constantFunc(fc, name); ok || err != nil {
		r.Name, r.strong = name, true
		return r, err
	}
	args, err := b.exprs(fc.Args)
	if err != nil {
		return Bound{}, err
	}
	if name == "concat" {
		for i := range args {
			args[i] = args[i].resolveUnknownIn(b)
		}
	}
	if name == "isfinite" && len(args) == 1 {
		r, err := b.isFinite(args[0], fc.Location)
		r.Name, r.strong = name, true
		return r, err
	}
	r, err := b.call(name, args, fc.Location)
	r.Name, r.strong = name, true
	return r, err
}

// isFinite is isfinite(date | timestamp | timestamptz | interval): whether
// the value lies between -infinity and infinity (strict: NULL for NULL);
// an interval is always finite in PostgreSQL 15.
func (b *Binder) isFinite(x Bound, loc int32) (Bound, error) {
	var lo, hi any
	switch x.T.OID {
	case pgtypes.Date:
		lo, hi = int32(pgtext.DateMinusInfinity), int32(pgtext.DateInfinity)
	case pgtypes.Timestamp, pgtypes.Timestamptz:
		lo, hi = int64(pgtext.TSMinusInfinity), int64(pgtext.TSInfinity)
	case pgtypes.Interval:
		notNull, err := b.call("isnotnull", []Bound{x}, loc)
		if err != nil {
			return Bound{}, err
		}
		return b.call("or", []Bound{notNull, {E: &expr.Lit{V: nil, T: expr.Bool}, T: plan.TBool}}, loc)
	default:
		if x.Unknown() {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.AmbiguousFunction, "function isfinite(unknown) is not unique").
				WithHint("Could not choose a best candidate function. You might need to add explicit type casts."), loc)
		}
		return Bound{}, b.ErrAt(UndefinedCall("isfinite", []Bound{x}), loc)
	}
	at := x.arrowType()
	above, err := b.call(">", []Bound{x, {E: &expr.Lit{V: lo, T: at}, T: x.T}}, loc)
	if err != nil {
		return Bound{}, err
	}
	below, err := b.call("<", []Bound{x, {E: &expr.Lit{V: hi, T: at}, T: x.T}}, loc)
	if err != nil {
		return Bound{}, err
	}
	return b.call("and", []Bound{above, below}, loc)
}

// constantFunc binds the functions that are constants for a statement:
// version(), now(), current_setting(name), current_database(),
// current_schema(), current_user, pg_backend_pid().
func (b *Binder) constantFunc(fc *pg.FuncCall, name string) (Bound, bool, error) {
	text := func(s string) Bound { return Bound{E: &expr.Lit{V: s, T: expr.Text}, T: plan.TText} }
	noArgs := func() error {
		if len(fc.Args) != 0 {
			return b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, "...").
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
		}
		return nil
	}
	switch name {
	case "version":
		return text(syscat.PGVersionString()), true, noArgs()
	case "now", "transaction_timestamp", "statement_timestamp", "clock_timestamp":
		b.params.Unstable = true // the plan holds the time
		return Bound{E: &expr.Lit{V: b.now.UnixMicro(), T: expr.Timestamptz}, T: plan.TTimestamptz}, true, noArgs()
	case "current_database":
		return text(b.env.DatabaseName()), true, noArgs()
	case "current_schema":
		s := b.env.CurrentSchema(b.ctx)
		if s == "" {
			return Bound{E: &expr.Lit{V: nil, T: expr.Text}, T: plan.TText}, true, noArgs()
		}
		return text(s), true, noArgs()
	case "current_user", "session_user":
		return text(b.env.CurrentUser()), true, noArgs()
	case "pg_backend_pid":
		return Bound{E: &expr.Lit{V: b.env.BackendPID(), T: expr.Int4}, T: plan.TInt4}, true, noArgs()
	case "current_setting":
		if len(fc.Args) < 1 || len(fc.Args) > 2 {
			return Bound{}, true, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function current_setting does not exist"), fc.Location)
		}
		s := fc.Args[0].GetAConst().GetSval()
		if s == nil {
			return Bound{}, true, b.ErrAt(pgerr.NotYet("current_setting with a non-constant name"), fc.Location)
		}
		missingOK := false
		if len(fc.Args) == 2 {
			missingOK = fc.Args[1].GetAConst().GetBoolval().GetBoolval()
		}
		v, ok := b.env.SettingValue(s.Sval)
		if !ok {
			if missingOK {
				return Bound{E: &expr.Lit{V: nil, T: expr.Text}, T: plan.TText}, true, nil
			}
			return Bound{}, true, b.ErrAt(settings.Unknown(s.Sval), fc.Location)
		}
		return text(v), true, nil
	case "pg_postmaster_start_time":
		return Bound{E: &expr.Lit{V: b.env.BackendStarted().UnixMicro(), T: expr.Timestamptz}, T: plan.TTimestamptz}, true, noArgs()
	case "inet_server_port", "inet_client_port":
		return Bound{E: &expr.Lit{V: nil, T: expr.Int4}, T: plan.TInt4}, true, nil
	case "pg_my_temp_schema":
		return Bound{E: &expr.Lit{V: int32(0), T: expr.Int4}, T: plan.TInt4}, true, nil
	case "gethostname":
		h, _ := os.Hostname()
		return text(h), true, nil
	}
	return Bound{}, false, nil
}

// aggregate binds count/sum/avg/min/max [DISTINCT] [FILTER (WHERE ...)]:
// the arguments are bound over the input rows and the call becomes a
// reference to the aggregation's output column.
func (b *Binder) aggregate(fc *pg.FuncCall, name string) (Bound, error) {
	return b.aggregateWith(fc, name, func() ([]Bound, error) { return b.exprs(fc.Args) })
}

// aggregateWith binds aggregate name over fc's ORDER BY, FILTER and
// DISTINCT, its arguments bound by args (inside the aggregate).
func (b *Binder) aggregateWith(fc *pg.FuncCall, name string, bindArgs func() ([]Bound, error)) (Bound, error) {
	switch {
	case b.where != "":
		return Bound{}, b.ErrAt(pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed in %s", b.where), fc.Location)
	case b.inAgg:
		return Bound{}, b.ErrAt(pgerr.New(pgerr.GroupingError, "aggregate function calls cannot be nested"), fc.Location)
	case b.agg == nil:
		return Bound{}, b.ErrAt(pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed here"), fc.Location)
	case fc.FuncVariadic:
		return Bound{}, b.ErrAt(pgerr.NotYet("VARIADIC"), fc.Location)
	case orderedSetAggregates[name] != fc.AggWithinGroup:
		if fc.AggWithinGroup {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.WrongObjectType, "%s is not an ordered-set aggregate, so it cannot have WITHIN GROUP", name), fc.Location)
		}
		return Bound{}, b.ErrAt(pgerr.New(pgerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", name), fc.Location)
	}
	agg := b.agg
	b.agg, b.inAgg = nil, true
	defer func() { b.agg, b.inAgg = agg, false }()

	call := plan.AggCall{Fn: name, Distinct: fc.AggDistinct, Name: name}
	var types []arrow.DataType
	var argPG plan.Type
	args, err := bindArgs()
	if err != nil {
		return Bound{}, err
	}
	for i := range args {
		args[i] = args[i].resolveUnknownIn(b)
	}
	args, enumLabel, err := b.enumMinMax(name, args) // enum.go: in the labels' order
	if err != nil {
		return Bound{}, b.ErrAt(err, fc.Location)
	}
	if fc.AggStar && name != "count" {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s(*) does not exist", name), fc.Location)
	}
	order, _, err := b.bindOrderBy(fc.AggOrder, nil, false)
	if err != nil {
		return Bound{}, err
	}
	for _, k := range order {
		call.OrderBy = append(call.OrderBy, k.SortKey)
	}
	if fc.AggWithinGroup {
		// fn(direct args) WITHIN GROUP (ORDER BY x): the aggregated value is
		// x; the direct arguments are constants.
		if len(call.OrderBy) != 1 {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s needs exactly one WITHIN GROUP ordering column", name), fc.Location)
		}
		for _, a := range args {
			if plan.UsesColumns(a.E) {
				return Bound{}, b.ErrAt(pgerr.NotYet("non-constant direct arguments of "+name), fc.Location)
			}
			call.Args = append(call.Args, b.Coerce(a, expr.Float8))
			types = append(types, expr.Float8)
		}
		call.Arg = call.OrderBy[0].E
		types = append(types, call.Arg.Type())
		argPG = pgTypeOfArrow(call.Arg.Type())
	} else if len(args) > 0 {
		call.Arg = args[0].E
		argPG = args[0].T
		types = append(types, args[0].E.Type())
		for _, a := range args[1:] {
			call.Args = append(call.Args, a.E)
			types = append(types, a.E.Type())
		}
	}
	if fc.AggFilter != nil {
		f, err := b.Expr(fc.AggFilter)
		if err != nil {
			return Bound{}, err
		}
		fe, err := b.asBool(f, "FILTER", fc.Location)
		if err != nil {
			return Bound{}, err
		}
		call.Filter = fe
	}
	if name == "count" && call.Distinct && call.Arg != nil && argPG.OID == plan.TJSONB.OID && len(types) == 1 {
		// Distinct jsonb values by jsonb's equality (jsonb_ops.go).
		call.Arg = jsonbSortKey(Bound{E: call.Arg, T: argPG}).E
		types[0], argPG = call.Arg.Type(), plan.TBytea
	}
	if call.Arg != nil && (argPG.OID == plan.TJSONB.OID || pgtypes.ElemOf(argPG.OID) != 0) {
		if name != "count" && name != "array_agg" {
			return Bound{}, b.ErrAt(UndefinedCall(name, []Bound{{T: argPG, E: call.Arg}}), fc.Location)
		}
		if call.Distinct && (name != "count" || !hashableType(argPG)) {
			return Bound{}, b.ErrAt(pgerr.NotYet(name+"(DISTINCT) of "+argPG.String()), fc.Location)
		}
	}
	t, err := exec.AggResultTypeN(name, types)
	if err != nil {
		return Bound{}, b.ErrAt(withFunctionHint(err), fc.Location)
	}
	call.T = t
	pt := pgTypeOfArrow(t)
	switch name {
	case "min", "max":
		pt = argPG
	case "percentile_disc", "mode":
		pt = plan.Type{OID: argPG.OID, Typmod: -1}
	case "array_agg":
		// An array of the argument's own type: name[] of names, not text[].
		if _, list := t.(*arrow.ListType); list && pgtypes.ArrayOf(argPG.OID) != 0 {
			pt = plan.Type{OID: pgtypes.ArrayOf(argPG.OID), Typmod: -1}
		}
	}
	call.PGType = pt
	j, isNew := agg.Add(call)
	if isNew {
		agg.aggCols = append(agg.aggCols, b.newCol(name, pt, t))
	}
	r := b.ref(agg.aggCols[j])
	r.Name = name
	if enumLabel != nil {
		r = enumLabel(r)
	}
	return r, nil
}
