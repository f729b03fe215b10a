package bind

import (
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/enumtype"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// Enum types in expressions. A value of an enum type is its label, bound
// as text, that knows its type (Bound.enum, plan.ColMeta.Enum: a column of
// the type, a cast to it, min/max of it): it sorts (ORDER BY, window and
// aggregate ORDER BY) and compares (< <= > >= BETWEEN, min, max) by its
// label's position in the type's declaration, read when the statement is
// bound, so that ALTER TYPE ... ADD VALUE BEFORE/AFTER is seen by the next
// statement. The engine computes the position (enum_ord) only where order
// matters: equality stays that of the labels, and a comparison with a
// constant label becomes the list of labels it admits (m < 'ok' is m IN
// ('sad')), which filters that skip data files by their bounds understand.
// A label that is not the type's is 22P02; comparing values of two enum
// types, or an enum value with text, is 42883, as in PostgreSQL.

// enumType is an enum type as a statement sees it.
type enumType struct {
	qual   string   // "schema.name", as plan.ColMeta.Enum
	name   string   // unqualified
	labels []string // in declaration order
	raw    string   // the labels as the JSON array the type's table keeps
}

// display is the type's name as PostgreSQL prints it: qualified unless
// in the public schema.
func (t *enumType) display() string {
	if s, _, _ := strings.Cut(t.qual, "."); s == "public" {
		return t.name
	}
	return t.qual
}

// check is the input of label v: 22P02 when it is not one of the labels.
func (t *enumType) check(v string) error {
	if !slices.Contains(t.labels, v) {
		return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input value for enum %s: \"%s\"", t.display(), v)
	}
	return nil
}

// key is the sort key of e, a value of the type: its label's position.
func (t *enumType) key(e expr.Expr) expr.Expr {
	return &expr.Call{Fn: "enum_ord", Args: []expr.Expr{e, &expr.Lit{V: t.raw, T: expr.Text}, &expr.Lit{V: t.display(), T: expr.Text}}, T: expr.Int4}
}

// enumTableType reads the enum type of its table t.
func enumTableType(t *catalog.Table) (*enumType, bool) {
	if !enumtype.Is(t) {
		return nil, false
	}
	raw := t.Metadata.Properties[enumtype.LabelsProp]
	labels, err := enumtype.Decode(raw)
	if err != nil {
		return nil, false
	}
	return &enumType{qual: strings.Join(t.Ident.Namespace, ".") + "." + t.Ident.Name, name: t.Ident.Name, labels: labels, raw: raw}, true
}

// enumByQual reads enum type qual ("schema.name").
func (b *Binder) enumByQual(qual string) (*enumType, error) {
	i := strings.LastIndexByte(qual, '.')
	tn := parse.TableName{Schema: qual[:max(i, 0)], Name: qual[i+1:], Written: qual}
	t, err := b.env.ResolveTable(b.ctx, tn)
	if err != nil {
		return nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", qual)
	}
	et, ok := enumTableType(t)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", qual)
	}
	return et, nil
}

// enumOfExpr is the enum type of the value of e, "" if none: a column's,
// or that of an expression bound as one.
func (b *Binder) enumOfExpr(e expr.Expr) string {
	switch x := e.(type) {
	case *expr.Col:
		return b.q.Meta(plan.ColID(x.Idx)).Enum
	case *expr.Call, *expr.Lit, *expr.Cast, *expr.Case:
		return b.enumExprs[e]
	}
	return ""
}

// asEnum marks x, a text value, as a value of enum type qual.
func (b *Binder) asEnum(x Bound, qual string) Bound {
	x.enum = qual
	switch x.E.(type) {
	case *expr.Call, *expr.Lit, *expr.Cast, *expr.Case:
		b.enumExprs[x.E] = qual
	}
	return x
}

