package bind

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

func (b *Binder) aExpr(a *pg.A_Expr) (Bound, error) {
	op := ""
	if len(a.Name) > 0 {
		op = a.Name[len(a.Name)-1].GetString_().GetSval()
	}
	if len(a.Name) > 1 {
		// OPERATOR(pg_catalog.op) is the built-in op.
		if err := b.operatorSchema(a); err != nil {
			return Bound{}, err
		}
	}
	switch a.Kind {
	case pg.A_Expr_Kind_AEXPR_OP, pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		if r, ok, err := b.rowOperator(a, op); ok {
			return r, err
		}
	case pg.A_Expr_Kind_AEXPR_IN:
		if isRowNode(a.Lexpr) {
			return b.rowInList(a, op)
		}
	}
	switch a.Kind {
	case pg.A_Expr_Kind_AEXPR_OP:
		if a.Lexpr == nil {
			r, err := b.Expr(a.Rexpr)
			if err != nil {
				return Bound{}, err
			}
			switch op {
			case "+":
				// PostgreSQL has prefix + for the numeric types only.
				if !r.Unknown() && !isUnaryPlusType(r.T.OID) {
					return Bound{}, b.ErrAt(undefinedOperator(op, []Bound{r}), a.Location)
				}
				r.Name, r.strong = "", false
				return r, nil
			case "-":
				return b.call("neg", []Bound{r}, a.Location)
			case "@":
				return b.call("abs", []Bound{r}, a.Location)
			case "~":
				return b.call("~", []Bound{r}, a.Location)
			}
			return Bound{}, b.ErrAt(undefinedOperator(op, []Bound{r}), a.Location)
		}
		l, r, big, err := b.bigConstOperands(a.Lexpr, a.Rexpr)
		if !big && err == nil {
			l, r, err = b.pair(a)
		}
		if err != nil {
			return Bound{}, err
		}
		if l, r, err = b.oidOperands(op, l, r, a.Location); err != nil {
			return Bound{}, err
		}
		if res, ok, err := b.arrayEquality(op, l, r, a.Location); ok {
			return res, err
		}
		switch op {
		case "~~":
			op = "like"
		case "!~~":
			op = "not_like"
		case "~~*":
			op = "ilike"
		case "!~~*":
			op = "not_ilike"
		case "!=":
			op = "<>"
		}
		if res, ok, err := b.jsonbOperator(op, l, r, a.Location); ok { // jsonb_ops.go
			return res, err
		}
		if op == "||" {
			if res, ok, err := b.arrayConcat(l, r, a.Location); ok {
				return res, err
			}
		}
		if op == "||" && l.Unknown() && r.Unknown() {
			l, r = l.resolveUnknownIn(b), r.resolveUnknownIn(b)
		}
		switch op {
		case "^":
			res, err := b.call("power", []Bound{l, r}, a.Location)
			res.Name, res.strong = "", false
			return res, err
		case "+", "-", "*", "/", "%", "=", "<>", "<", "<=", ">", ">=", "||", "like", "not_like", "ilike", "not_ilike":
			return b.call(op, []Bound{l, r}, a.Location)
		}
		if op == "@?" || op == "@@" {
			if res, ok, err := b.jsonPathOperator(op, l, r, a.Location); ok {
				return res, err
			}
		}
		// Other operators (regular expressions, array containment...) are
		// looked up by their symbol in the function catalogue.
		if _, err := expr.Resolve(op, []arrow.DataType{l.arrowType(), r.arrowType()}); err == nil {
			return b.call(op, []Bound{l, r}, a.Location)
		}
		return Bound{}, b.ErrAt(undefinedOperator(op, []Bound{l, r}), a.Location)
	case pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		l, r, err := b.pair(a)
		if err != nil {
			return Bound{}, err
		}
		fn := "is_distinct_from"
		if a.Kind == pg.A_Expr_Kind_AEXPR_NOT_DISTINCT {
			fn = "is_not_distinct_from"
		}
		if res, ok, err := b.arrayEquality(fn, l, r, a.Location); ok {
			return res, err
		}
		if res, ok, err := b.jsonbOperator(fn, l, r, a.Location); ok {
			return res, err
		}
		return b.call(fn, []Bound{l, r}, a.Location)
	case pg.A_Expr_Kind_AEXPR_NULLIF:
		l, r, err := b.pair(a)
		if err != nil {
			return Bound{}, err
		}
		res, err := b.call("nullif", []Bound{l, r}, a.Location)
		res.Name, res.strong = "nullif", true
		return res, err
	case pg.A_Expr_Kind_AEXPR_IN:
		l, err := b.Expr(a.Lexpr)
		if err != nil {
			return Bound{}, err
		}
		items, err := b.exprs(a.Rexpr.GetList().GetItems())
		if err != nil {
			return Bound{}, err
		}
		for i := range items {
			if items[i], err = b.oidListItem(l, items[i], a.Location); err != nil {
				return Bound{}, err
			}
		}
		res, err := b.call("in", append([]Bound{l}, items...), a.Location)
		if err != nil || op == "=" {
			return res, err
		}
		return b.call("not", []Bound{res}, a.Location)
	case pg.A_Expr_Kind_AEXPR_LIKE, pg.A_Expr_Kind_AEXPR_ILIKE:
		return b.like(a, op)
	case pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN:
		x, err := b.Expr(a.Lexpr)
		if err != nil {
			return Bound{}, err
		}
		bounds := a.Rexpr.GetList().GetItems()
		if len(bounds) != 2 {
			return Bound{}, b.ErrAt(pgerr.New(pgerr.SyntaxError, "malformed BETWEEN"), a.Location)
		}
		lo, err := b.Expr(bounds[0])
		if err != nil {
			return Bound{}, err
		}
		hi, err := b.Expr(bounds[1])
		if err != nil {
			return Bound{}, err
		}
		op1, op2, join := ">=", "<=", "and"
		if a.Kind == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN {
			op1, op2, join = "<", ">", "or"
		}
		c1, err := b.call(op1, []Bound{x, lo}, a.Location)
		if err != nil {
			return Bound{}, err
		}
		c2, err := b.call(op2, []Bound{x, hi}, a.Location)
		if err != nil {
			return Bound{}, err
		}
		return b.call(join, []Bound{c1, c2}, a.Location)
	case pg.A_Expr_Kind_AEXPR_OP_ANY, pg.A_Expr_Kind_AEXPR_OP_ALL:
		l, r, err := b.pair(a)
		if err != nil {
			return Bound{}, err
		}
		q := "any:"
		if a.Kind == pg.A_Expr_Kind_AEXPR_OP_ALL {
			q = "all:"
		}
		if op == "!=" {
			op = "<>"
		}
		if r.Unknown() {
			// '{1,2}' is an array of the left side's type.
			l = l.resolveUnknownIn(b)
			if arr := pgtypes.ArrayOf(l.T.OID); arr != 0 {
				r = Bound{E: b.Coerce(r, plan.ArrowOf(plan.Type{OID: arr, Typmod: -1})), T: plan.Type{OID: arr, Typmod: -1}}
			}
		}
		return b.call(q+op, []Bound{l, r}, a.Location)
	case pg.A_Expr_Kind_AEXPR_SIMILAR:
		return Bound{}, b.ErrAt(pgerr.NotYet("SIMILAR TO"), a.Location)
	case pg.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		return b.betweenSymmetric(a) // between_sym.go
	}
	return Bound{}, b.ErrAt(pgerr.NotYet("this operator"), a.Location)
}

