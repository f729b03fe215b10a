package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestStatisticsUpdates: set-statistics adds an entry per snapshot and
// replaces the snapshot's earlier one; the entry survives the metadata
// JSON round trip with its blob metadata; remove-statistics drops it; a
// snapshot that does not exist is refused.
func TestStatisticsUpdates(t *testing.T) {
	one := int64(1)
	b := NewMetadataBuilderFrom(baseMetadata(t, 2), "")
	if err := b.Apply(AddSnapshot{testSnapshot(1, 1, nil)}, AddSnapshot{testSnapshot(2, 2, &one)}); err != nil {
		t.Fatal(err)
	}
	blob := BlobMetadata{Type: "apache-datasketches-theta-v1", SnapshotID: 2, SequenceNumber: 2, Fields: []int{1},
		Properties: map[string]string{"ndv": "42"}}
	first, err := NewStatisticsFile(2, "/wh/db/t/metadata/a.stats", 100, 60, []BlobMetadata{blob})
	if err != nil {
		t.Fatal(err)
	}
	blob.Properties = map[string]string{"ndv": "43"}
	second, _ := NewStatisticsFile(2, "/wh/db/t/metadata/b.stats", 200, 70, []BlobMetadata{blob})
	other, _ := NewStatisticsFile(1, "/wh/db/t/metadata/c.stats", 10, 5, nil)

	err = b.Apply(SetStatistics{first}, SetStatistics{other}, SetStatistics{second})
	if err != nil {
		t.Fatal(err)
	}
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	data, err := MarshalMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	var flat bytes.Buffer
	if err := json.Compact(&flat, data); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(flat.String(), `"blob-metadata":[{"type":"apache-datasketches-theta-v1","snapshot-id":2,"sequence-number":2,"fields":[1],"properties":{"ndv":"43"}}]`) {
		t.Errorf("metadata JSON lacks the blob metadata:\n%s", data)
	}
	m, err = ParseMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Statistics) != 2 {
		t.Fatalf("%d statistics entries, want 2 (one per snapshot)", len(m.Statistics))
	}
	s := m.StatisticsFor(2)
	if s == nil || s.StatisticsPath != second.StatisticsPath || s.FileSizeBytes != 200 || s.FileFooterSizeBytes != 70 {
		t.Fatalf("snapshot 2's statistics = %+v, want the second file", s)
	}
	blobs, err := s.Blobs()
	if err != nil || len(blobs) != 1 || blobs[0].Properties["ndv"] != "43" || blobs[0].Fields[0] != 1 {
		t.Fatalf("blobs %+v, %v", blobs, err)
	}

	if ndv := m.ColumnNDVs(2); len(ndv) != 1 || ndv[1] != 43 {
		t.Errorf("ColumnNDVs(2) = %v, want field 1: 43", ndv)
	}
	if ndv := m.ColumnNDVs(1); ndv != nil {
		t.Errorf("ColumnNDVs(1) = %v, want none (no theta blobs)", ndv)
	}

	b = NewMetadataBuilderFrom(m, "")
	if err := b.Apply(RemoveStatistics{SnapshotID: 2}, RemoveStatistics{SnapshotID: 99}); err != nil {
		t.Fatal(err)
	}
	m, _ = b.Build()
	if len(m.Statistics) != 1 || m.StatisticsFor(1) == nil {
		t.Fatalf("after remove: %+v", m.Statistics)
	}

	for _, bad := range []Update{SetStatistics{StatisticsFile{SnapshotID: 9, StatisticsPath: "/x"}}, SetStatistics{StatisticsFile{SnapshotID: 1}}} {
		err := NewMetadataBuilderFrom(m, "").Apply(bad)
		if !errors.Is(err, ErrDataInvalid) || !strings.Contains(err.Error(), "set-statistics") {
			t.Errorf("%+v: error %v, want ErrDataInvalid naming set-statistics", bad, err)
		}
	}
}
