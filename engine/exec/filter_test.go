package exec

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

func txtLit(s string) expr.Expr { return lit(s, expr.Text) }

// filterCases are WHERE clauses over table t with the ids PostgreSQL 15
// returned for `SELECT string_agg(id::text, ',' ORDER BY id) FROM t WHERE
// <sql>` (or ERROR <sqlstate>).
var filterCases = []struct {
	sql  string
	pred expr.Expr
	want string
}{
	{
		sql:  "d >= 0.055 AND d < 100.005",
		pred: call("and", call(">=", col(tD), decLit("0.055")), call("<", col(tD), decLit("100.005"))),
		want: "16,34,36,42,53,54,60,67,88,101,110,112,143,150,153,164,169,173,197,221,235,267,282,292",
	},
	{
		sql:  "d = 1.005 OR d > 480.555",
		pred: call("or", call("=", col(tD), decLit("1.005")), call(">", col(tD), decLit("480.555"))),
		want: "263",
	},
	{
		sql:  "(s = 'apple' OR s < 'b') AND g = 1",
		pred: call("and", call("or", call("=", col(tS), txtLit("apple")), call("<", col(tS), txtLit("b"))), call("=", col(tG), i4(1))),
		want: "8,19,35,48,58,68,71,88,114,183,201,215,229,237,251,258,260,274,284,286,299",
	},
	{
		sql:  "s IN ('apple', 'zeta', NULL) AND g IN (1, 2)",
		pred: call("and", call("in", col(tS), txtLit("apple"), txtLit("zeta"), lit(nil, expr.Text)), call("in", col(tG), i4(1), i4(2))),
		want: "3,19,41,48,56,58,110,112,116,121,131,187,201,204,207,209,223,241,249,250,251,258,260,277,284,287",
	},
	{
		sql:  "NOT (s IN ('apple', 'zeta', NULL))",
		pred: call("not", call("in", col(tS), txtLit("apple"), txtLit("zeta"), lit(nil, expr.Text))),
		want: "",
	},
	{
		sql:  "s NOT IN ('apple', 'zeta') AND d > 400",
		pred: call("and", call("not", call("in", col(tS), txtLit("apple"), txtLit("zeta"))), call(">", col(tD), i4(400))),
		want: "5,49,61,69,75,87,104,117,119,126,127,136,140,146,188,211,238,247,248,270,279",
	},
	{
		sql: "g IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10) AND v > 700",
		pred: call("and", call("in", col(tG), i4(1), i4(2), i4(3), i4(4), i4(5), i4(6), i4(7), i4(8), i4(9), i4(10)),
			call(">", col(tV), i8(700))),
		want: "4,16,20,29,46,49,54,56,62,64,67,111,118,147,172,178,181,184,187,194,214,216,228,262,263,275,276,277,297",
	},
	{
		// The division cannot fail on the rows g <> 0 keeps: it runs after.
		sql:  "v / g > 100 AND g <> 0",
		pred: call("and", call(">", call("/", col(tV), col(tG)), i8(100)), call("<>", col(tG), i4(0))),
		want: "4,5,8,16,19,20,29,30,39,44,46,49,54,55,56,61,62,64,67,71,79,83,87,103,111,115,118,122,126,143,147,165,170,171,172,178,181,184,187,194,195,200,205,214,215,216,222,223,228,239,240,242,244,248,249,250,252,253,257,258,262,263,264,275,276,277,278,284,286,288,297,299",
	},
	{
		sql:  "g <> 0 AND v / (g - g) > 1",
		pred: call("and", call("<>", col(tG), i4(0)), call(">", call("/", col(tV), call("-", col(tG), col(tG))), i8(1))),
		want: "ERROR 22012",
	},
	{
		sql: "id < 40 AND d > 0 AND s >= 'b' AND x > 0",
		pred: call("and", call("<", col(tID), i4(40)), call(">", col(tD), i4(0)), call(">=", col(tS), txtLit("b")),
			call(">", col(tX), f8(0))),
		want: "",
	},
	{
		sql:  "NULL AND g > 1",
		pred: call("and", lit(nil, expr.Bool), call(">", col(tG), i4(1))),
		want: "",
	},
	{
		sql: "(b OR g = 1) AND (d > 0 OR NOT b) AND s LIKE '%a%'",
		pred: call("and", call("or", col(tB), call("=", col(tG), i4(1))), call("or", call(">", col(tD), i4(0)), call("not", col(tB))),
			call("like", col(tS), txtLit("%a%"))),
		want: "3,6,8,16,19,20,28,43,47,58,78,101,116,143,150,160,162,164,169,178,181,184,201,209,222,230,242,249,250,251,282,285,286,287,295,296",
	},
	{
		sql: "d BETWEEN 0.06 - 0.01 AND 0.06 + 100.01 AND v < 24 * 10",
		pred: call("and", call(">=", col(tD), call("-", decLit("0.06"), decLit("0.01"))),
			call("<=", col(tD), call("+", decLit("0.06"), decLit("100.01"))), call("<", col(tV), call("*", i4(24), i4(10)))),
		want: "36,42,88,101,110,112,143,150,164,173,197,221,235",
	},
	{
		sql:  "x > 1e300 AND id > 250",
		pred: call("and", call(">", col(tX), f8(1e300)), call(">", col(tID), i4(250))),
		want: "251,257,263,270,275,277,286,292,294",
	},
}

