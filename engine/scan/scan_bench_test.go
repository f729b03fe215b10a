package scan

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/fixtures"
)

const benchTable = "duckdb__lineitem_iceberg_gz"

// BenchmarkScanLineitem scans every column of the largest Parquet fixture
// through the scan operator.
func BenchmarkScanLineitem(b *testing.B) {
	tbl, tasks := loadTable(b, benchTable)
	schema := tbl.Metadata.CurrentSchema()
	spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)}
	b.ReportAllocs()
	var rows int64
	for b.Loop() {
		op := New(spec, Options{Alloc: memory.DefaultAllocator})
		if err := op.Open(context.Background()); err != nil {
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
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkPqarrowLineitem reads the same file with arrow-go's pqarrow
// reader, for comparison only (pqarrow stays out of non-test code).
func BenchmarkPqarrowLineitem(b *testing.B) {
	matches, err := filepath.Glob(filepath.Join(fixtures.Dir(b), benchTable, "data", "*.parquet"))
	if err != nil || len(matches) == 0 {
		b.Fatalf("no parquet file for %s: %v", benchTable, err)
	}
	b.ReportAllocs()
	var rows int64
	for b.Loop() {
		for _, path := range matches {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			pr, err := file.NewParquetReader(f)
			if err != nil {
				b.Fatal(err)
			}
			fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: DefaultBatchSize, Parallel: true}, memory.DefaultAllocator)
			if err != nil {
				b.Fatal(err)
			}
			rr, err := fr.GetRecordReader(context.Background(), nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			for rr.Next() {
				rows += rr.RecordBatch().NumRows()
			}
			if err := rr.Err(); err != nil {
				b.Fatal(err)
			}
			rr.Release()
			pr.Close()
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
