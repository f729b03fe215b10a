package jsonfunc

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/regtype"
)

// jsonb's modification operators: jsonb || jsonb, jsonb - text, jsonb -
// int, jsonb - text[] and jsonb #- text[] (pgtext/json_modify.go). They
// run per row over jsonb's text; a jsonb of a nested column (the metadata
// tables' structs and maps) is 0A000 here.
func bindModify(b *bind.Binder, op string, l, r bind.Bound, loc int32) (bind.Bound, bool, error) {
	undefined := func() (bind.Bound, bool, error) {
		return bind.Bound{}, true, b.ErrAt(bind.UndefinedOperator(op, []bind.Bound{l, r}), loc)
	}
	if !bind.IsJSONB(l) {
		if op != "||" || !l.Unknown() {
			return undefined()
		}
	}
	lj, ok := b.JSONBText(l)
	if !ok {
		return undefined()
	}
	if !arrow.TypeEqual(lj.E.Type(), expr.Text) {
		return bind.Bound{}, true, b.ErrAt(pgerr.NotYet("jsonb "+op+" on a nested column"), loc)
	}
	var (
		rhs  expr.Expr
		kind string
	)
	switch {
	case op == "||":
		if !bind.IsJSONB(r) && !r.Unknown() {
			return undefined()
		}
		rj, _ := b.JSONBText(r)
		if !arrow.TypeEqual(rj.E.Type(), expr.Text) {
			return bind.Bound{}, true, b.ErrAt(pgerr.NotYet("jsonb "+op+" on a nested column"), loc)
		}
		rhs, kind = rj.E, "jsonb"
	case op == "#-" || !r.Unknown() && r.T.OID == pgtypes.TextArray:
		if !r.Unknown() && r.T.OID != pgtypes.TextArray {
			return undefined()
		}
		rhs, kind = b.Coerce(r, expr.TextArray), "path"
		if op == "-" {
			kind = "keys"
		}
	case r.Unknown() || r.T.OID == pgtypes.Text || r.T.OID == pgtypes.Varchar || r.T.OID == pgtypes.BPChar:
		rhs, kind = b.Coerce(r, expr.Text), "key"
	case r.T.OID == pgtypes.Int2 || r.T.OID == pgtypes.Int4 || r.T.OID == pgtypes.Int8:
		rhs, kind = b.Coerce(r, expr.Int8), "index"
	default:
		return undefined()
	}
	fn := map[string]string{"||": "jsonb_concat", "-": "jsonb_delete", "#-": "jsonb_delete_path"}[op]
	return bind.Bound{E: &expr.Call{Fn: fn, Args: []expr.Expr{lj.E, rhs}, T: expr.Text, Go: func(_ context.Context, a []any) (any, error) {
		if a[0] == nil || a[1] == nil {
			return nil, nil
		}
		var p pgtext.JSONParser
		v, err := p.Parse([]byte(bind.TextValue(a[0])))
		if err != nil {
			return nil, err
		}
		var out *pgtext.JSON
		switch kind {
		case "jsonb":
			var q pgtext.JSONParser
			w, err := q.Parse([]byte(bind.TextValue(a[1])))
			if err != nil {
				return nil, err
			}
			out = pgtext.ConcatJSONB(v, w)
		case "key":
			out, err = pgtext.DeleteJSONBKey(v, []byte(bind.TextValue(a[1])))
		case "index":
			n, _ := regtype.Int64(a[1])
			out, err = pgtext.DeleteJSONBIndex(v, n)
		case "keys", "path":
			var steps [][]byte
			for _, e := range a[1].([]any) {
				if e == nil {
					if kind == "path" {
						return nil, pgerr.New(pgerr.NullValueNotAllowed, "path element at position %d is null", len(steps)+1)
					}
					continue
				}
				steps = append(steps, []byte(bind.TextValue(e)))
			}
			if kind == "path" {
				out, err = pgtext.DeleteJSONBPath(v, steps)
				break
			}
			out = v
			for _, k := range steps {
				if out, err = pgtext.DeleteJSONBKey(out, k); err != nil {
					break
				}
			}
		}
		if err != nil {
			return nil, err
		}
		return string(pgtext.AppendJSONB(nil, out)), nil
	}}, T: plan.TJSONB}, true, nil
}
