package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func float8Lit(v float64) *Lit { return lit(v, Float8) }

// Mathematical functions over the fixture, checked against PostgreSQL 15
// (testdata/math_pg.tsv). Some float8 results go through round(x::numeric,
// 12): Go's math library and glibc may differ in the last bit (exp(1.5),
// acos(0.5), atan2(3, -1) and cbrt(27) do).
var mathCases = []evalCase{
	{sql: "mod(a, b)", e: call("mod", col(cA), col(cB))},
	{sql: "mod(a, 3)", e: call("mod", col(cA), i4(3))},
	{sql: "mod(l, 3)", e: call("mod", col(cL), i4(3))},
	{sql: "mod(s, 7::int2)", e: call("mod", col(cS), lit(int16(7), Int2))},
	{sql: "mod(d, 1)", e: call("mod", col(cD), i4(1))},
	{sql: "mod(d, 0.7)", e: call("mod", col(cD), num("0.7"))},
	{sql: "mod(-7.5, 2)", e: call("mod", num("-7.5"), i4(2))},
	{sql: "mod(b, 0)", e: call("mod", col(cB), i4(0))},
	{sql: "mod(d, 0)", e: call("mod", col(cD), i4(0))},
	{sql: "mod(f, 2)", e: call("mod", col(cF), i4(2))},
	{sql: "div(d, 0.7)", e: call("div", col(cD), num("0.7"))},
	{sql: "div(a, b)", e: call("div", col(cA), col(cB))},
	{sql: "div(7.5, -2)", e: call("div", num("7.5"), i4(-2))},
	{sql: "div(-7.5, 2.25)", e: call("div", num("-7.5"), num("2.25"))},
	{sql: "div(d, 1)", e: call("div", col(cD), i4(1))},
	{sql: "sign(a)", e: call("sign", col(cA))},
	{sql: "sign(f)", e: call("sign", col(cF))},
	{sql: "sign(d)", e: call("sign", col(cD))},
	{sql: "sign(-0.0)", e: call("sign", num("-0.0"))},
	{sql: "sign(g)", e: call("sign", col(cG))},
	{sql: "exp(f * 0)", e: call("exp", call("*", col(cF), float8Lit(0)))},
	{sql: "round(exp(b::float8 / 2)::numeric, 12)", e: call("round", cast(call("exp", call("/", cast(col(cB), Float8), float8Lit(2))), NumericType()), i4(12))},
	{sql: "exp(b)", e: call("exp", col(cB))},
	{sql: "exp(1000::float8)", e: call("exp", float8Lit(1000))},
	{sql: "exp(-1000::float8)", e: call("exp", float8Lit(-1000))},
	{sql: "exp('-inf'::float8)", e: call("exp", cast(txt("-inf"), Float8))},
	{sql: "exp(1.0)", e: call("exp", num("1.0"))},
	{sql: "exp(d / 100)", e: call("exp", call("/", col(cD), i4(100)))},
	{sql: "exp(b::numeric)", e: call("exp", cast(col(cB), NumericType()))},
	{sql: "exp(-2.5)", e: call("exp", num("-2.5"))},
	{sql: "ln(b)", e: call("ln", col(cB))},
	{sql: "ln(f)", e: call("ln", col(cF))},
	{sql: "ln(2.0)", e: call("ln", num("2.0"))},
	{sql: "ln(d)", e: call("ln", col(cD))},
	{sql: "ln(abs(d))", e: call("ln", call("abs", col(cD)))},
	{sql: "ln(10)", e: call("ln", i4(10))},
	{sql: "ln(0.5)", e: call("ln", num("0.5"))},
	{sql: "ln(1.05)", e: call("ln", num("1.05"))},
	{sql: "ln(0.0)", e: call("ln", num("0.0"))},
	{sql: "ln(1)", e: call("ln", i4(1))},
	{sql: "ln(1e20::numeric)", e: call("ln", cast(txt("1e20"), NumericType()))},
	{sql: "ln(123456789.123)", e: call("ln", num("123456789.123"))},
	{sql: "log(b)", e: call("log", col(cB))},
	{sql: "log(1000)", e: call("log", i4(1000))},
	{sql: "log(d)", e: call("log", col(cD))},
	{sql: "log(abs(d))", e: call("log", call("abs", col(cD)))},
	{sql: "log(2, 8)", e: call("log", i4(2), i4(8))},
	{sql: "log(2.5, 100)", e: call("log", num("2.5"), i4(100))},
	{sql: "log(b, 64)", e: call("log", col(cB), i4(64))},
	{sql: "log(0.5, 0.125)", e: call("log", num("0.5"), num("0.125"))},
	{sql: "log(1, 10)", e: call("log", i4(1), i4(10))},
	{sql: "log(0, 10)", e: call("log", i4(0), i4(10))},
	{sql: "log(10, -1)", e: call("log", i4(10), i4(-1))},
	{sql: "log10(1000)", e: call("log10", i4(1000))},
	{sql: "log10(1000.0)", e: call("log10", num("1000.0"))},
	{sql: "log10(abs(d))", e: call("log10", call("abs", col(cD)))},
	{sql: "log10(0)", e: call("log10", i4(0))},
	{sql: "round(cbrt(b)::numeric, 12)", e: call("round", cast(call("cbrt", col(cB)), NumericType()), i4(12))},
	{sql: "cbrt(-8)", e: call("cbrt", i4(-8))},
	{sql: "cbrt(f * 0)", e: call("cbrt", call("*", col(cF), float8Lit(0)))},
	{sql: "degrees(b)", e: call("degrees", col(cB))},
	{sql: "degrees(1e308)", e: call("degrees", cast(txt("1e308"), NumericType()))},
	{sql: "radians(180)", e: call("radians", i4(180))},
	{sql: "radians(b)", e: call("radians", col(cB))},
	{sql: "pi()", e: call("pi")},
	{sql: "round(sin(b)::numeric, 12)", e: call("round", cast(call("sin", col(cB)), NumericType()), i4(12))},
	{sql: "round(cos(b)::numeric, 12)", e: call("round", cast(call("cos", col(cB)), NumericType()), i4(12))},
	{sql: "round(tan(b)::numeric, 12)", e: call("round", cast(call("tan", col(cB)), NumericType()), i4(12))},
	{sql: "sin(0)", e: call("sin", i4(0))},
	{sql: "cos(0)", e: call("cos", i4(0))},
	{sql: "sin(f)", e: call("sin", col(cF))},
	{sql: "sin('inf'::float8)", e: call("sin", cast(txt("inf"), Float8))},
	{sql: "asin(1)", e: call("asin", i4(1))},
	{sql: "acos(1)", e: call("acos", i4(1))},
	{sql: "atan(1)", e: call("atan", i4(1))},
	{sql: "asin(2)", e: call("asin", i4(2))},
	{sql: "acos(f * 0)", e: call("acos", call("*", col(cF), float8Lit(0)))},
	{sql: "round(acos(b::float8 / 10)::numeric, 12)", e: call("round", cast(call("acos", call("/", cast(col(cB), Float8), float8Lit(10))), NumericType()), i4(12))},
	{sql: "atan2(1, 1)", e: call("atan2", i4(1), i4(1))},
	{sql: "round(atan2(b, -1)::numeric, 12)", e: call("round", cast(call("atan2", col(cB), i4(-1)), NumericType()), i4(12))},
	{sql: "atan2(f, 1)", e: call("atan2", col(cF), i4(1))},
	{sql: "round(cot(b + 1)::numeric, 12)", e: call("round", cast(call("cot", call("+", col(cB), i4(1))), NumericType()), i4(12))},
	{sql: "cot(0)", e: call("cot", i4(0))},
	{sql: "sinh(0)", e: call("sinh", i4(0))},
	{sql: "cosh(0)", e: call("cosh", i4(0))},
	{sql: "tanh(0)", e: call("tanh", i4(0))},
	{sql: "sinh(1000)", e: call("sinh", i4(1000))},
	{sql: "asinh(0)", e: call("asinh", i4(0))},
	{sql: "acosh(1)", e: call("acosh", i4(1))},
	{sql: "acosh(0.5)", e: call("acosh", num("0.5"))},
	{sql: "atanh(0)", e: call("atanh", i4(0))},
	{sql: "atanh(1)", e: call("atanh", i4(1))},
	{sql: "atanh(2)", e: call("atanh", i4(2))},
	{sql: "gcd(a, b)", e: call("gcd", col(cA), col(cB))},
	{sql: "gcd(l, 4)", e: call("gcd", col(cL), i4(4))},
	{sql: "gcd(-2147483648, 0)", e: call("gcd", i4(-2147483648), i4(0))},
	{sql: "gcd(0, 0)", e: call("gcd", i4(0), i4(0))},
	{sql: "gcd(d, 0.75)", e: call("gcd", col(cD), num("0.75"))},
	{sql: "gcd(4.50, 6)", e: call("gcd", num("4.50"), i4(6))},
	{sql: "lcm(a, b)", e: call("lcm", col(cA), col(cB))},
	{sql: "lcm(65536, 65536*2)", e: call("lcm", i4(65536), call("*", i4(65536), i4(2)))},
	{sql: "lcm(2147483647, 2)", e: call("lcm", i4(2147483647), i4(2))},
	{sql: "lcm(1.5, 2.25)", e: call("lcm", num("1.5"), num("2.25"))},
	{sql: "lcm(d, 0.5)", e: call("lcm", col(cD), num("0.5"))},
	{sql: "lcm(b::int8, 12)", e: call("lcm", cast(col(cB), Int8), i4(12))},
	{sql: "width_bucket(f, 0, 10, 3)", e: call("width_bucket", col(cF), i4(0), i4(10), i4(3))},
	{sql: "width_bucket(b, 0, 10, 3)", e: call("width_bucket", col(cB), i4(0), i4(10), i4(3))},
	{sql: "width_bucket(a, 0, 10, 5)", e: call("width_bucket", col(cA), i4(0), i4(10), i4(5))},
	{sql: "width_bucket(d, 0, 100, 4)", e: call("width_bucket", col(cD), i4(0), i4(100), i4(4))},
	{sql: "width_bucket(5.5, 0, 10, 3)", e: call("width_bucket", num("5.5"), i4(0), i4(10), i4(3))},
	{sql: "width_bucket(5, 10, 0, 4)", e: call("width_bucket", i4(5), i4(10), i4(0), i4(4))},
	{sql: "width_bucket(5.5, 10, 0, 4)", e: call("width_bucket", num("5.5"), i4(10), i4(0), i4(4))},
	{sql: "width_bucket(10, 0, 10, 4)", e: call("width_bucket", i4(10), i4(0), i4(10), i4(4))},
	{sql: "width_bucket(-1, 0, 10, 4)", e: call("width_bucket", i4(-1), i4(0), i4(10), i4(4))},
	{sql: "width_bucket(5, 0, 0, 3)", e: call("width_bucket", i4(5), i4(0), i4(0), i4(3))},
	{sql: "width_bucket(5, 0, 10, 0)", e: call("width_bucket", i4(5), i4(0), i4(10), i4(0))},
	{sql: "width_bucket(5::float8, '-inf', 10, 2)", e: call("width_bucket", float8Lit(5), cast(txt("-inf"), Float8), i4(10), i4(2))},
	{sql: "width_bucket(b::float8, 0, 10, 2147483647)", e: call("width_bucket", cast(col(cB), Float8), i4(0), i4(10), i4(2147483647))},
	{sql: "width_bucket(20, 0, 10, 2147483647)", e: call("width_bucket", i4(20), i4(0), i4(10), i4(2147483647))},
	{sql: "scale(d)", e: call("scale", col(cD))},
	{sql: "scale(1.500)", e: call("scale", num("1.500"))},
	{sql: "scale(b)", e: call("scale", col(cB))},
	{sql: "min_scale(d)", e: call("min_scale", col(cD))},
	{sql: "min_scale(8.4100)", e: call("min_scale", num("8.4100"))},
	{sql: "trim_scale(8.4100)", e: call("trim_scale", num("8.4100"))},
	{sql: "trim_scale(d * 10)", e: call("trim_scale", call("*", col(cD), i4(10)))},
	{sql: "trim_scale(-0.000)", e: call("trim_scale", num("-0.000"))},
	{sql: "min_scale(0.00)", e: call("min_scale", num("0.00"))},
	{sql: "random() >= 0 and random() < 1", e: call("and", call(">=", call("random"), float8Lit(0)), call("<", call("random"), float8Lit(1)))},
	{sql: "pi() * b", e: call("*", call("pi"), col(cB))},
}

