package catalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// viewJSON is view metadata as another engine might write it: two
// versions, two schemas, a representation type icegate does not know, and
// a timestamp that does not fit a float64 exactly.
const viewJSON = `{
  "view-uuid": "fa6506c3-7681-40c8-86dc-e36561f83385",
  "format-version": 1,
  "location": "s3://bucket/warehouse/db/event_agg",
  "current-version-id": 2,
  "properties": {"comment": "daily event counts", "owner": 7},
  "versions": [
    {"version-id": 1, "timestamp-ms": 1573518431292, "schema-id": 1,
     "summary": {"engine-name": "Spark", "engine-version": "3.3.2"},
     "representations": [{"type": "sql", "sql": "SELECT COUNT(1), CAST(event_ts AS DATE) FROM events WHERE x > 0 AND y < 1 GROUP BY 2", "dialect": "spark"}],
     "default-namespace": ["db"]},
    {"version-id": 2, "timestamp-ms": 9007199254740993, "schema-id": 2,
     "summary": {"engine-name": "Trino"},
     "representations": [
       {"type": "sql", "sql": "SELECT count(*) AS event_count FROM events", "dialect": "trino"},
       {"type": "sql", "sql": "SELECT count(*) AS event_count FROM events", "dialect": "postgres"},
       {"type": "substrait", "plan": {"rel": [1, 2]}}],
     "default-catalog": "prod",
     "default-namespace": ["db", "sub"]}
  ],
  "version-log": [{"timestamp-ms": 1573518431292, "version-id": 1}, {"timestamp-ms": 9007199254740993, "version-id": 2}],
  "schemas": [
    {"schema-id": 1, "type": "struct", "fields": [
      {"id": 1, "name": "event_count", "required": false, "type": "int", "doc": "Count of events"},
      {"id": 2, "name": "event_date", "required": false, "type": "date"}]},
    {"schema-id": 2, "type": "struct", "fields": [
      {"id": 1, "name": "event_count", "required": false, "type": "long"}]}
  ]
}`

