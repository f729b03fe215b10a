package bind

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// charArrayCast binds a cast to varchar[], char[] (with or without a
// length) and json[]: their values are lists of strings as text[]'s are.
// A length cuts each element as the explicit cast to varchar(n) or char(n)
// does (char(n) blank-pads), and json[] checks each element's syntax.
func (b *Binder) charArrayCast(arg Bound, t plan.Type, loc int32) (Bound, bool, error) {
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
	param := arg.param > 0 && arg.Unknown()
	from := arg.T.OID
	r, err := b.castTo(arg, plan.Type{OID: pgtypes.TextArray, Typmod: -1}, loc)
	if err != nil {
		return Bound{}, true, err
	}
	if param {
		b.params.setType(arg.param, t.OID)
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
	}
	r.T = t
	return r, true, nil
}
