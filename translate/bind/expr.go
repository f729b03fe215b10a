package bind

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// Expr binds a scalar expression. Above an aggregation (b.agg set), an
// expression that matches a GROUP BY expression becomes a reference to that
// group key, aggregates become references to their results, and any other
// column reference is a grouping error.
func (b *Binder) Expr(n *pg.Node) (Bound, error) {
	if b.agg != nil && !b.inAgg && !containsAggregate(n) {
		return b.groupedExpr(n)
	}
	return b.exprNode(n)
}

// groupedExpr binds an aggregate-free expression above an aggregation.
func (b *Binder) groupedExpr(n *pg.Node) (Bound, error) {
	agg := b.agg
	if i, ok := agg.subLinks[n]; ok {
		r := b.ref(agg.groupCols[i])
		r.T, r.Name, r.strong = agg.groups[i].T, agg.groups[i].Name, agg.groups[i].strong
		return r, nil
	}
	if n.GetSubLink() != nil {
		// A subquery's value is computed above the aggregation; its outer
		// references must be group keys (outerRef checks them).
		saved := b.hiddenAgg
		b.agg, b.hiddenAgg = nil, agg
		r, err := b.exprNode(n)
		b.agg, b.hiddenAgg = agg, saved
		return r, err
	}
	// A trial binding below the aggregation, to match the whole
	// expression with a group key. The joins its subqueries asked for
	// belong below the aggregation: they are dropped unless the trial's
	// result is kept.
	np, npp := len(b.pending), len(b.pendingPre)
	b.agg = nil
	in, err := b.exprNode(n)
	b.agg = agg
	if err != nil {
		return Bound{}, err
	}
	if in.Unknown() {
		return in, nil
	}
	if i := agg.findGroup(in.E); i >= 0 {
		b.pending, b.pendingPre = b.pending[:np], b.pendingPre[:npp]
		r := b.ref(agg.groupCols[i])
		r.T, r.Name, r.strong = agg.groups[i].T, in.Name, in.strong
		return r, nil
	}
	if !plan.UsesColumns(in.E) {
		return in, nil // a constant
	}
	if cr := n.GetColumnRef(); cr != nil {
		name := columnRefText(cr)
		if c, ok := in.E.(*expr.Col); ok {
			name = b.qualifiedName(plan.ColID(c.Idx))
		}
		return Bound{}, b.ErrAt(pgerr.New(pgerr.GroupingError,
			"column \"%s\" must appear in the GROUP BY clause or be used in an aggregate function",
			name), cr.Location)
	}
	b.pending, b.pendingPre = b.pending[:np], b.pendingPre[:npp]
	return b.exprNode(n) // bind the parts: each must be grouped
}

