package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The functions below write and read single parts of table and view
// metadata (a schema, a partition spec, a snapshot...) in the metadata
// JSON's form, for messages that carry them alone (the REST catalog's
// table updates and requests). They share the metadata file codec; unknown
// fields are ignored and ids are decoded without loss of precision.

// decodePart decodes one JSON object into v, numbers kept as literals.
func decodePart(what string, raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("parse %s: %w: %w", what, ErrDataInvalid, err)
	}
	return nil
}

func finishPart(what string, w *jsonWriter) (json.RawMessage, error) {
	if w.err != nil {
		return nil, fmt.Errorf("write %s: %w", what, w.err)
	}
	return w.buf.Bytes(), nil
}

// MarshalSchemaJSON writes a schema as metadata JSON does.
func MarshalSchemaJSON(s *Schema) (json.RawMessage, error) {
	if s == nil {
		return nil, fmt.Errorf("write schema: no schema: %w", ErrDataInvalid)
	}
	w := &jsonWriter{}
	if err := w.schema(s); err != nil {
		return nil, fmt.Errorf("write schema: %w", err)
	}
	return finishPart("schema", w)
}

// ParseSchemaJSON reads a schema; a missing schema-id is 0.
func ParseSchemaJSON(raw []byte) (*Schema, error) {
	var js jsonSchema
	if err := decodePart("schema", raw, &js); err != nil {
		return nil, err
	}
	fields, err := parseJSONFields(js.Fields)
	if err != nil {
		return nil, fmt.Errorf("parse schema: %w", err)
	}
	id := 0
	if js.SchemaID != nil {
		id = int(*js.SchemaID)
	}
	return &Schema{ID: id, Fields: fields, IdentifierFieldIDs: js.IdentifierFieldIDs}, nil
}

// MarshalSpecJSON writes a partition spec ({"spec-id", "fields"}).
func MarshalSpecJSON(s *PartitionSpec) (json.RawMessage, error) {
	if s == nil {
		return nil, fmt.Errorf("write partition spec: no spec: %w", ErrDataInvalid)
	}
	w := &jsonWriter{}
	w.open('{')
	w.field("spec-id", s.ID)
	w.key("fields")
	w.specFields(s)
	w.close('}')
	return finishPart("partition spec", w)
}

// ParseSpecJSON reads a partition spec; a missing spec-id is 0, fields
// without field ids get 1000, 1001, ... in order.
func ParseSpecJSON(raw []byte) (*PartitionSpec, error) {
	var js jsonSpec
	if err := decodePart("partition spec", raw, &js); err != nil {
		return nil, err
	}
	return specFromJSON(js)
}

// MarshalSortOrderJSON writes a sort order ({"order-id", "fields"}).
func MarshalSortOrderJSON(o *SortOrder) (json.RawMessage, error) {
	if o == nil {
		return nil, fmt.Errorf("write sort order: no sort order: %w", ErrDataInvalid)
	}
	w := &jsonWriter{}
	w.sortOrder(o)
	return finishPart("sort order", w)
}

// ParseSortOrderJSON reads a sort order.
func ParseSortOrderJSON(raw []byte) (*SortOrder, error) {
	var jo jsonSortOrder
	if err := decodePart("sort order", raw, &jo); err != nil {
		return nil, err
	}
	var m TableMetadata
	if err := m.parseSortOrders(&jsonMetadata{SortOrders: []jsonSortOrder{jo}}); err != nil {
		return nil, err
	}
	return m.SortOrders[0], nil
}

// MarshalSnapshotJSON writes a snapshot as v2+ metadata does (with its
// sequence number).
func MarshalSnapshotJSON(s *Snapshot) (json.RawMessage, error) {
	if s == nil {
		return nil, fmt.Errorf("write snapshot: no snapshot: %w", ErrDataInvalid)
	}
	w := &jsonWriter{}
	w.snapshot(s, 2)
	return finishPart("snapshot", w)
}

// ParseSnapshotJSON reads a snapshot.
func ParseSnapshotJSON(raw []byte) (*Snapshot, error) {
	var js jsonSnapshot
	if err := decodePart("snapshot", raw, &js); err != nil {
		return nil, err
	}
	var m TableMetadata
	m.parseSnapshots(&jsonMetadata{Snapshots: []jsonSnapshot{js}})
	return m.Snapshots[0], nil
}

// MarshalRefJSON writes a snapshot ref ({"snapshot-id", "type", ...}).
func MarshalRefJSON(r SnapshotRef) (json.RawMessage, error) {
	w := &jsonWriter{}
	w.ref(r)
	return finishPart("snapshot ref", w)
}

// ParseRefJSON reads a snapshot ref; a missing type is "branch".
func ParseRefJSON(raw []byte) (SnapshotRef, error) {
	var jr jsonRef
	if err := decodePart("snapshot ref", raw, &jr); err != nil {
		return SnapshotRef{}, err
	}
	var m TableMetadata
	m.parseSnapshots(&jsonMetadata{Refs: map[string]jsonRef{"ref": jr}})
	return m.Refs["ref"], nil
}

// MarshalStatisticsJSON writes a statistics file entry.
func MarshalStatisticsJSON(s StatisticsFile) (json.RawMessage, error) {
	w := &jsonWriter{}
	w.statistics(s)
	return finishPart("statistics file", w)
}

// ParseStatisticsJSON reads a statistics file entry.
func ParseStatisticsJSON(raw []byte) (StatisticsFile, error) {
	var js jsonStatistics
	if err := decodePart("statistics file", raw, &js); err != nil {
		return StatisticsFile{}, err
	}
	return js.file(), nil
}

// MarshalViewVersionJSON writes a view version as view metadata does.
func MarshalViewVersionJSON(v *ViewVersion) (json.RawMessage, error) {
	if v == nil {
		return nil, fmt.Errorf("write view version: no version: %w", ErrDataInvalid)
	}
	w := &jsonWriter{}
	w.viewVersion(v)
	return finishPart("view version", w)
}

// ParseViewVersionJSON reads a view version.
func ParseViewVersionJSON(raw []byte) (*ViewVersion, error) {
	var jv jsonViewVersion
	if err := decodePart("view version", raw, &jv); err != nil {
		return nil, err
	}
	return viewVersionFromJSON(jv)
}
