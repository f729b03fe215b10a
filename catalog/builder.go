package catalog

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

// Table properties the metadata writer honours.
const (
	PropPreviousVersionsMax    = "write.metadata.previous-versions-max"
	PropDeleteAfterCommit      = "write.metadata.delete-after-commit.enabled"
	defaultPreviousVersionsMax = 100
)

// MetadataBuilder applies updates to table metadata and validates the
// result. Start it for a new table (NewMetadataBuilder) or from the current
// metadata of a table (NewMetadataBuilderFrom); Build returns the new
// metadata with the metadata log extended by the base file.
type MetadataBuilder struct {
	base         *TableMetadata
	baseLocation string
	m            TableMetadata
	now          int64
	changes      []Update

	lastSchema, lastSpec, lastOrder int // ids added last, -1 if none
	added                           map[int64]bool
}

// NewMetadataBuilder starts the metadata of a new table of the given format
// version; updates must add a schema (and may add a spec and sort order,
// which otherwise default to unpartitioned and unsorted).
func NewMetadataBuilder(formatVersion int) (*MetadataBuilder, error) {
	if formatVersion < 1 || formatVersion > 3 {
		return nil, fmt.Errorf("new table of format v%d: %w", formatVersion, ErrUnsupported)
	}
	b := newBuilder()
	b.m = TableMetadata{
		FormatVersion:      formatVersion,
		CurrentSchemaID:    -1,
		DefaultSpecID:      -1,
		DefaultSortOrderID: -1,
		LastPartitionID:    999,
		Properties:         map[string]string{},
		Refs:               map[string]SnapshotRef{},
	}
	if formatVersion >= 3 {
		zero := int64(0)
		b.m.NextRowID = &zero
	}
	return b, nil
}

// NewMetadataBuilderFrom starts from base, the metadata read from the file
// at baseLocation (which the new metadata's log will list).
func NewMetadataBuilderFrom(base *TableMetadata, baseLocation string) *MetadataBuilder {
	b := newBuilder()
	b.base, b.baseLocation = base, baseLocation
	b.m = *base
	b.m.Schemas = slices.Clone(base.Schemas)
	b.m.PartitionSpecs = slices.Clone(base.PartitionSpecs)
	b.m.SortOrders = slices.Clone(base.SortOrders)
	b.m.Snapshots = slices.Clone(base.Snapshots)
	b.m.SnapshotLog = slices.Clone(base.SnapshotLog)
	b.m.MetadataLog = slices.Clone(base.MetadataLog)
	b.m.Statistics = slices.Clone(base.Statistics)
	b.m.PartitionStatistics = slices.Clone(base.PartitionStatistics)
	b.m.Properties = maps.Clone(base.Properties)
	b.m.Refs = maps.Clone(base.Refs)
	if b.m.Refs == nil {
		b.m.Refs = map[string]SnapshotRef{}
	}
	return b
}

func newBuilder() *MetadataBuilder {
	return &MetadataBuilder{
		now:        time.Now().UnixMilli(),
		lastSchema: -1, lastSpec: -1, lastOrder: -1,
		added: map[int64]bool{},
	}
}

// Apply applies updates in order; the first invalid one stops it with an
// error wrapping ErrDataInvalid (or ErrUnsupported), or ErrCommitConflict
// when a snapshot was built on metadata that has since moved on.
func (b *MetadataBuilder) Apply(updates ...Update) error {
	for _, u := range updates {
		if u == nil {
			return fmt.Errorf("nil update: %w", ErrDataInvalid)
		}
		if err := u.apply(b); err != nil {
			return err
		}
		b.changes = append(b.changes, u)
	}
	return nil
}

