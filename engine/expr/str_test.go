package expr

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Text functions over the fixture, checked against what PostgreSQL 15
// printed (testdata/str_pg.tsv, made as testdata/README.md describes).
var strCases = []evalCase{
	{sql: "position('b' in t)", e: call("position", col(cT), txt("b"))},
	{sql: "position('' in t)", e: call("position", col(cT), txt(""))},
	{sql: "char_length(t)", e: call("char_length", col(cT))},
	{sql: "octet_length(t)", e: call("octet_length", col(cT))},
	{sql: "bit_length(t)", e: call("bit_length", col(cT))},
	{sql: `octet_length('\x0102'::bytea)`, e: call("octet_length", cast(txt(`\x0102`), Bytea))},
	{sql: "concat_ws(',', t, a, null, b)", e: call("concat_ws", txt(","), col(cT), col(cA), null(arrow.Null), col(cB))},
	{sql: "concat_ws(null, t, a)", e: call("concat_ws", null(arrow.Null), col(cT), col(cA))},
	{sql: "concat_ws(t, 'x', 'y')", e: call("concat_ws", col(cT), txt("x"), txt("y"))},
	{sql: "concat_ws('-')", e: call("concat_ws", txt("-"))},
	{sql: "concat_ws('-', null)", e: call("concat_ws", txt("-"), null(arrow.Null))},
	{sql: "split_part('a,b,,c', ',', b)", e: call("split_part", txt("a,b,,c"), txt(","), col(cB))},
	{sql: "split_part(t, 'b', 1)", e: call("split_part", col(cT), txt("b"), i4(1))},
	{sql: "split_part(t, 'b', 2)", e: call("split_part", col(cT), txt("b"), i4(2))},
	{sql: "split_part(t, 'b', -1)", e: call("split_part", col(cT), txt("b"), i4(-1))},
	{sql: "split_part(t, 'b', -3)", e: call("split_part", col(cT), txt("b"), i4(-3))},
	{sql: "split_part(t, '', 1)", e: call("split_part", col(cT), txt(""), i4(1))},
	{sql: "split_part(t, '', 2)", e: call("split_part", col(cT), txt(""), i4(2))},
	{sql: "split_part(t, 'b', 0)", e: call("split_part", col(cT), txt("b"), i4(0))},
	{sql: "left(t, 2)", e: call("left", col(cT), i4(2))},
	{sql: "left(t, -1)", e: call("left", col(cT), i4(-1))},
	{sql: "left(t, -5)", e: call("left", col(cT), i4(-5))},
	{sql: "right(t, 2)", e: call("right", col(cT), i4(2))},
	{sql: "right(t, -1)", e: call("right", col(cT), i4(-1))},
	{sql: "right(t, -5)", e: call("right", col(cT), i4(-5))},
	{sql: "left(t, b)", e: call("left", col(cT), col(cB))},
	{sql: "repeat(t, b)", e: call("repeat", col(cT), col(cB))},
	{sql: "repeat(t, -1)", e: call("repeat", col(cT), i4(-1))},
	{sql: "repeat('ab', 1000000000)", e: call("repeat", txt("ab"), i4(1000000000))},
	{sql: "lpad(t, 5)", e: call("lpad", col(cT), i4(5))},
	{sql: "lpad(t, 5, 'xy')", e: call("lpad", col(cT), i4(5), txt("xy"))},
	{sql: "lpad(t, 2, 'xy')", e: call("lpad", col(cT), i4(2), txt("xy"))},
	{sql: "lpad(t, -1, 'x')", e: call("lpad", col(cT), i4(-1), txt("x"))},
	{sql: "lpad(t, 5, '')", e: call("lpad", col(cT), i4(5), txt(""))},
	{sql: "rpad(t, 6, 'éz')", e: call("rpad", col(cT), i4(6), txt("éz"))},
	{sql: "rpad(t, 1)", e: call("rpad", col(cT), i4(1))},
	{sql: "rpad(t, b, '*')", e: call("rpad", col(cT), col(cB), txt("*"))},
	{sql: "reverse(t)", e: call("reverse", col(cT))},
	{sql: "reverse('')", e: call("reverse", txt(""))},
	{sql: "initcap('hello wORLD-foo_bar 3rd éTÉ')", e: call("initcap", txt("hello wORLD-foo_bar 3rd éTÉ"))},
	{sql: "initcap(t)", e: call("initcap", col(cT))},
	{sql: "quote_ident(t)", e: call("quote_ident", col(cT))},
	{sql: "quote_ident('select')", e: call("quote_ident", txt("select"))},
	{sql: "quote_ident('left')", e: call("quote_ident", txt("left"))},
	{sql: "quote_ident('abc_1')", e: call("quote_ident", txt("abc_1"))},
	{sql: "quote_ident('1abc')", e: call("quote_ident", txt("1abc"))},
	{sql: `quote_ident('a"b')`, e: call("quote_ident", txt(`a"b`))},
	{sql: "quote_ident('current_user')", e: call("quote_ident", txt("current_user"))},
	{sql: "quote_ident('name')", e: call("quote_ident", txt("name"))},
	{sql: "quote_literal(t)", e: call("quote_literal", col(cT))},
	{sql: "quote_literal('it''s')", e: call("quote_literal", txt("it's"))},
	{sql: `quote_literal('a\b')`, e: call("quote_literal", txt(`a\b`))},
	{sql: "quote_literal(a)", e: call("quote_literal", col(cA))},
	{sql: "quote_literal(d)", e: call("quote_literal", col(cD))},
	{sql: "quote_nullable(t)", e: call("quote_nullable", col(cT))},
	{sql: "quote_nullable(a)", e: call("quote_nullable", col(cA))},
	{sql: "md5(t)", e: call("md5", col(cT))},
	{sql: "md5('')", e: call("md5", txt(""))},
	{sql: "md5('abc'::bytea)", e: call("md5", cast(txt("abc"), Bytea))},
	{sql: "ascii(t)", e: call("ascii", col(cT))},
	{sql: "ascii('')", e: call("ascii", txt(""))},
	{sql: "ascii('é')", e: call("ascii", txt("é"))},
	{sql: "chr(b + 64)", e: call("chr", call("+", col(cB), i4(64)))},
	{sql: "chr(233)", e: call("chr", i4(233))},
	{sql: "chr(0)", e: call("chr", i4(0))},
	{sql: "chr(-1)", e: call("chr", i4(-1))},
	{sql: "chr(1114112)", e: call("chr", i4(1114112))},
	{sql: "chr(55296)", e: call("chr", i4(55296))},
	{sql: "starts_with(t, 'a')", e: call("starts_with", col(cT), txt("a"))},
	{sql: "starts_with(t, '')", e: call("starts_with", col(cT), txt(""))},
	{sql: "t ^@ 'À'", e: call("^@", col(cT), txt("À"))},
	{sql: "translate(t, 'ab', 'x')", e: call("translate", col(cT), txt("ab"), txt("x"))},
	{sql: "translate(t, 'aÀ', 'éY')", e: call("translate", col(cT), txt("aÀ"), txt("éY"))},
	{sql: "translate('12345', '143', 'ax')", e: call("translate", txt("12345"), txt("143"), txt("ax"))},
	{sql: "overlay(t placing 'XY' from 2)", e: call("overlay", col(cT), txt("XY"), i4(2))},
	{sql: "overlay(t placing 'XY' from 2 for 0)", e: call("overlay", col(cT), txt("XY"), i4(2), i4(0))},
	{sql: "overlay(t placing 'XY' from 1 for 5)", e: call("overlay", col(cT), txt("XY"), i4(1), i4(5))},
	{sql: "overlay(t placing 'XY' from 0)", e: call("overlay", col(cT), txt("XY"), i4(0))},
	{sql: "overlay('abcdef' placing 'Z' from 3 for -1)", e: call("overlay", txt("abcdef"), txt("Z"), i4(3), i4(-1))},
	{sql: "overlay(t placing '' from 2 for 1)", e: call("overlay", col(cT), txt(""), i4(2), i4(1))},
	{sql: "format('%s-%s', t, a)", e: call("format", txt("%s-%s"), col(cT), col(cA))},
	{sql: "format('%I', t)", e: call("format", txt("%I"), col(cT))},
	{sql: "format('%L', t)", e: call("format", txt("%L"), col(cT))},
	{sql: "format('%L', a)", e: call("format", txt("%L"), col(cA))},
	{sql: "format('%s|%5s|%-5s|', 'x', 'y', 'z')", e: call("format", txt("%s|%5s|%-5s|"), txt("x"), txt("y"), txt("z"))},
	{sql: "format('%2$s %1$s %s', 'a', 'b', 'c')", e: call("format", txt("%2$s %1$s %s"), txt("a"), txt("b"), txt("c"))},
	{sql: "format('%%%s%%', t)", e: call("format", txt("%%%s%%"), col(cT))},
	{sql: "format('%*s|', 6, t)", e: call("format", txt("%*s|"), i4(6), col(cT))},
	{sql: "format('%-*s|', 6, t)", e: call("format", txt("%-*s|"), i4(6), col(cT))},
	{sql: "format('%*s|', -6, t)", e: call("format", txt("%*s|"), i4(-6), col(cT))},
	{sql: "format('%s')", e: call("format", txt("%s"))},
	{sql: "format('%x', 1)", e: call("format", txt("%x"), i4(1))},
	{sql: "format('abc%')", e: call("format", txt("abc%"))},
	{sql: "format('%0$s', 'a')", e: call("format", txt("%0$s"), txt("a"))},
	{sql: "format('%I', null)", e: call("format", txt("%I"), null(arrow.Null))},
	{sql: "format(null, 1)", e: call("format", null(arrow.Null), i4(1))},
	{sql: "format('no args')", e: call("format", txt("no args"))},
	{sql: "format('%s %s', 'a', null)", e: call("format", txt("%s %s"), txt("a"), null(arrow.Null))},
	{sql: "format('%3$s', 'a')", e: call("format", txt("%3$s"), txt("a"))},
	{sql: "format('%1$s %%', t)", e: call("format", txt("%1$s %%"), col(cT))},
	{sql: "to_hex(a)", e: call("to_hex", col(cA))},
	{sql: "to_hex(l)", e: call("to_hex", col(cL))},
	{sql: "to_hex(255)", e: call("to_hex", i4(255))},
	{sql: "to_hex(-1::int8)", e: call("to_hex", i8(-1))},
	{sql: "to_hex(1::int2)", e: call("to_hex", lit(int16(1), Int2))},
	{sql: `encode('\x61625c00ff80'::bytea, 'escape')`, e: call("encode", cast(txt(`\x61625c00ff80`), Bytea), txt("escape"))},
	{sql: `encode('\x00ff10'::bytea, 'hex')`, e: call("encode", cast(txt(`\x00ff10`), Bytea), txt("hex"))},
	{sql: "encode('hello world'::bytea, 'base64')", e: call("encode", cast(txt("hello world"), Bytea), txt("base64"))},
	{sql: "encode('ab'::bytea, 'base64')", e: call("encode", cast(txt("ab"), Bytea), txt("base64"))},
	{sql: "encode('a'::bytea, 'BASE64')", e: call("encode", cast(txt("a"), Bytea), txt("BASE64"))},
	{sql: `encode(repeat('x', 60)::bytea, 'base64') = replace(encode(repeat('x', 60)::bytea, 'base64'), E'\n', '')`,
		e: call("=", call("encode", cast(call("repeat", txt("x"), i4(60)), Bytea), txt("base64")),
			call("replace", call("encode", cast(call("repeat", txt("x"), i4(60)), Bytea), txt("base64")), txt("\n"), txt("")))},
	{sql: "length(encode(repeat('x', 60)::bytea, 'base64'))", e: call("length", call("encode", cast(call("repeat", txt("x"), i4(60)), Bytea), txt("base64")))},
	{sql: `position(E'\n' in encode(repeat('x', 60)::bytea, 'base64'))`, e: call("position", call("encode", cast(call("repeat", txt("x"), i4(60)), Bytea), txt("base64")), txt("\n"))},
	{sql: "encode('x'::bytea, 'nope')", e: call("encode", cast(txt("x"), Bytea), txt("nope"))},
	{sql: "decode('616263', 'hex')", e: call("decode", txt("616263"), txt("hex"))},
	{sql: `decode('61 62\n63', 'hex')`, e: call("decode", txt(`61 62\n63`), txt("hex"))},
	{sql: "decode('6', 'hex')", e: call("decode", txt("6"), txt("hex"))},
	{sql: "decode('6g', 'hex')", e: call("decode", txt("6g"), txt("hex"))},
	{sql: "decode('aGVsbG8gd29ybGQ=', 'base64')", e: call("decode", txt("aGVsbG8gd29ybGQ="), txt("base64"))},
	{sql: "decode('YWI=', 'base64')", e: call("decode", txt("YWI="), txt("base64"))},
	{sql: "decode('YQ==', 'base64')", e: call("decode", txt("YQ=="), txt("base64"))},
	{sql: "decode('YQ', 'base64')", e: call("decode", txt("YQ"), txt("base64"))},
	{sql: "decode('Y!==', 'base64')", e: call("decode", txt("Y!=="), txt("base64"))},
	{sql: `decode('a\\b\000\377', 'escape')`, e: call("decode", txt(`a\\b\000\377`), txt("escape"))},
	{sql: `decode('a\q', 'escape')`, e: call("decode", txt(`a\q`), txt("escape"))},
	{sql: "decode(t, 'escape')", e: call("decode", col(cT), txt("escape"))},
	{sql: "decode('x', 'nope')", e: call("decode", txt("x"), txt("nope"))},
	{sql: "sha256('abc'::bytea)", e: call("sha256", cast(txt("abc"), Bytea))},
	{sql: "sha224(''::bytea)", e: call("sha224", cast(txt(""), Bytea))},
	{sql: "sha384('abc'::bytea)", e: call("sha384", cast(txt("abc"), Bytea))},
	{sql: "sha512('abc'::bytea)", e: call("sha512", cast(txt("abc"), Bytea))},
	{sql: "format('%s %L', p, p)", e: call("format", txt("%s %L"), col(cP), col(cP))},
	{sql: "concat_ws(',', p, d, dt)", e: call("concat_ws", txt(","), col(cP), col(cD), col(cDT))},
	{sql: "upper(left(t, 1)) || lower(right(t, -1))", e: call("||", call("upper", call("left", col(cT), i4(1))), call("lower", call("right", col(cT), i4(-1))))},
}

