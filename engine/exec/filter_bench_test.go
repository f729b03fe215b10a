package exec

import (
	"context"
	"math/rand"
	"strings"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// The WHERE clauses TPC-H puts on lineitem, over batches shaped like the
// scan's: 8192 rows of TPC-H-like values.

// decLit is a numeric constant as the binder types it: numeric(P,S) of
// its written digits.
func decLit(s string) expr.Expr {
	d := catalogDecimal(s)
	p := len(strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(s), "0"))
	if p < d.Scale+1 {
		p = d.Scale + 1
	}
	return lit(d, &arrow.Decimal128Type{Precision: int32(p), Scale: int32(d.Scale)})
}

var (
	dec15_2        = &arrow.Decimal128Type{Precision: 15, Scale: 2}
	lineitemSchema = arrow.NewSchema([]arrow.Field{
		{Name: "l_quantity", Type: dec15_2},
		{Name: "l_extendedprice", Type: dec15_2},
		{Name: "l_discount", Type: dec15_2},
		{Name: "l_shipdate", Type: expr.Date},
		{Name: "l_commitdate", Type: expr.Date},
		{Name: "l_receiptdate", Type: expr.Date},
		{Name: "l_shipmode", Type: expr.Text},
		{Name: "l_shipinstruct", Type: expr.Text},
	}, nil)
)

const (
	lQuantity = iota
	lExtendedprice
	lDiscount
	lShipdate
	lCommitdate
	lReceiptdate
	lShipmode
	lShipinstruct
)

func lcol(i int) expr.Expr {
	f := lineitemSchema.Field(i)
	return &expr.Col{Idx: i, Name: f.Name, T: f.Type}
}

func dateLit(y, m, d int) expr.Expr {
	days := int32((civilDays(y, m, d)))
	return lit(days, expr.Date)
}

// civilDays is the number of days from 1970-01-01 to y-m-d.
func civilDays(y, m, d int) int {
	if m <= 2 {
		y--
		m += 12
	}
	era := y / 400
	yoe := y - era*400
	doy := (153*(m-3)+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// lineitemBatches makes n batches of 8192 lineitem-like rows.
func lineitemBatches(mem memory.Allocator, n int) []arrow.RecordBatch {
	r := rand.New(rand.NewSource(1))
	modes := []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	instr := []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	start, end := civilDays(1992, 1, 2), civilDays(1998, 12, 1)
	out := make([]arrow.RecordBatch, n)
	for k := range out {
		b := array.NewRecordBuilder(mem, lineitemSchema)
		for i := 0; i < 8192; i++ {
			q := int64(1 + r.Intn(50))
			b.Field(lQuantity).(*array.Decimal128Builder).Append(decimal128.FromI64(q * 100))
			b.Field(lExtendedprice).(*array.Decimal128Builder).Append(decimal128.FromI64(q * int64(90000+r.Intn(10000000))))
			b.Field(lDiscount).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(r.Intn(11))))
			ship := start + r.Intn(end-start-151)
			b.Field(lShipdate).(*array.Date32Builder).Append(arrow.Date32(ship))
			b.Field(lCommitdate).(*array.Date32Builder).Append(arrow.Date32(ship - 60 + r.Intn(121)))
			b.Field(lReceiptdate).(*array.Date32Builder).Append(arrow.Date32(ship + 1 + r.Intn(30)))
			b.Field(lShipmode).(*array.StringBuilder).Append(modes[r.Intn(len(modes))])
			b.Field(lShipinstruct).(*array.StringBuilder).Append(instr[r.Intn(len(instr))])
		}
		out[k] = b.NewRecordBatch()
		b.Release()
	}
	return out
}

