package exec

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// The operator tests run over testdata/rows.tsv (300 rows with NULLs in
// every column, NaN, -0, huge values), loaded as table t in PostgreSQL:
//
//	CREATE TABLE t(id int4, g int4, s text, v int8, x float8, d numeric(10,2), b bool);
//	\copy t from 'testdata/rows.tsv'
//
// Each case's rows are compared with what PostgreSQL printed for its SQL
// (testdata/ops_pg.txt; psql -At -F'|' -P null=NULL).
const (
	tID = iota
	tG
	tS
	tV
	tX
	tD
	tB
)

var numeric10_2 = &arrow.Decimal128Type{Precision: 10, Scale: 2}

var tableSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: expr.Int4, Nullable: true},
	{Name: "g", Type: expr.Int4, Nullable: true},
	{Name: "s", Type: expr.Text, Nullable: true},
	{Name: "v", Type: expr.Int8, Nullable: true},
	{Name: "x", Type: expr.Float8, Nullable: true},
	{Name: "d", Type: numeric10_2, Nullable: true},
	{Name: "b", Type: expr.Bool, Nullable: true},
}, nil)

// tableRows reads testdata/rows.tsv as text fields ("" + null flag).
func tableRows(t testing.TB) [][]*string {
	f, err := os.Open("testdata/rows.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]*string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		row := make([]*string, len(fields))
		for i, v := range fields {
			if v != `\N` {
				v := v
				row[i] = &v
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// makeBatches builds the table in batches of the given sizes (cycled).
func makeBatches(t testing.TB, mem memory.Allocator, rows [][]*string, sizes []int) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	b := array.NewRecordBuilder(mem, tableSchema)
	defer b.Release()
	k, inBatch := 0, 0
	flush := func() {
		if inBatch > 0 {
			out = append(out, b.NewRecordBatch())
			inBatch = 0
			k++
		}
	}
	for _, row := range rows {
		for c, v := range row {
			fb := b.Field(c)
			if v == nil {
				fb.AppendNull()
				continue
			}
			if err := fb.AppendValueFromString(*v); err != nil {
				t.Fatalf("column %d value %q: %v", c, *v, err)
			}
		}
		inBatch++
		if inBatch == sizes[k%len(sizes)] {
			flush()
		}
	}
	flush()
	return out
}

// batchSizes are the batchings every case runs under.
func batchSizes() map[string][]int {
	r := rand.New(rand.NewSource(7))
	random := make([]int, 50)
	for i := range random {
		random[i] = 1 + r.Intn(60)
	}
	return map[string][]int{"1": {1}, "3": {3}, "1024": {1024}, "random": random}
}

// drain runs op to the end and renders its rows (booleans as t/f, like
// psql), checking the Operator contract on the way.
func drain(ctx context.Context, t testing.TB, op engine.Operator) ([]string, error) {
	return drainCells(ctx, t, op, cell)
}

// drainText is drain with lists printed as PostgreSQL prints arrays.
func drainText(ctx context.Context, t testing.TB, op engine.Operator) ([]string, error) {
	return drainCells(ctx, t, op, cellText)
}

// drainCells runs op to the end and renders each value with render.
func drainCells(ctx context.Context, t testing.TB, op engine.Operator, render func(arrow.Array, int) string) ([]string, error) {
	if err := op.Open(ctx); err != nil {
		op.Close()
		return nil, err
	}
	var rows []string
	for {
		b, err := op.Next()
		if err != nil {
			op.Close()
			return nil, err
		}
		if b == nil {
			break
		}
		if b.NumRows() == 0 {
			t.Errorf("operator returned an empty batch")
		}
		if !b.Schema().Equal(op.Schema()) {
			t.Errorf("batch schema %s differs from operator schema %s", b.Schema(), op.Schema())
		}
		for i := 0; i < int(b.NumRows()); i++ {
			var sb strings.Builder
			for c := 0; c < int(b.NumCols()); c++ {
				if c > 0 {
					sb.WriteByte('|')
				}
				sb.WriteString(render(b.Column(c), i))
			}
			rows = append(rows, sb.String())
		}
	}
	return rows, op.Close()
}

func cell(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	if bo, ok := a.(*array.Boolean); ok {
		if bo.Value(i) {
			return "t"
		}
		return "f"
	}
	return string(expr.AppendText(nil, a, i, nil))
}

// Expression helpers, binding like translate does.
func col(i int) expr.Expr {
	f := tableSchema.Field(i)
	return &expr.Col{Idx: i, Name: f.Name, T: f.Type}
}

func lit(v any, t arrow.DataType) expr.Expr { return &expr.Lit{V: v, T: t} }

func call(fn string, args ...expr.Expr) expr.Expr {
	ts := make([]arrow.DataType, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	r, err := expr.Resolve(fn, ts)
	if err != nil {
		panic(fmt.Sprintf("resolve %s: %v", fn, err))
	}
	out := make([]expr.Expr, len(args))
	for i, a := range args {
		out[i] = a
		if !arrow.TypeEqual(a.Type(), r.Args[i]) {
			out[i] = &expr.Cast{Arg: a, T: r.Args[i]}
		}
	}
	return &expr.Call{Fn: fn, Args: out, T: r.Result}
}

func sqlstate(err error) string {
	var pe *pgerr.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// readGolden reads testdata/ops_pg.txt: "== name" headers, then rows, or
// "ERROR <sqlstate>".
func readGolden(t testing.TB) map[string][]string {
	data, err := os.ReadFile("testdata/ops_pg.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	var cur string
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if name, ok := strings.CutPrefix(line, "== "); ok {
			cur = name
			out[cur] = []string{}
			continue
		}
		out[cur] = append(out[cur], line)
	}
	return out
}

func sortedCopy(rows []string) []string {
	c := append([]string(nil), rows...)
	sort.Strings(c)
	return c
}

func cellText(a arrow.Array, i int) string {
	l, ok := a.(*array.List)
	if !ok || a.IsNull(i) {
		return cell(a, i)
	}
	start, end := l.ValueOffsets(i)
	vals := l.ListValues()
	var sb strings.Builder
	sb.WriteByte('{')
	for j := start; j < end; j++ {
		if j > start {
			sb.WriteByte(',')
		}
		sb.WriteString(arrayElem(vals, int(j)))
	}
	sb.WriteByte('}')
	return sb.String()
}

// arrayElem is an array element as PostgreSQL's array output writes it.
func arrayElem(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	s := cell(a, i)
	if s == "" || strings.EqualFold(s, "NULL") || strings.ContainsAny(s, "{},\"\\ \t\n") {
		s = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
		return `"` + s + `"`
	}
	return s
}

// checkedMem returns an allocator that fails the test if anything it
// handed out is still held when the test and its cleanups end.
func checkedMem(t *testing.T) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// replayable makes rows into batches of the given sizes once and returns
// a function giving a fresh operator over them at each call, so one input
// feeds both the in-memory and the spilling run of an operator. The
// batches are released when the test ends (before checkedMem's check).
func replayable(t *testing.T, mem memory.Allocator, rows [][]*string, sizes []int) func() engine.Operator {
	batches := makeBatches(t, mem, rows, sizes)
	t.Cleanup(func() {
		for _, b := range batches {
			b.Release()
		}
	})
	return func() engine.Operator {
		for _, b := range batches {
			b.Retain()
		}
		return NewBatches(tableSchema, append([]arrow.RecordBatch(nil), batches...))
	}
}
