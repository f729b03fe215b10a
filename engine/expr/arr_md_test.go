package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// Multi-dimensional arrays (nested lists) over the fixture, checked
// against PostgreSQL 15 (testdata/arr_md_pg.tsv, made as
// testdata/README.md describes).

var intArray2 = MultiDimList(Int4, 2)

func arr2(rows ...[]Expr) Expr {
	subs := make([]Expr, len(rows))
	for i, r := range rows {
		subs[i] = arr(r...)
	}
	return arr(subs...)
}

// mdOut renders a multi-dimensional result as array_out prints it.
func mdText(e Expr) Expr { return call("array_out", e) }

var arrMDCases = []evalCase{
	{sql: "ARRAY[ARRAY[a, b], ARRAY[b, a]]", e: mdText(arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB), col(cA)}))},
	{sql: "ARRAY[ARRAY[t, 'x y'], ARRAY['', NULL]]", e: mdText(arr2([]Expr{col(cT), txt("x y")}, []Expr{txt(""), null(arrow.Null)}))},
	{sql: "ARRAY[ARRAY[a, b], ARRAY[b]]", e: mdText(arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB)}))},
	{sql: "ARRAY[ARRAY[a, b], NULL::int[]]", e: mdText(arr(arr(col(cA), col(cB)), null(intArray)))},
	{sql: "ARRAY[NULL::int[], NULL::int[]]", e: mdText(arr(null(intArray), null(intArray)))},
	{sql: "ARRAY[ARRAY[ARRAY[a]], ARRAY[ARRAY[b]]]", e: mdText(arr(arr(arr(col(cA))), arr(arr(col(cB)))))},
	{sql: "'{{1,2},{3,NULL}}'::int[]", e: mdText(arrIn(txt("{{1,2},{3,NULL}}"), intArray2))},
	{sql: "'{{1,2},{3}}'::int[]", e: mdText(arrIn(txt("{{1,2},{3}}"), intArray2))},
	{sql: "'{{1,2},3}'::int[]", e: mdText(arrIn(txt("{{1,2},3}"), intArray2))},
	{sql: "'{{1,x}}'::int[]", e: mdText(arrIn(txt("{{1,x}}"), intArray2))},
	{sql: "'{}'::int[]", e: mdText(arrIn(txt("{}"), intArray2))},
	{sql: `'{{"a b","c\"d"},{"e\\f",NULL}}'::text[]`, e: mdText(arrIn(txt(`{{"a b","c\"d"},{"e\\f",NULL}}`), MultiDimList(Text, 2)))},
	{sql: "(ARRAY[ARRAY[a, b], ARRAY[b, a]])[2][1]", e: call("array_subscript", arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB), col(cA)}), i4(2), i4(1))},
	{sql: "(ARRAY[ARRAY[a, b], ARRAY[b, a]])[1][b]", e: call("array_subscript", arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB), col(cA)}), i4(1), col(cB))},
	{sql: "(ARRAY[ARRAY[a, b], ARRAY[b, a]])[1]", e: call("array_subscript", arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB), col(cA)}), i4(1))},
	{sql: "(ARRAY[a, b])[1][1]", e: call("array_subscript", arr(col(cA), col(cB)), i4(1), i4(1))},
	{sql: "(ARRAY[ARRAY[a, b], ARRAY[b, a]])[1:1][2:2]", e: mdText(call("array_slice", arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB), col(cA)}), i4(1), i4(1), i4(2), i4(2)))},
	{sql: "(ARRAY[ARRAY[a, b], ARRAY[b, a]])[2:]", e: mdText(call("array_slice", arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB), col(cA)}), i4(2), null(Int4)))},
	{sql: "(ARRAY[ARRAY[a, b], ARRAY[b, a]])[0:b][:1]", e: mdText(call("array_slice", arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB), col(cA)}), i4(0), col(cB), null(Int4), i4(1)))},
	{sql: "(ARRAY[ARRAY[a, b], ARRAY[b, a]])[3:4]", e: mdText(call("array_slice", arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB), col(cA)}), i4(3), i4(4)))},
	{sql: "(ARRAY[a, b])[1:1][1:1]", e: call("array_out", call("array_slice", arr(col(cA), col(cB)), i4(1), i4(1), i4(1), i4(1)))},
	{sql: "array_dims(ARRAY[ARRAY[a, b, 1], ARRAY[b, a, 2]])", e: call("array_dims", arr2([]Expr{col(cA), col(cB), i4(1)}, []Expr{col(cB), col(cA), i4(2)}))},
	{sql: "array_ndims(ARRAY[ARRAY[a, b], ARRAY[b, a]])", e: call("array_ndims", arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB), col(cA)}))},
	{sql: "cardinality(ARRAY[ARRAY[a, b, 1], ARRAY[b, a, 2]])", e: call("cardinality", arr2([]Expr{col(cA), col(cB), i4(1)}, []Expr{col(cB), col(cA), i4(2)}))},
	{sql: "array_length(ARRAY[ARRAY[a, b, 1], ARRAY[b, a, 2]], b)", e: call("array_length", arr2([]Expr{col(cA), col(cB), i4(1)}, []Expr{col(cB), col(cA), i4(2)}), col(cB))},
	{sql: "array_upper(ARRAY[ARRAY[a, b, 1], ARRAY[b, a, 2]], 2)", e: call("array_upper", arr2([]Expr{col(cA), col(cB), i4(1)}, []Expr{col(cB), col(cA), i4(2)}), i4(2))},
	{sql: "array_lower(ARRAY[ARRAY[a, b, 1], ARRAY[b, a, 2]], 3)", e: call("array_lower", arr2([]Expr{col(cA), col(cB), i4(1)}, []Expr{col(cB), col(cA), i4(2)}), i4(3))},
	{sql: "array_to_string(ARRAY[ARRAY[a, b], ARRAY[b, NULL]], ',', '*')", e: call("array_to_string", arr2([]Expr{col(cA), col(cB)}, []Expr{col(cB), null(arrow.Null)}), txt(","), txt("*"))},
	{sql: "ARRAY[ARRAY[a, b]] @> ARRAY[3]", e: call("@>", arr2([]Expr{col(cA), col(cB)}), arr(i4(3)))},
	{sql: "ARRAY[ARRAY[a, b]] = ARRAY[ARRAY[1, 3]]", e: call("array_eq", arr2([]Expr{col(cA), col(cB)}), arr2([]Expr{i4(1), i4(3)}))},
	{sql: "ARRAY[ARRAY[a, b]] = ARRAY[a, b]", e: call("array_eq", arr2([]Expr{col(cA), col(cB)}), arr(col(cA), col(cB)))},
	{sql: "ARRAY[ARRAY[a, b]] > ARRAY[a, b]", e: call("array_gt", arr2([]Expr{col(cA), col(cB)}), arr(col(cA), col(cB)))},
	{sql: "ARRAY[ARRAY[a], ARRAY[b]] < ARRAY[ARRAY[a, b]]", e: call("array_lt", arr2([]Expr{col(cA)}, []Expr{col(cB)}), arr2([]Expr{col(cA), col(cB)}))},
	{sql: "ARRAY[ARRAY[a, b]] <> ARRAY[ARRAY[b, a]]", e: call("array_ne", arr2([]Expr{col(cA), col(cB)}), arr2([]Expr{col(cB), col(cA)}))},
	{sql: "ARRAY[ARRAY[a, b]]::bigint[]", e: mdText(&Cast{Arg: arr2([]Expr{col(cA), col(cB)}), T: MultiDimList(Int8, 2)})},
	{sql: "ARRAY[ARRAY[d, 1.5]]", e: mdText(arr2([]Expr{col(cD), num("1.5")}))},
}

