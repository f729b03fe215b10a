package expr

import (
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// castJSONRows casts each text (nil: NULL) to t and renders the rows as
// jsonb text, "NULL" for NULL.
func castJSONRows(t *testing.T, mem memory.Allocator, texts []*string, to arrow.DataType) (string, error) {
	t.Helper()
	sb := array.NewStringBuilder(mem)
	for _, s := range texts {
		if s == nil {
			sb.AppendNull()
		} else {
			sb.Append(*s)
		}
	}
	in := sb.NewArray()
	sb.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: Text, Nullable: true}}, nil)
	batch := array.NewRecordBatch(schema, []arrow.Array{in}, int64(in.Len()))
	in.Release()
	defer batch.Release()
	p, err := Compile(cast(&Col{Idx: 0, Name: "s", T: Text}, to), schema, CompileOptions{TimeZone: time.UTC})
	if err != nil {
		return "", err
	}
	out, err := p.Eval(WithAllocator(t.Context(), mem), batch)
	if err != nil {
		return "", err
	}
	defer out.Release()
	if !arrow.TypeEqual(out.DataType(), to) {
		t.Fatalf("cast to %s made %s", to, out.DataType())
	}
	if err := out.(interface{ ValidateFull() error }).ValidateFull(); err != nil {
		t.Fatalf("cast to %s: invalid array: %v", to, err)
	}
	conv, err := jsonOf(to, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	f := conv(out)
	rows := make([]string, out.Len())
	for i := range rows {
		rows[i] = "NULL"
		if !out.IsNull(i) {
			rows[i] = string(pgtext.AppendJSONB(nil, f(i)))
		}
	}
	return strings.Join(rows, "|"), nil
}

func strp(s string) *string { return &s }

