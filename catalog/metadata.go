package catalog

// TableMetadata is a parsed table metadata file (format v1, v2 or v3).
// Metadata is immutable: changes are updates applied to a builder (later
// issues). Unknown JSON fields are tolerated.
type TableMetadata struct {
	FormatVersion      int
	TableUUID          string
	Location           string
	LastSequenceNumber int64
	LastUpdatedMs      int64
	LastColumnID       int
	Schemas            []*Schema
	CurrentSchemaID    int
	PartitionSpecs     []*PartitionSpec
	DefaultSpecID      int
	LastPartitionID    int
	Properties         map[string]string
	CurrentSnapshotID  *int64 // nil: table has no snapshot
	Snapshots          []*Snapshot
	SnapshotLog        []SnapshotLogEntry
	MetadataLog        []MetadataLogEntry
	SortOrders         []*SortOrder
	DefaultSortOrderID int
	Refs               map[string]SnapshotRef
	Statistics         []StatisticsFile
	NextRowID          *int64 // v3
	// PartitionStatistics lists partition statistics files (kept so that
	// commits carry them over).
	PartitionStatistics []PartitionStatisticsFile
}

// Snapshot is one snapshot of a table.
type Snapshot struct {
	SnapshotID       int64
	ParentSnapshotID *int64
	SequenceNumber   int64
	TimestampMs      int64
	ManifestList     string // path as written; v1 tables may use Manifests instead
	Manifests        []string
	Summary          map[string]string // includes "operation"
	SchemaID         *int
	FirstRowID       *int64 // v3
	AddedRows        *int64 // v3
}

// SnapshotRef is a branch or tag.
type SnapshotRef struct {
	SnapshotID         int64
	Type               string // "branch" | "tag"
	MinSnapshotsToKeep *int
	MaxSnapshotAgeMs   *int64
	MaxRefAgeMs        *int64
}

// SnapshotLogEntry is an entry of the snapshot log (history).
type SnapshotLogEntry struct {
	TimestampMs int64
	SnapshotID  int64
}

// MetadataLogEntry is an entry of the metadata log.
type MetadataLogEntry struct {
	TimestampMs  int64
	MetadataFile string
}

// StatisticsFile is a Puffin table-statistics file entry.
type StatisticsFile struct {
	SnapshotID     int64
	StatisticsPath string
	FileSizeBytes  int64
	// FileFooterSizeBytes and BlobMetadata (the "blob-metadata" JSON array,
	// verbatim) are kept so that commits carry the entry over intact.
	FileFooterSizeBytes int64
	BlobMetadata        []byte
}

// PartitionStatisticsFile is a partition-statistics file entry.
type PartitionStatisticsFile struct {
	SnapshotID     int64
	StatisticsPath string
	FileSizeBytes  int64
}

// CurrentSchema returns the schema whose id is CurrentSchemaID.
func (m *TableMetadata) CurrentSchema() *Schema { return m.SchemaByID(m.CurrentSchemaID) }

// SchemaByID returns the schema with id, or nil.
func (m *TableMetadata) SchemaByID(id int) *Schema {
	for _, s := range m.Schemas {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// SpecByID returns the partition spec with id, or nil (specs may be removed
// from metadata while old files still name them).
func (m *TableMetadata) SpecByID(id int) *PartitionSpec {
	for _, s := range m.PartitionSpecs {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// SnapshotByID returns the snapshot with id, or nil.
func (m *TableMetadata) SnapshotByID(id int64) *Snapshot {
	for _, s := range m.Snapshots {
		if s.SnapshotID == id {
			return s
		}
	}
	return nil
}

// CurrentSnapshot returns the current snapshot, or nil for an empty table.
func (m *TableMetadata) CurrentSnapshot() *Snapshot {
	if m.CurrentSnapshotID == nil {
		return nil
	}
	return m.SnapshotByID(*m.CurrentSnapshotID)
}
