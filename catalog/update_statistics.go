package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// BlobMetadata is one blob of a statistics file as the table metadata's
// "statistics" entries list it (the spec's blob-metadata struct).
type BlobMetadata struct {
	Type           string            `json:"type"`
	SnapshotID     int64             `json:"snapshot-id"`
	SequenceNumber int64             `json:"sequence-number"`
	Fields         []int             `json:"fields"`
	Properties     map[string]string `json:"properties,omitempty"`
}

// NewStatisticsFile is the metadata entry of a Puffin statistics file
// written for a snapshot.
func NewStatisticsFile(snapshotID int64, path string, size, footerSize int64, blobs []BlobMetadata) (StatisticsFile, error) {
	if blobs == nil {
		blobs = []BlobMetadata{}
	}
	raw, err := json.Marshal(blobs)
	if err != nil {
		return StatisticsFile{}, fmt.Errorf("statistics file %s: blob metadata: %w", path, err)
	}
	return StatisticsFile{SnapshotID: snapshotID, StatisticsPath: path, FileSizeBytes: size,
		FileFooterSizeBytes: footerSize, BlobMetadata: raw}, nil
}

// Blobs decodes the entry's blob metadata.
func (s StatisticsFile) Blobs() ([]BlobMetadata, error) {
	if len(s.BlobMetadata) == 0 {
		return nil, nil
	}
	var out []BlobMetadata
	if err := json.Unmarshal(s.BlobMetadata, &out); err != nil {
		return nil, fmt.Errorf("statistics file %s: blob metadata: %w", s.StatisticsPath, ErrDataInvalid)
	}
	return out, nil
}

// StatisticsFor is the statistics file of a snapshot (nil: none).
func (m *TableMetadata) StatisticsFor(snapshotID int64) *StatisticsFile {
	for i := range m.Statistics {
		if m.Statistics[i].SnapshotID == snapshotID {
			return &m.Statistics[i]
		}
	}
	return nil
}

// SetStatistics sets the statistics file of a snapshot, replacing the one
// it had (a table keeps at most one per snapshot).
type SetStatistics struct{ Statistics StatisticsFile }

func (SetStatistics) Action() string { return "set-statistics" }

func (u SetStatistics) apply(b *MetadataBuilder) error {
	s := u.Statistics
	switch {
	case s.StatisticsPath == "":
		return invalidUpdate(u.Action(), "no statistics path")
	case b.m.SnapshotByID(s.SnapshotID) == nil:
		return invalidUpdate(u.Action(), "no snapshot %d", s.SnapshotID)
	}
	s.BlobMetadata = slices.Clone(s.BlobMetadata)
	stats := slices.DeleteFunc(slices.Clone(b.m.Statistics), func(o StatisticsFile) bool { return o.SnapshotID == s.SnapshotID })
	b.m.Statistics = append(stats, s)
	return nil
}

// RemoveStatistics removes the statistics file of a snapshot (none: no
// change).
type RemoveStatistics struct{ SnapshotID int64 }

func (RemoveStatistics) Action() string { return "remove-statistics" }

func (u RemoveStatistics) apply(b *MetadataBuilder) error {
	b.m.Statistics = slices.DeleteFunc(slices.Clone(b.m.Statistics), func(o StatisticsFile) bool { return o.SnapshotID == u.SnapshotID })
	return nil
}

// ThetaBlobType is the Puffin blob type of a column's NDV theta sketch;
// NDVProperty is the blob property with the estimated number of distinct
// values.
const (
	ThetaBlobType = "apache-datasketches-theta-v1"
	NDVProperty   = "ndv"
)

// ColumnNDVs are the estimated numbers of distinct values by field id that
// the statistics file of a snapshot records (theta blobs of one field with
// an ndv property), for planners; nil when the snapshot has none.
func (m *TableMetadata) ColumnNDVs(snapshotID int64) map[int]int64 {
	sf := m.StatisticsFor(snapshotID)
	if sf == nil {
		return nil
	}
	blobs, err := sf.Blobs()
	if err != nil {
		return nil
	}
	var out map[int]int64
	for _, b := range blobs {
		if b.Type != ThetaBlobType || len(b.Fields) != 1 {
			continue
		}
		n, err := strconv.ParseInt(b.Properties[NDVProperty], 10, 64)
		if err != nil || n < 0 {
			continue
		}
		if out == nil {
			out = map[int]int64{}
		}
		out[b.Fields[0]] = n
	}
	return out
}
