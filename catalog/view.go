package catalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ViewFormatVersion is the format version of view metadata this package
// reads and writes.
const ViewFormatVersion = 1

// DialectPostgres is the dialect of the SQL representations icegate writes.
const DialectPostgres = "postgres"

// PropViewHistoryKept is the view property bounding how many versions a
// view's metadata keeps (the current one always stays).
const PropViewHistoryKept = "version.history.num-entries"

const defaultViewHistoryKept = 10

// ViewMetadata is a parsed view metadata file (view spec, format version
// 1). Like table metadata it is immutable once loaded.
type ViewMetadata struct {
	FormatVersion    int
	ViewUUID         string
	Location         string
	CurrentVersionID int
	Versions         []*ViewVersion
	VersionLog       []ViewLogEntry
	Schemas          []*Schema
	Properties       map[string]string
}

// ViewVersion is one version of a view: the query in one or more
// representations and the schema of its output.
type ViewVersion struct {
	VersionID        int
	TimestampMs      int64
	SchemaID         int
	Summary          map[string]string
	Representations  []ViewRepresentation
	DefaultCatalog   string // "": none
	DefaultNamespace []string
}

// ViewRepresentation is one representation of a view's query. Type "sql"
// carries SQL text in a dialect; other types are kept as read (Raw).
type ViewRepresentation struct {
	Type    string
	SQL     string
	Dialect string
	Raw     json.RawMessage // the JSON object of a representation that is not "sql"
}

// ViewLogEntry records a change of the current version.
type ViewLogEntry struct {
	TimestampMs int64
	VersionID   int
}

// View is a loaded view: its current metadata and where it was read from.
type View struct {
	Ident            Identifier
	MetadataLocation string
	Metadata         *ViewMetadata
}

// CurrentVersion returns the current version, or nil for invalid metadata.
func (m *ViewMetadata) CurrentVersion() *ViewVersion {
	return m.VersionByID(m.CurrentVersionID)
}

// VersionByID returns the version with id, or nil.
func (m *ViewMetadata) VersionByID(id int) *ViewVersion {
	for _, v := range m.Versions {
		if v.VersionID == id {
			return v
		}
	}
	return nil
}