func TestJSONCasts(t *testing.T) {
	st := arrow.StructOf(arrow.Field{Name: "a", Type: Int4, Nullable: true}, arrow.Field{Name: "b", Type: Text, Nullable: true})
	stReq := arrow.StructOf(arrow.Field{Name: "a", Type: Int4}, arrow.Field{Name: "b", Type: Text, Nullable: true})
	m := arrow.MapOf(Text, Int4)
	mReq := arrow.MapOf(Text, Int4)
	mReq.SetItemNullable(false)
	mi := arrow.MapOf(Int4, Text)
	l := arrow.ListOf(arrow.StructOf(arrow.Field{Name: "x", Type: Int4, Nullable: true}))
	lReq := arrow.ListOfNonNullable(Int4)
	li := arrow.ListOf(Int8)
	ll := arrow.ListOf(arrow.ListOf(Int4))
	leaf := arrow.StructOf(
		arrow.Field{Name: "d", Type: &arrow.Decimal128Type{Precision: 5, Scale: 2}, Nullable: true},
		arrow.Field{Name: "t", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		arrow.Field{Name: "tz", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		arrow.Field{Name: "u", Type: &arrow.FixedSizeBinaryType{ByteWidth: 16}, Nullable: true},
		arrow.Field{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		arrow.Field{Name: "ok", Type: Bool, Nullable: true},
		arrow.Field{Name: "f", Type: Float8, Nullable: true},
		arrow.Field{Name: "day", Type: Date, Nullable: true},
		arrow.Field{Name: "big", Type: Int8, Nullable: true},
	)
	deep := arrow.StructOf(arrow.Field{Name: "p", Type: arrow.ListOf(arrow.MapOf(Text, leaf)), Nullable: true})

	cases := []struct {
		to   arrow.DataType
		in   string
		want string // jsonb text, or a SQLSTATE and a piece of the message: "23502 \"a\""
	}{
		{st, `{"a": 5, "b": "x"}`, `{"a": 5, "b": "x"}`},
		{st, ` {"b":"x"} `, `{"a": null, "b": "x"}`},
		{st, `{"a": null}`, `{"a": null, "b": null}`},
		{st, `{}`, `{"a": null, "b": null}`},
		{st, `null`, `NULL`},
		{st, `{"a": "7", "b": 8}`, `{"a": 7, "b": "8"}`},
		{st, `{"b": {"z": [1, true]}}`, `{"a": null, "b": "{\"z\": [1, true]}"}`},
		{st, `{"a": 1.5}`, `22P02 "1.5"`},
		{st, `{"a": 3000000000}`, `22003 integer`},
		{st, `{"a": true}`, `22P02 "true"`},
		{st, `{"a": 1, "c": 2}`, `22P02 unknown field "c"`},
		{st, `[1]`, `22P02 expected a JSON object, not array`},
		{st, `5`, `22P02 expected a JSON object, not number`},
		{st, `{"a": 1`, `22P02 json`},
		{stReq, `{"a": 1}`, `{"a": 1, "b": null}`},
		{stReq, `{"b": "x"}`, `23502 field "a"`},
		{stReq, `{"a": null, "b": "x"}`, `23502 field "a"`},
		{stReq, `null`, `NULL`},
		{m, `{"k1": 1, "k2": 2}`, `{"k1": 1, "k2": 2}`},
		{m, `{}`, `{}`},
		{m, `{"k": null}`, `{"k": null}`},
		{m, `{"k": 1, "k": 2}`, `{"k": 2}`},
		{m, `[["k", 1]]`, `22P02 expected a JSON object, not array`},
		{m, `{"k": "x"}`, `22P02 "x"`},
		{mReq, `{"k": null}`, `23502 field "value"`},
		{mi, `{"1": "a", "-20": "b"}`, `{"1": "a", "-20": "b"}`},
		{mi, `{"one": "a"}`, `22P02 "one"`},
		{l, `[{"x": 1}, null, {}]`, `[{"x": 1}, null, {"x": null}]`},
		{l, `[]`, `[]`},
		{l, `[{"x": 1}, {"y": 2}]`, `22P02 unknown field "element.y"`},
		{l, `{"x": 1}`, `22P02 expected a JSON array, not object`},
		{lReq, `[1, null]`, `23502 field "element"`},
		{li, `[1, 2]`, `[1, 2]`},
		{li, `{1,2}`, `[1, 2]`},
		{li, `[]`, `[]`},
		{li, `[1, 9223372036854775808]`, `22003 bigint`},
		{ll, `[[1, 2], [], null, [null]]`, `[[1, 2], [], null, [null]]`},
		{deep, `{"p": [{"k": {"d": 1.234, "t": "2024-01-02T03:04:05", "tz": "2024-01-02 03:04:05+02",
			"u": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "bin": "\\xdeadbeef", "ok": true, "f": 1e3,
			"day": "2024-02-29", "big": -9223372036854775808}}, {}, null]}`,
			`{"p": [{"k": {"d": 1.23, "f": 1000, "t": "2024-01-02T03:04:05", "u": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "ok": true, "tz": "2024-01-02T01:04:05+00:00", "big": -9223372036854775808, "bin": "\\xdeadbeef", "day": "2024-02-29"}}, {}, null]}`},
		{deep, `{"p": [{"k": {"d": 12345}}]}`, `22003 numeric field overflow`},
		{deep, `{"p": [{"k": {"day": "2024-02-30"}}]}`, `22008`},
		{deep, `{"p": [{"k": {"u": "nope"}}]}`, `22P02 uuid`},
	}
	for _, tc := range cases {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		got, err := castJSONRows(t, mem, []*string{strp(tc.in)}, tc.to)
		if err != nil {
			got = sqlstate(err) + " " + err.Error()
			if pe := sqlstateDetail(err); pe != "" {
				got += " (" + pe + ")"
			}
			code, msg, _ := strings.Cut(tc.want, " ")
			if sqlstate(err) != code || !strings.Contains(got, msg) {
				t.Errorf("%s::%s: error %s, want %s", tc.in, tc.to, got, tc.want)
			}
		} else if got != tc.want {
			t.Errorf("%s::%s:\n got %s\nwant %s", tc.in, tc.to, got, tc.want)
		}
		mem.AssertSize(t, 0)
	}
}

func sqlstateDetail(err error) string {
	if pe := pgerr.As(err); pe != nil {
		return pe.Detail
	}
	return ""
}

// TestJSONCastRows casts several rows at once: NULLs, and lists mixing
// JSON arrays with PostgreSQL's array syntax.
func TestJSONCastRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	st := arrow.StructOf(arrow.Field{Name: "a", Type: Int4, Nullable: true},
		arrow.Field{Name: "m", Type: arrow.MapOf(Text, arrow.ListOf(Int4)), Nullable: true})
	got, err := castJSONRows(t, mem, []*string{strp(`{"a": 1}`), nil, strp(`{"m": {"k": [1, null]}}`), strp(`null`), strp(`{"m": {}}`)}, st)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a": 1, "m": null}|NULL|{"a": null, "m": {"k": [1, null]}}|NULL|{"a": null, "m": {}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	got, err = castJSONRows(t, mem, []*string{strp(`[1, 2]`), strp(`[3]`), strp(`{4,NULL}`), nil, strp(`[]`), strp(` {5,6}`)}, arrow.ListOf(Int4))
	if err != nil {
		t.Fatal(err)
	}
	if want := `[1, 2]|[3]|[4, null]|NULL|[]|[5, 6]`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestCanCastJSON(t *testing.T) {
	st := arrow.StructOf(arrow.Field{Name: "a", Type: Int4, Nullable: true})
	bad := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.BinaryTypes.LargeString, Nullable: true})
	for _, c := range []struct {
		from, to arrow.DataType
		can      bool
	}{
		{Text, st, true},
		{arrow.Null, st, true},
		{Text, arrow.MapOf(Text, st), true},
		{Text, arrow.ListOf(st), true},
		{Text, arrow.ListOf(Int4), true},
		{Text, arrow.ListOf(arrow.ListOf(Int4)), true},
		{Text, bad, false},
		{Int4, st, false},
	} {
		if got := CanCast(c.from, c.to); got != c.can {
			t.Errorf("CanCast(%s, %s) = %v, want %v", c.from, c.to, got, c.can)
		}
	}
}
