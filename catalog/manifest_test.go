package catalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

// largestManifest is the biggest manifest among the fixtures.
const largestManifest = "lithium__identity_partitioning/metadata/bfd02a62-ed9d-4ab0-83a0-992b76310fe4-m0.avro"

func TestDecodeManifestInheritance(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures.Dir(t), filepath.FromSlash(largestManifest)))
	if err != nil {
		t.Fatal(err)
	}
	mf := &ManifestFile{Path: "m.avro", SequenceNumber: 42, AddedSnapshotID: 7, FirstRowID: ptr[int64](100)}
	m, err := decodeManifest(data, mf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries) == 0 || m.Spec == nil || len(m.Spec.Fields) != 13 {
		t.Fatalf("%d entries, spec %+v", len(m.Entries), m.Spec)
	}
	next := int64(100)
	for _, e := range m.Entries {
		f := e.File
		if e.Status == StatusAdded && (f.DataSequenceNumber != 42 || f.FileSequenceNumber != 42) {
			t.Errorf("added entry sequence numbers %d/%d, want inherited 42", f.DataSequenceNumber, f.FileSequenceNumber)
		}
		if f.FirstRowID == nil || *f.FirstRowID != next {
			t.Errorf("first row id %v, want %d", f.FirstRowID, next)
		}
		next += f.RecordCount
		if len(f.Partition) != 13 || f.Format != FormatParquet || f.RecordCount <= 0 || len(f.LowerBounds) == 0 || len(f.ColumnSizes) == 0 {
			t.Errorf("entry %+v", f)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// BenchmarkDecodeManifest measures decoding fixture manifests: the largest
// file (13 partition columns of every primitive type, full metrics) and the
// one with the most entries.
func BenchmarkDecodeManifest(b *testing.B) {
	for _, name := range []string{
		largestManifest,
		"impala__iceberg_partitioned/metadata/af797bab-2f2c-44df-a77b-d91c7198fe53-m0.avro",
	} {
		b.Run(filepath.Base(filepath.Dir(filepath.Dir(name))), func(b *testing.B) {
			data, err := os.ReadFile(filepath.Join(fixtures.Dir(b), filepath.FromSlash(name)))
			if err != nil {
				b.Fatal(err)
			}
			mf := &ManifestFile{Path: "m.avro", SequenceNumber: 1}
			cache := newFileCache(16) // holds the parsed writer schema, as in a catalog
			m, err := decodeManifest(data, mf, cache)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := decodeManifest(data, mf, cache); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(m.Entries)), "entries/op")
		})
	}
}
