package catalog

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// partitionedSchema has a column of every primitive type a partition
// transform accepts.
func partitionedSchema() *Schema {
	p := func(id TypeID) Type { return &PrimitiveType{ID: id} }
	return &Schema{ID: 0, Fields: []NestedField{
		{ID: 1, Name: "b", Type: p(TBoolean)},
		{ID: 2, Name: "i", Type: p(TInt), Required: true},
		{ID: 3, Name: "l", Type: p(TLong)},
		{ID: 4, Name: "f", Type: p(TFloat)},
		{ID: 5, Name: "d", Type: p(TDouble)},
		{ID: 6, Name: "dec", Type: &PrimitiveType{ID: TDecimal, Precision: 9, Scale: 2}},
		{ID: 7, Name: "dt", Type: p(TDate)},
		{ID: 8, Name: "ts", Type: p(TTimestamptz)},
		{ID: 9, Name: "s", Type: p(TString)},
		{ID: 10, Name: "u", Type: p(TUUID)},
		{ID: 11, Name: "fx", Type: &PrimitiveType{ID: TFixed, Length: 3}},
		{ID: 12, Name: "bin", Type: p(TBinary)},
		{ID: 13, Name: "big", Type: &PrimitiveType{ID: TDecimal, Precision: 30, Scale: 4}},
	}}
}

func partitionedSpec() *PartitionSpec {
	id := Transform{Name: "identity"}
	return &PartitionSpec{ID: 3, Fields: []PartitionField{
		{SourceID: 1, FieldID: 1000, Name: "b", Transform: id},
		{SourceID: 2, FieldID: 1001, Name: "i", Transform: id},
		{SourceID: 3, FieldID: 1002, Name: "l", Transform: id},
		{SourceID: 4, FieldID: 1003, Name: "f", Transform: id},
		{SourceID: 5, FieldID: 1004, Name: "d", Transform: id},
		{SourceID: 6, FieldID: 1005, Name: "dec", Transform: id},
		{SourceID: 7, FieldID: 1006, Name: "dt", Transform: id},
		{SourceID: 8, FieldID: 1007, Name: "ts_day", Transform: Transform{Name: "day"}},
		{SourceID: 9, FieldID: 1008, Name: "s bucket", Transform: Transform{Name: "bucket", Param: 16}},
		{SourceID: 9, FieldID: 1009, Name: "s_trunc", Transform: Transform{Name: "truncate", Param: 2}},
		{SourceID: 10, FieldID: 1010, Name: "u", Transform: id},
		{SourceID: 11, FieldID: 1011, Name: "fx", Transform: id},
		{SourceID: 12, FieldID: 1012, Name: "bin", Transform: id},
		{SourceID: 13, FieldID: 1013, Name: "big", Transform: id},
		{SourceID: 8, FieldID: 1014, Name: "ts", Transform: id},
	}}
}