// lineitemFilters are the lineitem conditions of q06, q12, q19 and q01.
var lineitemFilters = []struct {
	name string
	pred expr.Expr
}{
	{"q06", call("and",
		call(">=", lcol(lShipdate), dateLit(1994, 1, 1)),
		call("<", lcol(lShipdate), dateLit(1995, 1, 1)),
		call(">=", lcol(lDiscount), call("-", decLit("0.06"), decLit("0.01"))),
		call("<=", lcol(lDiscount), call("+", decLit("0.06"), decLit("0.01"))),
		call("<", lcol(lQuantity), decLit("24")))},
	{"q12", call("and",
		call("in", lcol(lShipmode), lit("MAIL", expr.Text), lit("SHIP", expr.Text)),
		call("<", lcol(lCommitdate), lcol(lReceiptdate)),
		call("<", lcol(lShipdate), lcol(lCommitdate)),
		call(">=", lcol(lReceiptdate), dateLit(1994, 1, 1)),
		call("<", lcol(lReceiptdate), dateLit(1995, 1, 1)))},
	{"q19", call("and",
		call("in", lcol(lShipmode), lit("AIR", expr.Text), lit("AIR REG", expr.Text)),
		call("=", lcol(lShipinstruct), lit("DELIVER IN PERSON", expr.Text)),
		call(">=", lcol(lQuantity), decLit("1")),
		call("<=", lcol(lQuantity), decLit("30")))},
	{"q01", call("<=", lcol(lShipdate), dateLit(1998, 9, 2))},
	// The generated ship dates end in July 1998 (q01's filter keeps every
	// row); this one drops the last month, about 1.4%, as q01 drops 1.5%
	// of TPC-H's lineitem.
	{"keep98", call("<=", lcol(lShipdate), dateLit(1998, 6, 1))},
}

// BenchmarkLineitemFilter times the filter over 16 batches of 8192 rows.
func BenchmarkLineitemFilter(b *testing.B) {
	batches := lineitemBatches(memory.DefaultAllocator, 16)
	ctx := context.Background()
	for _, f := range lineitemFilters {
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(batches) * 8192))
			kept := 0
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				for _, bt := range batches {
					bt.Retain()
				}
				op, err := NewFilter(NewBatches(lineitemSchema, append([]arrow.RecordBatch(nil), batches...)), f.pred)
				if err != nil {
					b.Fatal(err)
				}
				kept = drainCount(ctx, b, op)
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(kept), "rows")
		})
	}
}

// processCPU is the CPU time the process has used, in nanoseconds: on a
// shared machine a steadier measure than the wall clock.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// drainCount runs op to the end and counts its rows.
func drainCount(ctx context.Context, b *testing.B, op engine.Operator) int {
	if err := op.Open(ctx); err != nil {
		b.Fatal(err)
	}
	n := 0
	for {
		bt, err := op.Next()
		if err != nil {
			b.Fatal(err)
		}
		if bt == nil {
			break
		}
		n += int(bt.NumRows())
	}
	op.Close()
	return n
}

// BenchmarkFilterCompaction compares when to compact the batch between
// conjuncts: never (masks only), by the operator's rule, at every drop.
func BenchmarkFilterCompaction(b *testing.B) {
	batches := lineitemBatches(memory.DefaultAllocator, 16)
	ctx := context.Background()
	modes := []struct {
		name string
		set  func(f *filterOp)
	}{
		{"masks", func(f *filterOp) { f.minSaved = 1 << 30 }},
		{"rule", func(f *filterOp) {}},
		{"always", func(f *filterOp) { f.minSaved, f.below, f.belowCostly = 1, 1, 1 }},
	}
	for _, f := range lineitemFilters[:3] {
		for _, m := range modes {
			b.Run(f.name+"/"+m.name, func(b *testing.B) {
				cpu0 := processCPU()
				for i := 0; i < b.N; i++ {
					for _, bt := range batches {
						bt.Retain()
					}
					op, err := NewFilter(NewBatches(lineitemSchema, append([]arrow.RecordBatch(nil), batches...)), f.pred)
					if err != nil {
						b.Fatal(err)
					}
					m.set(op.(*filterOp))
					drainCount(ctx, b, op)
				}
				b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
