package catalog

import (
	"math/big"
	"path/filepath"
	"slices"
	"testing"
)

// TestDeleteRules checks which delete files apply to which data file, on
// hand-built manifests (the fixtures cover each rule only partly).
func TestDeleteRules(t *testing.T) {
	dir := t.TempDir()
	spec0 := &PartitionSpec{ID: 0}
	spec1 := &PartitionSpec{ID: 1, Fields: []PartitionField{{SourceID: 1, FieldID: 1000, Name: "p", Transform: Transform{Name: "identity"}}}}
	tbl := &Table{
		Metadata: &TableMetadata{PartitionSpecs: []*PartitionSpec{spec0, spec1}},
		IO:       NewLocalIO(dir, dir, nil),
	}
	ref := func(s string) *string { return &s }
	dec := func(n int64) Decimal { return Decimal{Unscaled: big.NewInt(n), Scale: 2} }
	data := func(path string, spec int, seq int64, part ...any) *DataFile {
		return &DataFile{Content: ContentData, Path: path, SpecID: spec, DataSequenceNumber: seq, Partition: part}
	}
	a := data("s3://b/t/data/a.parquet", 1, 5, dec(100))
	b := data("s3://b/t/data/b.parquet", 1, 5, dec(200))
	u := data("s3://b/t/data/u.parquet", 0, 5)

	posRefA := &DataFile{Content: ContentPositionDelete, Path: "pd-ref-a", SpecID: 1, DataSequenceNumber: 5, Partition: []any{dec(100)},
		ReferencedDataFile: ref("hdfs://nn:8020/t/data/a.parquet")}
	posBoundsB := &DataFile{Content: ContentPositionDelete, Path: "pd-bounds-b", SpecID: 1, DataSequenceNumber: 6, Partition: []any{dec(200)},
		LowerBounds: map[int][]byte{filePathFieldID: []byte("/t/data/b.parquet")}, UpperBounds: map[int][]byte{filePathFieldID: []byte("/t/data/b.parquet")}}
	posPartA := &DataFile{Content: ContentPositionDelete, Path: "pd-part-a", SpecID: 1, DataSequenceNumber: 7, Partition: []any{dec(100)},
		LowerBounds: map[int][]byte{filePathFieldID: []byte("a")}, UpperBounds: map[int][]byte{filePathFieldID: []byte("z")}}
	posOld := &DataFile{Content: ContentPositionDelete, Path: "pd-old", SpecID: 1, DataSequenceNumber: 4, Partition: []any{dec(100)}}
	dvA := &DataFile{Content: ContentPositionDelete, Format: FormatPuffin, Path: "dv-a", SpecID: 1, DataSequenceNumber: 8, Partition: []any{dec(100)},
		ReferencedDataFile: ref("s3a://other/t/data/a.parquet")}
	eqSame := &DataFile{Content: ContentEqualityDelete, Path: "eq-same-seq", SpecID: 1, DataSequenceNumber: 5, Partition: []any{dec(100)}}
	eqA := &DataFile{Content: ContentEqualityDelete, Path: "eq-a", SpecID: 1, DataSequenceNumber: 6, Partition: []any{dec(100)}}
	eqGlobal := &DataFile{Content: ContentEqualityDelete, Path: "eq-global", SpecID: 0, DataSequenceNumber: 6}
	posGlobal := &DataFile{Content: ContentPositionDelete, Path: "pd-global", SpecID: 0, DataSequenceNumber: 5}

	p := newPlanner(tbl)
	p.addDeletes(&Manifest{SpecID: 1, Content: ManifestDeletes, Entries: []ManifestEntry{
		{Status: StatusAdded, File: posRefA}, {Status: StatusAdded, File: posBoundsB}, {Status: StatusExisting, File: posPartA},
		{Status: StatusAdded, File: posOld}, {Status: StatusAdded, File: dvA}, {Status: StatusAdded, File: eqSame},
		{Status: StatusAdded, File: eqA},
		{Status: StatusDeleted, File: &DataFile{Content: ContentEqualityDelete, Path: "eq-removed", SpecID: 1, DataSequenceNumber: 9, Partition: []any{dec(100)}}},
	}})
	p.addDeletes(&Manifest{SpecID: 0, Content: ManifestDeletes, Entries: []ManifestEntry{
		{Status: StatusAdded, File: eqGlobal}, {Status: StatusAdded, File: posGlobal},
	}})
	for _, tc := range []struct {
		file *DataFile
		want []string
	}{
		{a, []string{"dv-a", "eq-a", "eq-global", "pd-global", "pd-part-a", "pd-ref-a"}},
		{b, []string{"eq-global", "pd-bounds-b", "pd-global"}},
		{u, []string{"eq-global", "pd-global"}},
	} {
		var got []string
		for _, d := range p.deletesFor(tc.file) {
			got = append(got, d.Path)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: deletes %v, want %v", filepath.Base(tc.file.Path), got, tc.want)
		}
	}
}

func TestPartitionsEqual(t *testing.T) {
	// Equal tuples share a partitionKey bucket.
	for _, tc := range []struct {
		a, b []any
		want bool
	}{
		{nil, nil, true},
		{[]any{nil}, []any{nil}, true},
		{[]any{int32(1)}, []any{int64(1)}, true}, // int -> long promotion
		{[]any{int32(1)}, []any{int64(2)}, false},
		{[]any{float32(1.5)}, []any{1.5}, true}, // float -> double promotion
		{[]any{float32(1.1)}, []any{1.1}, true},
		{[]any{float32(1.1)}, []any{1.2}, false},
		{[]any{int32(1)}, []any{"1"}, false},
		{[]any{Decimal{Unscaled: big.NewInt(10), Scale: 1}}, []any{Decimal{Unscaled: big.NewInt(10), Scale: 1}}, true},
		{[]any{Decimal{Unscaled: big.NewInt(10), Scale: 1}}, []any{Decimal{Unscaled: big.NewInt(10), Scale: 2}}, false},
		{[]any{[]byte("x"), "s"}, []any{[]byte("x"), "s"}, true},
		{[]any{[16]byte{1}}, []any{[16]byte{2}}, false},
		{[]any{int32(1)}, []any{int32(1), nil}, false},
	} {
		if got := partitionsEqual(tc.a, tc.b); got != tc.want {
			t.Errorf("partitionsEqual(%v, %v) = %v", tc.a, tc.b, got)
		}
		if tc.want && partitionKey(1, tc.a) != partitionKey(1, tc.b) {
			t.Errorf("equal tuples %v, %v: keys %q, %q", tc.a, tc.b, partitionKey(1, tc.a), partitionKey(1, tc.b))
		}
	}
}
