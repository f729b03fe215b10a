package plan

import (
	"testing"

	"github.com/icegate/icegate/engine/expr"
)

// TestMarkFilter: the mark alone makes a semi join, NOT mark an anti
// join, the other conjuncts are left; a filter that uses the mark
// elsewhere, or not at all, keeps the mark join.
func TestMarkFilter(t *testing.T) {
	j := &Join{Typ: JoinMark, Mark: 7}
	mark := &expr.Col{Idx: 7, T: expr.Bool}
	other := &expr.Col{Idx: 3, T: expr.Bool}
	not := func(e expr.Expr) expr.Expr { return &expr.Call{Fn: "not", Args: []expr.Expr{e}, T: expr.Bool} }
	or := func(a, b expr.Expr) expr.Expr { return &expr.Call{Fn: "or", Args: []expr.Expr{a, b}, T: expr.Bool} }
	for _, tc := range []struct {
		name  string
		preds []expr.Expr
		typ   JoinType
		rest  int
		ok    bool
	}{
		{"mark", []expr.Expr{mark}, JoinSemi, 0, true},
		{"not mark", []expr.Expr{not(mark)}, JoinAnti, 0, true},
		{"mark and another", []expr.Expr{other, mark}, JoinSemi, 1, true},
		{"mark used again", []expr.Expr{mark, or(mark, other)}, 0, 0, false},
		{"no mark", []expr.Expr{other}, 0, 0, false},
		{"mark inside an or", []expr.Expr{or(mark, other)}, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typ, rest, ok := MarkFilter(j, tc.preds)
			if ok != tc.ok || (ok && (typ != tc.typ || len(rest) != tc.rest)) {
				t.Fatalf("MarkFilter = %v, %d conjuncts left, %v; want %v, %d, %v", typ, len(rest), ok, tc.typ, tc.rest, tc.ok)
			}
		})
	}
}
