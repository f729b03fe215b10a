package exec

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// reserveSchema: k an integer key (negative values, NULLs), t a text key
// mixing one-letter texts with ones longer than a packed key takes
// (NULLs, empty texts), d a decimal(15,2) to sum.
var reserveSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: expr.Int8, Nullable: true},
	{Name: "t", Type: expr.Text, Nullable: true},
	{Name: "d", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}, Nullable: true},
}, nil)

func reserveBatches(mem memory.Allocator, rows, groups int) []arrow.RecordBatch {
	r := rand.New(rand.NewSource(11))
	var out []arrow.RecordBatch
	for done := 0; done < rows; done += 4096 {
		b := array.NewRecordBuilder(mem, reserveSchema)
		for range min(4096, rows-done) {
			kb := b.Field(0).(*array.Int64Builder)
			if r.Intn(50) == 0 {
				kb.AppendNull()
			} else {
				kb.Append(int64(r.Intn(groups)) - int64(groups/2))
			}
			tb := b.Field(1).(*array.StringBuilder)
			switch x := r.Intn(40); {
			case x == 0:
				tb.AppendNull()
			case x == 1:
				tb.Append("")
			case x < 8:
				tb.Append(strings.Repeat("long text ", 1+x) + fmt.Sprint(r.Intn(groups/8)))
			default:
				tb.Append(string("ANR"[r.Intn(3)]))
			}
			db := b.Field(2).(*array.Decimal128Builder)
			if r.Intn(30) == 0 {
				db.AppendNull()
			} else {
				db.Append(decimal128.FromI64(r.Int63n(1_000_000) - 300_000))
			}
		}
		out = append(out, b.NewRecordBatch())
		b.Release()
	}
	return out
}

// TestHashAggregateExpectGroups checks that an estimate of the groups,
// too small (the table grows past it), about right, or far too large,
// changes no result, also spilling under a small statement_mem, and that
// everything is given back at Close.
func TestHashAggregateExpectGroups(t *testing.T) {
	mem := checkedMem(t)
	ctx0 := expr.WithAllocator(context.Background(), mem)
	batches := reserveBatches(mem, 30_000, 4_000)
	defer releaseRecords(batches)
	src := func() engine.Operator {
		for _, b := range batches {
			b.Retain()
		}
		return NewBatches(reserveSchema, append([]arrow.RecordBatch(nil), batches...))
	}
	c := func(i int) expr.Expr {
		f := reserveSchema.Field(i)
		return &expr.Col{Idx: i, Name: f.Name, T: f.Type}
	}
	aggs := []AggCall{{Fn: "count"}, {Fn: "sum", Arg: c(2)}, {Fn: "avg", Arg: c(2)}, {Fn: "min", Arg: c(1)}, {Fn: "max", Arg: c(0)}, {Fn: "count", Arg: c(0)}}
	for _, tc := range []struct {
		name string
		keys []expr.Expr
	}{
		{"int", []expr.Expr{c(0)}},
		{"text", []expr.Expr{c(1)}},
		{"text, int", []expr.Expr{c(1), c(0)}},
		{"int, int", []expr.Expr{c(0), call("%", c(0), lit(int64(7), expr.Int8))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op, err := NewHashAggregate(src(), tc.keys, aggs)
			if err != nil {
				t.Fatal(err)
			}
			want, err := drain(ctx0, t, op)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(want)
			if len(want) < 2000 {
				t.Fatalf("%d groups: too few to outgrow a small estimate", len(want))
			}
			for _, expect := range []int64{1024, int64(len(want)), 1 << 40} {
				for _, limit := range []int64{0, 192 << 10} {
					ctx, check := ctx0, func() {}
					if limit > 0 {
						e := newSpillEnv(t, limit, -1)
						ctx, check = expr.WithAllocator(e.ctx, mem), func() {
							if e.st.Written() == 0 {
								t.Errorf("expect %d, limit %d: nothing spilled", expect, limit)
							}
							e.checkClean(t)
						}
					}
					op, err := NewHashAggregate(src(), tc.keys, aggs)
					if err != nil {
						t.Fatal(err)
					}
					op.(GroupSizer).ExpectGroups(expect)
					got, err := drain(ctx, t, op)
					if err != nil {
						t.Fatalf("expect %d, limit %d: %v", expect, limit, err)
					}
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("expect %d, limit %d: %d rows differ from the %d without an estimate", expect, limit, len(got), len(want))
					}
					check()
				}
			}
		})
	}
}