// exprNode binds one node by its kind.
func (b *Binder) exprNode(n *pg.Node) (Bound, error) {
	if err := b.ctx.Err(); err != nil {
		return Bound{}, err
	}
	switch x := n.Node.(type) {
	case *pg.Node_AConst:
		return b.constant(x.AConst)
	case *pg.Node_ColumnRef:
		return b.columnRef(x.ColumnRef)
	case *pg.Node_ParamRef:
		return b.paramRef(x.ParamRef)
	case *pg.Node_AExpr:
		return b.aExpr(x.AExpr)
	case *pg.Node_BoolExpr:
		return b.boolExpr(x.BoolExpr)
	case *pg.Node_NullTest:
		if isRowNode(x.NullTest.Arg) {
			return b.rowNullTest(x.NullTest)
		}
		arg, err := b.Expr(x.NullTest.Arg)
		if err != nil {
			return Bound{}, err
		}
		fn := "isnull"
		if x.NullTest.Nulltesttype == pg.NullTestType_IS_NOT_NULL {
			fn = "isnotnull"
		}
		return b.call(fn, []Bound{arg.resolveUnknownIn(b)}, x.NullTest.Location)
	case *pg.Node_BooleanTest:
		return b.booleanTest(x.BooleanTest)
	case *pg.Node_TypeCast:
		if s, ok := bigConst(x.TypeCast.Arg); ok {
			return b.bigConstCast(x.TypeCast, s)
		}
		if r, ok, err := b.enumCast(x.TypeCast); ok { // enum.go
			return r, err
		}
		return b.typeCast(x.TypeCast)
	case *pg.Node_FuncCall:
		if r, ok, err := b.enumFunc(x.FuncCall); ok {
			return r, err
		}
		if fc, ok := rowKeyCount(x.FuncCall); ok {
			return b.funcCall(fc)
		}
		if funcName(x.FuncCall) == "pg_typeof" && x.FuncCall.Over == nil && !x.FuncCall.AggStar && len(x.FuncCall.Funcname) <= 2 {
			return b.pgTypeof(x.FuncCall)
		}
		return b.funcCall(x.FuncCall)
	case *pg.Node_CaseExpr:
		return b.caseExpr(x.CaseExpr)
	case *pg.Node_CoalesceExpr:
		args, err := b.exprs(x.CoalesceExpr.Args)
		if err != nil {
			return Bound{}, err
		}
		if r, ok, err := b.jsonCoalesce(args, x.CoalesceExpr.Location); ok { // json_build.go
			r.Name, r.strong = "coalesce", true
			return r, err
		}
		r, err := b.call("coalesce", args, x.CoalesceExpr.Location)
		r.Name, r.strong = "coalesce", true
		return r, err
	case *pg.Node_MinMaxExpr:
		fn := "greatest"
		if x.MinMaxExpr.Op == pg.MinMaxOp_IS_LEAST {
			fn = "least"
		}
		args, err := b.exprs(x.MinMaxExpr.Args)
		if err != nil {
			return Bound{}, err
		}
		r, err := b.call(fn, args, x.MinMaxExpr.Location)
		r.Name, r.strong = fn, true
		return r, err
	case *pg.Node_SqlvalueFunction:
		return b.sqlValueFunction(x.SqlvalueFunction)
	case *pg.Node_SubLink:
		return b.subLink(x.SubLink)
	case *pg.Node_AArrayExpr:
		return b.arrayExpr(x.AArrayExpr)
	case *pg.Node_AIndirection:
		return b.indirection(x.AIndirection)
	case *pg.Node_RowExpr:
		if isRowKey(x.RowExpr) {
			return b.rowKey(x.RowExpr)
		}
		return Bound{}, b.ErrAt(pgerr.NotYetPlural("row constructors"), x.RowExpr.Location)
	case *pg.Node_CollateClause:
		return b.collate(x.CollateClause)
	case *pg.Node_GroupingFunc:
		return b.groupingFunc(x.GroupingFunc)
	}
	return Bound{}, pgerr.NotYet(fmt.Sprintf("expression %s", strings.TrimPrefix(fmt.Sprintf("%T", n.Node), "*pg_query.Node_")))
}

