package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// jsonInt64 decodes a JSON number into an int64 from its literal text, never
// through float64 (snapshot ids need all 64 bits). An exponent form that is
// still an integer ("4.6e18") is accepted exactly as written.
type jsonInt64 int64

func (n *jsonInt64) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return nil
	}
	s = strings.Trim(s, `"`)
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		*n = jsonInt64(v)
		return nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return fmt.Errorf("integer %s: %w", s, ErrDataInvalid)
	}
	*n = jsonInt64(r.Num().Int64())
	return nil
}

func optInt64(p *jsonInt64) *int64 {
	if p == nil {
		return nil
	}
	v := int64(*p)
	return &v
}

func optInt(p *jsonInt64) *int {
	if p == nil {
		return nil
	}
	v := int(*p)
	return &v
}

type jsonSchema struct {
	SchemaID           *jsonInt64  `json:"schema-id"`
	Fields             []jsonField `json:"fields"`
	IdentifierFieldIDs []int       `json:"identifier-field-ids"`
}

type jsonPartitionField struct {
	SourceID  int        `json:"source-id"`
	SourceIDs []int      `json:"source-ids"`
	FieldID   *jsonInt64 `json:"field-id"`
	Name      string     `json:"name"`
	Transform string     `json:"transform"`
}

type jsonSpec struct {
	SpecID jsonInt64            `json:"spec-id"`
	Fields []jsonPartitionField `json:"fields"`
}

type jsonSortField struct {
	SourceID  int    `json:"source-id"`
	SourceIDs []int  `json:"source-ids"`
	Transform string `json:"transform"`
	Direction string `json:"direction"`
	NullOrder string `json:"null-order"`
}

type jsonSortOrder struct {
	OrderID jsonInt64       `json:"order-id"`
	Fields  []jsonSortField `json:"fields"`
}

type jsonSnapshot struct {
	SnapshotID       jsonInt64      `json:"snapshot-id"`
	ParentSnapshotID *jsonInt64     `json:"parent-snapshot-id"`
	SequenceNumber   jsonInt64      `json:"sequence-number"`
	TimestampMs      jsonInt64      `json:"timestamp-ms"`
	ManifestList     string         `json:"manifest-list"`
	Manifests        []string       `json:"manifests"`
	Summary          map[string]any `json:"summary"`
	SchemaID         *jsonInt64     `json:"schema-id"`
	FirstRowID       *jsonInt64     `json:"first-row-id"`
	AddedRows        *jsonInt64     `json:"added-rows"`
}

type jsonRef struct {
	SnapshotID         jsonInt64  `json:"snapshot-id"`
	Type               string     `json:"type"`
	MinSnapshotsToKeep *jsonInt64 `json:"min-snapshots-to-keep"`
	MaxSnapshotAgeMs   *jsonInt64 `json:"max-snapshot-age-ms"`
	MaxRefAgeMs        *jsonInt64 `json:"max-ref-age-ms"`
}

type jsonStatistics struct {
	SnapshotID          jsonInt64       `json:"snapshot-id"`
	StatisticsPath      string          `json:"statistics-path"`
	FileSizeBytes       jsonInt64       `json:"file-size-in-bytes"`
	FileFooterSizeBytes jsonInt64       `json:"file-footer-size-in-bytes"`
	BlobMetadata        json.RawMessage `json:"blob-metadata"`
}

func (e jsonStatistics) file() StatisticsFile {
	return StatisticsFile{
		SnapshotID: int64(e.SnapshotID), StatisticsPath: e.StatisticsPath, FileSizeBytes: int64(e.FileSizeBytes),
		FileFooterSizeBytes: int64(e.FileFooterSizeBytes), BlobMetadata: compactJSON(e.BlobMetadata),
	}
}

