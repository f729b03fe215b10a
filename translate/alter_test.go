package translate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
)

// TestAlterTableMetadata checks what the ALTER TABLE forms write into the
// table metadata: schema ids, partition field ids and names, the sort
// order, identifier fields and properties.
func TestAlterTableMetadata(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	ctx := context.Background()
	load := func(name string) *catalog.TableMetadata {
		t.Helper()
		tbl, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"public"}, Name: name})
		if err != nil {
			t.Fatal(err)
		}
		return tbl.Metadata
	}
	specOf := func(m *catalog.TableMetadata) string {
		var got []string
		for _, f := range m.SpecByID(m.DefaultSpecID).Fields {
			got = append(got, fmt.Sprintf("%d:%s=%s", f.FieldID, f.Name, f.Transform))
		}
		return strings.Join(got, ",")
	}
	run(t, s, "CREATE TABLE e (id bigint NOT NULL, ts timestamptz, s text)")
	run(t, s, "ALTER TABLE e ADD COLUMN n int, ADD COLUMN st struct<a:int>")
	m := load("e")
	if m.CurrentSchemaID != 1 || m.LastColumnID != 6 {
		t.Errorf("after ADD COLUMN: schema %d, last column id %d; want 1, 6", m.CurrentSchemaID, m.LastColumnID)
	}
	if f := m.CurrentSchema().Fields[3]; f.ID != 4 || f.Name != "n" || f.Required {
		t.Errorf("added column: %+v", f)
	}
	run(t, s, `ALTER TABLE e ADD COLUMN "st.b" text`)
	if got := load("e").CurrentSchema().Fields[4].Type.String(); got != "struct<a: int, b: string>" {
		t.Errorf("nested add: %s", got)
	}
	run(t, s, "ALTER TABLE e RENAME COLUMN st.a TO aa")
	run(t, s, "ALTER TABLE e ALTER COLUMN st.aa TYPE bigint COMMENT 'widened'")
	if got := load("e").CurrentSchema().Fields[4].Type.String(); got != "struct<aa: long, b: string>" {
		t.Errorf("nested rename and promotion: %s", got)
	}
	run(t, s, "COMMENT ON COLUMN e.s IS 'text'")
	run(t, s, "ALTER TABLE e ADD PARTITION FIELD days(ts)")
	run(t, s, "ALTER TABLE e ADD PARTITION FIELD bucket(16, id)")
	run(t, s, "ALTER TABLE e ADD PARTITION FIELD truncate(4, s)")
	m = load("e")
	if got, want := specOf(m), "1000:ts_day=day,1001:id_bucket_16=bucket[16],1002:s_trunc_4=truncate[4]"; got != want {
		t.Errorf("spec %s, want %s", got, want)
	}
	if m.CurrentSchema().Fields[2].Doc != "text" {
		t.Errorf("COMMENT ON COLUMN: %+v", m.CurrentSchema().Fields[2])
	}
	run(t, s, "ALTER TABLE e DROP PARTITION FIELD id_bucket_16")
	run(t, s, "ALTER TABLE e REPLACE PARTITION FIELD days(ts) WITH hours(ts) AS hr")
	m = load("e")
	if got, want := specOf(m), "1002:s_trunc_4=truncate[4],1003:hr=hour"; got != want {
		t.Errorf("spec %s, want %s", got, want)
	}
	if m.LastPartitionID != 1003 {
		t.Errorf("last partition id %d", m.LastPartitionID)
	}
	run(t, s, "ALTER TABLE e WRITE ORDERED BY id DESC, days(ts) NULLS LAST")
	m = load("e")
	var order *catalog.SortOrder
	for _, o := range m.SortOrders {
		if o.ID == m.DefaultSortOrderID {
			order = o
		}
	}
	want := []catalog.SortField{
		{SourceID: 1, Transform: catalog.Transform{Name: "identity"}, Direction: "desc", NullOrder: "nulls-last"},
		{SourceID: 2, Transform: catalog.Transform{Name: "day"}, Direction: "asc", NullOrder: "nulls-last"},
	}
	if order == nil || order.ID != 1 || !slices.Equal(order.Fields, want) || m.Properties["write.distribution-mode"] != "range" {
		t.Errorf("sort order %+v, properties %v", order, m.Properties)
	}
	run(t, s, "ALTER TABLE e SET IDENTIFIER FIELDS id")
	if got := load("e").CurrentSchema().IdentifierFieldIDs; !slices.Equal(got, []int{1}) {
		t.Errorf("identifier fields %v", got)
	}
	run(t, s, `ALTER TABLE e SET ("format-version" = '3', k = 'v')`)
	if m = load("e"); m.FormatVersion != 3 || m.Properties["k"] != "v" {
		t.Errorf("format version %d, properties %v", m.FormatVersion, m.Properties)
	}

	// v1: a dropped partition field stays as a void one.
	run(t, s, "CREATE TABLE o (id bigint, ts timestamp) USING iceberg PARTITIONED BY (days(ts)) TBLPROPERTIES ('format-version' = '1')")
	run(t, s, "ALTER TABLE o DROP PARTITION FIELD days(ts)")
	run(t, s, "ALTER TABLE o ADD PARTITION FIELD bucket(2, id)")
	if got, want := specOf(load("o")), "1000:ts_day_1000=void,1001:id_bucket_2=bucket[2]"; got != want {
		t.Errorf("v1 spec %s, want %s", got, want)
	}
}

