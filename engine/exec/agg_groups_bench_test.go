package exec

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// groupBenchSchema is a lineitem-like input: an int8 key (part or order
// key), a decimal(15,2) quantity, and two one-letter flags.
var groupBenchSchema = arrow.NewSchema([]arrow.Field{
	{Name: "key", Type: expr.Int8},
	{Name: "qty", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}},
	{Name: "flag", Type: expr.Text},
	{Name: "status", Type: expr.Text},
}, nil)

// groupBenchBatches makes rows in batches of 8192: key random in [0,
// groups) or, clustered, ascending with about 4 rows per key.
func groupBenchBatches(rows, groups int, clustered bool) []arrow.RecordBatch {
	r := rand.New(rand.NewSource(1))
	var out []arrow.RecordBatch
	key := int64(0)
	for done := 0; done < rows; done += 8192 {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, groupBenchSchema)
		for range min(8192, rows-done) {
			if clustered {
				if r.Intn(4) == 0 {
					key++
				}
				rb.Field(0).(*array.Int64Builder).Append(key)
			} else {
				rb.Field(0).(*array.Int64Builder).Append(r.Int63n(int64(groups)))
			}
			rb.Field(1).(*array.Decimal128Builder).Append(decimal128.FromI64(r.Int63n(5000) + 100))
			rb.Field(2).(*array.StringBuilder).Append(string("ANR"[r.Intn(3)]))
			rb.Field(3).(*array.StringBuilder).Append(string("FO"[r.Intn(2)]))
		}
		out = append(out, rb.NewRecordBatch())
		rb.Release()
	}
	return out
}

func groupBenchCol(i int) expr.Expr {
	f := groupBenchSchema.Field(i)
	return &expr.Col{Idx: i, Name: f.Name, T: f.Type}
}

// BenchmarkGroupBy runs GROUP BY shapes of the TPC-H queries over 1M
// rows: one random int key with many groups (q17's l_partkey), one
// clustered int key (q18's l_orderkey), two text flags (q01), and
// count(DISTINCT) (q16).
func BenchmarkGroupBy(b *testing.B) {
	const rows = 1 << 20
	sum := AggCall{Fn: "sum", Arg: groupBenchCol(1)}
	for _, c := range []struct {
		name      string
		groups    int
		clustered bool
		keys      []expr.Expr
		aggs      []AggCall
	}{
		{"int_200k", 200_000, false, []expr.Expr{groupBenchCol(0)}, []AggCall{{Fn: "avg", Arg: groupBenchCol(1)}}},
		{"int_clustered", 0, true, []expr.Expr{groupBenchCol(0)}, []AggCall{sum}},
		{"int_100", 100, false, []expr.Expr{groupBenchCol(0)}, []AggCall{{Fn: "count"}}},
		{"text2_6", 10, false, []expr.Expr{groupBenchCol(2), groupBenchCol(3)}, []AggCall{sum, {Fn: "count"}}},
		{"int_dec_2", 100, false, []expr.Expr{groupBenchCol(0), groupBenchCol(1)}, []AggCall{{Fn: "count"}}},
		{"text_3", 10, false, []expr.Expr{groupBenchCol(2)}, []AggCall{{Fn: "count"}}},
		{"distinct_int", 20_000, false, []expr.Expr{groupBenchCol(2)}, []AggCall{{Fn: "count", Arg: groupBenchCol(0), Distinct: true}}},
	} {
		batches := groupBenchBatches(rows, c.groups, c.clustered)
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				for _, bt := range batches {
					bt.Retain()
				}
				op, err := NewHashAggregate(NewBatches(groupBenchSchema, append([]arrow.RecordBatch(nil), batches...)), c.keys, c.aggs)
				if err != nil {
					b.Fatal(err)
				}
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
				if n == 0 {
					b.Fatal(fmt.Sprintf("%s: no groups", c.name))
				}
			}
		})
		releaseRecords(batches)
	}
}

