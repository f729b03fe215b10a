package expr

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// tv is a three-valued truth value: 0 FALSE, 1 TRUE, 2 NULL.
type tv int8

func (v tv) String() string { return [...]string{"f", "t", "NULL"}[v] }

func tvAnd(a, b tv) tv {
	switch {
	case a == 0 || b == 0:
		return 0
	case a == 2 || b == 2:
		return 2
	}
	return 1
}

func tvOr(a, b tv) tv {
	switch {
	case a == 1 || b == 1:
		return 1
	case a == 2 || b == 2:
		return 2
	}
	return 0
}

// logicBatch has every combination of three truth values x, y, z, repeated
// to rows rows (so the words have a partial tail), then x, y, z again
// dictionary-encoded as text 't'/'f', an int8 k = row number and a text s.
func logicBatch(mem memory.Allocator, rows int) (arrow.RecordBatch, [][3]tv) {
	f := func(n string, t arrow.DataType) arrow.Field { return arrow.Field{Name: n, Type: t, Nullable: true} }
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: Text}
	schema := arrow.NewSchema([]arrow.Field{f("x", Bool), f("y", Bool), f("z", Bool), f("dx", dict), f("dy", dict), f("dz", dict), f("k", Int8), f("s", Text)}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	want := make([][3]tv, rows)
	for i := 0; i < rows; i++ {
		c := i % 27
		r := [3]tv{tv(c % 3), tv(c / 3 % 3), tv(c / 9)}
		want[i] = r
		for j, v := range r {
			bb := b.Field(j).(*array.BooleanBuilder)
			db := b.Field(3 + j).(*array.BinaryDictionaryBuilder)
			if v == 2 {
				bb.AppendNull()
				db.AppendNull()
				continue
			}
			bb.Append(v == 1)
			if err := db.AppendString(map[tv]string{0: "f", 1: "t"}[v]); err != nil {
				panic(err)
			}
		}
		b.Field(6).(*array.Int64Builder).Append(int64(i))
		b.Field(7).(*array.StringBuilder).Append(fmt.Sprint("s", i))
	}
	return b.NewRecordBatch(), want
}

// TestLogicThreeValued checks AND and OR against SQL's truth tables over
// every combination of TRUE, FALSE and NULL, with operands that may run
// over every row (boolean columns) and operands that run over the
// undecided rows only (casts of text, which can fail, so never see a row
// an earlier operand decided), nested, and through dictionary columns.
func TestLogicThreeValued(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, rows := range []int{27, 200, 1030} {
		batch, rowsWant := logicBatch(mem, rows)
		sch := batch.Schema()
		colOf := func(i int) Expr { return &Col{Idx: i, Name: sch.Field(i).Name, T: sch.Field(i).Type} }
		x, y, z := colOf(0), colOf(1), colOf(2)
		// lazy reads the same values through a cast of a dictionary text
		// column: an operand that can fail, so it only ever runs over
		// the rows still undecided.
		lazy := func(i int) Expr { return &Cast{Arg: colOf(3 + i), T: Bool} }
		and := func(a ...Expr) Expr { return &Call{Fn: "and", Args: a, T: Bool} }
		or := func(a ...Expr) Expr { return &Call{Fn: "or", Args: a, T: Bool} }
		cases := []struct {
			name string
			e    Expr
			want func(r [3]tv) tv
		}{
			{"x and y", and(x, y), func(r [3]tv) tv { return tvAnd(r[0], r[1]) }},
			{"x or y", or(x, y), func(r [3]tv) tv { return tvOr(r[0], r[1]) }},
			{"x and y and z", and(x, y, z), func(r [3]tv) tv { return tvAnd(tvAnd(r[0], r[1]), r[2]) }},
			{"x or y or z", or(x, y, z), func(r [3]tv) tv { return tvOr(tvOr(r[0], r[1]), r[2]) }},
			{"x and lazy y", and(x, lazy(1)), func(r [3]tv) tv { return tvAnd(r[0], r[1]) }},
			{"x or lazy y", or(x, lazy(1)), func(r [3]tv) tv { return tvOr(r[0], r[1]) }},
			{"lazy x and lazy y and lazy z", and(lazy(0), lazy(1), lazy(2)), func(r [3]tv) tv { return tvAnd(tvAnd(r[0], r[1]), r[2]) }},
			{"lazy x or lazy y or lazy z", or(lazy(0), lazy(1), lazy(2)), func(r [3]tv) tv { return tvOr(tvOr(r[0], r[1]), r[2]) }},
			{"x or (lazy y and lazy z)", or(x, and(lazy(1), lazy(2))), func(r [3]tv) tv { return tvOr(r[0], tvAnd(r[1], r[2])) }},
			{"x and (lazy y or lazy z)", and(x, or(lazy(1), lazy(2))), func(r [3]tv) tv { return tvAnd(r[0], tvOr(r[1], r[2])) }},
			{"(x and lazy y) or (lazy z and lazy x)", or(and(x, lazy(1)), and(lazy(2), lazy(0))), func(r [3]tv) tv { return tvOr(tvAnd(r[0], r[1]), tvAnd(r[2], r[0])) }},
			{"x and NULL", and(x, null(Bool)), func(r [3]tv) tv { return tvAnd(r[0], 2) }},
			{"x or NULL", or(x, null(Bool)), func(r [3]tv) tv { return tvOr(r[0], 2) }},
			{"x and lazy NULL", and(x, &Cast{Arg: null(Text), T: Bool}), func(r [3]tv) tv { return tvAnd(r[0], 2) }},
			{"x or lazy true", or(x, &Cast{Arg: txt("t"), T: Bool}), func(r [3]tv) tv { return tvOr(r[0], 1) }},
			{"not (x and lazy y)", &Call{Fn: "not", Args: []Expr{and(x, lazy(1))}, T: Bool}, func(r [3]tv) tv {
				return [...]tv{1, 0, 2}[tvAnd(r[0], r[1])]
			}},
		}
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%d/%s", rows, tc.name), func(t *testing.T) {
				p, err := Compile(tc.e, sch)
				if err != nil {
					t.Fatal(err)
				}
				out, err := p.Eval(WithAllocator(context.Background(), mem), batch)
				if err != nil {
					t.Fatal(err)
				}
				defer out.Release()
				if out.Len() != rows {
					t.Fatalf("%d rows, want %d", out.Len(), rows)
				}
				res := out.(*array.Boolean)
				for i, r := range rowsWant {
					got := tv(2)
					if res.IsValid(i) {
						got = 0
						if res.Value(i) {
							got = 1
						}
					}
					if w := tc.want(r); got != w {
						t.Fatalf("row %d (x=%s y=%s z=%s): got %s, want %s", i, r[0], r[1], r[2], got, w)
					}
				}
			})
		}
		batch.Release()
	}
}