// TestFilterConjuncts runs each case under every batching, with the batch
// compacted between conjuncts as soon as a row drops (compact) and only
// before conjuncts that can fail (masks).
func TestFilterConjuncts(t *testing.T) {
	rows := tableRows(t)
	for _, c := range filterCases {
		for bname, sizes := range batchSizes() {
			for _, mode := range []string{"compact", "masks"} {
				t.Run(c.sql+"/"+bname+"/"+mode, func(t *testing.T) {
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					defer mem.AssertSize(t, 0)
					ctx := expr.WithAllocator(context.Background(), mem)
					op, err := NewFilter(NewBatches(tableSchema, makeBatches(t, mem, rows, sizes)), c.pred)
					if err != nil {
						t.Fatal(err)
					}
					f := op.(*filterOp)
					if mode == "compact" {
						f.minSaved, f.below, f.belowCostly = 1, 1, 1
					} else {
						f.minSaved = math.MaxInt
					}
					got := filteredIDs(ctx, t, op)
					if got != c.want {
						t.Errorf("WHERE %s:\n got %s\nwant %s", c.sql, got, c.want)
					}
				})
			}
		}
	}
}

// filteredIDs drains op and lists the ids it kept, or ERROR <sqlstate>.
func filteredIDs(ctx context.Context, t *testing.T, op engine.Operator) string {
	t.Helper()
	out, err := drain(ctx, t, op)
	if err != nil {
		return "ERROR " + sqlstate(err)
	}
	ids := make([]int, len(out))
	for i, r := range out {
		id, _, _ := strings.Cut(r, "|")
		ids[i], _ = strconv.Atoi(id)
	}
	var sb strings.Builder
	for i, id := range ids {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(id))
	}
	return sb.String()
}

// TestFilterOrder checks the order conjuncts run in: those that cannot
// fail by cost class, then the others as written.
func TestFilterOrder(t *testing.T) {
	div := call(">", call("/", col(tV), col(tG)), i8(100))
	like := call("like", col(tS), txtLit("a%"))
	badLike := call("like", col(tS), txtLit(`a\`))
	text := call("=", col(tS), txtLit("apple"))
	dec := call(">", col(tD), decLit("1.5"))
	num := call("<", col(tID), i4(10))
	cases := []struct {
		name  string
		preds []expr.Expr
		want  []int // indexes into preds
	}{
		{"cheap first", []expr.Expr{like, text, dec, num}, []int{3, 2, 1, 0}},
		{"failing last, in order", []expr.Expr{div, num, badLike, text}, []int{1, 3, 0, 2}},
		{"folded constants do not fail", []expr.Expr{call(">=", col(tD), call("-", decLit("0.06"), decLit("0.01"))), num}, []int{1, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conj := make([]filterConj, len(c.preds))
			for i, p := range c.preds {
				cost, canFail := expr.PredicateCost(expr.Fold(p))
				conj[i] = filterConj{cost: cost, safe: !canFail}
			}
			got := conjunctOrder(conj)
			if !slices.Equal(got, c.want) {
				t.Errorf("order %v, want %v", got, c.want)
			}
		})
	}
}

// TestFilterKeepsAllRows checks that a batch every row of which passes is
// returned as it came, and one no row passes is skipped.
func TestFilterKeepsAllRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	batches := makeBatches(t, mem, tableRows(t), []int{100})
	first := batches[0]
	op, err := NewFilter(NewBatches(tableSchema, batches), call("and", call(">", col(tID), i4(0)), call("<=", col(tID), i4(100))))
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Open(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := op.Next()
	if err != nil {
		t.Fatal(err)
	}
	if b != first {
		t.Errorf("a batch every row of which passes was copied")
	}
	b, err = op.Next()
	if err != nil || b != nil {
		t.Errorf("after the first batch: %v, %v; want the end", b, err)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
}
