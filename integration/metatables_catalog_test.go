package integration

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestMetadataTableNamesAndCatalog checks over the wire the four-part
// spelling of metadata tables (catalog.ns.t.kind, quoted, with time
// travel), position_deletes over deletion vectors and over delete files
// that store the deleted row, and the listing of metadata tables in the
// system catalog behind iceberg.list_metadata_tables.
func TestMetadataTableNamesAndCatalog(t *testing.T) {
	addr := startServer(t, fixtures.Warehouse(t), serverOpts{})
	conn := connect(t, addr)
	const (
		evo = "icegate.iceberg.lithium__partition_evolution" // 3 snapshots, 7 data files
		dv  = "icegate.iceberg.lithium__deletion_vectors"    // Trino's DVs: 8 positions
	)
	for _, c := range []struct {
		sql  string
		want []string
	}{
		{"SELECT count(*) FROM " + evo + ".snapshots", []string{"3"}},
		{`SELECT count(*) FROM "icegate"."iceberg"."lithium__partition_evolution"."files"`, []string{"7"}},
		{"SELECT count(*) FROM " + evo + ".files VERSION AS OF 6593870062034330780", []string{"6"}},
		{"SELECT count(*) FROM " + evo + ".data_files FOR SYSTEM_VERSION AS OF 5032402648663831776", []string{"0"}},
		{"SELECT s.operation, count(*) FROM " + evo + ".snapshots s JOIN " + evo + ".entries e USING (snapshot_id) GROUP BY 1 ORDER BY 1",
			[]string{"append|7"}},
		{"SELECT file_path LIKE '%.parquet', delete_file_path LIKE '%.puffin', row IS NULL, count(*) FROM " + dv + ".position_deletes GROUP BY 1, 2, 3",
			[]string{"t|t|t|8"}},
		{"SELECT count(*) FROM " + dv + ".position_deletes VERSION AS OF 3380748922981262035", []string{"3"}},
		{"SELECT pos, row->>'i', row->>'s' FROM iceberg.impala__iceberg_v2_positional_delete_all_rows$position_deletes ORDER BY pos",
			[]string{"0|1|a", "1|2|b", "2|3|c"}},
		// the stored rows are the rows at those positions before the delete
		{"SELECT count(*) FROM iceberg.impala__iceberg_v2_positional_delete_all_rows$position_deletes d " +
			"JOIN iceberg.impala__iceberg_v2_positional_delete_all_rows VERSION AS OF 8593920101374128463 x " +
			"ON x._pos = d.pos AND x.i = (d.row->>'i')::int AND x.s = d.row->>'s'", []string{"3"}},
		// a four-part column reference is left to PostgreSQL's rules
		{"SELECT 'icegate.iceberg.t.files', 1 FROM " + evo + ".refs", []string{"icegate.iceberg.t.files|1"}},
	} {
		got := textRows(t, conn, c.sql, true)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %v\nwant %v", c.sql, got, c.want)
		}
	}
	for _, c := range []struct{ sql, code, msg string }{
		{"SELECT * FROM other.iceberg.lithium__partition_evolution.snapshots", pgerr.FeatureNotSupported, "cross-database references are not implemented"},
		{"SELECT * FROM icegate.iceberg.lithium__partition_evolution.nope", pgerr.SyntaxError, "improper qualified name"},
		{"SELECT * FROM " + evo + ".history VERSION AS OF 6593870062034330780", pgerr.FeatureNotSupported, "time travel on metadata table"},
	} {
		_, err := conn.Exec(testCtx(t), c.sql)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != c.code || !strings.Contains(pe.Message, c.msg) {
			t.Errorf("%s: %v, want %s %q", c.sql, err, c.code, c.msg)
		}
	}

	// The catalog: off by default, on through the session option.
	listed := "SELECT c.relkind, count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace " +
		"WHERE n.nspname = 'iceberg' AND c.relname LIKE 'lithium\\_\\_partition\\_evolution%' GROUP BY 1 ORDER BY 1"
	if got := textRows(t, conn, listed, true); !slices.Equal(got, []string{"r|1"}) {
		t.Errorf("listed by default: %v", got)
	}
	execAll(t, conn, "SET iceberg.list_metadata_tables = on")
	if got := textRows(t, conn, listed, true); !slices.Equal(got, []string{"r|1", "v|17"}) {
		t.Errorf("listed: %v, want the table and 17 views", got)
	}
	if got := textRows(t, conn, "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'iceberg' "+
		"AND table_name = 'lithium__partition_evolution$snapshots' ORDER BY ordinal_position", true); !slices.Equal(got, []string{
		"committed_at|timestamp with time zone", "snapshot_id|bigint", "parent_id|bigint", "operation|text", "manifest_list|text", "summary|jsonb"}) {
		t.Errorf("information_schema.columns: %v", got)
	}

	psql, err := exec.LookPath("psql")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("psql is not on PATH, and CI is set: CI must install postgresql-client")
		}
		t.Skip("psql is not on PATH: install postgresql-client to run the \\d checks")
	}
	host, port, _ := net.SplitHostPort(addr)
	to := psqlTarget{host: host, port: port, user: "icegate", db: "icegate"}
	set := []string{"SET search_path = iceberg", "SET iceberg.list_metadata_tables = on"}
	for _, c := range []struct {
		cmds       []string
		want, nope []string
	}{
		{cmds: append(set, `\d "lithium__partition_evolution$snapshots"`),
			want: []string{`View "iceberg.lithium__partition_evolution$snapshots"`, "snapshot_id|bigint", "summary|jsonb"}},
		{cmds: append(set, `\d+ "lithium__partition_evolution$files"`),
			want: []string{"partition|jsonb", "readable_metrics|jsonb", `SELECT * FROM iceberg."lithium__partition_evolution$files"`}},
		{cmds: append(set, `\dt lithium__partition_evolution*`),
			want: []string{"iceberg|lithium__partition_evolution|table"}, nope: []string{"$"}},
		{cmds: append(set, `\dv lithium__partition_evolution*`),
			want: []string{"iceberg|lithium__partition_evolution$snapshots|view", "iceberg|lithium__partition_evolution$position_deletes|view", "(17 rows)"}},
		{cmds: []string{"SET search_path = iceberg", `\dv lithium__partition_evolution*`}, want: []string{"Did not find any relation"}},
	} {
		out := runPsql(t, psql, to, c.cmds, "")
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("psql %q: output lacks %q:\n%s", c.cmds, w, out)
			}
		}
		for _, n := range c.nope {
			if strings.Contains(out, n) {
				t.Errorf("psql %q: output has %q:\n%s", c.cmds, n, out)
			}
		}
	}
}