func TestMathFunctions(t *testing.T) { runPGCases(t, "testdata/math_pg.tsv", mathCases) }

// TestMathResolve: argument casts and result types, as PostgreSQL picks
// them (pg_typeof), and its resolution errors.
func TestMathResolve(t *testing.T) {
	dec := func(p, s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: p, Scale: s} }
	for _, c := range []struct {
		fn   string
		args []arrow.DataType
		want string
	}{
		{"sign", []arrow.DataType{Int4}, "double precision -> double precision"},
		{"sign", []arrow.DataType{dec(10, 2)}, "numeric(10,2) -> numeric(38,0)"},
		{"ln", []arrow.DataType{Int8}, "double precision -> double precision"},
		{"ln", []arrow.DataType{dec(10, 2)}, "numeric(10,2) -> numeric"},
		{"log", []arrow.DataType{Int4, Int4}, "numeric(10,0), numeric(10,0) -> numeric"},
		{"log", []arrow.DataType{Float8, Int4}, "42883"},
		{"mod", []arrow.DataType{Int4, Int8}, "bigint, bigint -> bigint"},
		{"mod", []arrow.DataType{Float8, Int4}, "42883"},
		{"div", []arrow.DataType{Int4, Int4}, "numeric(10,0), numeric(10,0) -> numeric(38,0)"},
		{"gcd", []arrow.DataType{Int4, Int8}, "bigint, bigint -> bigint"},
		{"gcd", []arrow.DataType{dec(10, 2), Int4}, "numeric(10,2), numeric(10,0) -> numeric(38,2)"},
		{"width_bucket", []arrow.DataType{Int4, Int4, Int4, Int4}, "double precision, double precision, double precision, integer -> integer"},
		{"width_bucket", []arrow.DataType{dec(10, 2), Int4, Int4, Int4}, "numeric(10,2), numeric(10,0), numeric(10,0), integer -> integer"},
		{"width_bucket", []arrow.DataType{Float8, Int4, Int4, Int8}, "42883"},
		{"sin", []arrow.DataType{dec(10, 2)}, "double precision -> double precision"},
		{"sin", []arrow.DataType{Text}, "42883"},
		{"random", []arrow.DataType{Int4}, "42883"},
		{"regexp_match", []arrow.DataType{Text, Text}, "text, text -> list<item: utf8, nullable>"},
		{"~", []arrow.DataType{Text, Int4}, "42883"},
		{"to_hex", []arrow.DataType{Int2}, "42725"},
		{"concat_ws", []arrow.DataType{Text}, "42883"},
		{"left", []arrow.DataType{Int4, Int4}, "42883"},
		{"format", []arrow.DataType{Text, Bool, Int4}, "text, boolean, text -> text"},
		{"regexp_replace", []arrow.DataType{Text, Text, Text, Int2}, "text, text, text, integer -> text"},
		{"regexp_replace", []arrow.DataType{Text, Text, Text, arrow.Null}, "text, text, text, text -> text"},
		{"position", []arrow.DataType{Text, Text}, "text, text -> integer"},
	} {
		r, err := Resolve(c.fn, c.args)
		got := ""
		if err != nil {
			got = sqlstate(err)
		} else {
			got = typeDescs(r.Args) + " -> " + typeDesc(r.Result)
		}
		if got != c.want {
			t.Errorf("%s%v: got %q, want %q", c.fn, c.args, got, c.want)
		}
	}
}

func typeDescs(ts []arrow.DataType) string {
	s := ""
	for i, a := range ts {
		if i > 0 {
			s += ", "
		}
		s += typeDesc(a)
	}
	return s
}
