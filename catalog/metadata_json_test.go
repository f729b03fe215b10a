package catalog

import (
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

func TestParseMetadataV1Legacy(t *testing.T) {
	data := []byte(`{
	  "format-version": 1,
	  "table-uuid": "d20125c8-7284-442c-9aea-15fee620737c",
	  "location": "s3://bucket/db/t",
	  "last-updated-ms": 1602638573874,
	  "last-column-id": 3,
	  "schema": {"type": "struct", "fields": [
	    {"id": 1, "name": "x", "required": true, "type": "long"},
	    {"id": 2, "name": "y", "required": false, "type": "string", "doc": "comment"},
	    {"id": 3, "name": "z", "required": false, "type": "decimal(9,2)"}]},
	  "partition-spec": [
	    {"name": "x_bucket", "transform": "bucket[16]", "source-id": 1},
	    {"name": "y_trunc", "transform": "truncate[10]", "source-id": 2},
	    {"name": "z_void", "transform": "void", "source-id": 3}],
	  "properties": {"owner": "root", "write.parquet.row-group-size": 134217728},
	  "current-snapshot-id": -1,
	  "snapshots": [{"snapshot-id": 3051729675574597004, "timestamp-ms": 1515100955770,
	    "summary": {"operation": "append"},
	    "manifests": ["s3://bucket/db/t/metadata/m1.avro", "s3://bucket/db/t/metadata/m2.avro"]}],
	  "some-future-field": {"nested": [1, 2, 3]}
	}`)
	m, err := ParseMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.FormatVersion != 1 || m.CurrentSchemaID != 0 || len(m.Schemas) != 1 {
		t.Fatalf("version %d, current schema %d, %d schemas", m.FormatVersion, m.CurrentSchemaID, len(m.Schemas))
	}
	if got := m.CurrentSchema().Fields[2].Type.String(); got != "decimal(9, 2)" {
		t.Errorf("z type %s", got)
	}
	if m.CurrentSchema().Fields[1].Doc != "comment" || !m.CurrentSchema().Fields[0].Required {
		t.Errorf("fields %+v", m.CurrentSchema().Fields)
	}
	wantSpec := &PartitionSpec{ID: 0, Fields: []PartitionField{
		{SourceID: 1, FieldID: 1000, Name: "x_bucket", Transform: Transform{Name: "bucket", Param: 16}},
		{SourceID: 2, FieldID: 1001, Name: "y_trunc", Transform: Transform{Name: "truncate", Param: 10}},
		{SourceID: 3, FieldID: 1002, Name: "z_void", Transform: Transform{Name: "void"}},
	}}
	if !reflect.DeepEqual(m.SpecByID(0), wantSpec) || m.DefaultSpecID != 0 {
		t.Errorf("spec %+v", m.SpecByID(0))
	}
	if m.LastPartitionID != 1002 {
		t.Errorf("last partition id %d", m.LastPartitionID)
	}
	if m.CurrentSnapshotID != nil || m.CurrentSnapshot() != nil {
		t.Errorf("current snapshot %v, want none (-1)", *m.CurrentSnapshotID)
	}
	if _, ok := m.Refs["main"]; ok {
		t.Errorf("main ref derived for a table without current snapshot")
	}
	s := m.SnapshotByID(3051729675574597004)
	if s == nil || len(s.Manifests) != 2 || s.ManifestList != "" || s.Summary["operation"] != "append" {
		t.Fatalf("snapshot %+v", s)
	}
	if m.Properties["write.parquet.row-group-size"] != "134217728" {
		t.Errorf("numeric property %q", m.Properties["write.parquet.row-group-size"])
	}
}

func TestParseMetadataTransforms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Transform
	}{
		{"identity", Transform{Name: "identity"}},
		{"bucket[16]", Transform{Name: "bucket", Param: 16}},
		{"truncate[4]", Transform{Name: "truncate", Param: 4}},
		{"void", Transform{Name: "void"}},
		{"year", Transform{Name: "year"}},
		{"month", Transform{Name: "month"}},
		{"day", Transform{Name: "day"}},
		{"hour", Transform{Name: "hour"}},
	} {
		got, err := ParseTransform(tc.in)
		if err != nil || got != tc.want || got.String() != tc.in {
			t.Errorf("ParseTransform(%q) = %+v, %v", tc.in, got, err)
		}
	}
	if _, err := ParseTransform("zorder"); !errors.Is(err, ErrUnsupported) {
		t.Errorf("unknown transform: %v, want ErrUnsupported", err)
	}
}