func (b *Binder) exprs(ns []*pg.Node) ([]Bound, error) {
	out := make([]Bound, len(ns))
	for i, n := range ns {
		e, err := b.Expr(n)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// qualifiedName is item.column for a column of a FROM item.
func (b *Binder) qualifiedName(id plan.ColID) string {
	for s := b.scope; s != nil; s = s.parent {
		for _, it := range s.items {
			for _, c := range it.cols {
				if c.id == id {
					return it.refName() + "." + c.name
				}
			}
		}
	}
	return b.q.Meta(id).Name
}

func columnRefText(cr *pg.ColumnRef) string {
	var parts []string
	for _, f := range cr.Fields {
		if s := f.GetString_(); s != nil {
			parts = append(parts, s.Sval)
		} else {
			parts = append(parts, "*")
		}
	}
	return strings.Join(parts, ".")
}

// paramRef binds $n: typed when the client declared the type, else untyped
// until the context gives it one (then recorded as the parameter's type).
func (b *Binder) paramRef(p *pg.ParamRef) (Bound, error) {
	n := int(p.Number)
	if n < 1 || n > 65535 {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", n), p.Location)
	}
	b.params.setType(n, 0)
	var val *string
	if b.params.Bound {
		if n > len(b.params.Values) {
			return Bound{}, pgerr.New(pgerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement requires %d", len(b.params.Values), n)
		}
		val = b.params.Values[n-1]
	}
	if !b.params.Bound {
		// At Prepare only the types matter; "$n" shows in EXPLAIN.
		ph := fmt.Sprintf("$%d", n)
		val = &ph
	}
	if b.params.Template {
		return b.paramPlaceholder(n, *val)
	}
	if oid := b.params.typeOf(n); oid != 0 && oid != plan.TUnknown.OID {
		t := plan.Type{OID: oid, Typmod: -1}
		at := plan.ArrowOf(t)
		if val == nil {
			return Bound{E: &expr.Lit{V: nil, T: at}, T: t, param: n}, nil
		}
		if b.params.Bound && pgtypes.ElemOf(oid) != 0 && !isVectorType(oid) {
			at = arrayLiteralType(at, *val) // as many dimensions as the value
		}
		return Bound{E: b.Coerce(Bound{lit: val, param: n, loc: -1}, at), T: t, param: n}, nil
	}
	if val == nil {
		return Bound{null: true, param: n}, nil
	}
	return Bound{lit: val, param: n}, nil
}

// paramPlaceholder binds $n in a template (ParamSet.Template): an
// expression no binding rule reads as a constant, a cast of the text
// "$n" to the parameter's type, which Execute replaces by the value. A
// parameter whose type is not known, or an array (its type depends on the
// value's dimensions), makes the template unstable.
func (b *Binder) paramPlaceholder(n int, text string) (Bound, error) {
	oid := b.params.typeOf(n)
	if oid == 0 || oid == plan.TUnknown.OID || pgtypes.ElemOf(oid) != 0 {
		b.params.Unstable = true
		return Bound{lit: &text, param: n}, nil
	}
	t := plan.Type{OID: oid, Typmod: -1}
	at := plan.ArrowOf(t)
	e := &expr.Cast{Arg: &expr.Lit{V: text, T: expr.Text}, T: at}
	b.params.Placeholders = append(b.params.Placeholders, Placeholder{N: n, E: e, T: at})
	return Bound{E: e, T: t, param: n}, nil
}

// call resolves a function or operator through the engine's catalogue and
// casts the arguments to the types it asks for.
func (b *Binder) call(fn string, args []Bound, loc int32) (Bound, error) {
	args = b.recordedArgs(fn, args)                  // call_recorded.go
	if r, ok, err := b.enumCall(fn, args, loc); ok { // enum.go
		return r, err
	}
	if r, ok, err := b.vectorBounds(fn, args, loc); ok {
		return r, err
	}
	if !acceptsComposite(fn) {
		for _, a := range args {
			if !a.Unknown() && (a.T.OID == plan.TJSONB.OID || pgtypes.ElemOf(a.T.OID) != 0) {
				return Bound{}, b.ErrAt(UndefinedCall(fn, args), loc)
			}
		}
	}
	types := make([]arrow.DataType, len(args))
	for i, a := range args {
		types[i] = a.arrowType()
	}
	if fn == "substring" && len(args) == 2 && args[1].Unknown() {
		// substring(text FROM pattern): among substring's forms PostgreSQL
		// prefers the string category for an untyped argument, so an
		// untyped literal is the pattern of the regular expression form,
		// not a position.
		types[1] = expr.Text
		if args[0].Unknown() {
			types[0] = expr.Text
		}
	}
	r, err := expr.Resolve(fn, types)
	if err != nil {
		// PostgreSQL prefers text for untyped literals the first pass could
		// not place (date_part('year', d), extract(...)): retry so.
		retry := append([]arrow.DataType(nil), types...)
		changed := false
		for i, a := range args {
			if a.Unknown() {
				retry[i], changed = expr.Text, true
			}
		}
		if changed {
			if r2, err2 := expr.Resolve(fn, retry); err2 == nil {
				r, err = r2, nil
			}
		}
	}
	if err != nil {
		for _, a := range args {
			if code := pgerr.Code(err); code == pgerr.FeatureNotSupported || code == pgerr.DataException {
				// What icegate lacks says so, and PostgreSQL's own refusal
				// of an array of several dimensions stays (array_append).
				break
			}
			if !a.Unknown() && (a.T.OID == plan.TJSONB.OID || pgtypes.ElemOf(a.T.OID) != 0) {
				return Bound{}, b.ErrAt(UndefinedCall(fn, args), loc)
			}
		}
		return Bound{}, b.ErrAt(withFunctionHint(err), loc)
	}
	b.inferComparedParam(fn, args, r.Args)
	ex := make([]expr.Expr, len(args))
	for i, a := range args {
		t := r.Args[i]
		if t.ID() == arrow.NULL {
			t = expr.Text // an argument left untyped is text, as in PostgreSQL
		}
		ex[i] = b.Coerce(a, t)
	}
	t := pgTypeOfArrow(r.Result)
	switch fn {
	case "coalesce", "greatest", "least", "nullif", "neg", "abs":
		t = commonPG(args, t)
	case "->", "#>", "jsonb_extract_path", "to_jsonb", "jsonb_path_query_array", "jsonb_path_query_first":
		t = plan.TJSONB // JSON text typed jsonb
		if fn != "to_jsonb" && fn != "jsonb_extract_path" && !args[0].Unknown() && args[0].T.OID == pgtypes.JSON {
			t = plan.Type{OID: pgtypes.JSON, Typmod: -1} // json -> is json, as in PostgreSQL
		}
	}
	return Bound{E: &expr.Call{Fn: fn, Args: ex, T: r.Result}, T: t}, nil
}

// inferComparedParam gives an untyped parameter compared with a typed
// value that value's PostgreSQL type, as PostgreSQL resolves "oid = $1"
// (oid), "typname = $1" (name) or "c = $1" for a character(n) column
// (character), rather than the type of the engine's Arrow value (text for
// both oid and name). A character varying compares as text.
func (b *Binder) inferComparedParam(fn string, args []Bound, at []arrow.DataType) {
	switch fn {
	case "=", "<>", "<", "<=", ">", ">=":
	default:
		return
	}
	if len(args) != 2 || len(at) != 2 {
		return
	}
	for i := range 2 {
		p, o := args[i], args[1-i]
		if p.param == 0 || !p.Unknown() || o.Unknown() || !arrow.TypeEqual(at[i], at[1-i]) {
			continue
		}
		oid := o.T.OID
		if oid == pgtypes.Varchar {
			oid = pgtypes.Text
		}
		b.params.setType(p.param, oid)
	}
}

// acceptsComposite reports whether fn takes arrays or jsonb values (the
// array and JSON functions and operators); other functions reject them
// before resolution, with PostgreSQL's message.
func acceptsComposite(fn string) bool {
	switch fn {
	case "isnull", "isnotnull", "array", "cardinality", "string_to_array", "@>", "<@", "&&",
		"->", "->>", "#>", "#>>", "to_jsonb", "unnest", "generate_subscripts", "coalesce", "nullif", "to_json":
		return true
	}
	return strings.HasPrefix(fn, "array_") || strings.HasPrefix(fn, "any:") || strings.HasPrefix(fn, "all:") ||
		strings.HasPrefix(fn, "jsonb_")
}

// commonPG keeps the PostgreSQL type (with typmod) of arguments that share
// one, for functions that return their argument type.
func commonPG(args []Bound, def plan.Type) plan.Type {
	var t *plan.Type
	for _, a := range args {
		if a.Unknown() {
			continue
		}
		if t == nil {
			at := a.T
			t = &at
		} else if *t != a.T {
			if t.OID == a.T.OID {
				return plan.Type{OID: t.OID, Typmod: -1}
			}
			if o, ok := oidOverInteger(*t, a.T); ok {
				t = &o
				continue
			}
			return def
		}
	}
	if t == nil || !keepsCatalogType(*t, def) {
		return def
	}
	return *t
}

// Coerce converts a bound expression to Arrow type t, recording the type of
// an untyped parameter.
//
// A string literal converted to another type is converted once here, as
// PostgreSQL does while parsing, so that bad input fails at bind time with
// the literal's position (the first such error is kept in b.LitErr).
func (b *Binder) Coerce(x Bound, t arrow.DataType) expr.Expr {
	if x.param > 0 && x.Unknown() {
		b.params.setType(x.param, pgTypeOfArrow(t).OID)
	}
	e := coerce(x, t)
	if x.lit != nil && !arrow.TypeEqual(t, expr.Text) && (x.param == 0 || b.params.Bound) && b.LitErr == nil {
		if err := b.checkConst(e); err != nil {
			b.LitErr = b.ErrAt(err, x.loc)
		}
	}
	return e
}

// checkConst evaluates a constant expression once and returns its error.
func (b *Binder) checkConst(e expr.Expr) error {
	prog, err := expr.Compile(e, EmptySchema, b.CompileOptions())
	if err != nil {
		return err
	}
	one := array.NewRecordBatch(EmptySchema, nil, 1)
	defer one.Release()
	arr, err := prog.Eval(b.ctx, one)
	if err != nil {
		return err
	}
	arr.Release()
	return nil
}

var EmptySchema = arrow.NewSchema(nil, nil)

func (b *Binder) CompileOptions() expr.CompileOptions {
	return expr.CompileOptions{TimeZone: b.env.Location()}
}

// resolveUnknownIn gives an untyped literal the type text.
func (x Bound) resolveUnknownIn(b *Binder) Bound {
	if !x.Unknown() {
		return x
	}
	e := b.Coerce(x, expr.Text)
	return Bound{E: e, T: plan.TText, Name: x.Name, strong: x.strong}
}

// asBool checks that x is boolean (an untyped literal becomes one), for
// WHERE, HAVING, AND/OR/NOT and CASE conditions.
func (b *Binder) asBool(x Bound, what string, loc int32) (expr.Expr, error) {
	if x.Unknown() {
		return b.Coerce(x, expr.Bool), nil
	}
	if x.T.OID != plan.TBool.OID {
		return nil, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "argument of %s must be type boolean, not type %s", what, x.T), loc)
	}
	return x.E, nil
}

// pgTypeof binds pg_typeof(x): the PostgreSQL type the Binder gave x, as a
// regtype constant (unknown for an untyped literal).
func (b *Binder) pgTypeof(fc *pg.FuncCall) (Bound, error) {
	if len(fc.Funcname) == 2 && fc.Funcname[0].GetString_().GetSval() != "pg_catalog" {
		return b.funcCall(fc)
	}
	if len(fc.Args) != 1 || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function pg_typeof does not exist").
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
	}
	arg, err := b.Expr(fc.Args[0])
	if err != nil {
		return Bound{}, err
	}
	oid := arg.T.OID
	if arg.Unknown() {
		oid = plan.TUnknown.OID
	}
	if tc := fc.Args[0].GetTypeCast(); tc != nil {
		// Values of varchar and char are bound as text; the cast names the
		// type.
		if t, _, err := b.TypeName(tc.TypeName); err == nil {
			oid = t.OID
		}
	}
	return Bound{E: &expr.Lit{V: int64(oid), T: expr.Int8}, T: plan.Type{OID: pgtypes.Regtype, Typmod: -1}, Name: "pg_typeof", strong: true}, nil
}