func TestViewMetadataJSON(t *testing.T) {
	m, err := ParseViewMetadata([]byte(viewJSON))
	if err != nil {
		t.Fatal(err)
	}
	if m.ViewUUID != "fa6506c3-7681-40c8-86dc-e36561f83385" || m.CurrentVersionID != 2 || len(m.Versions) != 2 || len(m.Schemas) != 2 {
		t.Fatalf("parsed %+v", m)
	}
	if m.Properties["owner"] != "7" || m.Properties["comment"] != "daily event counts" {
		t.Errorf("properties %v", m.Properties)
	}
	cur := m.CurrentVersion()
	if cur.TimestampMs != 9007199254740993 {
		t.Errorf("timestamp-ms %d: lost precision", cur.TimestampMs)
	}
	if cur.DefaultCatalog != "prod" || !slices.Equal(cur.DefaultNamespace, []string{"db", "sub"}) {
		t.Errorf("defaults %q %v", cur.DefaultCatalog, cur.DefaultNamespace)
	}
	if len(cur.Representations) != 3 || cur.Representations[2].Type != "substrait" || len(cur.Representations[2].Raw) == 0 {
		t.Errorf("representations %+v", cur.Representations)
	}
	v := &View{Metadata: m}
	sql, dialect, ok := v.SQL()
	if !ok || dialect != "postgres" || sql != "SELECT count(*) AS event_count FROM events" {
		t.Errorf("SQL() = %q %q %v, want the postgres representation", sql, dialect, ok)
	}
	if s := v.Schema(); s == nil || s.ID != 2 || len(s.Fields) != 1 || s.Fields[0].Type.String() != "long" {
		t.Errorf("Schema() = %+v", s)
	}

	// Written and read again, the metadata is the same, the unknown
	// representation included.
	data, err := MarshalViewMetadata(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"sql": "SELECT COUNT(1), CAST(event_ts AS DATE) FROM events WHERE x > 0 AND y < 1 GROUP BY 2"`) {
		t.Errorf("SQL text not written as is:\n%s", data)
	}
	if !strings.Contains(string(data), `"timestamp-ms": 9007199254740993`) {
		t.Errorf("written timestamp is not exact:\n%s", data)
	}
	back, err := ParseViewMetadata(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if !reflect.DeepEqual(m, back) {
		t.Errorf("round trip differs:\nbefore %+v\nafter  %+v", m, back)
	}
	if !isViewJSON(data) {
		t.Error("written view metadata is not recognised as a view")
	}
	table, err := MarshalMetadata(mustTableMetadata(t))
	if err != nil {
		t.Fatal(err)
	}
	if isViewJSON(table) {
		t.Error("table metadata recognised as a view")
	}

	// Only the first SQL representation: that one, whatever its dialect.
	m.Versions[1].Representations = m.Versions[1].Representations[:1]
	if sql, dialect, _ := v.SQL(); dialect != "trino" || !strings.HasPrefix(sql, "SELECT count(*)") {
		t.Errorf("SQL() without a postgres representation = %q %q", sql, dialect)
	}
}

func mustTableMetadata(t *testing.T) *TableMetadata {
	t.Helper()
	m, err := NewTableMetadata(eventsSpec(2), "/tmp/wh/db/events", newUUID())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestViewMetadataInvalid(t *testing.T) {
	cases := []struct {
		name, from, to string
		want           error
	}{
		{"format version 2", `"format-version": 1`, `"format-version": 2`, ErrUnsupported},
		{"current version missing", `"current-version-id": 2`, `"current-version-id": 5`, ErrDataInvalid},
		{"schema missing", `"schema-id": 2,`, `"schema-id": 9,`, ErrDataInvalid},
		{"not JSON", `"view-uuid"`, `view-uuid`, ErrDataInvalid},
		{"no uuid", `"view-uuid"`, `"uuid"`, ErrDataInvalid},
		{"bad type", `"type": "long"`, `"type": "longer"`, ErrDataInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := strings.Replace(viewJSON, c.from, c.to, 1)
			if bad == viewJSON {
				t.Fatalf("replacement %q not applied", c.from)
			}
			_, err := ParseViewMetadata([]byte(bad))
			if !errors.Is(err, c.want) {
				t.Errorf("error %v, want %v", err, c.want)
			}
		})
	}
}

func viewSpec(sql string, cols ...string) ViewSpec {
	s := &Schema{}
	for i, c := range cols {
		s.Fields = append(s.Fields, NestedField{ID: 100 + i, Name: c, Type: &PrimitiveType{ID: TLong}})
	}
	return ViewSpec{Schema: s, SQL: sql, DefaultNamespace: []string{"db"},
		Summary: map[string]string{"engine-name": "icegate"}}
}

func newView(t *testing.T, spec ViewSpec, ts int64) *ViewMetadata {
	t.Helper()
	m, err := NewViewMetadata(spec, "", "", ts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestViewsInFilesystem covers a view's life in the filesystem catalog:
// create, load, replace, list and drop, and that tables and views never
// mistake one another.
func TestViewsInFilesystem(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	db := []string{"db"}
	vid := Identifier{Namespace: db, Name: "totals"}
	tid := Identifier{Namespace: db, Name: "events"}
	if _, err := cat.CreateTable(ctx, tid, eventsSpec(2)); err != nil {
		t.Fatal(err)
	}

	v, err := cat.CreateView(ctx, vid, newView(t, viewSpec("SELECT count(*) AS n FROM events", "n"), 1000), false)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cat.Root(), "db", "totals")
	if got := listDir(t, filepath.Join(dir, "metadata")); !slices.Equal(got, []string{"v1.metadata.json", "version-hint.text"}) {
		t.Errorf("metadata files %v", got)
	}
	if v.Metadata.ViewUUID == "" || v.Metadata.Location != dir {
		t.Errorf("uuid %q location %q", v.Metadata.ViewUUID, v.Metadata.Location)
	}
	v, err = cat.LoadView(ctx, vid)
	if err != nil {
		t.Fatal(err)
	}
	if sql, dialect, _ := v.SQL(); sql != "SELECT count(*) AS n FROM events" || dialect != DialectPostgres {
		t.Errorf("SQL %q %q", sql, dialect)
	}
	if s := v.Schema(); len(s.Fields) != 1 || s.Fields[0].ID != 1 || s.Fields[0].Name != "n" {
		t.Errorf("schema %+v (want fresh id 1)", s)
	}
	if ns := v.DefaultNamespace(); !slices.Equal(ns, db) {
		t.Errorf("default namespace %v", ns)
	}

	// Replace: a new version and schema in v2.metadata.json.
	if _, err := cat.CreateView(ctx, vid, newView(t, viewSpec("SELECT 1 AS a, 2 AS b", "a", "b"), 2000), false); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("create existing view: %v, want ErrAlreadyExists", err)
	}
	if _, err := cat.CreateView(ctx, vid, newView(t, viewSpec("SELECT 1 AS a, 2 AS b", "a", "b"), 2000), true); err != nil {
		t.Fatal(err)
	}
	v, err = cat.LoadView(ctx, vid)
	if err != nil {
		t.Fatal(err)
	}
	m := v.Metadata
	if filepath.Base(v.MetadataLocation) != "v2.metadata.json" || m.CurrentVersionID != 2 || len(m.Versions) != 2 ||
		len(m.Schemas) != 2 || len(m.VersionLog) != 2 || m.CurrentVersion().SchemaID != 1 {
		t.Errorf("after replace: %s %+v", v.MetadataLocation, m)
	}
	if sql, _, _ := v.SQL(); sql != "SELECT 1 AS a, 2 AS b" {
		t.Errorf("SQL after replace %q", sql)
	}
	// Replacing with the first definition again makes version 1 current.
	if _, err := cat.CreateView(ctx, vid, newView(t, viewSpec("SELECT count(*) AS n FROM events", "n"), 3000), true); err != nil {
		t.Fatal(err)
	}
	v, _ = cat.LoadView(ctx, vid)
	if m := v.Metadata; m.CurrentVersionID != 1 || len(m.Versions) != 2 || len(m.VersionLog) != 3 {
		t.Errorf("after replacing back: %+v", m)
	}

	// Tables and views stay apart.
	steps := []struct {
		name string
		run  func() error
		want error
	}{
		{"load view as table", func() error { _, err := cat.LoadTable(ctx, vid); return err }, ErrNotFound},
		{"load table as view", func() error { _, err := cat.LoadView(ctx, tid); return err }, ErrNotFound},
		{"load missing view", func() error { _, err := cat.LoadView(ctx, Identifier{Namespace: db, Name: "x"}); return err }, ErrNotFound},
		{"create view over table", func() error {
			_, err := cat.CreateView(ctx, tid, newView(t, viewSpec("SELECT 1 AS a", "a"), 1), false)
			return err
		}, ErrAlreadyExists},
		{"replace table by view", func() error {
			_, err := cat.CreateView(ctx, tid, newView(t, viewSpec("SELECT 1 AS a", "a"), 1), true)
			return err
		}, ErrAlreadyExists},
		{"create view in missing namespace", func() error {
			_, err := cat.CreateView(ctx, Identifier{Namespace: []string{"nope"}, Name: "v"}, newView(t, viewSpec("SELECT 1 AS a", "a"), 1), false)
			return err
		}, ErrNotFound},
		{"create table over view", func() error { _, err := cat.CreateTable(ctx, vid, eventsSpec(2)); return err }, ErrAlreadyExists},
		{"commit to view", func() error { _, err := cat.CommitTable(ctx, vid, nil, nil); return err }, ErrNotFound},
		{"drop view as table", func() error { return cat.DropTable(ctx, vid, false) }, ErrNotFound},
		{"rename view as table", func() error { return cat.RenameTable(ctx, vid, Identifier{Namespace: db, Name: "r"}) }, ErrNotFound},
		{"drop table as view", func() error { return cat.DropView(ctx, tid) }, ErrNotFound},
		{"drop namespace holding a view", func() error {
			if err := cat.DropTable(ctx, tid, true); err != nil {
				return err
			}
			return cat.DropNamespace(ctx, db)
		}, ErrNotEmpty},
	}
	for _, s := range steps {
		if err := s.run(); !errors.Is(err, s.want) || (s.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", s.name, err, s.want)
		}
	}
	if _, err := cat.CreateTable(ctx, tid, eventsSpec(2)); err != nil {
		t.Fatal(err)
	}

	tables, err := cat.ListTables(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	views, err := cat.ListViews(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 || tables[0].Name != "events" || len(views) != 1 || views[0].Name != "totals" {
		t.Errorf("tables %v views %v", tables, views)
	}
	if nss, _ := cat.ListNamespaces(ctx); len(nss) != 1 {
		t.Errorf("namespaces %v: a view is no namespace", nss)
	}
	if _, err := cat.ListViews(ctx, []string{"nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("list views of missing namespace: %v", err)
	}

	if err := cat.DropView(ctx, vid); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("view directory left: %v", err)
	}
	if err := cat.DropView(ctx, vid); !errors.Is(err, ErrNotFound) {
		t.Errorf("drop dropped view: %v", err)
	}
	if _, err := cat.LoadView(ctx, vid); !errors.Is(err, ErrNotFound) {
		t.Errorf("load dropped view: %v", err)
	}
	// The name is free again, for a table too.
	if _, err := cat.CreateTable(ctx, vid, eventsSpec(2)); err != nil {
		t.Errorf("create table where the view was: %v", err)
	}
	if views, _ := cat.ListViews(ctx, db); len(views) != 0 {
		t.Errorf("views after drop %v", views)
	}
}

// TestViewHistoryKept checks that replacing a view keeps at most
// version.history.num-entries versions, the current one among them.
func TestViewHistoryKept(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	vid := Identifier{Namespace: []string{"db"}, Name: "v"}
	spec := viewSpec("SELECT 0 AS a", "a")
	spec.Properties = map[string]string{PropViewHistoryKept: "2"}
	if _, err := cat.CreateView(ctx, vid, newView(t, spec, 1), false); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 4; i++ {
		sql := "SELECT " + strings.Repeat("1+", i) + "0 AS a"
		if _, err := cat.CreateView(ctx, vid, newView(t, viewSpec(sql, "a"), int64(i+1)), true); err != nil {
			t.Fatal(err)
		}
	}
	v, err := cat.LoadView(ctx, vid)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, ver := range v.Metadata.Versions {
		ids = append(ids, ver.VersionID)
	}
	if !slices.Equal(ids, []int{4, 5}) || v.Metadata.CurrentVersionID != 5 || len(v.Metadata.Schemas) != 1 || len(v.Metadata.VersionLog) != 5 {
		t.Errorf("versions %v current %d schemas %d log %d", ids, v.Metadata.CurrentVersionID, len(v.Metadata.Schemas), len(v.Metadata.VersionLog))
	}
	if filepath.Base(v.MetadataLocation) != "v5.metadata.json" {
		t.Errorf("metadata file %s", v.MetadataLocation)
	}
}
