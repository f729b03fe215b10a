package write

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"

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
	// The zstd levels side by side: the write's speed and the bytes a row
	// the files take (the default level is the one without the property).
	for _, level := range []string{"default", "1", "3"} {
		b.Run("zstd-level="+level, func(b *testing.B) {
			props := map[string]string{}
			if level != "default" {
				props[propCodecLevel] = level
			}
			var written int64
			for b.Loop() {
				dir, err := os.MkdirTemp(b.TempDir(), "w")
				if err != nil {
					b.Fatal(err)
				}
				files := writeBatches(b, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, FormatVersion: 2, Properties: props}, recs)
				for _, f := range files {
					written += f.FileSizeInBytes
				}
				b.StopTimer()
				os.RemoveAll(dir)
				b.StartTimer()
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(written)/float64(rows)/float64(b.N), "file-bytes/row")
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

// BenchmarkReadZstdLevels writes the lineitem fixture once at each zstd
// level, then per iteration reads every page of every column of the file
// (decompressed and decoded by parquet-go): what a level costs a full scan.
func BenchmarkReadZstdLevels(b *testing.B) {
	tbl, tasks := loadFixture(b, "duckdb__lineitem_iceberg_gz")
	schema := tbl.Metadata.CurrentSchema()
	recs := scanRecords(b, tbl, schema, tasks)
	defer releaseAll(recs)
	for _, level := range []string{"1", "3"} {
		b.Run("zstd-level="+level, func(b *testing.B) {
			files := writeBatches(b, WriterSpec{IO: LocalFiles{}, DataDir: b.TempDir(), Schema: schema, FormatVersion: 2,
				Properties: map[string]string{propCodecLevel: level}}, recs)
			var rows int64
			for b.Loop() {
				rows = 0
				for _, df := range files {
					rows += readAllPages(b, df.Path, df.FileSizeInBytes)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// readAllPages reads every page of every column chunk of the Parquet file
// at path and returns its rows.
func readAllPages(b *testing.B, path string, size int64) int64 {
	f, err := os.Open(strings.TrimPrefix(path, "file://"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	pf, err := parquet.OpenFile(f, size)
	if err != nil {
		b.Fatal(err)
	}
	for _, rg := range pf.RowGroups() {
		for _, cc := range rg.ColumnChunks() {
			pages := cc.Pages()
			for {
				p, err := pages.ReadPage()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				parquet.Release(p)
			}
			pages.Close()
		}
	}
	return pf.NumRows()
}
