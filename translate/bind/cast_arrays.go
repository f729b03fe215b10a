package bind

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// charArrayCast binds a cast to varchar[], char[] (with or without a
// length) and json[]: their values are lists of strings as text[]'s are.
// A length cuts each element as the explicit cast to varchar(n) or char(n)
// does (char(n) blank-pads), and json[] checks each element's syntax.
func (b *Binder) charArrayCast(arg Bound, t plan.Type, loc int32) (Bound, bool, error) {
	if arg.T.OID == pgtypes.BPCharArray && !arg.Unknown() && (t.OID == pgtypes.TextArray || t.OID == pgtypes.VarcharArray) {
		// As char(n) to text or varchar: trailing blanks go.
		arg.E = &expr.Call{Fn: "bpchar_trim_elems", Args: []expr.Expr{arg.E}, T: arg.E.Type()}
		arg.T = plan.Type{OID: pgtypes.TextArray, Typmod: -1}
		if t.OID == pgtypes.TextArray {
			return arg, true, nil
		}
	}
	var fn string
	switch t.OID {
	case pgtypes.VarcharArray:
		fn = "varchar_cast_elems"
	case pgtypes.BPCharArray:
		fn = "bpchar_cast_elems"
	case pgtypes.JSONArray:
		fn = "json_in_elems"
	default:
		return Bound{}, false, nil
	}
	if !arg.Unknown() && arg.T.OID == t.OID && (t.Typmod < 0 || arg.T.Typmod == t.Typmod) {
		return Bound{E: arg.E, T: t}, true, nil
	}
	if arg.param > 0 && arg.Unknown() {
		b.params.setType(arg.param, t.OID) // before the cast to text[] below
	}
	from := arg.T.OID
	r, err := b.castTo(arg, plan.Type{OID: pgtypes.TextArray, Typmod: -1}, loc)
	if err != nil {
		return Bound{}, true, err
	}
	switch {
	case fn == "json_in_elems":
		if from == pgtypes.JSONArray {
			fn = ""
		}
	case t.Typmod < 4:
		fn = ""
	}
	if fn != "" {
		args := []expr.Expr{r.E}
		if fn != "json_in_elems" {
			args = append(args, &expr.Lit{V: t.Typmod - 4, T: expr.Int4})
		}
		r.E = &expr.Call{Fn: fn, Args: args, T: r.E.Type()}
		if arg.lit != nil && (arg.param == 0 || b.params.Bound) && b.LitErr == nil {
			// '{x}'::json[]: bad input of a literal fails while
			// binding, at the literal, as PostgreSQL's does.
			if err := b.checkConst(r.E); err != nil {
				b.LitErr = b.ErrAt(err, arg.loc)
			}
		}
	}
	r.T = t
	return r, true, nil
}

// charLength checks the length of varchar(n) and char(n) as written
// (name, in a name of parts parts, with modifiers mods): 1 to 10485760.
func charLength(name string, parts int, mods []int) error {
	switch {
	case len(mods) != 1:
		return nil
	case name == "varchar" || name == "character varying":
		name = "varchar"
	case name == "bpchar" || name == "character" || name == "char" && parts > 1:
		name = "char"
	default:
		return nil
	}
	if mods[0] < 1 {
		return pgerr.New(pgerr.InvalidParameterValue, "length for type %s must be at least 1", name)
	}
	if mods[0] > 10485760 {
		return pgerr.New(pgerr.InvalidParameterValue, "length for type %s cannot exceed 10485760", name)
	}
	return nil
}
