package integration

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/bench/tpch"
)

// tpchTestSF is the scale factor of the TPC-H comparison: small enough for
// CI (about 60k lineitem rows), large enough that every query has rows.
const tpchTestSF = 0.01

// TestTPCHAgainstPostgres loads TPC-H at scale factor 0.01 into icegate
// and into PostgreSQL through COPY and runs the 22 queries on both: the
// answers must be the same, row for row.
func TestTPCHAgainstPostgres(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare answers; .ci/run does")
	}
	ig := connect(t, startServer(t, t.TempDir(), serverOpts{}))
	pg := connectPostgres(t, pgURL)
	ctx := testCtx(t)
	setup := func(conn *pgx.Conn, who string, sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql, pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("%s: %s: %v", who, sql, err)
		}
	}
	sides := []struct {
		conn *pgx.Conn
		who  string
	}{{ig, "icegate"}, {pg, "PostgreSQL"}}
	setup(pg, "PostgreSQL", "DROP SCHEMA IF EXISTS tpch CASCADE")
	for _, c := range sides {
		setup(c.conn, c.who, "CREATE SCHEMA tpch")
		setup(c.conn, c.who, "SET search_path = tpch")
	}
	for _, tb := range tpch.Tables {
		var data bytes.Buffer
		rows, _, err := tpch.WriteTable(&data, tb, tpchTestSF, tpch.Text)
		if err != nil {
			t.Fatalf("generate %s: %v", tb.Name, err)
		}
		for _, c := range sides {
			setup(c.conn, c.who, fmt.Sprintf("CREATE TABLE tpch.%s (%s)", tb.Name, tb.Columns))
			tag, err := c.conn.PgConn().CopyFrom(ctx, bytes.NewReader(data.Bytes()), "COPY tpch."+tb.Name+" FROM STDIN")
			if err != nil {
				t.Fatalf("%s: COPY %s: %v", c.who, tb.Name, err)
			}
			if tag.RowsAffected() != rows {
				t.Fatalf("%s: COPY %s loaded %d rows, want %d", c.who, tb.Name, tag.RowsAffected(), rows)
			}
		}
	}
	// PostgreSQL runs Q20's correlated subquery once per row: an index
	// keeps that fast (the answers do not depend on it).
	setup(pg, "PostgreSQL", "CREATE INDEX ON tpch.lineitem (l_partkey, l_suppkey)")
	setup(pg, "PostgreSQL", "ANALYZE")
	queries, err := tpch.Queries()
	if err != nil {
		t.Fatal(err)
	}
	if len(queries) != 22 {
		t.Fatalf("%d TPC-H queries, want 22", len(queries))
	}
	for _, q := range queries {
		t.Run(q.Name, func(t *testing.T) {
			if diff := diffQuery(t, ig, pg, q.SQL); diff != "" {
				t.Errorf("%s:\n%s", q.Name, diff)
			}
		})
	}
	// Again under a statement_mem far below what the sorts, aggregations
	// and joins hold: they spill to temporary files, and the answers stay
	// the same.
	setup(ig, "icegate", "SET statement_mem = '256kB'")
	for _, q := range queries {
		t.Run(q.Name+"/spilling", func(t *testing.T) {
			if diff := diffQuery(t, ig, pg, q.SQL); diff != "" {
				t.Errorf("%s under statement_mem = 256kB:\n%s", q.Name, diff)
			}
		})
	}
}
