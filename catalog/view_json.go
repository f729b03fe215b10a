package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

type jsonViewRepresentation struct {
	Type    string `json:"type"`
	SQL     string `json:"sql"`
	Dialect string `json:"dialect"`
}

type jsonViewVersion struct {
	VersionID        jsonInt64         `json:"version-id"`
	TimestampMs      jsonInt64         `json:"timestamp-ms"`
	SchemaID         jsonInt64         `json:"schema-id"`
	Summary          map[string]any    `json:"summary"`
	Representations  []json.RawMessage `json:"representations"`
	DefaultCatalog   *string           `json:"default-catalog"`
	DefaultNamespace []string          `json:"default-namespace"`
}

type jsonViewMetadata struct {
	ViewUUID         *string           `json:"view-uuid"`
	FormatVersion    int               `json:"format-version"`
	Location         string            `json:"location"`
	CurrentVersionID jsonInt64         `json:"current-version-id"`
	Versions         []jsonViewVersion `json:"versions"`
	VersionLog       []struct {
		TimestampMs jsonInt64 `json:"timestamp-ms"`
		VersionID   jsonInt64 `json:"version-id"`
	} `json:"version-log"`
	Schemas    []jsonSchema   `json:"schemas"`
	Properties map[string]any `json:"properties"`
}