// TestAlterTableConflict: a schema or spec change made from metadata that
// another change has since replaced fails with 40001 instead of being
// lost.
func TestAlterTableConflict(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	ctx := context.Background()
	run(t, s, "CREATE TABLE c (id bigint, ts timestamptz)")
	id := catalog.Identifier{Namespace: []string{"public"}, Name: "c"}
	stale, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, "ALTER TABLE c ADD COLUMN a int")
	run(t, s, "ALTER TABLE c ADD PARTITION FIELD days(ts)")

	e := ddl.NewSchemaEdit(stale)
	if _, err := e.Add("b", catalog.NestedField{ID: e.IDs.Next(), Type: ddl.Prim(catalog.TInt)}, false); err != nil {
		t.Fatal(err)
	}
	err = commitSchema(ctx, cat, stale, e)
	if code := pgerr.Code(err); code != pgerr.SerializationFailure {
		t.Errorf("stale schema change: %v (SQLSTATE %s), want 40001", err, code)
	}

	p := ddl.NewSpecEdit(stale.Metadata)
	toks := scanTokens(t, "bucket(4, id)")
	if err := p.AddTerm(&ddl.TokCursor{Toks: toks, I: len(toks)}, toks); err != nil {
		t.Fatal(err)
	}
	_, err = cat.CommitTable(ctx, id, p.Requirements(), p.Updates())
	if code := pgerr.Code(catalogError(err, kindTable, "c")); code != pgerr.SerializationFailure {
		t.Errorf("stale spec change: %v (SQLSTATE %s), want 40001", err, code)
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tbl.Metadata.CurrentSchema().Fields); n != 3 {
		t.Errorf("schema has %d fields, want 3", n)
	}
}

func scanTokens(t *testing.T, s string) []parse.DialectTok {
	t.Helper()
	_, extras, err := parse.RewriteDialect("ALTER TABLE x ADD PARTITION FIELD "+s, hints.ParseConfig)
	if err != nil || len(extras) != 1 || extras[0].Alter == nil {
		t.Fatalf("scan %q: %v", s, err)
	}
	return extras[0].Alter.Toks
}

// TestPartitionEvolutionFiles: files written before ADD PARTITION FIELD
// keep the old spec; files written after it use the new one, with their
// partition values.
func TestPartitionEvolutionFiles(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	ctx := context.Background()
	run(t, s, "CREATE TABLE p (id bigint, ts timestamptz)")
	run(t, s, "INSERT INTO p VALUES (1, '2024-01-01 10:00:00+00')")
	run(t, s, "ALTER TABLE p ADD PARTITION FIELD days(ts)")
	run(t, s, "INSERT INTO p VALUES (2, '2024-01-02 10:00:00+00'), (3, '2024-01-03 10:00:00+00')")
	tbl, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"public"}, Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, task := range tasks {
		got = append(got, fmt.Sprintf("spec %d %v rows %d", task.File.SpecID, task.File.Partition, task.File.RecordCount))
	}
	slices.Sort(got)
	want := []string{"spec 0 [] rows 1", "spec 1 [19724] rows 1", "spec 1 [19725] rows 1"}
	if !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	if rows := queryRows(t, s, "SELECT id FROM p WHERE ts >= '2024-01-02 00:00:00+00' ORDER BY id"); strings.Join(rows, ",") != "2,3" {
		t.Errorf("rows %v", rows)
	}
}

// TestAddColumnDefaultV2 adds a column with a DEFAULT to format-version 2
// tables, in PostgreSQL's and in Spark's syntax, as the seed's walkthrough
// does (ADD COLUMN loyalty_points INT DEFAULT 0). ADD COLUMN gives the rows
// already there the default, as PostgreSQL does: v2 has no initial
// defaults, so they are rewritten with it; on v3 the initial default gives
// it. Spark's ADD COLUMNS (...) keeps Spark's rule: on v2 they read NULL.
// The default is the column's write default, so rows written after get it.
func TestAddColumnDefaultV2(t *testing.T) {
	s, _, _ := newWriteSession(t)
	for _, tc := range []struct {
		name, create, add string
		want              []string
	}{
		{name: "postgres v2", create: `CREATE TABLE pg2 (id int)`, add: `ALTER TABLE pg2 ADD COLUMN pts int DEFAULT 0`,
			want: []string{"1\t0", "2\t0"}},
		{name: "spark v2", create: `CREATE TABLE sp2 (id int) USING iceberg`, add: `ALTER TABLE sp2 ADD COLUMN pts INT DEFAULT 0`,
			want: []string{"1\t0", "2\t0"}},
		{name: "spark columns v2", create: `CREATE TABLE spc2 (id int) USING iceberg`, add: `ALTER TABLE spc2 ADD COLUMNS (pts int DEFAULT 0)`,
			want: []string{"1\tNULL", "2\t0"}},
		{name: "postgres v3", create: `CREATE TABLE pg3 (id int) WITH ("format-version" = '3')`, add: `ALTER TABLE pg3 ADD COLUMN pts int DEFAULT 0`,
			want: []string{"1\t0", "2\t0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := strings.Fields(tc.create)[2]
			mustRun(t, s, tc.create, "INSERT INTO "+table+" VALUES (1)", tc.add, "INSERT INTO "+table+" (id) VALUES (2)")
			if got := queryRows(t, s, "SELECT id, pts FROM "+table+" ORDER BY id"); !slices.Equal(got, tc.want) {
				t.Errorf("rows %q, want %q", got, tc.want)
			}
		})
	}
}
