package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// MarshalMetadata writes table metadata as the spec's JSON for its format
// version: v1 also carries the legacy "schema" and "partition-spec" fields,
// v2+ carries sequence numbers, v3 row lineage. Ids and sequence numbers are
// written as exact integers; defaults in their JSON single-value form.
func MarshalMetadata(m *TableMetadata) ([]byte, error) {
	compact, err := MarshalMetadataCompact(m)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, fmt.Errorf("write metadata: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// MarshalMetadataCompact is MarshalMetadata without indentation: the
// metadata as a value inside another message (a REST response), where
// it is sent and parsed at every commit.
func MarshalMetadataCompact(m *TableMetadata) ([]byte, error) {
	if m.FormatVersion < 1 || m.FormatVersion > 3 {
		return nil, fmt.Errorf("write metadata format-version %d: %w", m.FormatVersion, ErrUnsupported)
	}
	w := &jsonWriter{}
	w.open('{')
	w.field("format-version", m.FormatVersion)
	w.field("table-uuid", m.TableUUID)
	w.field("location", m.Location)
	if m.FormatVersion >= 2 {
		w.field("last-sequence-number", m.LastSequenceNumber)
	}
	w.field("last-updated-ms", m.LastUpdatedMs)
	w.field("last-column-id", m.LastColumnID)
	if m.FormatVersion == 1 {
		cur := m.CurrentSchema()
		if cur == nil {
			return nil, fmt.Errorf("write metadata: current-schema-id %d names no schema: %w", m.CurrentSchemaID, ErrDataInvalid)
		}
		w.key("schema")
		if err := w.schema(cur); err != nil {
			return nil, err
		}
	}
	w.field("current-schema-id", m.CurrentSchemaID)
	w.key("schemas")
	w.open('[')
	for _, s := range m.Schemas {
		w.elem()
		if err := w.schema(s); err != nil {
			return nil, err
		}
	}
	w.close(']')
	if m.FormatVersion == 1 {
		spec := m.SpecByID(m.DefaultSpecID)
		if spec == nil {
			return nil, fmt.Errorf("write metadata: default-spec-id %d names no spec: %w", m.DefaultSpecID, ErrDataInvalid)
		}
		w.key("partition-spec")
		w.specFields(spec)
	}
	w.field("default-spec-id", m.DefaultSpecID)
	w.key("partition-specs")
	w.open('[')
	for _, s := range m.PartitionSpecs {
		w.elem()
		w.open('{')
		w.field("spec-id", s.ID)
		w.key("fields")
		w.specFields(s)
		w.close('}')
	}
	w.close(']')
	w.field("last-partition-id", m.LastPartitionID)
	w.field("default-sort-order-id", m.DefaultSortOrderID)
	w.key("sort-orders")
	w.open('[')
	for _, o := range m.SortOrders {
		w.elem()
		w.sortOrder(o)
	}
	w.close(']')
	if m.Properties != nil {
		w.field("properties", sortedMap(m.Properties))
	}
	cur := int64(-1)
	if m.CurrentSnapshotID != nil {
		cur = *m.CurrentSnapshotID
	}
	w.field("current-snapshot-id", cur)
	w.refs(m.Refs)
	w.key("snapshots")
	w.open('[')
	for _, s := range m.Snapshots {
		w.elem()
		w.snapshot(s, m.FormatVersion)
	}
	w.close(']')
	w.key("statistics")
	w.open('[')
	for _, s := range m.Statistics {
		w.elem()
		w.statistics(s)
	}
	w.close(']')
	if m.PartitionStatistics != nil {
		w.key("partition-statistics")
		w.open('[')
		for _, s := range m.PartitionStatistics {
			w.elem()
			w.open('{')
			w.field("snapshot-id", s.SnapshotID)
			w.field("statistics-path", s.StatisticsPath)
			w.field("file-size-in-bytes", s.FileSizeBytes)
			w.close('}')
		}
		w.close(']')
	}
	w.key("snapshot-log")
	w.open('[')
	for _, e := range m.SnapshotLog {
		w.elem()
		w.open('{')
		w.field("timestamp-ms", e.TimestampMs)
		w.field("snapshot-id", e.SnapshotID)
		w.close('}')
	}
	w.close(']')
	w.key("metadata-log")
	w.open('[')
	for _, e := range m.MetadataLog {
		w.elem()
		w.open('{')
		w.field("timestamp-ms", e.TimestampMs)
		w.field("metadata-file", e.MetadataFile)
		w.close('}')
	}
	w.close(']')
	if m.FormatVersion >= 3 {
		var next int64
		if m.NextRowID != nil {
			next = *m.NextRowID
		}
		w.field("next-row-id", next)
	}
	w.close('}')
	if w.err != nil {
		return nil, fmt.Errorf("write metadata: %w", w.err)
	}
	return w.buf.Bytes(), nil
}

// jsonWriter writes JSON in a fixed field order (the order the spec lists
// fields in), with commas placed by nesting level.
type jsonWriter struct {
	buf   bytes.Buffer
	first []bool // per open level: no member written yet
	err   error
}

func (w *jsonWriter) open(c byte) {
	w.buf.WriteByte(c)
	w.first = append(w.first, true)
}

func (w *jsonWriter) close(c byte) {
	w.first = w.first[:len(w.first)-1]
	w.buf.WriteByte(c)
}

// elem starts an array element or object member.
func (w *jsonWriter) elem() {
	n := len(w.first) - 1
	if !w.first[n] {
		w.buf.WriteByte(',')
	}
	w.first[n] = false
}

func (w *jsonWriter) key(k string) {
	w.elem()
	w.value(k)
	w.buf.WriteByte(':')
}

func (w *jsonWriter) value(v any) {
	b, err := json.Marshal(v)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.buf.Write(b)
}

func (w *jsonWriter) field(k string, v any) {
	w.key(k)
	w.value(v)
}

func (w *jsonWriter) schema(s *Schema) error {
	w.open('{')
	w.field("type", "struct")
	w.field("schema-id", s.ID)
	if s.IdentifierFieldIDs != nil {
		w.field("identifier-field-ids", s.IdentifierFieldIDs)
	}
	w.key("fields")
	if err := w.fields(s.Fields); err != nil {
		return fmt.Errorf("schema %d: %w", s.ID, err)
	}
	w.close('}')
	return nil
}

func (w *jsonWriter) fields(fs []NestedField) error {
	w.open('[')
	for _, f := range fs {
		w.elem()
		w.open('{')
		w.field("id", f.ID)
		w.field("name", f.Name)
		w.field("required", f.Required)
		w.key("type")
		if err := w.typ(f.Type); err != nil {
			return fmt.Errorf("field %d %q: %w", f.ID, f.Name, err)
		}
		if f.Doc != "" {
			w.field("doc", f.Doc)
		}
		for _, d := range []struct {
			name string
			v    any
		}{{"initial-default", f.InitialDefault}, {"write-default", f.WriteDefault}} {
			if d.v == nil {
				continue
			}
			jv, err := ValueToJSON(f.Type, d.v)
			if err != nil {
				return fmt.Errorf("field %d %q %s: %w", f.ID, f.Name, d.name, err)
			}
			w.field(d.name, jv)
		}
		w.close('}')
	}
	w.close(']')
	return nil
}

func (w *jsonWriter) typ(t Type) error {
	switch t := t.(type) {
	case *PrimitiveType:
		w.value(t.String())
	case *StructType:
		w.open('{')
		w.field("type", "struct")
		w.key("fields")
		if err := w.fields(t.Fields); err != nil {
			return err
		}
		w.close('}')
	case *ListType:
		w.open('{')
		w.field("type", "list")
		w.field("element-id", t.ElementID)
		w.key("element")
		if err := w.typ(t.Element); err != nil {
			return err
		}
		w.field("element-required", t.ElementRequired)
		w.close('}')
	case *MapType:
		w.open('{')
		w.field("type", "map")
		w.field("key-id", t.KeyID)
		w.key("key")
		if err := w.typ(t.Key); err != nil {
			return err
		}
		w.field("value-id", t.ValueID)
		w.key("value")
		if err := w.typ(t.Value); err != nil {
			return err
		}
		w.field("value-required", t.ValueRequired)
		w.close('}')
	default:
		return fmt.Errorf("type %T: %w", t, ErrDataInvalid)
	}
	return nil
}

func (w *jsonWriter) specFields(s *PartitionSpec) {
	w.open('[')
	for _, f := range s.Fields {
		w.elem()
		w.open('{')
		w.field("name", f.Name)
		w.field("transform", f.Transform.String())
		w.field("source-id", f.SourceID)
		w.field("field-id", f.FieldID)
		w.close('}')
	}
	w.close(']')
}

func (w *jsonWriter) sortOrder(o *SortOrder) {
	w.open('{')
	w.field("order-id", o.ID)
	w.key("fields")
	w.open('[')
	for _, f := range o.Fields {
		w.elem()
		w.open('{')
		w.field("transform", f.Transform.String())
		w.field("source-id", f.SourceID)
		w.field("direction", f.Direction)
		w.field("null-order", f.NullOrder)
		w.close('}')
	}
	w.close(']')
	w.close('}')
}

func (w *jsonWriter) statistics(s StatisticsFile) {
	w.open('{')
	w.field("snapshot-id", s.SnapshotID)
	w.field("statistics-path", s.StatisticsPath)
	w.field("file-size-in-bytes", s.FileSizeBytes)
	w.field("file-footer-size-in-bytes", s.FileFooterSizeBytes)
	blobs := json.RawMessage(s.BlobMetadata)
	if len(blobs) == 0 {
		blobs = json.RawMessage("[]")
	}
	w.field("blob-metadata", blobs)
	w.close('}')
}

func (w *jsonWriter) refs(refs map[string]SnapshotRef) {
	w.key("refs")
	w.open('{')
	names := make([]string, 0, len(refs))
	for n := range refs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w.key(n)
		w.ref(refs[n])
	}
	w.close('}')
}

func (w *jsonWriter) ref(r SnapshotRef) {
	w.open('{')
	w.field("snapshot-id", r.SnapshotID)
	w.field("type", r.Type)
	if r.MinSnapshotsToKeep != nil {
		w.field("min-snapshots-to-keep", *r.MinSnapshotsToKeep)
	}
	if r.MaxSnapshotAgeMs != nil {
		w.field("max-snapshot-age-ms", *r.MaxSnapshotAgeMs)
	}
	if r.MaxRefAgeMs != nil {
		w.field("max-ref-age-ms", *r.MaxRefAgeMs)
	}
	w.close('}')
}

func (w *jsonWriter) snapshot(s *Snapshot, version int) {
	w.open('{')
	w.field("snapshot-id", s.SnapshotID)
	if s.ParentSnapshotID != nil {
		w.field("parent-snapshot-id", *s.ParentSnapshotID)
	}
	if version >= 2 {
		w.field("sequence-number", s.SequenceNumber)
	}
	w.field("timestamp-ms", s.TimestampMs)
	if s.Summary != nil {
		w.field("summary", sortedMap(s.Summary))
	}
	if s.ManifestList != "" {
		w.field("manifest-list", s.ManifestList)
	}
	if s.Manifests != nil {
		w.field("manifests", s.Manifests)
	}
	if s.SchemaID != nil {
		w.field("schema-id", *s.SchemaID)
	}
	if s.FirstRowID != nil {
		w.field("first-row-id", *s.FirstRowID)
	}
	if s.AddedRows != nil {
		w.field("added-rows", *s.AddedRows)
	}
	w.close('}')
}

// sortedMap returns m as ordered key/value JSON (operation first for
// snapshot summaries, then by key) so the file is stable.
func sortedMap(m map[string]string) json.RawMessage {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == "operation") != (keys[j] == "operation") {
			return keys[i] == "operation"
		}
		return keys[i] < keys[j]
	})
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(m[k])
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// itoa64 spells an int64 for Avro file metadata and summaries.
func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
