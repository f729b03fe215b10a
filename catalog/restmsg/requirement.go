package restmsg

import (
	"encoding/json"
	"fmt"

	"github.com/icegate/icegate/catalog"
)

// DecodeRequirement decodes one table requirement ({"type": ..., ...}).
func DecodeRequirement(raw json.RawMessage) (catalog.Requirement, error) {
	o, err := openObject("table requirement", raw)
	if err != nil {
		return nil, err
	}
	kind, err := o.str("type")
	if err != nil {
		return nil, err
	}
	o.what = "requirement " + kind
	switch kind {
	case "assert-create":
		return catalog.AssertCreate{}, nil
	case "assert-table-uuid":
		s, err := o.str("uuid")
		if err != nil {
			return nil, err
		}
		return catalog.AssertTableUUID{UUID: s}, nil
	case "assert-ref-snapshot-id":
		ref, err := o.str("ref")
		if err != nil {
			return nil, err
		}
		// A null (or, as the reference implementation reads it, missing)
		// snapshot-id asserts that the ref does not exist.
		id, err := o.optInt64("snapshot-id")
		if err != nil {
			return nil, err
		}
		return catalog.AssertRefSnapshotID{Ref: ref, SnapshotID: id}, nil
	case "assert-current-schema-id":
		v, err := o.int("current-schema-id")
		return catalog.AssertCurrentSchemaID{SchemaID: v}, err
	case "assert-last-assigned-field-id":
		v, err := o.int("last-assigned-field-id")
		return catalog.AssertLastAssignedFieldID{LastAssignedFieldID: v}, err
	case "assert-last-assigned-partition-id":
		v, err := o.int("last-assigned-partition-id")
		return catalog.AssertLastAssignedPartitionID{LastAssignedPartitionID: v}, err
	case "assert-default-spec-id":
		v, err := o.int("default-spec-id")
		return catalog.AssertDefaultSpecID{SpecID: v}, err
	case "assert-default-sort-order-id":
		v, err := o.int("default-sort-order-id")
		return catalog.AssertDefaultSortOrderID{SortOrderID: v}, err
	case "assert-view-uuid":
		return nil, fmt.Errorf("requirement %s (a view requirement): %w", kind, catalog.ErrUnsupported)
	}
	return nil, invalid("table requirement", "unknown type %q", kind)
}

// EncodeRequirement writes a table requirement as the REST protocol does.
// icegate's own requirements (AssertProperty) have no REST form: an error
// wrapping catalog.ErrUnsupported.
func EncodeRequirement(r catalog.Requirement) (json.RawMessage, error) {
	if r == nil {
		return nil, invalid("table requirement", "nil requirement")
	}
	w := newWriter()
	w.put("type", r.Kind())
	switch r := r.(type) {
	case catalog.AssertCreate:
	case catalog.AssertTableUUID:
		w.put("uuid", r.UUID)
	case catalog.AssertRefSnapshotID:
		w.put("ref", r.Ref)
		w.put("snapshot-id", r.SnapshotID)
	case catalog.AssertCurrentSchemaID:
		w.put("current-schema-id", r.SchemaID)
	case catalog.AssertLastAssignedFieldID:
		w.put("last-assigned-field-id", r.LastAssignedFieldID)
	case catalog.AssertLastAssignedPartitionID:
		w.put("last-assigned-partition-id", r.LastAssignedPartitionID)
	case catalog.AssertDefaultSpecID:
		w.put("default-spec-id", r.SpecID)
	case catalog.AssertDefaultSortOrderID:
		w.put("default-sort-order-id", r.SortOrderID)
	default:
		return nil, fmt.Errorf("requirement %s (%T): no REST form: %w", r.Kind(), r, catalog.ErrUnsupported)
	}
	out, err := w.done()
	if err != nil {
		return nil, fmt.Errorf("requirement %s: %w", r.Kind(), err)
	}
	return out, nil
}
