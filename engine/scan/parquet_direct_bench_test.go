package scan

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// nullableRow has the column shapes of a nullable fact table: optional
// numbers and strings, one in ten NULL, numbers and strings
// dictionary-encoded and PLAIN.
type nullableRow struct {
	Key     *int64  `parquet:"key,id(1),optional"`
	Qty     *int64  `parquet:"qty,id(2),optional,dict"`
	Price   *int64  `parquet:"price,id(3),optional,decimal(2:15)"`
	Mode    *string `parquet:"mode,id(4),optional,dict"`
	Comment *string `parquet:"comment,id(5),optional"`
}

var nullableSchema = &catalog.Schema{Fields: []catalog.NestedField{
	{ID: 1, Name: "key", Type: &catalog.PrimitiveType{ID: catalog.TLong}},
	{ID: 2, Name: "qty", Type: &catalog.PrimitiveType{ID: catalog.TLong}},
	{ID: 3, Name: "price", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 15, Scale: 2}},
	{ID: 4, Name: "mode", Type: &catalog.PrimitiveType{ID: catalog.TString}},
	{ID: 5, Name: "comment", Type: &catalog.PrimitiveType{ID: catalog.TString}},
}}

// BenchmarkScanNullable scans 1M rows of nullableRow (written once per
// run with parquet-go, snappy) through the direct readers, each column on
// its own and all together.
func BenchmarkScanNullable(b *testing.B) {
	const rows = 1 << 20
	path := filepath.Join(b.TempDir(), "nullable.parquet")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := parquet.NewGenericWriter[nullableRow](f, parquet.Compression(&parquet.Snappy))
	modes := []string{"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"}
	batch := make([]nullableRow, 0, 4096)
	for i := range rows {
		var r nullableRow
		if i%10 != 3 {
			k, q, p := int64(i), int64(i%50+1), int64(i*7919%10_000_000)
			m, c := modes[i*31%len(modes)], fmt.Sprintf("comment %d of the nullable table", i*13)
			r = nullableRow{Key: &k, Qty: &q, Price: &p, Mode: &m, Comment: &c}
		}
		if batch = append(batch, r); len(batch) == cap(batch) {
			if _, err := w.Write(batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	tbl := &catalog.Table{IO: localIO{}, Metadata: &catalog.TableMetadata{Schemas: []*catalog.Schema{nullableSchema}}}
	task := catalog.FileScanTask{File: &catalog.DataFile{Path: path, Format: catalog.FormatParquet, RecordCount: rows}}
	cases := []struct {
		name string
		ids  []int
	}{
		{"key", []int{1}}, {"qty", []int{2}}, {"price", []int{3}}, {"mode", []int{4}}, {"comment", []int{5}},
		{"all", []int{1, 2, 3, 4, 5}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			spec := engine.ScanSpec{Table: tbl, Schema: nullableSchema, FieldIDs: c.ids, Tasks: []catalog.FileScanTask{task}}
			b.ReportAllocs()
			for b.Loop() {
				op := New(spec, Options{Parallelism: 1, RecycleBuffers: true})
				if err := op.Open(context.Background()); err != nil {
					b.Fatal(err)
				}
				n := int64(0)
				for {
					rec, err := op.Next()
					if err != nil {
						b.Fatal(err)
					}
					if rec == nil {
						break
					}
					n += rec.NumRows()
					rec.Release()
				}
				op.Close()
				if n != rows {
					b.Fatalf("%d rows, want %d", n, rows)
				}
			}
		})
	}
}