// isViewJSON reports whether a metadata file's JSON is view metadata: its
// top-level object has "view-uuid". Table metadata never has that key.
func isViewJSON(data []byte) bool {
	if !bytes.Contains(data, []byte(`"view-uuid"`)) {
		return false
	}
	var probe struct {
		ViewUUID json.RawMessage `json:"view-uuid"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return false
	}
	return len(probe.ViewUUID) > 0
}

// ParseViewMetadata parses a view metadata file of format version 1.
// Unknown fields are ignored; ids are decoded from their literal text.
func ParseViewMetadata(data []byte) (*ViewMetadata, error) {
	var jm jsonViewMetadata
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&jm); err != nil {
		return nil, fmt.Errorf("parse view metadata: %w: %w", ErrDataInvalid, err)
	}
	if jm.ViewUUID == nil {
		return nil, fmt.Errorf("parse view metadata: no view-uuid: %w", ErrDataInvalid)
	}
	m := &ViewMetadata{
		FormatVersion:    jm.FormatVersion,
		ViewUUID:         *jm.ViewUUID,
		Location:         jm.Location,
		CurrentVersionID: int(jm.CurrentVersionID),
		Properties:       stringMap(jm.Properties),
	}
	if m.Properties == nil {
		m.Properties = map[string]string{}
	}
	if m.FormatVersion != ViewFormatVersion {
		return nil, fmt.Errorf("view metadata format-version %d: %w", m.FormatVersion, ErrUnsupported)
	}
	for i, js := range jm.Schemas {
		fields, err := parseJSONFields(js.Fields)
		if err != nil {
			return nil, fmt.Errorf("view schema %d: %w", i, err)
		}
		id := 0
		if js.SchemaID != nil {
			id = int(*js.SchemaID)
		}
		m.Schemas = append(m.Schemas, &Schema{ID: id, Fields: fields, IdentifierFieldIDs: js.IdentifierFieldIDs})
	}
	for _, jv := range jm.Versions {
		v, err := viewVersionFromJSON(jv)
		if err != nil {
			return nil, err
		}
		m.Versions = append(m.Versions, v)
	}
	for _, e := range jm.VersionLog {
		m.VersionLog = append(m.VersionLog, ViewLogEntry{TimestampMs: int64(e.TimestampMs), VersionID: int(e.VersionID)})
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	return m, nil
}

func viewVersionFromJSON(jv jsonViewVersion) (*ViewVersion, error) {
	v := &ViewVersion{
		VersionID:        int(jv.VersionID),
		TimestampMs:      int64(jv.TimestampMs),
		SchemaID:         int(jv.SchemaID),
		Summary:          stringMap(jv.Summary),
		DefaultNamespace: jv.DefaultNamespace,
	}
	if v.Summary == nil {
		v.Summary = map[string]string{}
	}
	if v.DefaultNamespace == nil {
		v.DefaultNamespace = []string{}
	}
	if jv.DefaultCatalog != nil {
		v.DefaultCatalog = *jv.DefaultCatalog
	}
	for _, raw := range jv.Representations {
		var jr jsonViewRepresentation
		if err := json.Unmarshal(raw, &jr); err != nil {
			return nil, fmt.Errorf("view version %d representation: %w: %w", v.VersionID, ErrDataInvalid, err)
		}
		r := ViewRepresentation{Type: jr.Type}
		if strings.EqualFold(jr.Type, "sql") {
			r.Type, r.SQL, r.Dialect = "sql", jr.SQL, jr.Dialect
		} else {
			r.Raw = compactJSON(raw)
		}
		v.Representations = append(v.Representations, r)
	}
	return v, nil
}

// MarshalViewMetadata writes view metadata as the view spec's JSON, fields
// in the order the spec lists them.
func MarshalViewMetadata(m *ViewMetadata) ([]byte, error) {
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("write view metadata: %w", err)
	}
	w := &jsonWriter{}
	w.open('{')
	w.field("view-uuid", m.ViewUUID)
	w.field("format-version", m.FormatVersion)
	w.field("location", m.Location)
	w.field("current-version-id", m.CurrentVersionID)
	props := m.Properties
	if props == nil {
		props = map[string]string{}
	}
	w.field("properties", sortedMap(props))
	w.key("versions")
	w.open('[')
	for _, v := range m.Versions {
		w.elem()
		w.viewVersion(v)
	}
	w.close(']')
	w.key("version-log")
	w.open('[')
	for _, e := range m.VersionLog {
		w.elem()
		w.open('{')
		w.field("timestamp-ms", e.TimestampMs)
		w.field("version-id", e.VersionID)
		w.close('}')
	}
	w.close(']')
	w.key("schemas")
	w.open('[')
	for _, s := range m.Schemas {
		w.elem()
		if err := w.schema(s); err != nil {
			return nil, fmt.Errorf("write view metadata: %w", err)
		}
	}
	w.close(']')
	w.close('}')
	if w.err != nil {
		return nil, fmt.Errorf("write view metadata: %w", w.err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, w.buf.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("write view metadata: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func (w *jsonWriter) viewVersion(v *ViewVersion) {
	w.open('{')
	w.field("version-id", v.VersionID)
	w.field("timestamp-ms", v.TimestampMs)
	w.field("schema-id", v.SchemaID)
	summary := v.Summary
	if summary == nil {
		summary = map[string]string{}
	}
	w.field("summary", sortedMap(summary))
	w.key("representations")
	w.open('[')
	for _, r := range v.Representations {
		w.elem()
		if r.Type != "sql" && len(r.Raw) > 0 {
			w.buf.Write(r.Raw)
			continue
		}
		w.open('{')
		w.field("type", r.Type)
		w.key("sql")
		w.text(r.SQL)
		w.field("dialect", r.Dialect)
		w.close('}')
	}
	w.close(']')
	if v.DefaultCatalog != "" {
		w.field("default-catalog", v.DefaultCatalog)
	}
	ns := v.DefaultNamespace
	if ns == nil {
		ns = []string{}
	}
	w.field("default-namespace", slices.Clone(ns))
	w.close('}')
}

// text writes a JSON string without escaping <, > and & (SQL reads better
// as written; the JSON is the same).
func (w *jsonWriter) text(s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil && w.err == nil {
		w.err = err
	}
	w.buf.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// replacementJSON is ReplaceVersion of base by next, and the result's
// JSON: what a catalog writes as the view's next metadata file.
func (base *ViewMetadata) replacementJSON(next *ViewMetadata) (*ViewMetadata, []byte, error) {
	m, err := base.ReplaceVersion(next)
	if err != nil {
		return nil, nil, err
	}
	data, err := MarshalViewMetadata(m)
	if err != nil {
		return nil, nil, err
	}
	return m, data, nil
}