func (b *Binder) pair(a *pg.A_Expr) (Bound, Bound, error) {
	l, err := b.Expr(a.Lexpr)
	if err != nil {
		return Bound{}, Bound{}, err
	}
	r, err := b.Expr(a.Rexpr)
	return l, r, err
}

// like binds [NOT] [I]LIKE with an optional ESCAPE (the grammar wraps the
// pattern in like_escape(pattern, escape)).
func (b *Binder) like(a *pg.A_Expr, op string) (Bound, error) {
	l, err := b.Expr(a.Lexpr)
	if err != nil {
		return Bound{}, err
	}
	args := []Bound{l}
	if fc := a.Rexpr.GetFuncCall(); fc != nil && funcName(fc) == "like_escape" && len(fc.Args) == 2 {
		p, err := b.Expr(fc.Args[0])
		if err != nil {
			return Bound{}, err
		}
		e, err := b.Expr(fc.Args[1])
		if err != nil {
			return Bound{}, err
		}
		args = append(args, p, e)
	} else {
		p, err := b.Expr(a.Rexpr)
		if err != nil {
			return Bound{}, err
		}
		args = append(args, p)
	}
	fn := map[string]string{"~~": "like", "!~~": "not_like", "~~*": "ilike", "!~~*": "not_ilike"}[op]
	if fn == "" {
		return Bound{}, b.ErrAt(pgerr.NotYet("operator "+op), a.Location)
	}
	return b.call(fn, args, a.Location)
}

