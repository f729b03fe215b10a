package bind

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// Casts between json, jsonb and text whose jsonb side is held as text
// (a jsonb or json column of a table, a ::jsonb value): jsonb::text and
// json::text are the text as it is (jsonb's is already canonical),
// x::json checks text's JSON syntax and keeps it as written, json::jsonb
// normalises it. ok is false for the casts jsonbCast and castTo make.
func (b *Binder) jsonTextCast(arg Bound, t plan.Type, loc int32) (Bound, bool, error) {
	if arg.Unknown() && t.OID != pgtypes.JSON {
		return Bound{}, false, nil
	}
	asText := !arg.Unknown() && arg.E != nil && arg.E.Type().ID() == arrow.STRING
	switch {
	case t.OID == pgtypes.Text && (arg.T.OID == pgtypes.JSONB || arg.T.OID == pgtypes.JSON) && asText:
		return Bound{E: arg.E, T: plan.TText}, true, nil
	case t.OID == pgtypes.JSONB && arg.T.OID == pgtypes.JSON && asText:
		r, err := b.jsonbCast(Bound{E: arg.E, T: plan.TText}, loc)
		return r, true, err
	case t.OID == pgtypes.JSON:
		json := plan.Type{OID: pgtypes.JSON, Typmod: -1}
		switch {
		case arg.null:
			return Bound{E: &expr.Lit{V: nil, T: expr.Text}, T: json}, true, nil
		case !arg.Unknown() && (arg.T.OID == pgtypes.JSONB || arg.T.OID == pgtypes.JSON) && asText:
			return Bound{E: arg.E, T: json}, true, nil
		case arg.Unknown() || arg.T.OID == pgtypes.Text || arg.T.OID == pgtypes.Varchar || arg.T.OID == pgtypes.BPChar:
			e := &expr.Call{Fn: "json_in", Args: []expr.Expr{b.Coerce(arg, expr.Text)}, T: expr.Text}
			if arg.lit != nil && b.LitErr == nil {
				if err := b.checkConst(e); err != nil {
					b.LitErr = b.ErrAt(err, arg.loc)
				}
			}
			return Bound{E: e, T: json}, true, nil
		}
		return Bound{}, true, b.ErrAt(cannotCast(arg.T, json), loc)
	}
	return Bound{}, false, nil
}
