package oracle

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"
	"github.com/jackc/pgx/v5"
)

// TestIcegateSparkDDLIcebergGoReads checks with iceberg-go the tables
// Spark's DDL leaves: a table replaced by REPLACE TABLE AS SELECT (a new
// schema, spec and parentless snapshot over the old history), the refs
// branch and tag DDL makes (with their retention), and a branch written
// through t.branch_<name>.
func TestIcegateSparkDDLIcebergGoReads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	warehouse := t.TempDir()
	port := startIcegate(t, warehouse)
	conn := connect(ctx, t, port)
	const ns = "sparkddl"
	for _, sql := range []string{
		"CREATE NAMESPACE " + ns,
		"CREATE TABLE sparkddl.r (id bigint, v text) USING iceberg PARTITIONED BY (v)",
		"INSERT INTO sparkddl.r SELECT g, 'v' || (g % 3) FROM generate_series(1, 30) g",
		"ALTER TABLE sparkddl.r CREATE TAG before RETAIN 10 DAYS",
		"REPLACE TABLE sparkddl.r USING iceberg PARTITIONED BY (bucket(4, id)) AS SELECT id * 10 AS id, v, id % 2 = 0 AS even FROM sparkddl.r",
		"ALTER TABLE sparkddl.r CREATE BRANCH dev WITH SNAPSHOT RETENTION 2 SNAPSHOTS",
		"INSERT INTO sparkddl.r.branch_dev VALUES (1000, 'dev', true)",
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("icegate %s: %v", sql, err)
		}
	}
	for _, p := range compareScanIn(ctx, conn, warehouse, ns, "r", filterCase{}) {
		t.Error(p)
	}
	tbl, err := loadTable(ctx, warehouse, table.Identifier{ns, "r"})
	if err != nil {
		t.Fatal(err)
	}
	m := tbl.Metadata()
	if cur := m.CurrentSnapshot(); cur == nil || cur.ParentSnapshotID != nil {
		t.Errorf("current snapshot %+v: want one without parent", cur)
	}
	refs := map[string]table.SnapshotRef{}
	for name, r := range m.Refs() {
		refs[name] = r
	}
	if r, ok := refs["before"]; !ok || r.SnapshotRefType != table.TagRef || r.MaxRefAgeMs == nil || *r.MaxRefAgeMs != 10*24*3600*1000 {
		t.Errorf("tag before: %+v", r)
	}
	if r, ok := refs["dev"]; !ok || r.SnapshotRefType != table.BranchRef || r.MinSnapshotsToKeep == nil || *r.MinSnapshotsToKeep != 2 {
		t.Errorf("branch dev: %+v", r)
	}
	// the tag's snapshot and the branch head read alike in both engines
	for _, c := range []struct{ ref, sql string }{
		{"before", "SELECT * FROM sparkddl.r VERSION AS OF 'before'"},
		{"dev", "SELECT * FROM sparkddl.r.branch_dev"},
	} {
		snap := m.SnapshotByName(c.ref)
		if snap == nil {
			t.Errorf("iceberg-go finds no ref %s", c.ref)
			continue
		}
		for _, p := range compareQuery(ctx, conn, warehouse, table.Identifier{ns, "r"}, c.sql, table.WithSnapshotID(snap.SnapshotID)) {
			t.Errorf("%s: %s", c.ref, p)
		}
	}
}

// compareQuery compares icegate's rows of sql with iceberg-go's scan of
// ident with opts, as multisets.
func compareQuery(ctx context.Context, conn *pgx.Conn, warehouse string, ident table.Identifier, sql string, opts ...table.ScanOption) []string {
	wantCols, want, err := readTable(ctx, warehouse, ident, opts...)
	if err != nil {
		return []string{fmt.Sprintf("iceberg-go scan: %v", err)}
	}
	gotCols, got, err := queryText(ctx, conn, sql)
	if err != nil {
		return []string{fmt.Sprintf("icegate %s: %v", sql, err)}
	}
	if len(got) == 0 {
		return []string{fmt.Sprintf("%s: no rows; the check checks nothing", sql)}
	}
	if !slices.Equal(gotCols, wantCols) {
		return []string{fmt.Sprintf("%s: icegate columns %v, iceberg-go columns %v", sql, gotCols, wantCols)}
	}
	return diffRows(wantCols, got, want)
}