func TestArrayMultiDim(t *testing.T) { runArrCases(t, "testdata/arr_md_pg.tsv", arrMDCases) }

var arrMDQuantifiedCases = []evalCase{
	{sql: "b = ANY (ARRAY[ARRAY[1, 3], ARRAY[5, 7]])", e: call("any:=", col(cB), arr2([]Expr{i4(1), i4(3)}, []Expr{i4(5), i4(7)}))},
	{sql: "a < ALL (ARRAY[ARRAY[b, 2]])", e: call("all:<", col(cA), arr2([]Expr{col(cB), i4(2)}))},
}

func TestArrayMultiDimQuantified(t *testing.T) {
	runArrCases(t, "testdata/arr_md_pg.tsv", arrMDQuantifiedCases)
}

var arrMDCatCases = []evalCase{
	{sql: "array_cat(ARRAY[ARRAY[a, b]], ARRAY[ARRAY[b, a]])", e: mdText(call("array_cat", arr2([]Expr{col(cA), col(cB)}), arr2([]Expr{col(cB), col(cA)})))},
	{sql: "array_cat(ARRAY[ARRAY[a, b]], ARRAY[b, 1])", e: mdText(call("array_cat", arr2([]Expr{col(cA), col(cB)}), arr(col(cB), i4(1))))},
	{sql: "array_cat(ARRAY[b, 1], ARRAY[ARRAY[a, b]])", e: mdText(call("array_cat", arr(col(cB), i4(1)), arr2([]Expr{col(cA), col(cB)})))},
	{sql: "array_cat(ARRAY[a], ARRAY[ARRAY[b, 1]])", e: mdText(call("array_cat", arr(col(cA)), arr2([]Expr{col(cB), i4(1)})))},
	{sql: "array_cat(ARRAY[ARRAY[a, b]], ARRAY[ARRAY[b]])", e: mdText(call("array_cat", arr2([]Expr{col(cA), col(cB)}), arr2([]Expr{col(cB)})))},
	{sql: "array_cat(NULL::int[], ARRAY[ARRAY[a]])", e: mdText(call("array_cat", null(intArray), arr2([]Expr{col(cA)})))},
	{sql: "array_cat(ARRAY[ARRAY[a]], '{}'::int[])", e: mdText(call("array_cat", arr2([]Expr{col(cA)}), arrIn(txt("{}"), intArray)))},
}

func TestArrayMultiDimCat(t *testing.T) { runArrCases(t, "testdata/arr_md_pg.tsv", arrMDCatCases) }