// enumOfTypeName finds the enum type a cast names; ok false when tn names
// no enum type.
func (b *Binder) enumOfTypeName(tn *pg.TypeName) (*enumType, bool) {
	if tn == nil || len(tn.ArrayBounds) > 0 || len(tn.Typmods) > 0 || len(tn.Names) == 0 || len(tn.Names) > 2 {
		return nil, false
	}
	var parts []string
	for _, n := range tn.Names {
		parts = append(parts, n.GetString_().GetSval())
	}
	if parts[0] == "pg_catalog" {
		return nil, false
	}
	ptn := parse.TableName{Name: parts[len(parts)-1], Written: strings.Join(parts, ".")}
	if len(parts) == 2 {
		ptn.Schema = parts[0]
	}
	t, err := b.env.ResolveTable(b.ctx, ptn)
	if err != nil {
		return nil, false
	}
	return enumTableType(t)
}

// enumCast binds arg::enum, an enum type's label as text: a constant
// label checked now, another text value when it is evaluated.
func (b *Binder) enumCast(tc *pg.TypeCast) (Bound, bool, error) {
	if _, _, err := b.TypeName(tc.TypeName); err == nil {
		return Bound{}, false, nil // a built-in type: no catalog lookup
	}
	et, ok := b.enumOfTypeName(tc.TypeName)
	if !ok {
		return Bound{}, false, nil
	}
	arg, err := b.Expr(tc.Arg)
	if err != nil {
		return Bound{}, true, err
	}
	named := func(out Bound) Bound {
		out.Name, out.strong = et.name, false
		if arg.strong {
			out.Name, out.strong = arg.Name, true
		}
		return b.asEnum(out, et.qual)
	}
	switch {
	case arg.enum == et.qual:
		return named(arg), true, nil
	case arg.enum != "":
		from, err := b.enumByQual(arg.enum)
		if err != nil {
			return Bound{}, true, b.ErrAt(err, tc.Location)
		}
		return Bound{}, true, b.ErrAt(pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from.display(), et.display()), tc.Location)
	case arg.null:
		return named(Bound{E: &expr.Lit{V: nil, T: expr.Text}, T: plan.TText}), true, nil
	case arg.lit != nil && (arg.param == 0 || b.params.Bound):
		if err := et.check(*arg.lit); err != nil {
			return Bound{}, true, b.ErrAt(err, litLoc(arg, tc.Location))
		}
		return named(Bound{E: &expr.Lit{V: *arg.lit, T: expr.Text}, T: plan.TText}), true, nil
	}
	text, err := b.castTo(arg, plan.TText, tc.Location)
	if err != nil {
		return Bound{}, true, err
	}
	return named(Bound{E: EnumCheck(text.E, et.raw, et.display()), T: plan.TText}), true, nil
}

