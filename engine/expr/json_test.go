package expr

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// JSON access over text holding JSON (what a jsonb value is to the engine)
// and to_jsonb over the fixture, checked against PostgreSQL 15
// (testdata/json_pg.tsv); then the same functions over struct, map and
// list columns, whose JSON text must be the wire's.

const jdoc = `{"b": [1, 2.50, {"c": null, "d": "x\"y"}], "a": "x", "num": 1e2, "t": true}`

var (
	jd = txt(jdoc)
	// jrow is '{"k": ' || a || ', "arr": [' || b || ', null]}'.
	jrow = call("||", call("||", call("||", call("||", txt(`{"k": `), col(cA)), txt(`, "arr": [`)), col(cB)), txt(`, null]}`))
)

const (
	jdocSQL = `'{"b": [1, 2.50, {"c": null, "d": "x\"y"}], "a": "x", "num": 1e2, "t": true}'::jsonb`
	jrowSQL = `('{"k": ' || a || ', "arr": [' || b || ', null]}')::jsonb`
)

func jpath(steps ...string) Expr {
	args := make([]Expr, len(steps))
	for k, s := range steps {
		args[k] = txt(s)
	}
	if len(args) == 0 {
		return call("string_to_array", txt(""), txt(","))
	}
	return arr(args...)
}