type jsonMetadata struct {
	FormatVersion      int                  `json:"format-version"`
	TableUUID          string               `json:"table-uuid"`
	Location           string               `json:"location"`
	LastSequenceNumber jsonInt64            `json:"last-sequence-number"`
	LastUpdatedMs      jsonInt64            `json:"last-updated-ms"`
	LastColumnID       int                  `json:"last-column-id"`
	Schema             *jsonSchema          `json:"schema"`
	Schemas            []jsonSchema         `json:"schemas"`
	CurrentSchemaID    *jsonInt64           `json:"current-schema-id"`
	PartitionSpec      []jsonPartitionField `json:"partition-spec"`
	PartitionSpecs     []jsonSpec           `json:"partition-specs"`
	DefaultSpecID      *jsonInt64           `json:"default-spec-id"`
	LastPartitionID    *jsonInt64           `json:"last-partition-id"`
	Properties         map[string]any       `json:"properties"`
	CurrentSnapshotID  *jsonInt64           `json:"current-snapshot-id"`
	Snapshots          []jsonSnapshot       `json:"snapshots"`
	SnapshotLog        []struct {
		TimestampMs jsonInt64 `json:"timestamp-ms"`
		SnapshotID  jsonInt64 `json:"snapshot-id"`
	} `json:"snapshot-log"`
	MetadataLog []struct {
		TimestampMs  jsonInt64 `json:"timestamp-ms"`
		MetadataFile string    `json:"metadata-file"`
	} `json:"metadata-log"`
	SortOrders          []jsonSortOrder    `json:"sort-orders"`
	DefaultSortOrderID  *jsonInt64         `json:"default-sort-order-id"`
	Refs                map[string]jsonRef `json:"refs"`
	Statistics          []jsonStatistics   `json:"statistics"`
	PartitionStatistics []struct {
		SnapshotID     jsonInt64 `json:"snapshot-id"`
		StatisticsPath string    `json:"statistics-path"`
		FileSizeBytes  jsonInt64 `json:"file-size-in-bytes"`
	} `json:"partition-statistics"`
	NextRowID *jsonInt64 `json:"next-row-id"`
}

// ParseMetadata parses a table metadata file of format v1, v2 or v3.
// Unknown fields are ignored; ids are decoded without loss of precision.
func ParseMetadata(data []byte) (*TableMetadata, error) {
	var jm jsonMetadata
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&jm); err != nil {
		return nil, fmt.Errorf("parse table metadata: %w: %w", ErrDataInvalid, err)
	}
	if jm.FormatVersion < 1 || jm.FormatVersion > 3 {
		return nil, fmt.Errorf("table metadata format-version %d: %w", jm.FormatVersion, ErrUnsupported)
	}
	m := &TableMetadata{
		FormatVersion:      jm.FormatVersion,
		TableUUID:          jm.TableUUID,
		Location:           jm.Location,
		LastSequenceNumber: int64(jm.LastSequenceNumber),
		LastUpdatedMs:      int64(jm.LastUpdatedMs),
		LastColumnID:       jm.LastColumnID,
		Properties:         stringMap(jm.Properties),
		NextRowID:          optInt64(jm.NextRowID),
	}
	if err := m.parseSchemas(&jm); err != nil {
		return nil, err
	}
	if err := m.parseSpecs(&jm); err != nil {
		return nil, err
	}
	if err := m.parseSortOrders(&jm); err != nil {
		return nil, err
	}
	m.parseSnapshots(&jm)
	return m, nil
}

