package scan

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
)

// BenchmarkScanFilterOnly scans TPC-H tables of a warehouse
// (ICEGATE_SCAN_BENCH_WAREHOUSE, the directory holding public/lineitem)
// with a WHERE the scan applies itself, its filtered columns built for
// the rows kept ("built") or flagged ScanSpec.FilterOnly ("filteronly"):
// q19's lineitem strings (judged by dictionary code) and q13's
// o_comment NOT LIKE (judged by value, 99% of the rows kept).
func BenchmarkScanFilterOnly(b *testing.B) {
	ctx := context.Background()
	type table struct {
		tbl   *catalog.Table
		tasks []catalog.FileScanTask
	}
	load := func(name string) table {
		tbl, tasks := benchTPCHTable(b, name)
		return table{tbl, tasks}
	}
	str := func(s string) expr.Expr { return &expr.Lit{V: s, T: arrow.BinaryTypes.String} }
	cases := []struct {
		name  string
		table string
		cols  []string
		// only: how many of the last columns only the conjuncts read
		only int
		conj func(col func(i int) expr.Expr) []expr.Expr
	}{
		{"q19", "lineitem", []string{"l_partkey", "l_quantity", "l_extendedprice", "l_discount", "l_shipinstruct", "l_shipmode"}, 2,
			func(col func(int) expr.Expr) []expr.Expr {
				return []expr.Expr{
					exactCall("or", exactCall("=", col(5), str("AIR")), exactCall("=", col(5), str("AIR REG"))),
					exactCall("=", col(4), str("DELIVER IN PERSON")),
				}
			}},
		{"q13", "orders", []string{"o_orderkey", "o_custkey", "o_comment"}, 1,
			func(col func(int) expr.Expr) []expr.Expr {
				return []expr.Expr{exactCall("not_like", col(2), str("%special%requests%"))}
			}},
	}
	for _, c := range cases {
		t := load(c.table)
		schema := t.tbl.Metadata.CurrentSchema()
		var ids []int
		for _, n := range c.cols {
			for _, f := range schema.Fields {
				if f.Name == n {
					ids = append(ids, f.ID)
				}
			}
		}
		spec := engine.ScanSpec{Table: t.tbl, Tasks: t.tasks, Schema: schema, FieldIDs: ids}
		out := New(spec, Options{}).Schema()
		spec.Exact = c.conj(func(i int) expr.Expr { return &expr.Col{Idx: i, Name: out.Field(i).Name, T: out.Field(i).Type} })
		only := make([]bool, len(ids))
		for i := len(ids) - c.only; i < len(ids); i++ {
			only[i] = true
		}
		for _, mode := range []string{"built", "filteronly"} {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				s := spec
				if mode == "filteronly" {
					s.FilterOnly = only
				}
				opts := Options{Parallelism: 1}
				var rows int64
				for b.Loop() {
					op := New(s, opts)
					if err := op.Open(ctx); err != nil {
						b.Fatal(err)
					}
					for {
						rec, err := op.Next()
						if err != nil {
							b.Fatal(err)
						}
						if rec == nil {
							break
						}
						rows += rec.NumRows()
					}
					op.Close()
				}
				b.ReportMetric(float64(rows)/float64(b.N), "rows/op")
			})
		}
	}
}