var jsonCases = []evalCase{
	{sql: jdocSQL + " -> 'b'", e: call("->", jd, txt("b"))},
	{sql: jdocSQL + " -> 'a'", e: call("->", jd, txt("a"))},
	{sql: jdocSQL + " ->> 'a'", e: call("->>", jd, txt("a"))},
	{sql: jdocSQL + " -> 'zz'", e: call("->", jd, txt("zz"))},
	{sql: jdocSQL + " ->> 'num'", e: call("->>", jd, txt("num"))},
	{sql: jdocSQL + " -> 't'", e: call("->", jd, txt("t"))},
	{sql: jdocSQL + " -> 'b' -> 2", e: call("->", call("->", jd, txt("b")), i4(2))},
	{sql: jdocSQL + " -> 'b' -> -1", e: call("->", call("->", jd, txt("b")), i4(-1))},
	{sql: jdocSQL + " -> 'b' -> -4", e: call("->", call("->", jd, txt("b")), i4(-4))},
	{sql: jdocSQL + " -> 'b' -> 5", e: call("->", call("->", jd, txt("b")), i4(5))},
	{sql: jdocSQL + " -> 'b' ->> 1", e: call("->>", call("->", jd, txt("b")), i4(1))},
	{sql: jdocSQL + " -> 'b' -> b", e: call("->", call("->", jd, txt("b")), col(cB))},
	{sql: jdocSQL + " -> 'b' -> '1'", e: call("->", call("->", jd, txt("b")), txt("1"))},
	{sql: jdocSQL + " -> 'b' -> 2 -> 'c'", e: call("->", call("->", call("->", jd, txt("b")), i4(2)), txt("c"))},
	{sql: jdocSQL + " -> 'b' -> 2 ->> 'c'", e: call("->>", call("->", call("->", jd, txt("b")), i4(2)), txt("c"))},
	{sql: jdocSQL + " -> 'b' -> 2 ->> 'd'", e: call("->>", call("->", call("->", jd, txt("b")), i4(2)), txt("d"))},
	{sql: jdocSQL + " -> 0", e: call("->", jd, i4(0))},
	{sql: jdocSQL + " -> t", e: call("->", jd, col(cT))},
	{sql: jdocSQL + " #> '{b,2,d}'", e: call("#>", jd, jpath("b", "2", "d"))},
	{sql: jdocSQL + " #>> '{b,2,d}'", e: call("#>>", jd, jpath("b", "2", "d"))},
	{sql: jdocSQL + " #> '{}'", e: call("#>", jd, jpath())},
	{sql: jdocSQL + " #> '{b,x}'", e: call("#>", jd, jpath("b", "x"))},
	{sql: jdocSQL + " #> '{b,-1}'", e: call("#>", jd, jpath("b", "-1"))},
	{sql: jdocSQL + " #>> '{a}'", e: call("#>>", jd, jpath("a"))},
	{sql: jdocSQL + " #>> '{a,b}'", e: call("#>>", jd, jpath("a", "b"))},
	{sql: jdocSQL + " #> ARRAY['b', NULL]", e: call("#>", jd, arr(txt("b"), null(arrow.Null)))},
	{sql: jdocSQL + " #> ARRAY['b', b::text]", e: call("#>", jd, arr(txt("b"), cast(col(cB), Text)))},
	{sql: `'"s"'::jsonb #>> '{}'`, e: call("#>>", txt(`"s"`), jpath())},
	{sql: "jsonb_extract_path(" + jdocSQL + ", 'b', '1')", e: call("jsonb_extract_path", jd, txt("b"), txt("1"))},
	{sql: "jsonb_extract_path(" + jdocSQL + ", 'b', t)", e: call("jsonb_extract_path", jd, txt("b"), col(cT))},
	{sql: "jsonb_extract_path_text(" + jdocSQL + ", 'a')", e: call("jsonb_extract_path_text", jd, txt("a"))},
	{sql: "jsonb_extract_path_text(" + jdocSQL + ")", e: call("jsonb_extract_path_text", jd)},
	{sql: "jsonb_typeof(" + jdocSQL + ")", e: call("jsonb_typeof", jd)},
	{sql: "jsonb_typeof(" + jdocSQL + " -> 'b')", e: call("jsonb_typeof", call("->", jd, txt("b")))},
	{sql: "jsonb_typeof(" + jdocSQL + " -> 'num')", e: call("jsonb_typeof", call("->", jd, txt("num")))},
	{sql: "jsonb_typeof(" + jdocSQL + " -> 't')", e: call("jsonb_typeof", call("->", jd, txt("t")))},
	{sql: "jsonb_typeof(" + jdocSQL + " -> 'a')", e: call("jsonb_typeof", call("->", jd, txt("a")))},
	{sql: "jsonb_typeof(" + jdocSQL + " #> '{b,2,c}')", e: call("jsonb_typeof", call("#>", jd, jpath("b", "2", "c")))},
	{sql: "jsonb_array_length(" + jdocSQL + " -> 'b')", e: call("jsonb_array_length", call("->", jd, txt("b")))},
	{sql: "jsonb_array_length(" + jdocSQL + ")", e: call("jsonb_array_length", jd)},
	{sql: "jsonb_array_length(" + jdocSQL + " -> 'a')", e: call("jsonb_array_length", call("->", jd, txt("a")))},
	{sql: jrowSQL + " -> 'k'", e: call("->", jrow, txt("k"))},
	{sql: jrowSQL + " ->> 'k'", e: call("->>", jrow, txt("k"))},
	{sql: jrowSQL + " -> 'arr' -> 0", e: call("->", call("->", jrow, txt("arr")), i4(0))},
	{sql: jrowSQL + " -> 'arr' ->> 1", e: call("->>", call("->", jrow, txt("arr")), i4(1))},
	{sql: jrowSQL + " #>> ARRAY['arr', a::text]", e: call("#>>", jrow, arr(txt("arr"), cast(col(cA), Text)))},
	{sql: jrowSQL + " #> '{}'", e: call("#>", jrow, jpath())},
	{sql: `'{"a":}'::jsonb -> 'a'`, e: call("->", txt(`{"a":}`), txt("a"))},
	{sql: `'[1,2]'::jsonb -> 'a'`, e: call("->", txt(`[1,2]`), txt("a"))},
	{sql: `'{"a":1}'::jsonb -> 0`, e: call("->", txt(`{"a":1}`), i4(0))},
	{sql: `'[1,2]'::jsonb #> '{1}'`, e: call("#>", txt(`[1,2]`), jpath("1"))},
	{sql: `'{"a":1, "a":2, "bb":0, "c":1.0e1, "d":-0, "e":"\u00e9\n", "f": [], "g": {}, "h": 0.000e-2, "i": 12E+1}'::jsonb #> '{}'`,
		e: call("#>", txt(`{"a":1, "a":2, "bb":0, "c":1.0e1, "d":-0, "e":"\u00e9\n", "f": [], "g": {}, "h": 0.000e-2, "i": 12E+1}`), jpath())},
	{sql: `'truex'::jsonb -> 'a'`, e: call("->", txt(`truex`), txt("a"))},
	{sql: `'01'::jsonb -> 'a'`, e: call("->", txt(`01`), txt("a"))},
	{sql: `' [ 1 , "\ud83d\ude00" ] '::jsonb -> 1`, e: call("->", txt(` [ 1 , "\ud83d\ude00" ] `), i4(1))},
	{sql: "to_jsonb(a)", e: call("to_jsonb", col(cA))},
	{sql: "to_jsonb(t)", e: call("to_jsonb", col(cT))},
	{sql: "to_jsonb(f)", e: call("to_jsonb", col(cF))},
	{sql: "to_jsonb(d)", e: call("to_jsonb", col(cD))},
	{sql: "to_jsonb(g)", e: call("to_jsonb", col(cG))},
	{sql: "to_jsonb(p)", e: call("to_jsonb", col(cP))},
	{sql: "to_jsonb(dt)", e: call("to_jsonb", col(cDT))},
	{sql: "to_jsonb(ts)", e: call("to_jsonb", col(cTS))},
	{sql: "to_jsonb(tz)", e: call("to_jsonb", col(cTZ))},
	{sql: "to_jsonb(l)", e: call("to_jsonb", col(cL))},
	{sql: "to_jsonb(s)", e: call("to_jsonb", col(cS))},
	{sql: "to_jsonb(ARRAY[a, NULL])", e: call("to_jsonb", arr(col(cA), null(arrow.Null)))},
	{sql: "to_jsonb(ARRAY[t, 'q\"'])", e: call("to_jsonb", arr(col(cT), txt(`q"`)))},
	{sql: "to_jsonb(1e20::float8)", e: call("to_jsonb", lit(1e20, Float8))},
	{sql: "to_jsonb(0.000015::float8)", e: call("to_jsonb", lit(0.000015, Float8))},
}