func (m *TableMetadata) parseSchemas(jm *jsonMetadata) error {
	raw := jm.Schemas
	if len(raw) == 0 && jm.Schema != nil {
		raw = []jsonSchema{*jm.Schema}
	}
	if len(raw) == 0 {
		return fmt.Errorf("table metadata has no schema: %w", ErrDataInvalid)
	}
	for i, js := range raw {
		fields, err := parseJSONFields(js.Fields)
		if err != nil {
			return fmt.Errorf("schema %d: %w", i, err)
		}
		id := 0
		if js.SchemaID != nil {
			id = int(*js.SchemaID)
		}
		m.Schemas = append(m.Schemas, &Schema{ID: id, Fields: fields, IdentifierFieldIDs: js.IdentifierFieldIDs})
	}
	switch {
	case jm.CurrentSchemaID != nil:
		m.CurrentSchemaID = int(*jm.CurrentSchemaID)
	case jm.Schema != nil && jm.Schema.SchemaID != nil:
		m.CurrentSchemaID = int(*jm.Schema.SchemaID)
	default:
		m.CurrentSchemaID = m.Schemas[0].ID
	}
	if m.SchemaByID(m.CurrentSchemaID) == nil {
		return fmt.Errorf("current-schema-id %d names no schema: %w", m.CurrentSchemaID, ErrDataInvalid)
	}
	return nil
}

func (m *TableMetadata) parseSpecs(jm *jsonMetadata) error {
	raw := jm.PartitionSpecs
	if len(raw) == 0 && jm.PartitionSpec != nil {
		raw = []jsonSpec{{SpecID: 0, Fields: jm.PartitionSpec}}
	}
	if len(raw) == 0 {
		raw = []jsonSpec{{SpecID: 0}}
	}
	maxID := 0
	for _, js := range raw {
		spec, err := specFromJSON(js)
		if err != nil {
			return err
		}
		for _, f := range spec.Fields {
			maxID = max(maxID, f.FieldID)
		}
		m.PartitionSpecs = append(m.PartitionSpecs, spec)
	}
	if jm.DefaultSpecID != nil {
		m.DefaultSpecID = int(*jm.DefaultSpecID)
	} else {
		m.DefaultSpecID = m.PartitionSpecs[0].ID
	}
	if jm.LastPartitionID != nil {
		m.LastPartitionID = int(*jm.LastPartitionID)
	} else {
		m.LastPartitionID = max(maxID, 999)
	}
	return nil
}

// specFromJSON builds a partition spec; fields without field ids (v1
// legacy) get 1000, 1001, ... in order.
func specFromJSON(js jsonSpec) (*PartitionSpec, error) {
	spec := &PartitionSpec{ID: int(js.SpecID)}
	for i, jf := range js.Fields {
		// An unknown transform keeps its name: the table still loads, and
		// whatever needs the transform reports it.
		tr, _ := ParseTransform(jf.Transform)
		src := jf.SourceID
		if len(jf.SourceIDs) > 0 && src == 0 {
			src = jf.SourceIDs[0]
		}
		fid := 1000 + i
		if jf.FieldID != nil {
			fid = int(*jf.FieldID)
		}
		spec.Fields = append(spec.Fields, PartitionField{SourceID: src, FieldID: fid, Name: jf.Name, Transform: tr})
	}
	return spec, nil
}

func (m *TableMetadata) parseSortOrders(jm *jsonMetadata) error {
	for _, jo := range jm.SortOrders {
		so := &SortOrder{ID: int(jo.OrderID)}
		for _, jf := range jo.Fields {
			tr, _ := ParseTransform(jf.Transform)
			src := jf.SourceID
			if len(jf.SourceIDs) > 0 && src == 0 {
				src = jf.SourceIDs[0]
			}
			so.Fields = append(so.Fields, SortField{SourceID: src, Transform: tr, Direction: jf.Direction, NullOrder: jf.NullOrder})
		}
		m.SortOrders = append(m.SortOrders, so)
	}
	if len(m.SortOrders) == 0 {
		m.SortOrders = []*SortOrder{{ID: 0}}
	}
	if jm.DefaultSortOrderID != nil {
		m.DefaultSortOrderID = int(*jm.DefaultSortOrderID)
	}
	return nil
}