// enumCastOut binds x::t of a value x of an enum type, out being the cast
// bound as of text: the label, of a string type; other types are 42846.
func (b *Binder) enumCastOut(x, out Bound, t plan.Type, loc int32) (Bound, error) {
	switch t.OID {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name:
	default:
		et, err := b.enumByQual(x.enum)
		if err != nil {
			return Bound{}, b.ErrAt(err, loc)
		}
		return Bound{}, b.ErrAt(pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", et.display(), t), loc)
	}
	out.enum = ""
	if _, ok := out.E.(*expr.Col); ok {
		// Not the column itself, which a query around this one would
		// still see as the enum.
		out.E = &expr.Cast{Arg: out.E, T: out.E.Type()}
	}
	switch out.E.(type) {
	case *expr.Call, *expr.Lit, *expr.Cast, *expr.Case:
		delete(b.enumExprs, out.E)
	}
	return out, nil
}

// enumOps are the comparisons of enum values, by the operator PostgreSQL
// names in their errors.
var enumOps = map[string]string{"=": "=", "<>": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"is_distinct_from": "=", "is_not_distinct_from": "=", "in": "=", "nullif": "=",
	"coalesce": "coalesce", "greatest": "greatest", "least": "least"}

// enumConst is the label of x when x is a constant label.
func enumConst(x Bound) (string, bool) {
	if l, ok := x.E.(*expr.Lit); ok {
		v, ok := l.V.(string)
		return v, ok
	}
	return "", false
}

// enumCall binds a comparison fn of args one of which is of an enum type
// (ok false when none is): the others of the same type, or constants or
// parameters that are read as its labels.
func (b *Binder) enumCall(fn string, args []Bound, loc int32) (Bound, bool, error) {
	op, ok := enumOps[fn]
	if !ok {
		return Bound{}, false, nil
	}
	i := slices.IndexFunc(args, func(a Bound) bool { return a.enum != "" })
	if i < 0 {
		return Bound{}, false, nil
	}
	et, err := b.enumByQual(args[i].enum)
	if err != nil {
		return Bound{}, true, b.ErrAt(err, loc)
	}
	plain := make([]Bound, len(args))
	for j, a := range args {
		switch {
		case a.enum == et.qual:
			plain[j] = a
			plain[j].enum = ""
		case a.param > 0 && !a.Unknown() && (a.T.OID == pgtypes.Text || a.T.OID == pgtypes.Varchar):
			// A parameter typed text (at Execute, once Prepare read it
			// as one) is a label, checked when evaluated.
			plain[j] = Bound{E: EnumCheck(a.E, et.raw, et.display()), T: plan.TText}
		case a.enum != "" || !a.Unknown():
			other := a.T.String()
			if a.enum != "" {
				ot, err := b.enumByQual(a.enum)
				if err != nil {
					return Bound{}, true, b.ErrAt(err, loc)
				}
				other = ot.display()
			}
			names := []string{et.display(), other}
			if j < i {
				names[0], names[1] = names[1], names[0]
			}
			return Bound{}, true, b.ErrAt(operatorError(op, names), loc)
		case a.null:
			plain[j] = Bound{E: &expr.Lit{V: nil, T: expr.Text}, T: plan.TText}
		case a.param > 0 && !b.params.Bound:
			// At Prepare: the parameter is a label, text on the wire.
			plain[j] = Bound{E: EnumCheck(b.Coerce(a, expr.Text), et.raw, et.display()), T: plan.TText}
		default:
			if err := et.check(*a.lit); err != nil {
				return Bound{}, true, b.ErrAt(err, litLoc(a, loc))
			}
			if a.param > 0 {
				b.params.setType(a.param, pgtypes.Text)
			}
			plain[j] = Bound{E: &expr.Lit{V: *a.lit, T: expr.Text}, T: plan.TText}
		}
	}
	switch fn {
	case "=", "<>", "is_distinct_from", "is_not_distinct_from", "in":
		return boundCall(b.call(fn, plain, loc))
	case "nullif", "coalesce":
		r, err := b.call(fn, plain, loc)
		if err != nil {
			return Bound{}, true, err
		}
		return b.asEnum(r, et.qual), true, nil
	case "greatest", "least":
		// The label of the greatest (least) position.
		keys := make([]Bound, len(plain))
		for j, a := range plain {
			keys[j] = Bound{E: et.key(a.E), T: plan.TInt4}
		}
		r, err := b.call(fn, keys, loc)
		if err != nil {
			return Bound{}, true, err
		}
		e := &expr.Call{Fn: "enum_label", Args: []expr.Expr{r.E, &expr.Lit{V: et.raw, T: expr.Text}}, T: expr.Text}
		return b.asEnum(Bound{E: e, T: plan.TText}, et.qual), true, nil
	}
	// An order comparison of a value with a constant label is the list
	// of the labels it admits, when there are some.
	for x, c := range [][2]int{{0, 1}, {1, 0}} {
		v, isConst := enumConst(plain[c[1]])
		if _, xConst := enumConst(plain[c[0]]); xConst || !isConst {
			continue
		}
		at := slices.Index(et.labels, v)
		list := []Bound{plain[c[0]]}
		for k, l := range et.labels {
			if enumAdmits(op, x == 1, k, at) {
				list = append(list, Bound{E: &expr.Lit{V: l, T: expr.Text}, T: plan.TText})
			}
		}
		if len(list) > 1 {
			return boundCall(b.call("in", list, loc))
		}
	}
	keys := make([]Bound, len(plain))
	for j, a := range plain {
		switch v, isConst := enumConst(a); {
		case isConst:
			keys[j] = Bound{E: &expr.Lit{V: int32(slices.Index(et.labels, v)), T: expr.Int4}, T: plan.TInt4}
		default:
			keys[j] = Bound{E: et.key(a.E), T: plan.TInt4}
		}
	}
	return boundCall(b.call(fn, keys, loc))
}

// enumAdmits reports whether a value at position k stands in relation op
// to the constant at position at (the constant on the left when flipped).
func enumAdmits(op string, flipped bool, k, at int) bool {
	if flipped {
		k, at = at, k
	}
	switch op {
	case "<":
		return k < at
	case "<=":
		return k <= at
	case ">":
		return k > at
	case ">=":
		return k >= at
	}
	return false
}

// litLoc is where string literal x is written, else loc.
func litLoc(x Bound, loc int32) int32 {
	if x.lit != nil && x.loc > 0 {
		return x.loc
	}
	return loc
}

func boundCall(r Bound, err error) (Bound, bool, error) { return r, true, err }

// enumSortKey is the sort key of x: x itself, or its label's position
// when x is of an enum type (et then that type).
func (b *Binder) enumSortKey(x Bound) (Bound, *enumType, error) {
	if x.enum == "" {
		return x, nil, nil
	}
	et, err := b.enumByQual(x.enum)
	if err != nil {
		return Bound{}, nil, err
	}
	return Bound{E: et.key(x.E), T: plan.TInt4}, et, nil
}

// enumMinMax binds the argument of min or max of a value of an enum type
// as its label's position; label turns the aggregate's result back into
// the label. et is nil when the argument is of no enum type.
func (b *Binder) enumMinMax(name string, args []Bound) (out []Bound, label func(Bound) Bound, err error) {
	if name != "min" && name != "max" || len(args) != 1 || args[0].enum == "" {
		return args, nil, nil
	}
	key, et, err := b.enumSortKey(args[0])
	if err != nil {
		return nil, nil, err
	}
	return []Bound{key}, func(r Bound) Bound {
		e := &expr.Call{Fn: "enum_label", Args: []expr.Expr{r.E, &expr.Lit{V: et.raw, T: expr.Text}}, T: expr.Text}
		return b.asEnum(Bound{E: e, T: plan.TText, Name: r.Name, strong: r.strong}, et.qual)
	}, nil
}

// enumFunc binds enum_first, enum_last and enum_range of a value of an
// enum type (NULL::mood, as clients write them, or a column): constants
// of the type's labels; enum_range(lower, upper) of constant bounds (a
// NULL one open). ok false for other calls.
func (b *Binder) enumFunc(fc *pg.FuncCall) (Bound, bool, error) {
	fn := funcName(fc)
	if fn != "enum_first" && fn != "enum_last" && fn != "enum_range" || len(fc.Args) == 0 || len(fc.Args) > 2 || fc.Over != nil {
		return Bound{}, false, nil
	}
	args, err := b.exprs(fc.Args)
	if err != nil {
		return Bound{}, true, err
	}
	i := slices.IndexFunc(args, func(a Bound) bool { return a.enum != "" })
	if i < 0 || fn != "enum_range" && len(args) != 1 {
		return Bound{}, true, b.ErrAt(UndefinedCall(fn, args), fc.Location)
	}
	et, err := b.enumByQual(args[i].enum)
	if err != nil {
		return Bound{}, true, b.ErrAt(err, fc.Location)
	}
	text := func(v any) Bound {
		return Bound{E: &expr.Lit{V: v, T: expr.Text}, T: plan.TText, Name: fn, strong: true}
	}
	switch fn {
	case "enum_first", "enum_last":
		if len(et.labels) == 0 {
			return Bound{}, true, b.ErrAt(pgerr.New(pgerr.ObjectNotInPrerequisiteState, "enum %s contains no values", et.display()), fc.Location)
		}
		if fn == "enum_first" {
			return b.asEnum(text(et.labels[0]), et.qual), true, nil
		}
		return b.asEnum(text(et.labels[len(et.labels)-1]), et.qual), true, nil
	}
	from, to := 0, len(et.labels)
	if len(args) == 2 {
		// enum_range(lower, upper): the labels from lower to upper, a
		// NULL bound open.
		bound := func(a Bound, dflt int) (int, error) {
			switch {
			case a.enum != "" && a.enum != et.qual:
				return 0, UndefinedCall(fn, args)
			case a.null:
				return dflt, nil
			case a.lit != nil && a.param == 0:
				if err := et.check(*a.lit); err != nil {
					return 0, err
				}
				return slices.Index(et.labels, *a.lit), nil
			case a.enum == "":
				return 0, UndefinedCall(fn, args)
			}
			v, ok := a.E.(*expr.Lit)
			if !ok {
				return 0, pgerr.NotYet("enum_range of values other than constants")
			}
			if v.V == nil {
				return dflt, nil
			}
			return slices.Index(et.labels, v.V.(string)), nil
		}
		var last int
		from, err = bound(args[0], 0)
		if err == nil {
			last, err = bound(args[1], len(et.labels)-1)
		}
		if pgerr.Code(err) == pgerr.FeatureNotSupported {
			// Bounds known when the rows are: the engine's enum_range.
			ex := make([]expr.Expr, 2)
			for j, a := range args {
				switch {
				case a.null:
					ex[j] = &expr.Lit{V: nil, T: expr.Text}
				case a.lit != nil:
					ex[j] = &expr.Lit{V: *a.lit, T: expr.Text}
				default:
					ex[j] = a.E
				}
			}
			e := &expr.Call{Fn: "enum_range", Args: []expr.Expr{ex[0], ex[1], &expr.Lit{V: et.raw, T: expr.Text}, &expr.Lit{V: et.display(), T: expr.Text}},
				T: plan.ArrowOf(plan.Type{OID: pgtypes.TextArray, Typmod: -1})}
			return Bound{E: e, T: plan.Type{OID: pgtypes.TextArray, Typmod: -1}, Name: fn, strong: true}, true, nil
		}
		if err != nil {
			return Bound{}, true, b.ErrAt(err, fc.Location)
		}
		to = max(last+1, from)
	}
	elems := make([]string, 0, to-from)
	for _, l := range et.labels[from:to] {
		elems = append(elems, `"`+strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(l)+`"`)
	}
	lit := &pg.Node{Node: &pg.Node_TypeCast{TypeCast: &pg.TypeCast{
		Arg:      &pg.Node{Node: &pg.Node_AConst{AConst: &pg.A_Const{Val: &pg.A_Const_Sval{Sval: &pg.String{Sval: "{" + strings.Join(elems, ",") + "}"}}}}},
		TypeName: &pg.TypeName{Names: []*pg.Node{{Node: &pg.Node_String_{String_: &pg.String{Sval: "pg_catalog"}}}, {Node: &pg.Node_String_{String_: &pg.String{Sval: "text"}}}}, ArrayBounds: []*pg.Node{{Node: &pg.Node_Integer{Integer: &pg.Integer{Ival: -1}}}}, Typemod: -1},
	}}}
	out, err := b.Expr(lit)
	out.Name, out.strong = fn, true
	return out, true, err
}

// enumResult is r, the value of one of results (a CASE), of their enum
// type when those that are typed are all of one (constant labels checked).
func (b *Binder) enumResult(r Bound, results []Bound, loc int32) (Bound, error) {
	qual := ""
	for _, x := range results {
		switch {
		case x.Unknown():
		case x.enum == "" || qual != "" && x.enum != qual:
			return r, nil
		default:
			qual = x.enum
		}
	}
	if qual == "" {
		return r, nil
	}
	et, err := b.enumByQual(qual)
	if err != nil {
		return Bound{}, b.ErrAt(err, loc)
	}
	for _, x := range results {
		if x.lit != nil && x.param == 0 {
			if err := et.check(*x.lit); err != nil {
				return Bound{}, b.ErrAt(err, litLoc(x, loc))
			}
		}
	}
	return b.asEnum(r, qual), nil
}