// TestParseMetadataExactIDs: README quirk 1. v2 of the table holds the exact
// id, which float64 would round to ...728.
func TestParseMetadataExactIDs(t *testing.T) {
	dir := filepath.Join(fixtures.Dir(t), "impala__iceberg_v3_all_types", "metadata")
	for _, tc := range []struct {
		file string
		want int64
	}{
		{"v2.metadata.json", 2190628750428777669},
		{"v4.metadata.json", 4685659321801244000},
	} {
		data, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseMetadata(data)
		if err != nil {
			t.Fatal(err)
		}
		if m.CurrentSnapshotID == nil || *m.CurrentSnapshotID != tc.want {
			t.Errorf("%s: current snapshot %v, want %d", tc.file, m.CurrentSnapshotID, tc.want)
		}
		if m.Refs["main"].SnapshotID != tc.want {
			t.Errorf("%s: main ref %d, want %d", tc.file, m.Refs["main"].SnapshotID, tc.want)
		}
	}
}

func TestParseMetadataRefs(t *testing.T) {
	m := fixtureMetadata(t, "lithium__gperov_test")
	if r, ok := m.Refs["test-branch"]; !ok || r.Type != "branch" {
		t.Errorf("test-branch ref %+v", r)
	}
	if r, ok := m.Refs["EOW-01"]; !ok || r.Type != "tag" || m.SnapshotByID(r.SnapshotID) == nil {
		t.Errorf("EOW-01 ref %+v", r)
	}
	if r := m.Refs["main"]; r.SnapshotID != *m.CurrentSnapshotID {
		t.Errorf("main ref %d, current %d", r.SnapshotID, *m.CurrentSnapshotID)
	}
}

