package plan

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
)

func TestMapCopiesOnlyWhatChanges(t *testing.T) {
	i32 := arrow.PrimitiveTypes.Int32
	lit := func(v int32) expr.Expr { return &expr.Lit{V: v, T: i32} }
	col := &expr.Col{Idx: 0, T: i32}
	vals := &Values{Rows: [][]expr.Expr{{lit(1)}, {lit(2)}, {lit(3)}}, Cols: []ColID{0}}
	filter := &Filter{In: vals, Pred: &expr.Call{Fn: ">", Args: []expr.Expr{col, lit(1)}, T: arrow.FixedWidthTypes.Boolean}}
	keep := func(r Rel) Rel { return r }
	same := func(e expr.Expr) expr.Expr { return e }

	if got := Map(filter, keep, same); got != filter {
		t.Error("Map copied a node although nothing changed")
	}
	if got := Map(vals, nil, same); got != vals {
		t.Error("Map copied VALUES although no row changed")
	}

	// Replace the literal 2: only the second row is new, the node is a copy
	// and the input keeps its rows.
	two := vals.Rows[1][0]
	swap := func(e expr.Expr) expr.Expr {
		if e == two {
			return lit(20)
		}
		return e
	}
	got := Map(vals, nil, swap).(*Values)
	if got == vals {
		t.Fatal("Map returned its input although a row changed")
	}
	if vals.Rows[1][0] != two {
		t.Error("Map changed its input")
	}
	if &got.Rows[0][0] != &vals.Rows[0][0] || &got.Rows[2][0] != &vals.Rows[2][0] {
		t.Error("Map copied rows that did not change")
	}
	if l, ok := got.Rows[1][0].(*expr.Lit); !ok || l.V != int32(20) {
		t.Errorf("row 2 = %v, want 20", got.Rows[1][0])
	}

	// A new child makes a new parent; the old parent keeps its child.
	other := &Values{Rows: [][]expr.Expr{{lit(9)}}, Cols: []ColID{0}}
	nf := Map(filter, func(Rel) Rel { return other }, nil).(*Filter)
	if nf == filter || nf.In != other || filter.In != vals || nf.Pred != filter.Pred {
		t.Error("Map did not copy the parent of a new child, or changed its input")
	}
}