func (m *TableMetadata) parseSnapshots(jm *jsonMetadata) {
	for _, js := range jm.Snapshots {
		s := &Snapshot{
			SnapshotID:       int64(js.SnapshotID),
			ParentSnapshotID: optInt64(js.ParentSnapshotID),
			SequenceNumber:   int64(js.SequenceNumber),
			TimestampMs:      int64(js.TimestampMs),
			ManifestList:     js.ManifestList,
			Manifests:        js.Manifests,
			Summary:          stringMap(js.Summary),
			SchemaID:         optInt(js.SchemaID),
			FirstRowID:       optInt64(js.FirstRowID),
			AddedRows:        optInt64(js.AddedRows),
		}
		m.Snapshots = append(m.Snapshots, s)
	}
	if jm.CurrentSnapshotID != nil && *jm.CurrentSnapshotID != -1 {
		m.CurrentSnapshotID = optInt64(jm.CurrentSnapshotID)
	}
	for _, e := range jm.SnapshotLog {
		m.SnapshotLog = append(m.SnapshotLog, SnapshotLogEntry{TimestampMs: int64(e.TimestampMs), SnapshotID: int64(e.SnapshotID)})
	}
	for _, e := range jm.MetadataLog {
		m.MetadataLog = append(m.MetadataLog, MetadataLogEntry{TimestampMs: int64(e.TimestampMs), MetadataFile: e.MetadataFile})
	}
	for _, e := range jm.Statistics {
		m.Statistics = append(m.Statistics, e.file())
	}
	for _, e := range jm.PartitionStatistics {
		m.PartitionStatistics = append(m.PartitionStatistics, PartitionStatisticsFile{SnapshotID: int64(e.SnapshotID), StatisticsPath: e.StatisticsPath, FileSizeBytes: int64(e.FileSizeBytes)})
	}
	m.Refs = make(map[string]SnapshotRef, len(jm.Refs)+1)
	for name, r := range jm.Refs {
		typ := r.Type
		if typ == "" {
			typ = "branch"
		}
		m.Refs[name] = SnapshotRef{
			SnapshotID:         int64(r.SnapshotID),
			Type:               typ,
			MinSnapshotsToKeep: optInt(r.MinSnapshotsToKeep),
			MaxSnapshotAgeMs:   optInt64(r.MaxSnapshotAgeMs),
			MaxRefAgeMs:        optInt64(r.MaxRefAgeMs),
		}
	}
	if _, ok := m.Refs["main"]; !ok && m.CurrentSnapshotID != nil {
		m.Refs["main"] = SnapshotRef{SnapshotID: *m.CurrentSnapshotID, Type: "branch"}
	}
}

// stringMap converts a JSON object of scalars into strings (some writers put
// numbers or booleans into properties and summaries).
func stringMap(in map[string]any) map[string]string {
	if in == nil {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		switch v := v.(type) {
		case string:
			out[k] = v
		case nil:
			out[k] = ""
		case json.Number:
			out[k] = string(v)
		default:
			b, _ := json.Marshal(v)
			out[k] = string(b)
		}
	}
	return out
}

var transformParam = regexp.MustCompile(`^(bucket|truncate)\[\s*(\d+)\s*\]$`)

// ParseTransform parses a transform as written in specs and sort orders.
func ParseTransform(s string) (Transform, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	switch s {
	case "identity", "year", "month", "day", "hour", "void":
		return Transform{Name: s}, nil
	}
	if mm := transformParam.FindStringSubmatch(s); mm != nil {
		n, err := strconv.Atoi(mm[2])
		if err == nil && n > 0 {
			return Transform{Name: mm[1], Param: n}, nil
		}
	}
	return Transform{Name: s}, fmt.Errorf("transform %q: %w", s, ErrUnsupported)
}

// String spells the transform as the spec does.
func (t Transform) String() string {
	if t.Name == "bucket" || t.Name == "truncate" {
		return t.Name + "[" + strconv.Itoa(t.Param) + "]"
	}
	return t.Name
}

// compactJSON returns raw JSON without insignificant space (nil for none or
// null), so equal values compare equal whatever their layout.
func compactJSON(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if len(raw) == 0 || string(trimJSON(raw)) == "null" || json.Compact(&b, raw) != nil {
		return nil
	}
	return b.Bytes()
}