// TestLogicGuards checks that an operand AND (OR) leaves out the rows an
// earlier operand made FALSE (TRUE), as PostgreSQL does: a guard keeps a
// division from dividing by zero, a cast from reading bad text; an
// unguarded row still fails.
func TestLogicGuards(t *testing.T) {
	div := func(a, b Expr) Expr { return call("/", a, b) }
	cases := []struct {
		e     Expr
		want  string // the rows, or
		state string // the error
	}{
		// b is 3, 0, 5, 1; a is 1, -2, NULL, 2147483647.
		{call("and", call("<>", col(cB), i4(0)), call(">", div(i4(10), col(cB)), i4(1))), "true|false|true|true", ""},
		{call("or", call("=", col(cB), i4(0)), call(">", div(i4(10), col(cB)), i4(1))), "true|true|true|true", ""},
		{call("and", call(">=", col(cB), i4(0)), call(">", div(i4(10), col(cB)), i4(1))), "", "22012"},
		{call("or", call("<>", col(cB), i4(0)), call(">", div(i4(10), col(cB)), i4(1))), "", "22012"},
		// A NULL guard leaves its row undecided: the division runs there.
		{call("and", call("<>", call("nullif", col(cB), i4(0)), i4(7)), call(">", div(i4(10), col(cB)), i4(1))), "", "22012"},
		// Later guards in a chain, nested under OR.
		{call("or", call("<", col(cB), i4(0)), call("and", call("<>", col(cB), i4(0)), call("<", div(i4(10), col(cB)), i4(5)), call(">", div(i4(100), col(cB)), i4(3)))), "true|false|true|false", ""},
		// Text that is not an integer only on the rows the guard rules out.
		{call("and", call("<>", col(cT), txt("ÀbC")), call("=", cast(call("length", col(cT)), Int4), i4(3))), "true|false|NULL|true", ""},
		{call("and", call("=", col(cB), i4(1)), call(">", cast(col(cT), Int4), i4(0))), "", "22P02"},
		{call("and", call("<>", col(cB), i4(1)), call(">", cast(col(cT), Int4), i4(0))), "", "22P02"},
		{call("and", call("=", col(cB), i4(7)), call(">", cast(col(cT), Int4), i4(0))), "false|false|false|false", ""},
	}
	for _, tc := range cases {
		t.Run(tc.e.String(), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rows, err := render(t, mem, tc.e, nil)
			if tc.state != "" {
				if err == nil || sqlstate(err) != tc.state {
					t.Fatalf("got %v %v, want error %s", rows, err, tc.state)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := joinRows(rows); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}
