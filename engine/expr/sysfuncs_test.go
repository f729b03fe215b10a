package expr

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestExpandArrayKernel checks _pg_expandarray over int2vector-like lists
// (with a NULL and an empty row, and a sliced input) and _record_field on
// its structs.
func TestExpandArrayKernel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	lt := arrow.ListOf(arrow.PrimitiveTypes.Int16)
	b := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int16)
	vb := b.ValueBuilder().(*array.Int16Builder)
	b.Append(true) // skipped by the slice below
	vb.Append(9)
	b.Append(true)
	vb.AppendValues([]int16{3, 1}, nil)
	b.AppendNull()
	b.Append(true) // empty
	b.Append(true)
	vb.Append(7)
	full := b.NewArray()
	b.Release()
	col := array.NewSlice(full, 1, 5)
	full.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: lt, Nullable: true}}, nil)
	batch := array.NewRecordBatch(schema, []arrow.Array{col}, 4)
	col.Release()
	defer batch.Release()

	call := &Call{Fn: "_pg_expandarray", Args: []Expr{&Col{Idx: 0, T: lt}}, T: ExpandArrayType(arrow.PrimitiveTypes.Int16)}
	p, err := Compile(call, schema)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Eval(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	want := []string{`[{"n":1,"x":3},{"n":2,"x":1}]`, "(null)", "[]", `[{"n":1,"x":7}]`}
	for i, w := range want {
		if got := out.ValueStr(i); got != w && !(out.IsNull(i) && w == "(null)") {
			t.Errorf("row %d: got %s, want %s", i, got, w)
		}
	}

	// _record_field over all the structs (the child keeps the element of
	// the row sliced off, with position 0: no row's offsets reach it).
	pairs := out.(*array.List).ListValues()
	st := pairs.DataType().(*arrow.StructType)
	sschema := arrow.NewSchema([]arrow.Field{{Name: "p", Type: st, Nullable: true}}, nil)
	sb := array.NewRecordBatch(sschema, []arrow.Array{pairs}, int64(pairs.Len()))
	defer sb.Release()
	for idx, want := range map[int32]string{0: "[9 3 1 7]", 1: "[0 1 2 1]"} {
		fp, err := Compile(&Call{Fn: "_record_field", Args: []Expr{&Col{Idx: 0, T: st}, &Lit{V: idx, T: Int4}}, T: st.Field(int(idx)).Type}, sschema)
		if err != nil {
			t.Fatal(err)
		}
		f, err := fp.Eval(ctx, sb)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.String(); got != want {
			t.Errorf("field %d: got %s, want %s", idx, got, want)
		}
		f.Release()
	}
}