// SchemaByID returns the schema with id, or nil.
func (m *ViewMetadata) SchemaByID(id int) *Schema {
	for _, s := range m.Schemas {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// SQL returns the query of the current version: the representation in
// dialect "postgres" if there is one, else the first SQL representation.
// ok is false when the version has no SQL representation.
func (v *View) SQL() (sql, dialect string, ok bool) {
	cur := v.Metadata.CurrentVersion()
	if cur == nil {
		return "", "", false
	}
	var first *ViewRepresentation
	for i := range cur.Representations {
		r := &cur.Representations[i]
		if r.Type != "sql" {
			continue
		}
		if strings.EqualFold(r.Dialect, DialectPostgres) {
			return r.SQL, r.Dialect, true
		}
		if first == nil {
			first = r
		}
	}
	if first == nil {
		return "", "", false
	}
	return first.SQL, first.Dialect, true
}

// Schema returns the schema of the current version's output.
func (v *View) Schema() *Schema {
	cur := v.Metadata.CurrentVersion()
	if cur == nil {
		return nil
	}
	return v.Metadata.SchemaByID(cur.SchemaID)
}

// DefaultNamespace returns the namespace the current version's unqualified
// names resolve in.
func (v *View) DefaultNamespace() []string {
	if cur := v.Metadata.CurrentVersion(); cur != nil {
		return slices.Clone(cur.DefaultNamespace)
	}
	return nil
}

// ViewSpec describes a view to create, or the new version of a view to
// replace it with.
type ViewSpec struct {
	// Schema is the output of the query; its field ids are replaced by
	// fresh ones (1, 2, ... as for new tables).
	Schema           *Schema
	SQL              string
	Dialect          string // "": postgres
	DefaultNamespace []string
	DefaultCatalog   string
	Summary          map[string]string // e.g. engine-name, engine-version
	Properties       map[string]string
}

// NewViewMetadata returns the metadata of a new view with one version
// (id 1, schema 0) made at timestamp nowMs. The UUID and location are left
// empty when not given: the catalog fills them in.
func NewViewMetadata(spec ViewSpec, uuid, location string, nowMs int64) (*ViewMetadata, error) {
	if spec.Schema == nil {
		return nil, fmt.Errorf("create view: no schema: %w", ErrDataInvalid)
	}
	schema, _, _ := FreshSchema(spec.Schema)
	dialect := spec.Dialect
	if dialect == "" {
		dialect = DialectPostgres
	}
	v := &ViewVersion{
		VersionID:        1,
		TimestampMs:      nowMs,
		SchemaID:         schema.ID,
		Summary:          maps.Clone(spec.Summary),
		Representations:  []ViewRepresentation{{Type: "sql", SQL: spec.SQL, Dialect: dialect}},
		DefaultCatalog:   spec.DefaultCatalog,
		DefaultNamespace: slices.Clone(spec.DefaultNamespace),
	}
	if v.Summary == nil {
		v.Summary = map[string]string{}
	}
	if v.DefaultNamespace == nil {
		v.DefaultNamespace = []string{}
	}
	props := maps.Clone(spec.Properties)
	if props == nil {
		props = map[string]string{}
	}
	return &ViewMetadata{
		FormatVersion:    ViewFormatVersion,
		ViewUUID:         uuid,
		Location:         location,
		CurrentVersionID: 1,
		Versions:         []*ViewVersion{v},
		VersionLog:       []ViewLogEntry{{TimestampMs: nowMs, VersionID: 1}},
		Schemas:          []*Schema{schema},
		Properties:       props,
	}, nil
}

// ReplaceVersion returns base with the current version of next made its
// current version: next's schema is added unless base has an equal one,
// the version gets the next id unless an equal version exists (which then
// becomes current again), next's properties are set over base's, and old
// versions beyond version.history.num-entries are dropped. base keeps its
// UUID and location.
func (base *ViewMetadata) ReplaceVersion(next *ViewMetadata) (*ViewMetadata, error) {
	nv := next.CurrentVersion()
	if nv == nil {
		return nil, fmt.Errorf("replace view: new metadata has no current version: %w", ErrDataInvalid)
	}
	ns := next.SchemaByID(nv.SchemaID)
	if ns == nil {
		return nil, fmt.Errorf("replace view: new version's schema %d is missing: %w", nv.SchemaID, ErrDataInvalid)
	}
	out := &ViewMetadata{
		FormatVersion: base.FormatVersion,
		ViewUUID:      base.ViewUUID,
		Location:      base.Location,
		Versions:      slices.Clone(base.Versions),
		VersionLog:    slices.Clone(base.VersionLog),
		Schemas:       slices.Clone(base.Schemas),
		Properties:    maps.Clone(base.Properties),
	}
	if out.Properties == nil {
		out.Properties = map[string]string{}
	}
	maps.Copy(out.Properties, next.Properties)

	schemaID := -1
	maxSchema := -1
	for _, s := range out.Schemas {
		maxSchema = max(maxSchema, s.ID)
		if schemaID < 0 && sameSchemaFields(s, ns) {
			schemaID = s.ID
		}
	}
	if schemaID < 0 {
		schemaID = maxSchema + 1
		s := *ns
		s.ID = schemaID
		out.Schemas = append(out.Schemas, &s)
	}

	v := *nv
	v.SchemaID = schemaID
	versionID := -1
	maxVersion := 0
	for _, old := range out.Versions {
		maxVersion = max(maxVersion, old.VersionID)
		if versionID < 0 && sameViewVersion(old, &v) {
			versionID = old.VersionID
		}
	}
	if versionID < 0 {
		versionID = maxVersion + 1
		v.VersionID = versionID
		out.Versions = append(out.Versions, &v)
	}
	out.CurrentVersionID = versionID
	out.VersionLog = append(out.VersionLog, ViewLogEntry{TimestampMs: nv.TimestampMs, VersionID: versionID})
	out.trimVersions()
	out.dropUnusedSchemas()
	return out, nil
}

// trimVersions keeps the newest version.history.num-entries versions (by
// id) and always the current one.
func (m *ViewMetadata) trimVersions() {
	keep := defaultViewHistoryKept
	if v, ok := m.Properties[PropViewHistoryKept]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 1 {
			keep = n
		}
	}
	if len(m.Versions) <= keep {
		return
	}
	ids := make([]int, 0, len(m.Versions))
	for _, v := range m.Versions {
		ids = append(ids, v.VersionID)
	}
	slices.Sort(ids)
	cut := ids[len(ids)-keep]
	m.Versions = slices.DeleteFunc(m.Versions, func(v *ViewVersion) bool {
		return v.VersionID < cut && v.VersionID != m.CurrentVersionID
	})
}

// dropUnusedSchemas removes schemas no remaining version refers to.
func (m *ViewMetadata) dropUnusedSchemas() {
	used := map[int]bool{}
	for _, v := range m.Versions {
		used[v.SchemaID] = true
	}
	m.Schemas = slices.DeleteFunc(m.Schemas, func(s *Schema) bool { return !used[s.ID] })
}

// sameSchemaFields compares two schemas ignoring their ids.
func sameSchemaFields(a, b *Schema) bool {
	ja, err1 := schemaFieldsJSON(a)
	jb, err2 := schemaFieldsJSON(b)
	return err1 == nil && err2 == nil && ja == jb
}

func schemaFieldsJSON(s *Schema) (string, error) {
	w := &jsonWriter{}
	w.open('[')
	if err := w.fields(s.Fields); err != nil {
		return "", err
	}
	w.close(']')
	return w.buf.String(), w.err
}

// sameViewVersion compares two versions ignoring id, timestamp and
// summary.
func sameViewVersion(a, b *ViewVersion) bool {
	if a.SchemaID != b.SchemaID || a.DefaultCatalog != b.DefaultCatalog ||
		!slices.Equal(a.DefaultNamespace, b.DefaultNamespace) || len(a.Representations) != len(b.Representations) {
		return false
	}
	for i := range a.Representations {
		ra, rb := a.Representations[i], b.Representations[i]
		if ra.Type != rb.Type || ra.SQL != rb.SQL || !strings.EqualFold(ra.Dialect, rb.Dialect) || string(ra.Raw) != string(rb.Raw) {
			return false
		}
	}
	return true
}

// validate checks the references inside view metadata.
func (m *ViewMetadata) validate() error {
	if m.FormatVersion != ViewFormatVersion {
		return fmt.Errorf("view metadata format-version %d: %w", m.FormatVersion, ErrUnsupported)
	}
	if m.CurrentVersion() == nil {
		return fmt.Errorf("view current-version-id %d names no version: %w", m.CurrentVersionID, ErrDataInvalid)
	}
	for _, v := range m.Versions {
		if m.SchemaByID(v.SchemaID) == nil {
			return fmt.Errorf("view version %d: schema-id %d names no schema: %w", v.VersionID, v.SchemaID, ErrDataInvalid)
		}
	}
	return nil
}
