package write

import (
	"context"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
)

// BenchmarkWriteLineitem writes the 111968 rows of the lineitem fixture
// (read once through engine/scan) as one unpartitioned zstd file per
// iteration, and partitioned by bucket[16] of its first column; it reports
// rows/s and the MB/s of Parquet written.
func BenchmarkWriteLineitem(b *testing.B) {
	tbl, tasks := loadFixture(b, "duckdb__lineitem_iceberg_gz")
	schema := tbl.Metadata.CurrentSchema()
	recs := scanRecords(b, tbl, schema, tasks)
	defer releaseAll(recs)
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	if rows != 111968 {
		b.Fatalf("lineitem rows = %d, want 111968", rows)
	}
	specs := map[string]*catalog.PartitionSpec{
		"unpartitioned": nil,
		"bucket16": {ID: 1, Fields: []catalog.PartitionField{{SourceID: schema.Fields[0].ID, FieldID: 1000, Name: "k_bucket",
			Transform: catalog.Transform{Name: "bucket", Param: 16}}}},
	}
	for _, name := range []string{"unpartitioned", "bucket16"} {
		b.Run(name, func(b *testing.B) {
			var written int64
			for b.Loop() {
				dir, err := os.MkdirTemp(b.TempDir(), "w")
				if err != nil {
					b.Fatal(err)
				}
				files := writeBatches(b, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, Spec: specs[name], FormatVersion: 2}, recs)
				for _, f := range files {
					written += f.FileSizeInBytes
				}
				b.StopTimer()
				os.RemoveAll(dir)
				b.StartTimer()
			}
			secs := b.Elapsed().Seconds()
			b.ReportMetric(float64(rows)*float64(b.N)/secs, "rows/s")
			b.ReportMetric(float64(written)/secs/1e6, "MB/s")
		})
	}
}

func writeBatches(b *testing.B, spec WriterSpec, recs []arrow.RecordBatch) []*catalog.DataFile {
	w, err := NewWriter(context.Background(), spec)
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			b.Fatal(err)
		}
	}
	files, err := w.Close()
	if err != nil {
		b.Fatal(err)
	}
	return files
}