func (b *Binder) boolExpr(x *pg.BoolExpr) (Bound, error) {
	fn, what := "and", "AND"
	switch x.Boolop {
	case pg.BoolExprType_OR_EXPR:
		fn, what = "or", "OR"
	case pg.BoolExprType_NOT_EXPR:
		fn, what = "not", "NOT"
	}
	args := make([]expr.Expr, len(x.Args))
	for i, n := range x.Args {
		a, err := b.Expr(n)
		if err != nil {
			return Bound{}, err
		}
		e, err := b.asBool(a, what, x.Location)
		if err != nil {
			return Bound{}, err
		}
		args[i] = e
	}
	return Bound{E: &expr.Call{Fn: fn, Args: args, T: expr.Bool}, T: plan.TBool}, nil
}

func (b *Binder) booleanTest(x *pg.BooleanTest) (Bound, error) {
	a, err := b.Expr(x.Arg)
	if err != nil {
		return Bound{}, err
	}
	e, err := b.asBool(a, "IS TRUE", x.Location)
	if err != nil {
		return Bound{}, err
	}
	arg := Bound{E: e, T: plan.TBool}
	lit := func(v bool) Bound { return Bound{E: &expr.Lit{V: v, T: expr.Bool}, T: plan.TBool} }
	switch x.Booltesttype {
	case pg.BoolTestType_IS_TRUE:
		return b.call("is_not_distinct_from", []Bound{arg, lit(true)}, x.Location)
	case pg.BoolTestType_IS_NOT_TRUE:
		return b.call("is_distinct_from", []Bound{arg, lit(true)}, x.Location)
	case pg.BoolTestType_IS_FALSE:
		return b.call("is_not_distinct_from", []Bound{arg, lit(false)}, x.Location)
	case pg.BoolTestType_IS_NOT_FALSE:
		return b.call("is_distinct_from", []Bound{arg, lit(false)}, x.Location)
	case pg.BoolTestType_IS_UNKNOWN:
		return b.call("isnull", []Bound{arg}, x.Location)
	default:
		return b.call("isnotnull", []Bound{arg}, x.Location)
	}
}

