package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// manyFilesTable commits one snapshot of 1,000 manifests (one month of
// ts each) of 10 data files (a range of ids each) and returns the
// warehouse directory and the table's identifier.
func manyFilesTable(b *testing.B) (string, Identifier) {
	b.Helper()
	ctx := context.Background()
	dir := filepath.Join(b.TempDir(), "warehouse")
	cat, err := NewFilesystem("wh", dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		b.Fatal(err)
	}
	id := Identifier{Namespace: []string{"db"}, Name: "many"}
	tbl, err := cat.CreateTable(ctx, id, TableSpec{FormatVersion: 2, Schema: &Schema{Fields: []NestedField{
		{ID: 1, Name: "id", Required: true, Type: &PrimitiveType{ID: TLong}},
		{ID: 2, Name: "ts", Required: true, Type: &PrimitiveType{ID: TTimestamp}},
	}}, Spec: &PartitionSpec{Fields: []PartitionField{{SourceID: 2, Name: "ts_month", Transform: Transform{Name: "month"}}}}})
	if err != nil {
		b.Fatal(err)
	}
	meta := tbl.Metadata
	spec := meta.SpecByID(meta.DefaultSpecID)
	schema := meta.CurrentSchema()
	const snapID = int64(1)
	metaDir := MetadataLocation(meta)
	local := func(p string) string { return stripScheme(p) }
	var manifests []ManifestFile
	for m := range 1000 {
		var entries []ManifestEntry
		for f := range 10 {
			lo, hi := int64(m*10_000+f*1000), int64(m*10_000+f*1000+999)
			loB, _ := EncodeValue(&PrimitiveType{ID: TLong}, lo)
			hiB, _ := EncodeValue(&PrimitiveType{ID: TLong}, hi)
			entries = append(entries, ManifestEntry{Status: StatusAdded, File: &DataFile{
				Content: ContentData, Path: fmt.Sprintf("%s/data/m%d-f%d.parquet", meta.Location, m, f), Format: FormatParquet,
				Partition: []any{int32(m)}, RecordCount: 1000, FileSizeInBytes: 1 << 20,
				ValueCounts: map[int]int64{1: 1000}, NullValueCounts: map[int]int64{1: 0},
				LowerBounds: map[int][]byte{1: loB}, UpperBounds: map[int][]byte{1: hiB},
			}})
		}
		path := fmt.Sprintf("%s/m%d.avro", metaDir, m)
		data, mf, err := EncodeManifest(path, 2, schema, spec, ManifestData, snapID, entries)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(local(path), data, 0o644); err != nil {
			b.Fatal(err)
		}
		mf.Length = int64(len(data))
		manifests = append(manifests, mf)
	}
	list, err := EncodeManifestList(2, snapID, nil, 1, nil, manifests)
	if err != nil {
		b.Fatal(err)
	}
	listPath := metaDir + "/snap-1.avro"
	if err := os.WriteFile(local(listPath), list, 0o644); err != nil {
		b.Fatal(err)
	}
	snap := &Snapshot{SnapshotID: snapID, SequenceNumber: 1, TimestampMs: time.Now().UnixMilli(), ManifestList: listPath,
		Summary: map[string]string{"operation": "append"}, SchemaID: &schema.ID}
	if _, err := cat.CommitTable(ctx, id, nil, []Update{AddSnapshot{Snapshot: snap},
		SetSnapshotRef{Name: "main", Ref: SnapshotRef{Type: "branch", SnapshotID: snapID}}}); err != nil {
		b.Fatal(err)
	}
	return dir, id
}

// BenchmarkPlanPointQuery plans a point query (one month, one id) over
// 10,000 files in 1,000 manifests: cold (a fresh catalog, nothing cached)
// and warm (manifests cached).
func BenchmarkPlanPointQuery(b *testing.B) {
	dir, id := manyFilesTable(b)
	ctx := context.Background()
	month := time.Date(1970+41, time.June, 1, 0, 0, 0, 0, time.UTC) // month 497
	preds := []Predicate{
		{FieldID: 2, Op: OpGtEq, Values: []any{month.UnixMicro()}},
		{FieldID: 2, Op: OpLt, Values: []any{month.AddDate(0, 1, 0).UnixMicro()}},
		{FieldID: 1, Op: OpEq, Values: []any{int64(497*10_000 + 3500)}},
	}
	plan := func(b *testing.B, cat *Filesystem) {
		tbl, err := cat.LoadTable(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		tasks, stats, err := PlanFilesFiltered(ctx, tbl, tbl.Metadata.CurrentSnapshot(), preds)
		if err != nil {
			b.Fatal(err)
		}
		if len(tasks) != 1 || stats.ManifestsSkipped != 999 || stats.Files != 10 {
			b.Fatalf("kept %d files, %+v", len(tasks), stats)
		}
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			cat, err := NewFilesystem("wh", dir, nil)
			if err != nil {
				b.Fatal(err)
			}
			plan(b, cat)
		}
	})
	b.Run("warm", func(b *testing.B) {
		cat, err := NewFilesystem("wh", dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		plan(b, cat)
		for b.Loop() {
			plan(b, cat)
		}
	})
}
