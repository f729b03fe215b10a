package bind

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/enumtype"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// Enum types in expressions: casts to an enum type ('ok'::mood) and the
// enum functions of a typed NULL (enum_range(NULL::mood)). A value of an
// enum type is bound as text whose label is checked; it does not carry its
// type further (comparison and ORDER BY are those of text).

// enumOfTypeName finds the enum type a cast names: its labels (the JSON
// array its table keeps) and name; ok false when tn names no enum type.
func (b *Binder) enumOfTypeName(tn *pg.TypeName) (labels []string, raw, name string, ok bool) {
	if tn == nil || len(tn.ArrayBounds) > 0 || len(tn.Typmods) > 0 || len(tn.Names) == 0 || len(tn.Names) > 2 {
		return nil, "", "", false
	}
	var parts []string
	for _, n := range tn.Names {
		parts = append(parts, n.GetString_().GetSval())
	}
	if parts[0] == "pg_catalog" {
		return nil, "", "", false
	}
	ptn := parse.TableName{Name: parts[len(parts)-1], Written: strings.Join(parts, ".")}
	if len(parts) == 2 {
		ptn.Schema = parts[0]
	}
	t, err := b.env.ResolveTable(b.ctx, ptn)
	if err != nil || !enumtype.Is(t) {
		return nil, "", "", false
	}
	raw = t.Metadata.Properties[enumtype.LabelsProp]
	labels, err = enumtype.Decode(raw)
	if err != nil {
		return nil, "", "", false
	}
	return labels, raw, ptn.Name, true
}

// enumCast binds arg::enum, an enum type's label as text, checked.
func (b *Binder) enumCast(tc *pg.TypeCast) (Bound, bool, error) {
	if _, _, err := b.TypeName(tc.TypeName); err == nil {
		return Bound{}, false, nil // a built-in type: no catalog lookup
	}
	_, raw, name, ok := b.enumOfTypeName(tc.TypeName)
	if !ok {
		return Bound{}, false, nil
	}
	arg, err := b.Expr(tc.Arg)
	if err != nil {
		return Bound{}, true, err
	}
	if arg.null {
		out, err := b.castTo(arg, plan.TText, tc.Location)
		out.Name = name
		return out, true, err
	}
	text, err := b.castTo(arg, plan.TText, tc.Location)
	if err != nil {
		return Bound{}, true, err
	}
	out := Bound{E: EnumCheck(text.E, raw, name), T: plan.TText, Name: name}
	if arg.strong {
		out.Name, out.strong = arg.Name, true
	}
	return out, true, nil
}

// enumFunc binds enum_first, enum_last and enum_range of an argument cast
// to an enum type (NULL::mood, as clients write them): constants of the
// type's labels. ok false for other calls.
func (b *Binder) enumFunc(fc *pg.FuncCall) (Bound, bool, error) {
	fn := funcName(fc)
	if fn != "enum_first" && fn != "enum_last" && fn != "enum_range" || len(fc.Args) == 0 || len(fc.Args) > 2 || fc.Over != nil {
		return Bound{}, false, nil
	}
	tc := fc.Args[0].GetTypeCast()
	if tc == nil {
		return Bound{}, false, nil
	}
	labels, _, _, ok := b.enumOfTypeName(tc.TypeName)
	if !ok {
		return Bound{}, false, nil
	}
	if fn != "enum_range" && len(fc.Args) != 1 {
		return Bound{}, true, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", fn)
	}
	text := func(v any) Bound {
		return Bound{E: &expr.Lit{V: v, T: expr.Text}, T: plan.TText, Name: fn, strong: true}
	}
	switch fn {
	case "enum_first", "enum_last":
		if len(labels) == 0 {
			return Bound{}, true, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "enum %s contains no values", tc.TypeName.Names[len(tc.TypeName.Names)-1].GetString_().GetSval())
		}
		if fn == "enum_first" {
			return text(labels[0]), true, nil
		}
		return text(labels[len(labels)-1]), true, nil
	}
	from, to := 0, len(labels)
	if len(fc.Args) == 2 {
		// enum_range(lower, upper): the labels from lower to upper, a
		// NULL bound open.
		bound := func(n *pg.Node, dflt int) (int, error) {
			c := n.GetTypeCast()
			if c == nil {
				return 0, pgerr.NotYet("enum_range of values other than constants cast to the enum type")
			}
			if ac := c.Arg.GetAConst(); ac != nil && ac.Isnull {
				return dflt, nil
			}
			if ac := c.Arg.GetAConst(); ac != nil && ac.GetSval() != nil {
				for i, l := range labels {
					if l == ac.GetSval().Sval {
						return i, nil
					}
				}
				return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input value for enum %s: \"%s\"", tc.TypeName.Names[len(tc.TypeName.Names)-1].GetString_().GetSval(), ac.GetSval().Sval)
			}
			return 0, pgerr.NotYet("enum_range of values other than constants cast to the enum type")
		}
		var err error
		if from, err = bound(fc.Args[0], 0); err != nil {
			return Bound{}, true, err
		}
		last, err := bound(fc.Args[1], len(labels)-1)
		if err != nil {
			return Bound{}, true, err
		}
		to = max(last+1, from)
	}
	elems := make([]string, 0, to-from)
	for _, l := range labels[from:to] {
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