// Build validates the metadata and returns it. New tables get an unpartitioned
// spec and the unsorted order when none was added.
func (b *MetadataBuilder) Build() (*TableMetadata, error) {
	m := b.m
	if b.base == nil {
		if len(m.PartitionSpecs) == 0 {
			m.PartitionSpecs = []*PartitionSpec{{ID: 0}}
		}
		if m.DefaultSpecID < 0 {
			m.DefaultSpecID = m.PartitionSpecs[0].ID
		}
		if len(m.SortOrders) == 0 {
			m.SortOrders = []*SortOrder{{ID: 0}}
		}
		if m.DefaultSortOrderID < 0 {
			m.DefaultSortOrderID = m.SortOrders[0].ID
		}
	}
	if err := validateMetadata(&m); err != nil {
		return nil, err
	}
	m.LastUpdatedMs = b.now
	for _, s := range m.Snapshots {
		if b.added[s.SnapshotID] {
			m.LastUpdatedMs = max(m.LastUpdatedMs, s.TimestampMs)
		}
	}
	if b.base != nil {
		m.LastUpdatedMs = max(m.LastUpdatedMs, b.base.LastUpdatedMs)
		if b.baseLocation != "" {
			m.MetadataLog = append(m.MetadataLog, MetadataLogEntry{TimestampMs: b.base.LastUpdatedMs, MetadataFile: b.baseLocation})
		}
	}
	keep := defaultPreviousVersionsMax
	if v, err := strconv.Atoi(m.Properties[PropPreviousVersionsMax]); err == nil && v >= 1 {
		keep = v
	}
	if len(m.MetadataLog) > keep {
		m.MetadataLog = slices.Clone(m.MetadataLog[len(m.MetadataLog)-keep:])
	}
	return &m, nil
}

// validateMetadata checks the invariants a metadata file must hold.
func validateMetadata(m *TableMetadata) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("table metadata: %s: %w", fmt.Sprintf(format, args...), ErrDataInvalid)
	}
	if m.TableUUID == "" {
		return bad("no table uuid")
	}
	if m.Location == "" {
		return bad("no location")
	}
	if m.CurrentSchema() == nil {
		return bad("current schema %d does not exist", m.CurrentSchemaID)
	}
	if m.SpecByID(m.DefaultSpecID) == nil {
		return bad("default spec %d does not exist", m.DefaultSpecID)
	}
	found := false
	for _, o := range m.SortOrders {
		found = found || o.ID == m.DefaultSortOrderID
	}
	if !found {
		return bad("default sort order %d does not exist", m.DefaultSortOrderID)
	}
	for _, s := range m.Schemas {
		ids, err := fieldIDs(s)
		if err != nil {
			return bad("schema %d: %v", s.ID, err)
		}
		for id := range ids {
			if id > m.LastColumnID {
				return bad("schema %d has field id %d above last-column-id %d", s.ID, id, m.LastColumnID)
			}
		}
	}
	for _, s := range m.PartitionSpecs {
		for _, f := range s.Fields {
			if f.FieldID > m.LastPartitionID {
				return bad("spec %d has field id %d above last-partition-id %d", s.ID, f.FieldID, m.LastPartitionID)
			}
		}
	}
	for name, r := range m.Refs {
		if m.SnapshotByID(r.SnapshotID) == nil {
			return bad("ref %s names missing snapshot %d", name, r.SnapshotID)
		}
	}
	if main, ok := m.Refs["main"]; ok {
		if m.CurrentSnapshotID == nil || *m.CurrentSnapshotID != main.SnapshotID {
			return bad("main is snapshot %d but the current snapshot differs", main.SnapshotID)
		}
	} else if m.CurrentSnapshotID != nil {
		return bad("current snapshot %d without a main branch", *m.CurrentSnapshotID)
	}
	if m.FormatVersion >= 2 {
		for _, s := range m.Snapshots {
			if s.SequenceNumber > m.LastSequenceNumber {
				return bad("snapshot %d has sequence number %d above last-sequence-number %d", s.SnapshotID, s.SequenceNumber, m.LastSequenceNumber)
			}
		}
	}
	return nil
}

// Changes returns the updates applied so far.
func (b *MetadataBuilder) Changes() []Update { return slices.Clone(b.changes) }

// nextMetadata checks reqs against base (the metadata at baseLoc) and
// applies updates to it: the metadata a commit of table name makes.
func nextMetadata(name string, base *TableMetadata, baseLoc string, reqs []Requirement, updates []Update) (*TableMetadata, error) {
	if err := CheckRequirements(base, reqs); err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	b := NewMetadataBuilderFrom(base, baseLoc)
	if err := b.Apply(updates...); err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	meta, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("commit table %s: %w", name, err)
	}
	return meta, nil
}
