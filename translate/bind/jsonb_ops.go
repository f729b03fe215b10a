package bind

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// jsonb's comparison and containment operators, its order (ORDER BY) and
// the cast ::jsonb. A jsonb value's Arrow type is text (jsonb's canonical
// text) or the struct, map or list of a nested column; the engine's jsonb
// functions (engine/expr/jsonb_order.go) read either.

// isJSONB reports a value typed jsonb.
func isJSONB(x Bound) bool { return !x.Unknown() && x.T.OID == plan.TJSONB.OID }

// jsonbText binds x as jsonb: a jsonb value as it is, an untyped literal
// or text parsed as JSON (22P02 for bad JSON).
func (b *Binder) jsonbText(x Bound) (Bound, bool) {
	switch {
	case isJSONB(x):
		return x, true
	case x.null:
		return Bound{E: &expr.Lit{V: nil, T: expr.Text}, T: plan.TJSONB}, true
	case x.Unknown() || x.T.OID == pgtypes.Text || x.T.OID == pgtypes.Varchar || x.T.OID == pgtypes.BPChar:
		if x.param > 0 && x.Unknown() {
			// An untyped parameter is jsonb, as PostgreSQL types it:
			// Describe says so, and the value is parsed as JSON.
			b.params.setType(x.param, plan.TJSONB.OID)
			x.T = plan.TJSONB
			x.E = coerce(x, plan.ArrowOf(plan.TJSONB))
		}
		r := Bound{E: &expr.Call{Fn: "jsonb_in", Args: []expr.Expr{b.Coerce(x, expr.Text)}, T: expr.Text}, T: plan.TJSONB}
		if x.lit != nil && (x.param == 0 || b.params.Bound) && b.LitErr == nil {
			// A literal is parsed once here, as PostgreSQL parses it
			// while binding: bad JSON fails with the literal's position.
			if err := b.checkConst(r.E); err != nil {
				b.LitErr = b.ErrAt(err, x.loc)
			}
		}
		return r, true
	}
	return Bound{}, false
}

// jsonbCast is x::jsonb.
func (b *Binder) jsonbCast(x Bound, loc int32) (Bound, error) {
	if !x.Unknown() && !isJSONB(x) && x.T.OID != pgtypes.Text && x.T.OID != pgtypes.Varchar && x.T.OID != pgtypes.BPChar {
		return Bound{}, b.ErrAt(cannotCast(x.T, plan.TJSONB), loc)
	}
	r, _ := b.jsonbText(x)
	return r, nil
}

// jsonbSortKey is x's key in jsonb's order (bytea).
func jsonbSortKey(x Bound) Bound {
	return Bound{E: &expr.Call{Fn: "jsonb_sortkey", Args: []expr.Expr{x.E}, T: arrow.BinaryTypes.Binary}, T: plan.TBytea}
}

// jsonbOperator binds op when a side is jsonb: = <> < <= > >= and IS
// [NOT] DISTINCT FROM in jsonb's order, ? ?| ?& and @> <@. ok is false
// when neither side is jsonb.
func (b *Binder) jsonbOperator(op string, l, r Bound, loc int32) (Bound, bool, error) {
	if !isJSONB(l) && !isJSONB(r) {
		return Bound{}, false, nil
	}
	undefined := func() (Bound, bool, error) {
		return Bound{}, true, b.ErrAt(undefinedOperator(op, []Bound{l, r}), loc)
	}
	switch op {
	case "=", "<>", "<", "<=", ">", ">=", "is_distinct_from", "is_not_distinct_from", "@>", "<@":
		// An untyped parameter compared with jsonb is jsonb.
		for _, x := range []Bound{l, r} {
			if x.param > 0 && x.Unknown() {
				b.params.setType(x.param, pgtypes.JSONB)
			}
		}
		lj, ok1 := b.jsonbText(l)
		rj, ok2 := b.jsonbText(r)
		if !ok1 || !ok2 || !isJSONB(l) && !l.Unknown() || !isJSONB(r) && !r.Unknown() {
			return undefined()
		}
		if op == "@>" || op == "<@" {
			if op == "<@" {
				lj, rj = rj, lj
			}
			return Bound{E: &expr.Call{Fn: "jsonb_contains", Args: []expr.Expr{lj.E, rj.E}, T: expr.Bool}, T: plan.TBool}, true, nil
		}
		res, err := b.call(op, []Bound{jsonbSortKey(lj), jsonbSortKey(rj)}, loc)
		return res, true, err
	case "||", "-", "#-":
		return b.jsonbModifyOperator(op, l, r, loc) // jsonb_modify.go
	case "?":
		if !isJSONB(l) || !(r.Unknown() || r.T.OID == pgtypes.Text || r.T.OID == pgtypes.Varchar) {
			return undefined()
		}
		return Bound{E: &expr.Call{Fn: "jsonb_exists", Args: []expr.Expr{l.E, b.Coerce(r, expr.Text)}, T: expr.Bool}, T: plan.TBool}, true, nil
	case "?|", "?&":
		if !isJSONB(l) || !(r.Unknown() || r.T.OID == pgtypes.ArrayOf(pgtypes.Text) || r.T.OID == pgtypes.ArrayOf(pgtypes.Varchar)) {
			return undefined()
		}
		fn := map[string]string{"?|": "jsonb_exists_any", "?&": "jsonb_exists_all"}[op]
		return Bound{E: &expr.Call{Fn: fn, Args: []expr.Expr{l.E, b.Coerce(r, expr.TextArray)}, T: expr.Bool}, T: plan.TBool}, true, nil
	}
	return Bound{}, false, nil
}

// jsonbGroupable is x as jsonb text, which GROUP BY and DISTINCT compare:
// a struct, map or list column's value becomes its jsonb text (the text
// the wire prints for it). Equal text is equal jsonb, but equal numbers
// written with other scales (1.0 and 1.00) stay apart, where PostgreSQL
// makes them one group.
func jsonbGroupable(x Bound) Bound {
	if arrow.TypeEqual(x.E.Type(), expr.Text) {
		return x
	}
	out := x
	out.E = &expr.Call{Fn: "to_jsonb", Args: []expr.Expr{x.E}, T: expr.Text}
	return out
}