func TestJSONFunctions(t *testing.T) { runArrCases(t, "testdata/json_pg.tsv", jsonCases) }

// TestJSONOfArrow reads struct, map and list columns as JSON: the values
// were checked against PostgreSQL's jsonb text of the same documents.
func TestJSONOfArrow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	pt := arrow.StructOf(
		arrow.Field{Name: "zz", Type: Int4, Nullable: true},
		arrow.Field{Name: "a", Type: Text, Nullable: true},
		arrow.Field{Name: "tags", Type: arrow.ListOf(Text), Nullable: true},
		arrow.Field{Name: "m", Type: arrow.MapOf(Text, Float8), Nullable: true},
	)
	col := arrow.ListOf(pt)
	sch := arrow.NewSchema([]arrow.Field{{Name: "c", Type: col, Nullable: true}}, nil)
	rb := array.NewRecordBuilder(mem, sch)
	defer rb.Release()
	lb := rb.Field(0).(*array.ListBuilder)
	sb := lb.ValueBuilder().(*array.StructBuilder)
	lb.Append(true)
	sb.Append(true)
	sb.FieldBuilder(0).(*array.Int32Builder).Append(7)
	sb.FieldBuilder(1).(*array.StringBuilder).Append("x\ty")
	tb := sb.FieldBuilder(2).(*array.ListBuilder)
	tb.Append(true)
	tb.ValueBuilder().(*array.StringBuilder).AppendValues([]string{"p", ""}, nil)
	tb.ValueBuilder().(*array.StringBuilder).AppendNull()
	mb := sb.FieldBuilder(3).(*array.MapBuilder)
	mb.Append(true)
	mb.KeyBuilder().(*array.StringBuilder).AppendValues([]string{"bb", "a"}, nil)
	mb.ItemBuilder().(*array.Float64Builder).AppendValues([]float64{1.5, 100}, nil)
	sb.Append(true)
	sb.FieldBuilder(0).(*array.Int32Builder).AppendNull()
	sb.FieldBuilder(1).(*array.StringBuilder).AppendNull()
	tb.AppendNull()
	mb.AppendNull()
	lb.AppendNull()
	batch := rb.NewRecordBatch()
	defer batch.Release()
	c0 := &Col{Idx: 0, Name: "c", T: col}
	cases := []struct {
		e    Expr
		want string
	}{
		// SELECT '[{"zz": 7, "a": "x\ty", "tags": ["p", "", null], "m": {"bb": 1.5, "a": 100}},
		// {"zz": null, "a": null, "tags": null, "m": null}]'::jsonb, and the paths below.
		{call("to_jsonb", c0), `[{"a": "x\ty", "m": {"a": 100, "bb": 1.5}, "zz": 7, "tags": ["p", "", null]}, {"a": null, "m": null, "zz": null, "tags": null}]|NULL`},
		{call("->", c0, i4(0)), `{"a": "x\ty", "m": {"a": 100, "bb": 1.5}, "zz": 7, "tags": ["p", "", null]}|NULL`},
		{call("->>", call("->", c0, i4(0)), txt("a")), "x\ty|NULL"},
		{call("#>", c0, arr(txt("0"), txt("tags"), txt("1"))), `""|NULL`},
		{call("#>>", c0, arr(txt("0"), txt("m"), txt("bb"))), `1.5|NULL`},
		{call("#>", c0, arr(txt("1"), txt("zz"))), `null|NULL`},
		{call("jsonb_array_length", c0), `2|NULL`},
		{call("jsonb_typeof", call("->", c0, i4(-1))), `object|NULL`},
		{call("->", call("->", c0, i4(0)), txt("tags")), `["p", "", null]|NULL`},
	}
	for _, c := range cases {
		p, err := Compile(c.e, sch)
		if err != nil {
			t.Fatalf("%s: %v", c.e, err)
		}
		out, err := p.Eval(WithAllocator(t.Context(), mem), batch)
		if err != nil {
			t.Fatalf("%s: %v", c.e, err)
		}
		rows := make([]string, out.Len())
		for i := range rows {
			if out.IsNull(i) {
				rows[i] = "NULL"
			} else {
				rows[i] = string(AppendText(nil, out, i, nil))
			}
		}
		out.Release()
		if got := strings.Join(rows, "|"); got != c.want {
			t.Errorf("%s: got %s, want %s", c.e, got, c.want)
		}
	}
}
