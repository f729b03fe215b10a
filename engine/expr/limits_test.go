package expr

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
)

// byteBudget is a statement memory limit of n bytes with nothing held.
type byteBudget int64

func (b byteBudget) Fits(n int64, what string) error {
	if n > int64(b) {
		return pgerr.New(pgerr.OutOfMemory, "out of memory")
	}
	return nil
}

// TestValueLimits: what a program builds for a batch is checked against
// the statement's memory limit - a kernel's values, a constant repeated
// over the batch - and a value over 1GB is 54000 before it is built.
// Folding leaves large values to run under the limit.
func TestValueLimits(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: Int4}}, nil)
	b := array.NewInt32Builder(memory.DefaultAllocator)
	for i := range 1024 {
		b.Append(int32(i))
	}
	col0 := b.NewArray()
	b.Release()
	batch := array.NewRecordBatch(schema, []arrow.Array{col0}, 1024)
	col0.Release()
	defer batch.Release()
	n := &Col{Idx: 0, Name: "n", T: Int4}
	ctx := WithMemoryBudget(context.Background(), byteBudget(4<<20))
	for _, tc := range []struct {
		name string
		e    Expr
		code string
	}{
		{"small values", call("repeat", txt("x"), n), ""},
		{"values of a batch", call("repeat", txt("x"), call("+", n, i4(10000))), pgerr.OutOfMemory},
		{"a constant over a batch", call("repeat", txt("x"), i4(1000000)), pgerr.OutOfMemory},
		{"one value over the limit", call("repeat", txt("x"), call("+", n, i4(8<<20))), pgerr.OutOfMemory},
		{"one value over 1GB", call("repeat", txt("xx"), call("+", n, i4(600<<20))), pgerr.ProgramLimitExceeded},
		{"a constant too large to fold", call("length", call("repeat", txt("x"), i4(8<<20))), pgerr.OutOfMemory},
		{"||", call("||", call("repeat", txt("x"), call("+", n, i4(3000))), call("repeat", txt("y"), call("+", n, i4(3000)))), pgerr.OutOfMemory},
		{"concat_ws", call("concat_ws", txt(","), call("repeat", txt("x"), call("+", n, i4(1000))), call("repeat", txt("x"), call("+", n, i4(3000)))), pgerr.OutOfMemory},
		{"an array of long texts", call("array_length", &Call{Fn: "array", Args: []Expr{call("repeat", txt("x"), call("+", n, i4(2500)))}, T: TextArray}, i4(1)), pgerr.OutOfMemory},
		{"replace", call("replace", call("repeat", txt("ab"), call("+", n, i4(1000))), txt("b"), txt("bbbbbbbbbb")), pgerr.OutOfMemory},
	} {
		p, err := Compile(tc.e, schema)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		out, err := p.Eval(ctx, batch)
		if out != nil {
			out.Release()
		}
		if got := sqlstate(err); got != tc.code && !(tc.code == "" && err == nil) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.code)
		}
	}
}