func TestManifestRoundTrip(t *testing.T) {
	u, _ := ParseUUID("f79c3e09-677c-4c0c-a5a5-4fd2b7f2c3f1")
	neg := Decimal{Unscaled: big.NewInt(-12345), Scale: 2}
	huge, _ := new(big.Int).SetString("-123456789012345678901234567", 10)
	sortID := 1
	rowID := int64(77)
	parts := [][]any{
		{true, int32(-4), int64(1 << 40), float32(1.5), 2.25, neg, int32(19000), int32(19001), int32(7), "ab", u, []byte{1, 2, 3}, []byte{9}, Decimal{Unscaled: huge, Scale: 4}, int64(1_700_000_000_000_000)},
		{nil, int32(8), nil, float32(-3), nil, Decimal{Unscaled: big.NewInt(5), Scale: 2}, nil, nil, nil, nil, nil, nil, nil, nil, nil},
	}
	for _, version := range []int{1, 2, 3} {
		t.Run("v"+string(rune('0'+version)), func(t *testing.T) {
			dir := t.TempDir()
			var entries []ManifestEntry
			for i, p := range parts {
				df := &DataFile{
					Content: ContentData, Path: filepath.Join(dir, "data", "f"+string(rune('a'+i))+".parquet"),
					Format: FormatParquet, SpecID: 3, Partition: p, RecordCount: int64(10 + i), FileSizeInBytes: 1000,
					ColumnSizes: map[int]int64{1: 10, 2: 20}, ValueCounts: map[int]int64{1: 10}, NullValueCounts: map[int]int64{1: 0},
					NaNValueCounts: map[int]int64{4: 1}, LowerBounds: map[int][]byte{2: {1, 0, 0, 0}}, UpperBounds: map[int][]byte{2: {9, 0, 0, 0}},
					SplitOffsets: []int64{4}, SortOrderID: &sortID,
				}
				status := StatusAdded
				if i == 1 {
					status = StatusExisting
					df.SnapshotID, df.DataSequenceNumber, df.FileSequenceNumber = 5, 2, 3
					if version >= 3 {
						df.FirstRowID = &rowID
					}
				}
				entries = append(entries, ManifestEntry{Status: status, File: df})
			}
			path := filepath.Join(dir, "m0.avro")
			data, mf, err := EncodeManifest(path, version, partitionedSchema(), partitionedSpec(), ManifestData, 42, entries)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if *mf.AddedFilesCount != 1 || *mf.ExistingFilesCount != 1 || *mf.AddedRowsCount != 10 || *mf.ExistingRowsCount != 11 {
				t.Fatalf("counts: %+v", mf)
			}
			first := int64(100)
			next := AssignFirstRowIDs([]ManifestFile{mf}, first)
			if next != 121 {
				t.Fatalf("next row id %d, want 121", next)
			}
			mfs := []ManifestFile{mf}
			AssignFirstRowIDs(mfs, first)
			listPath := filepath.Join(dir, "snap.avro")
			list, err := EncodeManifestList(version, 42, nil, 9, &first, mfs)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(listPath, list, 0o644); err != nil {
				t.Fatal(err)
			}
			fio := NewLocalIO(dir, dir, nil)
			got, err := ReadManifestList(context.Background(), fio, &Snapshot{SnapshotID: 42, ManifestList: listPath})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Path != path || got[0].Length != int64(len(data)) || got[0].SpecID != 3 || got[0].AddedSnapshotID != 42 {
				t.Fatalf("manifest list: %+v", got)
			}
			wantSeq := int64(9)
			if version == 1 {
				wantSeq = 0
			}
			if got[0].SequenceNumber != wantSeq {
				t.Fatalf("manifest sequence number %d, want %d", got[0].SequenceNumber, wantSeq)
			}
			if !reflect.DeepEqual(got[0].Partitions, mf.Partitions) {
				t.Fatalf("partition summaries:\n got %+v\nwant %+v", got[0].Partitions, mf.Partitions)
			}
			lo, err := DecodeValue(&PrimitiveType{ID: TInt}, got[0].Partitions[1].LowerBound)
			if err != nil || lo != int32(-4) || !got[0].Partitions[0].ContainsNull {
				t.Fatalf("summary of i: lower %v, %v; b contains_null %v", lo, err, got[0].Partitions[0].ContainsNull)
			}
			m, err := ReadManifest(context.Background(), fio, &got[0])
			if err != nil {
				t.Fatal(err)
			}
			if m.SpecID != 3 || len(m.Entries) != 2 || m.Spec == nil || len(m.Spec.Fields) != 15 {
				t.Fatalf("manifest: spec %d, %d entries, header spec %+v", m.SpecID, len(m.Entries), m.Spec)
			}
			for i, e := range m.Entries {
				want := *entries[i].File
				want.SnapshotID = 42
				if version >= 2 {
					want.DataSequenceNumber, want.FileSequenceNumber = 9, 9
				}
				if i == 1 {
					want.SnapshotID = 5
					want.DataSequenceNumber, want.FileSequenceNumber = 2, 3
					if version == 1 {
						// v1 manifests carry no sequence numbers.
						want.DataSequenceNumber, want.FileSequenceNumber = 0, 0
					}
				}
				if version >= 3 && i == 0 {
					id := int64(100)
					want.FirstRowID = &id
				}
				if e.Status != entries[i].Status || !reflect.DeepEqual(e.File, &want) {
					t.Errorf("entry %d:\n got %+v\nwant %+v", i, e.File, &want)
				}
			}
		})
	}
}