// fixtureMetadata parses the current metadata of a fixture table.
func fixtureMetadata(t *testing.T, folder string) *TableMetadata {
	t.Helper()
	ft := loadFixtureTables(t)[folder]
	data, err := os.ReadFile(filepath.Join(fixtures.Dir(t), folder, filepath.FromSlash(ft.CurrentMetadata)))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseMetadataV3Defaults(t *testing.T) {
	m := fixtureMetadata(t, "duckdb__add_columns_with_defaults")
	uuid := [16]byte{0xf7, 0x9c, 0x3e, 0x09, 0x67, 0x7c, 0x4b, 0xbd, 0xa4, 0x79, 0x3f, 0x34, 0x9c, 0xb7, 0x85, 0xe7}
	want := map[string]any{
		"col_boolean":     true,
		"col_integer":     int32(342342),
		"col_long":        int64(-9223372036854775808),
		"col_float":       float32(0.34234),
		"col_double":      0.342343242342342,
		"col_decimal":     Decimal{Unscaled: big.NewInt(1234500), Scale: 2},
		"col_date":        int32(12345), // 2003-10-20
		"col_time":        int64(12345),
		"col_timestamp":   int64(12345),
		"col_timestamptz": int64(12345),
		"col_string":      "HELLO",
		"col_uuid":        uuid,
		"col_fixed":       []byte{1, 2, 3, 0xff, 3},
		"col_binary":      []byte{1, 2},
	}
	fields := m.CurrentSchema().Fields
	seen := 0
	for _, f := range fields {
		w, ok := want[f.Name]
		if !ok {
			continue
		}
		seen++
		if !ValuesEqual(f.InitialDefault, w) || !ValuesEqual(f.WriteDefault, w) {
			t.Errorf("%s: defaults %#v / %#v, want %#v", f.Name, f.InitialDefault, f.WriteDefault, w)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of %d defaulted fields", seen, len(want))
	}

	// A default inside a struct (Impala v3 table).
	cm := fixtureMetadata(t, "impala__test_complex_default")
	var found bool
	for _, s := range cm.Schemas {
		for _, f := range s.Fields {
			st, ok := f.Type.(*StructType)
			if !ok {
				continue
			}
			for _, sf := range st.Fields {
				if sf.Name == "f1" && sf.InitialDefault != nil {
					found = sf.InitialDefault == int32(-1)
				}
			}
		}
	}
	if !found {
		t.Errorf("struct field f1 initial-default -1 not found")
	}
}

func TestParseDefaultNested(t *testing.T) {
	st := &StructType{Fields: []NestedField{
		{ID: 1, Name: "a", Type: &PrimitiveType{ID: TInt}},
		{ID: 2, Name: "b", Type: &ListType{ElementID: 3, Element: &PrimitiveType{ID: TString}}},
		{ID: 4, Name: "c", Type: &MapType{KeyID: 5, Key: &PrimitiveType{ID: TString}, ValueID: 6, Value: &PrimitiveType{ID: TDate}}},
		{ID: 7, Name: "d", Type: &PrimitiveType{ID: TTimestampNs}},
	}}
	got, err := parseDefault(st, []byte(`{"1": 7, "2": ["x", null], "4": {"keys": ["k"], "values": ["1970-01-02"]}, "7": "1970-01-01T00:00:01.000000001"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]any{1: int32(7), 2: []any{"x", nil}, 4: MapValue{Keys: []any{"k"}, Values: []any{int32(1)}}, 7: int64(1_000_000_001)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
	for _, tc := range []struct {
		typ Type
		raw string
	}{
		{&PrimitiveType{ID: TInt}, `"x"`},
		{&PrimitiveType{ID: TInt}, `3000000000`},
		{&PrimitiveType{ID: TDecimal, Precision: 9, Scale: 2}, `"1.234"`},
		{&PrimitiveType{ID: TFixed, Length: 2}, `"010203"`},
		{&PrimitiveType{ID: TUUID}, `"not-a-uuid"`},
		{&PrimitiveType{ID: TTime}, `"25:00:00"`},
		{&MapType{Key: &PrimitiveType{ID: TInt}, Value: &PrimitiveType{ID: TInt}}, `{"keys": [1], "values": []}`},
	} {
		if _, err := parseDefault(tc.typ, []byte(tc.raw)); !errors.Is(err, ErrDataInvalid) {
			t.Errorf("default %s of %s: %v, want ErrDataInvalid", tc.raw, tc.typ, err)
		}
	}
}

func TestParseType(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want PrimitiveType
		str  string
	}{
		{"boolean", PrimitiveType{ID: TBoolean}, "boolean"},
		{"int", PrimitiveType{ID: TInt}, "int"},
		{"long", PrimitiveType{ID: TLong}, "long"},
		{"decimal(9,2)", PrimitiveType{ID: TDecimal, Precision: 9, Scale: 2}, "decimal(9, 2)"},
		{"decimal(38, 10)", PrimitiveType{ID: TDecimal, Precision: 38, Scale: 10}, "decimal(38, 10)"},
		{"fixed[16]", PrimitiveType{ID: TFixed, Length: 16}, "fixed[16]"},
		{"timestamp_ns", PrimitiveType{ID: TTimestampNs}, "timestamp_ns"},
		{"timestamptz_ns", PrimitiveType{ID: TTimestamptzNs}, "timestamptz_ns"},
		{"timestamptz", PrimitiveType{ID: TTimestamptz}, "timestamptz"},
		{"uuid", PrimitiveType{ID: TUUID}, "uuid"},
		{"variant", PrimitiveType{ID: TVariant}, "variant"},
		{"unknown", PrimitiveType{ID: TUnknown}, "unknown"},
		{"geometry", PrimitiveType{ID: TGeometry}, "geometry"},
		{"geometry(srid:4326)", PrimitiveType{ID: TGeometry, Param: "srid:4326"}, "geometry(srid:4326)"},
		{"geography(srid:4269, karney)", PrimitiveType{ID: TGeography, Param: "srid:4269, karney"}, "geography(srid:4269, karney)"},
	} {
		got, err := ParseType(tc.in)
		if err != nil || *got != tc.want || got.String() != tc.str {
			t.Errorf("ParseType(%q) = %+v, %v", tc.in, got, err)
		}
	}
	for _, bad := range []string{"decimal(9)", "decimal(40,2)", "fixed[x]", "fixed[0]", "int64", ""} {
		if _, err := ParseType(bad); !errors.Is(err, ErrDataInvalid) {
			t.Errorf("ParseType(%q): %v, want ErrDataInvalid", bad, err)
		}
	}
}

func TestParseNestedTypes(t *testing.T) {
	m := fixtureMetadata(t, "lithium__unsupported_types")
	f := m.CurrentSchema().Fields
	mt, ok := f[0].Type.(*MapType)
	if !ok || mt.Key.String() != "string" || mt.Value.String() != "int" || mt.KeyID == 0 || mt.ValueID == 0 {
		t.Errorf("col0 %#v", f[0].Type)
	}
	st, ok := f[1].Type.(*StructType)
	if !ok || len(st.Fields) != 2 || st.Fields[1].Name != "nested_string" {
		t.Errorf("col1 %#v", f[1].Type)
	}
	if m.CurrentSchema().FindField(mt.ValueID) == nil || m.CurrentSchema().FindField(st.Fields[1].ID) == nil {
		t.Errorf("nested field ids not found")
	}
}

func TestParseMetadataErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		want error
	}{
		{"not json", `{`, ErrDataInvalid},
		{"future version", `{"format-version": 4, "schemas": []}`, ErrUnsupported},
		{"no schema", `{"format-version": 2}`, ErrDataInvalid},
		{"bad type", `{"format-version": 2, "current-schema-id": 0, "schemas": [{"schema-id": 0, "fields": [{"id": 1, "name": "a", "type": "int128"}]}]}`, ErrDataInvalid},
		{"missing current schema", `{"format-version": 2, "current-schema-id": 5, "schemas": [{"schema-id": 0, "fields": []}]}`, ErrDataInvalid},
		{"fractional id", `{"format-version": 2, "current-snapshot-id": 1.5, "schemas": [{"schema-id": 0, "fields": []}]}`, ErrDataInvalid},
	} {
		if _, err := ParseMetadata([]byte(tc.data)); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestParseMetadataV3LineageAndStatistics(t *testing.T) {
	m := fixtureMetadata(t, "impala__iceberg_v3_row_lineage")
	if m.FormatVersion != 3 || m.NextRowID == nil {
		t.Fatalf("format %d, next-row-id %v", m.FormatVersion, m.NextRowID)
	}
	var added int64
	for _, s := range m.Snapshots {
		if s.FirstRowID == nil || s.AddedRows == nil {
			t.Fatalf("snapshot %d without row lineage", s.SnapshotID)
		}
		added = max(added, *s.FirstRowID+*s.AddedRows)
	}
	if added != *m.NextRowID {
		t.Errorf("snapshots cover rows up to %d, next-row-id %d", added, *m.NextRowID)
	}
	if len(m.SnapshotLog) != len(m.Snapshots) || len(m.MetadataLog) == 0 {
		t.Errorf("snapshot log %d entries, metadata log %d", len(m.SnapshotLog), len(m.MetadataLog))
	}

	st := fixtureMetadata(t, "impala__iceberg_with_puffin_stats")
	if len(st.Statistics) == 0 || st.Statistics[0].FileSizeBytes <= 0 || st.SnapshotByID(st.Statistics[0].SnapshotID) == nil {
		t.Errorf("statistics %+v", st.Statistics)
	}
}

func TestParseMetadataV2Full(t *testing.T) {
	m, err := ParseMetadata([]byte(`{
	  "format-version": 2, "table-uuid": "u", "location": "s3://b/t", "last-sequence-number": 34,
	  "last-updated-ms": 1602638573590, "last-column-id": 3, "current-schema-id": 1,
	  "schemas": [
	    {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "x", "required": true, "type": "long"}]},
	    {"type": "struct", "schema-id": 1, "identifier-field-ids": [1, 2], "fields": [
	      {"id": 1, "name": "x", "required": true, "type": "long"},
	      {"id": 2, "name": "y", "required": true, "type": "long"},
	      {"id": 3, "name": "z", "required": true, "type": {"type": "list", "element-id": 4, "element": "string", "element-required": true}}]}],
	  "default-spec-id": 0,
	  "partition-specs": [{"spec-id": 0, "fields": [{"name": "x", "transform": "identity", "source-id": 1, "field-id": 1000}]}],
	  "last-partition-id": 1000, "default-sort-order-id": 3,
	  "sort-orders": [{"order-id": 3, "fields": [
	    {"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"},
	    {"transform": "bucket[4]", "source-id": 3, "direction": "desc", "null-order": "nulls-last"}]}],
	  "properties": {"read.split.target.size": "134217728"},
	  "current-snapshot-id": 3055729675574597004,
	  "snapshots": [
	    {"snapshot-id": 3051729675574597004, "timestamp-ms": 1515100955770, "sequence-number": 0,
	     "summary": {"operation": "append"}, "manifest-list": "s3://a/b/1.avro"},
	    {"snapshot-id": 3055729675574597004, "parent-snapshot-id": 3051729675574597004, "timestamp-ms": 1555100955770,
	     "sequence-number": 1, "summary": {"operation": "append"}, "manifest-list": "s3://a/b/2.avro", "schema-id": 1}],
	  "refs": {"audit": {"snapshot-id": 3051729675574597004, "type": "tag", "max-ref-age-ms": 86400000}},
	  "snapshot-log": [{"snapshot-id": 3051729675574597004, "timestamp-ms": 1515100955770}],
	  "metadata-log": [{"metadata-file": "s3://bucket/.../v1.json", "timestamp-ms": 1515100}]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	s := m.CurrentSchema()
	if s.ID != 1 || !reflect.DeepEqual(s.IdentifierFieldIDs, []int{1, 2}) {
		t.Errorf("schema %+v", s)
	}
	if lt, ok := s.Fields[2].Type.(*ListType); !ok || lt.ElementID != 4 || !lt.ElementRequired || s.FindField(4) == nil {
		t.Errorf("list %#v", s.Fields[2].Type)
	}
	so := m.SortOrders[0]
	if m.DefaultSortOrderID != 3 || so.ID != 3 || so.Fields[1].Transform != (Transform{Name: "bucket", Param: 4}) || so.Fields[1].Direction != "desc" || so.Fields[0].NullOrder != "nulls-first" {
		t.Errorf("sort orders %+v", m.SortOrders)
	}
	cur := m.CurrentSnapshot()
	if cur == nil || *cur.ParentSnapshotID != 3051729675574597004 || *cur.SchemaID != 1 || cur.SequenceNumber != 1 {
		t.Fatalf("current snapshot %+v", cur)
	}
	if r := m.Refs["audit"]; r.Type != "tag" || *r.MaxRefAgeMs != 86400000 {
		t.Errorf("audit ref %+v", r)
	}
	if r := m.Refs["main"]; r.SnapshotID != 3055729675574597004 || r.Type != "branch" {
		t.Errorf("derived main ref %+v", r)
	}
	if m.LastSequenceNumber != 34 || m.LastPartitionID != 1000 || m.Properties["read.split.target.size"] != "134217728" {
		t.Errorf("metadata %+v", m)
	}
}