// caseExpr binds a searched or simple CASE; the results get their common
// type.
func (b *Binder) caseExpr(c *pg.CaseExpr) (Bound, error) {
	var subject *Bound
	if c.Arg != nil {
		s, err := b.Expr(c.Arg)
		if err != nil {
			return Bound{}, err
		}
		subject = &s
	}
	var conds []expr.Expr
	var results []Bound
	for _, w := range c.Args {
		cw := w.GetCaseWhen()
		if cw == nil {
			continue
		}
		cond, err := b.Expr(cw.Expr)
		if err != nil {
			return Bound{}, err
		}
		if subject != nil {
			cond, err = b.call("=", []Bound{*subject, cond}, cw.Location)
			if err != nil {
				return Bound{}, err
			}
		}
		ce, err := b.asBool(cond, "CASE/WHEN", cw.Location)
		if err != nil {
			return Bound{}, err
		}
		conds = append(conds, ce)
		r, err := b.Expr(cw.Result)
		if err != nil {
			return Bound{}, err
		}
		results = append(results, r)
	}
	var elseB *Bound
	if c.Defresult != nil {
		e, err := b.Expr(c.Defresult)
		if err != nil {
			return Bound{}, err
		}
		elseB = &e
		results = append(results, e)
	}
	types := make([]arrow.DataType, len(results))
	for i, r := range results {
		types[i] = r.arrowType()
	}
	t, err := expr.CommonType("CASE", types)
	if err != nil {
		return Bound{}, b.ErrAt(err, c.Location)
	}
	out := &expr.Case{T: t}
	for i, cond := range conds {
		out.Whens = append(out.Whens, expr.When{Cond: cond, Then: b.Coerce(results[i], t)})
	}
	if elseB != nil {
		out.Else = b.Coerce(*elseB, t)
	}
	// PostgreSQL names a CASE after its ELSE result when that has a strong
	// name (a column or function), else "case".
	name := "case"
	if elseB != nil && elseB.strong && elseB.Name != "" {
		name = elseB.Name
	}
	res := Bound{E: out, T: commonPG(results, pgTypeOfArrow(t)), Name: name, strong: name != "case"}
	return b.enumResult(res, results, c.Location) // enum.go
}

// operatorSchema checks the schema of OPERATOR(schema.op): pg_catalog
// holds every operator icegate has; another schema holds none.
func (b *Binder) operatorSchema(a *pg.A_Expr) error {
	schema := a.Name[0].GetString_().GetSval()
	if len(a.Name) == 2 && schema == "pg_catalog" {
		return nil
	}
	var parts []string
	for _, n := range a.Name {
		parts = append(parts, n.GetString_().GetSval())
	}
	if len(a.Name) == 2 {
		snap, err := b.sysSnap()
		if err != nil {
			return err
		}
		if snap.Namespace(schema) == nil {
			return b.ErrAt(pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema), a.Location)
		}
	}
	var args []Bound
	for _, n := range []*pg.Node{a.Lexpr, a.Rexpr} {
		if n == nil {
			continue
		}
		x, err := b.Expr(n)
		if err != nil {
			return err
		}
		args = append(args, x)
	}
	if len(args) == 0 {
		return b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", strings.Join(parts, ".")), a.Location)
	}
	return b.ErrAt(undefinedOperator(strings.Join(parts, "."), args), a.Location)
}

// collate binds x COLLATE name. icegate compares and sorts text by its
// bytes; for the UTF-8 text it serves that is the order of the C, POSIX,
// ucs_basic and C.utf8 collations, and of the database's default
// collation as icegate defines it, so those are accepted and change
// nothing. Other collations PostgreSQL knows (ICU and libc locales) are
// not supported; an unknown name is 42704.
func (b *Binder) collate(c *pg.CollateClause) (Bound, error) {
	x, err := b.Expr(c.Arg)
	if err != nil {
		return Bound{}, err
	}
	x = x.resolveUnknownIn(b)
	var names []string
	for _, n := range c.Collname {
		names = append(names, n.GetString_().GetSval())
	}
	name := names[len(names)-1]
	written := strings.Join(names, ".")
	if len(names) > 2 || len(names) == 2 && names[0] != "pg_catalog" {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedObject, "collation \"%s\" for encoding \"UTF8\" does not exist", written), c.Location)
	}
	switch {
	case name == "default" || name == "C" || name == "POSIX" || name == "ucs_basic" || name == "C.utf8":
	case strings.HasSuffix(name, "-x-icu") || localeName(name):
		return Bound{}, b.ErrAt(pgerr.Unsupported("collation \"%s\" (icegate compares text by its bytes: use COLLATE \"C\")", name), c.Location)
	default:
		return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedObject, "collation \"%s\" for encoding \"UTF8\" does not exist", written), c.Location)
	}
	switch x.T.OID {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name:
		return x, nil
	}
	return Bound{}, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "collations are not supported by type %s", x.T), c.Location)
}

