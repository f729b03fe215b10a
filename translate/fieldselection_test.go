package translate

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// TestFieldSelection binds (x).field on the composite values of
// _pg_expandarray: the field's type, and PostgreSQL's errors for a missing
// field and a value that is not composite.
func TestFieldSelection(t *testing.T) {
	b := bind.New(context.Background(), nil, parse.Stmt{}, &bind.ParamSet{}, time.Now())
	st := expr.ExpandArrayType(arrow.PrimitiveTypes.Int16).(*arrow.ListType).Elem()
	rec := bind.Bound{E: &expr.Col{Idx: 0, T: st}, T: plan.Type{OID: pgtypes.Record, Typmod: -1}}
	for field, want := range map[string]plan.Type{"x": plan.TInt2, "n": plan.TInt4} {
		r, err := b.FieldSelection(rec, field, -1)
		if err != nil {
			t.Fatalf("(x).%s: %v", field, err)
		}
		if r.T != want || r.Name != field || !arrow.TypeEqual(r.E.Type(), plan.ArrowOf(want)) {
			t.Errorf("(x).%s: type %s (%s) name %q, want %s", field, r.T, r.E.Type(), r.Name, want)
		}
	}
	if _, err := b.FieldSelection(rec, "y", -1); pgerr.Code(err) != pgerr.UndefinedColumn {
		t.Errorf("(x).y: %v, want 42703", err)
	}
	num := bind.Bound{E: &expr.Lit{V: int32(1), T: expr.Int4}, T: plan.TInt4}
	if _, err := b.FieldSelection(num, "n", -1); pgerr.Code(err) != pgerr.WrongObjectType {
		t.Errorf("(1).n: %v, want 42809", err)
	}
}