func TestStringFunctions(t *testing.T) { runPGCases(t, "testdata/str_pg.tsv", strCases) }

// runPGCases evaluates each case over the fixture with a checked allocator
// and compares with PostgreSQL's rows or SQLSTATE in golden.
// ICEGATE_DUMP=1 prints the engine's side instead.
func runPGCases(t *testing.T, golden string, cases []evalCase) {
	t.Helper()
	dump := os.Getenv("ICEGATE_DUMP") != ""
	want := readGolden(t, golden)
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.sql] {
			t.Fatalf("%s: case listed twice", c.sql)
		}
		seen[c.sql] = true
		t.Run(c.sql, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rows, err := renderPG(t, mem, c.e)
			got, code := "", ""
			if err != nil {
				if code = sqlstate(err); code == "" {
					code = "none: " + err.Error()
				}
			} else {
				got = joinRows(rows)
			}
			if dump {
				fmt.Printf("CASE\t%s\t%s\t%s\n", c.sql, got, code)
				return
			}
			w, ok := want[c.sql]
			if !ok {
				t.Fatalf("%s: no PostgreSQL result in %s", c.sql, golden)
			}
			if code != w[1] || got != w[0] {
				t.Errorf("%s: got %q (error %s %v), PostgreSQL gives %q (error %s)", c.sql, got, code, err, w[0], w[1])
			}
		})
	}
}

