package catalog

import "fmt"

// Requirement is a precondition of a commit, checked against the table's
// current metadata (nil when the table does not exist yet). A failed
// requirement is an error wrapping ErrCommitConflict. The kinds are the REST
// catalog's table requirements.
type Requirement interface {
	// Kind is the requirement's name in the REST catalog ("assert-create"...).
	Kind() string
	// Validate checks the requirement against the current metadata.
	Validate(current *TableMetadata) error
}

func conflict(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), ErrCommitConflict)
}

func requireTable(kind string, m *TableMetadata) error {
	if m == nil {
		return conflict("%s: table does not exist", kind)
	}
	return nil
}

// AssertCreate requires that the table does not exist.
type AssertCreate struct{}

func (AssertCreate) Kind() string { return "assert-create" }

func (AssertCreate) Validate(m *TableMetadata) error {
	if m != nil {
		return conflict("assert-create: table already exists")
	}
	return nil
}

// AssertTableUUID requires the table's uuid.
type AssertTableUUID struct{ UUID string }

func (AssertTableUUID) Kind() string { return "assert-table-uuid" }

func (r AssertTableUUID) Validate(m *TableMetadata) error {
	if err := requireTable(r.Kind(), m); err != nil {
		return err
	}
	if m.TableUUID != r.UUID {
		return conflict("assert-table-uuid: table uuid is %s, not %s", m.TableUUID, r.UUID)
	}
	return nil
}

// AssertRefSnapshotID requires that ref points at SnapshotID, or, with a
// nil SnapshotID, that ref does not exist.
type AssertRefSnapshotID struct {
	Ref        string
	SnapshotID *int64
}

func (AssertRefSnapshotID) Kind() string { return "assert-ref-snapshot-id" }

func (r AssertRefSnapshotID) Validate(m *TableMetadata) error {
	if err := requireTable(r.Kind(), m); err != nil {
		return err
	}
	ref, ok := m.Refs[r.Ref]
	switch {
	case r.SnapshotID == nil && ok:
		return conflict("assert-ref-snapshot-id: ref %s was created concurrently (snapshot %d)", r.Ref, ref.SnapshotID)
	case r.SnapshotID != nil && !ok:
		return conflict("assert-ref-snapshot-id: ref %s is missing", r.Ref)
	case r.SnapshotID != nil && ref.SnapshotID != *r.SnapshotID:
		return conflict("assert-ref-snapshot-id: ref %s points at snapshot %d, not %d", r.Ref, ref.SnapshotID, *r.SnapshotID)
	}
	return nil
}

// AssertCurrentSchemaID requires the current schema id.
type AssertCurrentSchemaID struct{ SchemaID int }

func (AssertCurrentSchemaID) Kind() string { return "assert-current-schema-id" }

func (r AssertCurrentSchemaID) Validate(m *TableMetadata) error {
	if err := requireTable(r.Kind(), m); err != nil {
		return err
	}
	if m.CurrentSchemaID != r.SchemaID {
		return conflict("assert-current-schema-id: current schema is %d, not %d", m.CurrentSchemaID, r.SchemaID)
	}
	return nil
}

// AssertLastAssignedFieldID requires the table's last-column-id.
type AssertLastAssignedFieldID struct{ LastAssignedFieldID int }

func (AssertLastAssignedFieldID) Kind() string { return "assert-last-assigned-field-id" }

func (r AssertLastAssignedFieldID) Validate(m *TableMetadata) error {
	if err := requireTable(r.Kind(), m); err != nil {
		return err
	}
	if m.LastColumnID != r.LastAssignedFieldID {
		return conflict("assert-last-assigned-field-id: last assigned field id is %d, not %d", m.LastColumnID, r.LastAssignedFieldID)
	}
	return nil
}

// AssertLastAssignedPartitionID requires the table's last-partition-id.
type AssertLastAssignedPartitionID struct{ LastAssignedPartitionID int }

func (AssertLastAssignedPartitionID) Kind() string { return "assert-last-assigned-partition-id" }

func (r AssertLastAssignedPartitionID) Validate(m *TableMetadata) error {
	if err := requireTable(r.Kind(), m); err != nil {
		return err
	}
	if m.LastPartitionID != r.LastAssignedPartitionID {
		return conflict("assert-last-assigned-partition-id: last assigned partition id is %d, not %d", m.LastPartitionID, r.LastAssignedPartitionID)
	}
	return nil
}

// AssertDefaultSpecID requires the default partition spec id.
type AssertDefaultSpecID struct{ SpecID int }

func (AssertDefaultSpecID) Kind() string { return "assert-default-spec-id" }

func (r AssertDefaultSpecID) Validate(m *TableMetadata) error {
	if err := requireTable(r.Kind(), m); err != nil {
		return err
	}
	if m.DefaultSpecID != r.SpecID {
		return conflict("assert-default-spec-id: default spec is %d, not %d", m.DefaultSpecID, r.SpecID)
	}
	return nil
}

// AssertDefaultSortOrderID requires the default sort order id.
type AssertDefaultSortOrderID struct{ SortOrderID int }

func (AssertDefaultSortOrderID) Kind() string { return "assert-default-sort-order-id" }

func (r AssertDefaultSortOrderID) Validate(m *TableMetadata) error {
	if err := requireTable(r.Kind(), m); err != nil {
		return err
	}
	if m.DefaultSortOrderID != r.SortOrderID {
		return conflict("assert-default-sort-order-id: default sort order is %d, not %d", m.DefaultSortOrderID, r.SortOrderID)
	}
	return nil
}

// CheckRequirements validates every requirement against current.
func CheckRequirements(current *TableMetadata, reqs []Requirement) error {
	for _, r := range reqs {
		if err := r.Validate(current); err != nil {
			return err
		}
	}
	return nil
}
