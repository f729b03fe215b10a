package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/compact"
	"github.com/icegate/icegate/engine/write"
)

// BenchmarkRewriteDataFiles times rewrite_data_files (engine/compact,
// binpack, the defaults) of an unpartitioned format 2 table of
// ICEGATE_BENCH_REWRITE_FILES small files (default 10,000) of 100 rows
// each: id bigint, k int, v double precision, product text (one of 50
// values), ts timestamptz, as an orders table's.
// Each iteration writes the files and appends them in one commit
// (untimed), then times the rewrite: plan, read every file, write the
// rows into new files, commit. It reports rows/s (wall clock) and
// rows/cpu-s (rows over the process's user+system CPU time during the
// rewrite: the per-core rate, whatever the number of cores). Run it with
// -benchtime 1x -count 5 and take the medians.
func BenchmarkRewriteDataFiles(b *testing.B) {
	files := 10_000
	if v, err := strconv.Atoi(os.Getenv("ICEGATE_BENCH_REWRITE_FILES")); err == nil && v > 0 {
		files = v
	}
	const perFile = 100
	ctx := context.Background()
	for range b.N {
		b.StopTimer()
		cat, id := rewriteBenchTable(b, files, perFile)
		tbl, err := cat.LoadTable(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		o, err := compact.ParseOptions(tbl.Metadata.Properties, nil)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		cpu0 := cpuTime()
		start := time.Now()
		b.StartTimer()
		res, err := compact.RewriteDataFiles(ctx, compact.Spec{Catalog: cat, Table: tbl, Options: o})
		b.StopTimer()
		wall := time.Since(start)
		cpu := cpuTime() - cpu0
		if err != nil {
			b.Fatal(err)
		}
		rows := int64(files * perFile)
		if res.RewrittenDataFiles != files || res.RewrittenRows != rows {
			b.Fatalf("rewrote %d files, %d rows; want %d, %d", res.RewrittenDataFiles, res.RewrittenRows, files, rows)
		}
		b.ReportMetric(float64(rows)/wall.Seconds(), "rows/s")
		b.ReportMetric(float64(rows)/cpu.Seconds(), "rows/cpu-s")
		b.ReportMetric(float64(res.AddedDataFiles), "files-out")
		b.Logf("%d files of %d rows -> %d files in %v (%v CPU, GOMAXPROCS %d)", files, perFile, res.AddedDataFiles, wall, cpu, runtime.GOMAXPROCS(0))
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rewriteBenchTable creates bench.t in a fresh warehouse under the test's
// temp dir and appends files data files of perFile rows each, in one
// commit.
func rewriteBenchTable(b *testing.B, files, perFile int) (*catalog.Filesystem, catalog.Identifier) {
	b.Helper()
	ctx := context.Background()
	cat, err := catalog.NewFilesystem("bench", filepath.Join(b.TempDir(), "warehouse"), nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, []string{"bench"}, nil); err != nil {
		b.Fatal(err)
	}
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		{ID: 2, Name: "k", Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: 3, Name: "v", Type: &catalog.PrimitiveType{ID: catalog.TDouble}},
		{ID: 4, Name: "product", Type: &catalog.PrimitiveType{ID: catalog.TString}},
		{ID: 5, Name: "ts", Type: &catalog.PrimitiveType{ID: catalog.TTimestamptz}},
	}}
	id := catalog.Identifier{Namespace: []string{"bench"}, Name: "t"}
	tbl, err := cat.CreateTable(ctx, id, catalog.TableSpec{Schema: schema, FormatVersion: 2, Properties: map[string]string{}})
	if err != nil {
		b.Fatal(err)
	}
	m := tbl.Metadata
	out, err := cat.NewOutput(tbl)
	if err != nil {
		b.Fatal(err)
	}
	fields := make([]arrow.Field, len(m.CurrentSchema().Fields))
	for i, f := range m.CurrentSchema().Fields {
		fields[i] = engine.ArrowField(f)
	}
	arrowSchema := arrow.NewSchema(fields, nil)
	var all []*catalog.DataFile
	for f := range files {
		w, err := write.NewWriter(ctx, write.WriterSpec{IO: write.TableOutput(ctx, out), DataDir: write.DataDir(m),
			Schema: m.CurrentSchema(), Properties: m.Properties, FormatVersion: m.FormatVersion})
		if err != nil {
			b.Fatal(err)
		}
		batch := rewriteBenchBatch(arrowSchema, int64(f*perFile), perFile)
		err = w.Write(batch)
		batch.Release()
		if err != nil {
			b.Fatal(err)
		}
		dfs, err := w.Close()
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, dfs...)
	}
	if _, err := catalog.Append(ctx, cat, id, all, nil); err != nil {
		b.Fatal(err)
	}
	return cat, id
}

// rewriteBenchProducts are the values of the product column.
var rewriteBenchProducts = func() []string {
	out := make([]string, 50)
	for i := range out {
		out[i] = fmt.Sprintf("Product %02d", i)
	}
	return out
}()

func rewriteBenchBatch(schema *arrow.Schema, first int64, n int) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	ids := array.NewInt64Builder(mem)
	ks := array.NewInt32Builder(mem)
	vs := array.NewFloat64Builder(mem)
	names := array.NewStringBuilder(mem)
	tss := array.NewTimestampBuilder(mem, schema.Field(4).Type.(*arrow.TimestampType))
	builders := []array.Builder{ids, ks, vs, names, tss}
	defer func() {
		for _, bl := range builders {
			bl.Release()
		}
	}()
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	for i := range int64(n) {
		r := first + i
		ids.Append(r)
		ks.Append(int32(r % 1000))
		vs.Append(float64(r) * 1.25)
		names.Append(rewriteBenchProducts[r%int64(len(rewriteBenchProducts))])
		tss.Append(arrow.Timestamp(base + r*1_000_000))
	}
	cols := make([]arrow.Array, len(builders))
	for i, bl := range builders {
		cols[i] = bl.NewArray()
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(schema, cols, int64(n))
}