// renderPG is render with PostgreSQL's text form of text[] values.
func renderPG(t *testing.T, mem memory.Allocator, e Expr) ([]string, error) {
	t.Helper()
	if b, ok := e.(*badExpr); ok {
		return nil, b.err
	}
	if !arrow.TypeEqual(e.Type(), TextArray) {
		return render(t, mem, e, time.UTC)
	}
	batch := fixtureBatch(mem)
	defer batch.Release()
	p, err := Compile(e, batch.Schema())
	if err != nil {
		return nil, err
	}
	out, err := p.Eval(WithAllocator(t.Context(), mem), batch)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	l := out.(*array.List)
	vals := l.ListValues().(*array.String)
	rows := make([]string, l.Len())
	for i := range rows {
		if l.IsNull(i) {
			rows[i] = "NULL"
			continue
		}
		lo, hi := l.ValueOffsets(i)
		elems := make([]string, 0, hi-lo)
		for j := lo; j < hi; j++ {
			elems = append(elems, arrayElemText(vals, int(j)))
		}
		rows[i] = "{" + strings.Join(elems, ",") + "}"
	}
	return rows, nil
}

// arrayElemText is one element of an array's text form: quoted when empty,
// NULL-like, or holding a delimiter, quote, backslash or space.
func arrayElemText(a *array.String, j int) string {
	if a.IsNull(j) {
		return "NULL"
	}
	s := a.Value(j)
	if s != "" && !strings.EqualFold(s, "null") && !strings.ContainsAny(s, "{},\"\\ \t\n") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