func releaseRecords(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// BenchmarkGroupByExpect runs GROUP BY with many groups without and with
// the planner's estimate of the groups (exact here): q18's sum over a
// clustered l_orderkey (about 1.5M groups in 6M rows at SF 1, here 1M
// groups in 4M rows) and a random key with 200k groups.
func BenchmarkGroupByExpect(b *testing.B) {
	const rows = 1 << 22
	for _, c := range []struct {
		name      string
		groups    int
		clustered bool
		aggs      []AggCall
	}{
		{"clustered_sum", 0, true, []AggCall{{Fn: "sum", Arg: groupBenchCol(1)}}},
		{"random_200k_avg", 200_000, false, []AggCall{{Fn: "avg", Arg: groupBenchCol(1)}}},
	} {
		batches := groupBenchBatches(rows, c.groups, c.clustered)
		keys := []expr.Expr{groupBenchCol(0)}
		count := func(expect int64) int {
			for _, bt := range batches {
				bt.Retain()
			}
			op, err := NewHashAggregate(NewBatches(groupBenchSchema, append([]arrow.RecordBatch(nil), batches...)), keys, c.aggs)
			if err != nil {
				b.Fatal(err)
			}
			op.(GroupSizer).ExpectGroups(expect)
			n, err := drainRows(context.Background(), op)
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
		groups := count(0)
		for _, expect := range []int64{0, int64(groups)} {
			b.Run(fmt.Sprintf("%s/expect=%t", c.name, expect > 0), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if n := count(expect); n != groups {
						b.Fatalf("%d groups, want %d", n, groups)
					}
				}
			})
		}
		releaseRecords(batches)
	}
}

// drainRows runs op to the end and counts its rows.
func drainRows(ctx context.Context, op engine.Operator) (int, error) {
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return 0, err
	}
	n := 0
	for {
		bt, err := op.Next()
		if err != nil || bt == nil {
			return n, err
		}
		n += int(bt.NumRows())
	}
}

// BenchmarkGroupByWideKeys groups as q10 does: a customer's key, name,
// balance, phone, nation, address and comment (about 150 bytes of key a
// row), 114k rows of 38k customers in runs of a few rows, sum of a
// decimal.
func BenchmarkGroupByWideKeys(b *testing.B) {
	dec := &arrow.Decimal128Type{Precision: 15, Scale: 2}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "custkey", Type: expr.Int8}, {Name: "name", Type: expr.Text},
		{Name: "acctbal", Type: dec}, {Name: "phone", Type: expr.Text},
		{Name: "nation", Type: expr.Text}, {Name: "address", Type: expr.Text},
		{Name: "comment", Type: expr.Text}, {Name: "revenue", Type: dec},
	}, nil)
	const customers, rows = 38_000, 114_000
	r := rand.New(rand.NewSource(1))
	word := func(lo, hi int) string {
		s := make([]byte, lo+r.Intn(hi-lo+1))
		for i := range s {
			s[i] = byte('a' + r.Intn(26))
		}
		return string(s)
	}
	type cust struct{ name, phone, nation, address, comment string }
	cs := make([]cust, customers)
	for i := range cs {
		cs[i] = cust{word(18, 18), word(15, 15), word(5, 14), word(10, 40), word(29, 116)}
	}
	var batches []arrow.RecordBatch
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	for done := 0; done < rows; {
		c := r.Intn(customers)
		for range 1 + r.Intn(5) {
			rb.Field(0).(*array.Int64Builder).Append(int64(c))
			rb.Field(1).(*array.StringBuilder).Append(cs[c].name)
			rb.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(c)))
			rb.Field(3).(*array.StringBuilder).Append(cs[c].phone)
			rb.Field(4).(*array.StringBuilder).Append(cs[c].nation)
			rb.Field(5).(*array.StringBuilder).Append(cs[c].address)
			rb.Field(6).(*array.StringBuilder).Append(cs[c].comment)
			rb.Field(7).(*array.Decimal128Builder).Append(decimal128.FromI64(r.Int63n(1e7)))
			done++
			if done%8192 == 0 {
				batches = append(batches, rb.NewRecordBatch())
			}
		}
	}
	batches = append(batches, rb.NewRecordBatch())
	rb.Release()
	defer releaseRecords(batches)
	var keys []expr.Expr
	for i := range 7 {
		f := schema.Field(i)
		keys = append(keys, &expr.Col{Idx: i, Name: f.Name, T: f.Type})
	}
	aggs := []AggCall{{Fn: "sum", Arg: &expr.Col{Idx: 7, Name: "revenue", T: dec}}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, bt := range batches {
			bt.Retain()
		}
		op, err := NewHashAggregate(NewBatches(schema, append([]arrow.RecordBatch(nil), batches...)), keys, aggs)
		if err != nil {
			b.Fatal(err)
		}
		n, err := drainRows(ctx, op)
		if err != nil {
			b.Fatal(err)
		}
		if n < customers/2 {
			b.Fatalf("%d groups", n)
		}
	}
}
