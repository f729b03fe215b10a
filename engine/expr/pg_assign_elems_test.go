package expr

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestAssignElems (lists rendered as JSON): the length of varchar(n)[] and char(n)[] and the
// syntax of json[] apply to each element, at any number of dimensions,
// NULL lists and elements kept.
func TestAssignElems(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	texts := arrow.ListOf(Text)
	rowsOf := call("array", col(cT), txt("xy  ")) // {abc,"xy  "}, {ÀbC,"xy  "}, {NULL,"xy  "}, {a%b,"xy  "}
	for _, c := range []struct {
		e     Expr
		want  string
		state string
	}{
		{call("varchar_cast_elems", cast(txt("{abcd,ab,NULL}"), texts), i4(3)), `["abc","ab",null]|["abc","ab",null]|["abc","ab",null]|["abc","ab",null]`, ""},
		{call("bpchar_cast_elems", cast(txt("{{ab,c},{d,NULL}}"), arrow.ListOf(texts)), i4(1)), `[["a","c"],["d",null]]|[["a","c"],["d",null]]|[["a","c"],["d",null]]|[["a","c"],["d",null]]`, ""},
		{call("varchar_assign_elems", rowsOf, i4(3)), `["abc","xy "]|["ÀbC","xy "]|[null,"xy "]|["a%b","xy "]`, ""},
		{call("bpchar_assign_elems", rowsOf, i4(4)), `["abc ","xy  "]|["ÀbC ","xy  "]|[null,"xy  "]|["a%b ","xy  "]`, ""},
		{call("varchar_assign_elems", rowsOf, i4(2)), "", pgerr.StringDataRightTruncation},
		{call("varchar_assign_elems", null(texts), i4(2)), "NULL|NULL|NULL|NULL", ""},
		{call("json_in_elems", cast(txt(`{"[1, 2]","{\"a\": 1}",NULL}`), texts)), `["[1, 2]","{\"a\": 1}",null]|["[1, 2]","{\"a\": 1}",null]|["[1, 2]","{\"a\": 1}",null]|["[1, 2]","{\"a\": 1}",null]`, ""},
		{call("json_in_elems", cast(txt(`{"[1]",x}`), texts)), "", pgerr.InvalidTextRepresentation},
		{call("varchar_assign_elems", i4(1), i4(2)), "", pgerr.UndefinedFunction},
	} {
		rows, err := render(t, mem, c.e, time.UTC)
		if c.state != "" {
			if sqlstate(err) != c.state {
				t.Errorf("%s: err %v, want SQLSTATE %s", c.e, err, c.state)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.e, err)
			continue
		}
		if got := joinRows(rows); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.e, got, c.want)
		}
	}
}

// TestTakeIntervalLists: rows of interval[] (of one or two dimensions)
// are gathered as they are, as sorts and joins do.
func TestTakeIntervalLists(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, lt := range []arrow.DataType{arrow.ListOf(Interval), arrow.ListOf(arrow.ListOf(Interval))} {
		b := array.NewBuilder(mem, lt).(*array.ListBuilder)
		row := func(v arrow.MonthDayNanoInterval) {
			b.Append(true)
			leaf := b.ValueBuilder()
			if inner, ok := leaf.(*array.ListBuilder); ok {
				inner.Append(true)
				leaf = inner.ValueBuilder()
			}
			leaf.(*array.MonthDayNanoIntervalBuilder).Append(v)
		}
		row(arrow.MonthDayNanoInterval{Days: 1})
		b.AppendNull()
		row(arrow.MonthDayNanoInterval{Months: 2})
		in := b.NewArray()
		b.Release()
		ib := array.NewInt32Builder(mem)
		ib.AppendValues([]int32{2, 0, 1, 2}, nil)
		idx := ib.NewArray()
		ib.Release()
		got, err := TakeArray(WithAllocator(context.Background(), mem), in, idx)
		if err != nil {
			t.Fatalf("%s: %v", lt, err)
		}
		var rows []string
		for i := range got.Len() {
			if got.IsNull(i) {
				rows = append(rows, "NULL")
				continue
			}
			rows = append(rows, string(AppendText(nil, got, i, time.UTC)))
		}
		want := `[{"months":2,"days":0,"nanoseconds":0}]|[{"months":0,"days":1,"nanoseconds":0}]|NULL|[{"months":2,"days":0,"nanoseconds":0}]`
		if _, ok := lt.(*arrow.ListType).Elem().(*arrow.ListType); ok {
			want = `[[{"months":2,"days":0,"nanoseconds":0}]]|[[{"months":0,"days":1,"nanoseconds":0}]]|NULL|[[{"months":2,"days":0,"nanoseconds":0}]]`
		}
		if s := joinRows(rows); s != want || !arrow.TypeEqual(got.DataType(), lt) {
			t.Errorf("take of %s: %s (%s), want %s", lt, s, got.DataType(), want)
		}
		got.Release()
		idx.Release()
		in.Release()
	}
}
