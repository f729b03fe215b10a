package integration

import (
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestBranchTagDDLOverTheWire creates, writes, reads, replaces and drops
// branches and tags through pgx, as a Spark user would write them.
func TestBranchTagDDLOverTheWire(t *testing.T) {
	warehouse := t.TempDir()
	addr := startServer(t, warehouse, serverOpts{})
	conn := connect(t, addr)
	execAll(t, conn,
		"CREATE DATABASE IF NOT EXISTS db",
		"CREATE TABLE db.orders (id bigint, amount int) USING iceberg",
		"INSERT INTO db.orders VALUES (1, 10), (2, 20)",
		"ALTER TABLE db.orders CREATE TAG `release-1` RETAIN 365 DAYS",
		"ALTER TABLE db.orders CREATE BRANCH audit WITH SNAPSHOT RETENTION 3 SNAPSHOTS 7 DAYS",
		"INSERT INTO db.orders.branch_audit VALUES (3, 30)",
		"INSERT INTO db.orders VALUES (4, 40)",
	)
	if got := textRows(t, conn, "SELECT id FROM db.orders.branch_audit", false); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Errorf("branch audit: %q", got)
	}
	if got := textRows(t, conn, "SELECT id FROM db.orders VERSION AS OF 'release-1'", false); !slices.Equal(got, []string{"1", "2"}) {
		t.Errorf("tag release-1: %q", got)
	}
	if got := textRows(t, conn, "SELECT id FROM db.orders", false); !slices.Equal(got, []string{"1", "2", "4"}) {
		t.Errorf("main: %q", got)
	}
	if got := textRows(t, conn, "SELECT name, type, min_snapshots_to_keep, max_snapshot_age_in_ms, max_reference_age_in_ms FROM db.orders$refs", false); !slices.Equal(got, []string{
		"audit|BRANCH|3|604800000|NULL", "main|BRANCH|NULL|NULL|NULL", "release-1|TAG|NULL|NULL|31536000000"}) {
		t.Errorf("refs: %q", got)
	}
	wantSQLState(t, conn, "ALTER TABLE db.orders CREATE BRANCH audit", "42710", `branch "audit" of table "orders" already exists`)
	wantSQLState(t, conn, "ALTER TABLE db.orders DROP TAG nope", "42704", `tag "nope" of table "orders" does not exist`)
	wantSQLState(t, conn, "ALTER TABLE db.orders DROP BRANCH main", "55000", `cannot drop branch "main"`)
	wantSQLState(t, conn, "INSERT INTO db.orders.tag_release-1 VALUES (9, 9)", "42601", "syntax error")
	execAll(t, conn,
		"ALTER TABLE db.orders REPLACE BRANCH audit",
		"ALTER TABLE db.orders DROP TAG IF EXISTS `release-1`",
	)
	if got := textRows(t, conn, "SELECT id FROM db.orders.branch_audit", false); !slices.Equal(got, []string{"1", "2", "4"}) {
		t.Errorf("replaced branch audit: %q", got)
	}
	if got := textRows(t, conn, "SELECT name FROM db.orders.refs", false); !slices.Equal(got, []string{"audit", "main"}) {
		t.Errorf("refs after drop: %q", got)
	}
}

// TestInsertOverwriteOverTheWire runs static and dynamic INSERT OVERWRITE
// through pgx, the mode a session setting.
func TestInsertOverwriteOverTheWire(t *testing.T) {
	warehouse := t.TempDir()
	addr := startServer(t, warehouse, serverOpts{})
	conn := connect(t, addr)
	execAll(t, conn,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.sales (id int, day date, amount int) USING iceberg PARTITIONED BY (day)",
		"INSERT INTO db.sales VALUES (1, '2024-01-01', 10), (2, '2024-01-02', 20), (3, '2024-01-03', 30)",
		"INSERT OVERWRITE db.sales PARTITION (day = DATE '2024-01-02') SELECT 22, 220",
	)
	if got := textRows(t, conn, "SELECT id, day, amount FROM db.sales", false); !slices.Equal(got, []string{
		"1|2024-01-01|10", "22|2024-01-02|220", "3|2024-01-03|30"}) {
		t.Errorf("static: %q", got)
	}
	execAll(t, conn,
		"SET spark.sql.sources.partitionOverwriteMode = 'dynamic'",
		"INSERT OVERWRITE TABLE db.sales SELECT id * 100, day, amount FROM db.sales WHERE day <> '2024-01-02'",
	)
	if got := textRows(t, conn, "SELECT id, day FROM db.sales", false); !slices.Equal(got, []string{
		"100|2024-01-01", "22|2024-01-02", "300|2024-01-03"}) {
		t.Errorf("dynamic: %q", got)
	}
	if got := textRows(t, conn, "SELECT operation FROM db.sales$snapshots ORDER BY committed_at", true); !slices.Equal(got, []string{"append", "overwrite", "overwrite"}) {
		t.Errorf("operations: %q", got)
	}
	execAll(t, conn, "RESET spark.sql.sources.partitionOverwriteMode", "INSERT OVERWRITE db.sales SELECT 1, '2024-02-01', 1")
	if got := textRows(t, conn, "SELECT count(*) FROM db.sales", false); !slices.Equal(got, []string{"1"}) {
		t.Errorf("static without PARTITION: %q", got)
	}
	wantSQLState(t, conn, "INSERT OVERWRITE db.sales PARTITION (amount = 1) SELECT 1, DATE '2024-01-01'", "42P10", "not a partition column")
}

// TestSparkDDLScriptThroughPsql runs a Spark-style script through psql:
// comments between and inside clauses, CREATE NAMESPACE, REPLACE TABLE,
// reserved properties.
func TestSparkDDLScriptThroughPsql(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("psql is not on PATH, and CI is set: CI must install postgresql-client")
		}
		t.Skip("psql is not on PATH: install postgresql-client")
	}
	warehouse := t.TempDir()
	addr := startServer(t, warehouse, serverOpts{})
	host, port, _ := net.SplitHostPort(addr)
	script := `CREATE NAMESPACE IF NOT EXISTS lake;
CREATE TABLE lake.events (
  id BIGINT, -- the key
  ts TIMESTAMP /* when */,
  kind STRING
)
USING iceberg -- Iceberg tables only
PARTITIONED BY (days(ts)) -- daily
TBLPROPERTIES (
  'write.format.default' = 'parquet', -- default anyway
  /* who owns it */ 'owner' = 'ops'
);
INSERT INTO lake.events VALUES (1, TIMESTAMP '2024-01-01 10:00:00', 'a');
ALTER TABLE lake.events CREATE TAG v1;
REPLACE TABLE lake.events USING iceberg AS SELECT id, kind FROM lake.events;
SELECT id, kind FROM lake.events;
SELECT count(*) FROM lake.events VERSION AS OF 'v1';
ALTER TABLE lake.events SET TBLPROPERTIES ('current-snapshot-id' = '1');
`
	out := runPsql(t, psql, psqlTarget{host: host, port: port, user: "icegate", db: "icegate"}, nil, script)
	for _, w := range []string{"CREATE SCHEMA", "CREATE TABLE", "INSERT 0 1", "ALTER TABLE", "SELECT 1", "id|kind\n1|a\n(1 row)", "count\n1\n(1 row)",
		`ERROR:  table property "current-snapshot-id" is reserved and cannot be set`} {
		if !strings.Contains(out, w) {
			t.Errorf("psql output lacks %q:\n%s", w, out)
		}
	}
}