// localeName reports whether name looks like an operating system locale
// (en_US, en_US.utf8, de_DE.UTF-8): collations PostgreSQL creates from
// the locales of its host.
func localeName(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	lang, country, ok := strings.Cut(base, "_")
	if !ok || len(lang) < 2 || len(lang) > 3 || len(country) != 2 {
		return false
	}
	for _, r := range lang {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	for _, r := range country {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// arrayConcat binds || when a side is an array: array_cat of two arrays,
// array_append / array_prepend of an array and an element. An untyped
// literal beside an array is an array when it is written as one ('{...}').
func (b *Binder) arrayConcat(l, r Bound, loc int32) (Bound, bool, error) {
	isArr := func(x Bound) bool { return !x.Unknown() && pgtypes.ElemOf(x.T.OID) != 0 }
	looksArr := func(x Bound) bool { return x.lit != nil && strings.HasPrefix(strings.TrimSpace(*x.lit), "{") }
	var fn string
	switch {
	case isArr(l) && (isArr(r) || looksArr(r)):
		fn = "array_cat"
		if r.Unknown() {
			r = Bound{E: b.Coerce(r, l.E.Type()), T: l.T}
		}
	case isArr(r) && looksArr(l):
		fn = "array_cat"
		l = Bound{E: b.Coerce(l, r.E.Type()), T: r.T}
	case isArr(l):
		fn = "array_append"
	case isArr(r):
		fn = "array_prepend"
	default:
		return Bound{}, false, nil
	}
	res, err := b.call(fn, []Bound{l, r}, loc)
	res.Name, res.strong = "", false
	if err == nil {
		res.T = concatKeepsType(fn, l, r, res.T)
	}
	return res, true, err
}

// concatKeepsType is the type of an array || of l and r that PostgreSQL
// keeps though its values are those of another (varchar[] || varchar is
// varchar[], not text[]): the array's type when both sides are of it or
// of its element type; else t.
func concatKeepsType(fn string, l, r Bound, t plan.Type) plan.Type {
	arr, other := l, r
	if fn == "array_prepend" {
		arr, other = r, l
	}
	if pgtypes.ElemOf(arr.T.OID) == pgtypes.ElemOf(t.OID) {
		return t
	}
	switch {
	case other.Unknown() || other.T.OID == arr.T.OID:
	case fn != "array_cat" && other.T.OID == pgtypes.ElemOf(arr.T.OID):
	default:
		return t
	}
	return plan.Type{OID: arr.T.OID, Typmod: -1}
}

// isUnaryPlusType reports whether PostgreSQL has prefix + for the type.
func isUnaryPlusType(oid uint32) bool {
	switch oid {
	case pgtypes.Int2, pgtypes.Int4, pgtypes.Int8, pgtypes.Float4, pgtypes.Float8, pgtypes.Numeric:
		return true
	}
	return false
}

// jsonPathOperator binds jsonb @? jsonpath (jsonb_path_exists) and jsonb
// @@ jsonpath (jsonb_path_match), both silent: a SQL/JSON data error makes
// them NULL. ok is false when the left side is not jsonb.
func (b *Binder) jsonPathOperator(op string, l, r Bound, loc int32) (Bound, bool, error) {
	if !isJSONB(l) {
		return Bound{}, false, nil
	}
	if !r.Unknown() && r.T.OID != pgtypes.Text && r.T.OID != pgtypes.Varchar {
		return Bound{}, true, b.ErrAt(undefinedOperator(op, []Bound{l, r}), loc)
	}
	fn := "jsonb_path_exists"
	if op == "@@" {
		fn = "jsonb_path_match"
	}
	vars := Bound{E: &expr.Lit{V: "{}", T: expr.Text}, T: plan.TJSONB}
	silent := Bound{E: &expr.Lit{V: true, T: expr.Bool}, T: plan.TBool}
	res, err := b.call(fn, []Bound{l, r.resolveUnknownIn(b), vars, silent}, loc)
	res.Name, res.strong = "", false
	return res, true, err
}
