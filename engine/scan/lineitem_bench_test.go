package scan

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// BenchmarkScanTPCHLineitem reads the columns TPC-H q06 and q01 use from
// the lineitem table of a TPC-H warehouse (ICEGATE_SCAN_BENCH_WAREHOUSE,
// the directory holding public/lineitem), and those of q19 and
// l_comment (strings), one shard at a time as the
// parallel aggregation reads them (ICEGATE_SCAN_BENCH_RECYCLE set: with
// Options.RecycleBuffers; ICEGATE_SCAN_BENCH_BATCH: rows per batch).
func BenchmarkScanTPCHLineitem(b *testing.B) {
	ctx := context.Background()
	tbl, tasks := benchTPCHTable(b, "lineitem")
	schema := tbl.Metadata.CurrentSchema()
	ids := func(names ...string) []int {
		var out []int
		for _, n := range names {
			for _, f := range schema.Fields {
				if f.Name == n {
					out = append(out, f.ID)
				}
			}
		}
		return out
	}
	cases := []struct {
		name string
		cols []int
	}{
		{"q06", ids("l_quantity", "l_extendedprice", "l_discount", "l_shipdate")},
		{"q01", ids("l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice", "l_discount", "l_tax", "l_shipdate")},
		// q19's lineitem columns: two dictionary-encoded strings
		{"q19", ids("l_partkey", "l_quantity", "l_extendedprice", "l_discount", "l_shipinstruct", "l_shipmode")},
		// the longest strings, PLAIN in files that choose encodings per column
		{"comment", ids("l_comment")},
	}
	recycle := os.Getenv("ICEGATE_SCAN_BENCH_RECYCLE") != ""
	// ICEGATE_SCAN_BENCH_BATCH sets the rows per batch (default: the scan's).
	batch, _ := strconv.Atoi(os.Getenv("ICEGATE_SCAN_BENCH_BATCH"))
	for _, c := range cases {
		for _, shards := range []int{1, 2} {
			for shard := range shards {
				name := c.name + "/all"
				if shards > 1 {
					name = c.name + "/shard" + string(rune('0'+shard))
				}
				b.Run(name, func(b *testing.B) {
					spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: c.cols}
					opts := Options{Parallelism: 1, Shard: shard, Shards: shards, RecycleBuffers: recycle, BatchSize: batch}
					b.ReportAllocs()
					var rows int64
					for b.Loop() {
						op := New(spec, opts)
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
}

// benchTPCHTable loads table public.<name> of the TPC-H warehouse in
// ICEGATE_SCAN_BENCH_WAREHOUSE and plans its files (the benchmark is
// skipped when the variable is not set).
func benchTPCHTable(b *testing.B, name string) (*catalog.Table, []catalog.FileScanTask) {
	b.Helper()
	dir := os.Getenv("ICEGATE_SCAN_BENCH_WAREHOUSE")
	if dir == "" {
		b.Skip("ICEGATE_SCAN_BENCH_WAREHOUSE is not set (a TPC-H warehouse, e.g. one bench/ keeps)")
	}
	ctx := context.Background()
	cat, err := catalog.NewFilesystem("tpch", dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"public"}, Name: name})
	if err != nil {
		b.Fatal(err)
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		b.Fatal(err)
	}
	return tbl, tasks
}
