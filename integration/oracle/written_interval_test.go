package oracle

import (
	"context"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"
)

// TestIcegateIntervalIcebergGoReads: an interval column, which Iceberg
// lacks, is stored as struct<months: int, days: int, microseconds: long>
// (PostgreSQL's three parts, not normalised): iceberg-go reads the parts
// icegate wrote through INSERT, UPDATE and CREATE TABLE AS, and
// icegate reads back the intervals.
func TestIcegateIntervalIcebergGoReads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	warehouse := t.TempDir()
	port := startIcegate(t, warehouse)
	conn := connect(ctx, t, port)
	for _, sql := range []string{
		"CREATE SCHEMA ivl",
		"CREATE TABLE ivl.t (id int, d interval)",
		"INSERT INTO ivl.t VALUES (1, '1 mon -2 days 03:00:00.5'), (2, NULL), (3, '-1 year'), (4, '720:00:00'), (5, '-00:00:00.000001')",
		"UPDATE ivl.t SET d = d + interval '1 day' WHERE id = 3",
		"CREATE TABLE ivl.c AS SELECT id, d * 2 AS d2 FROM ivl.t WHERE id = 1",
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("icegate %s: %v", sql, err)
		}
	}
	check := func(name string, want map[string]string) {
		cols, rows, err := readTable(ctx, warehouse, table.Identifier{"ivl", name})
		if err != nil {
			t.Fatalf("iceberg-go scan of %s: %v", name, err)
		}
		if len(cols) != 2 || len(rows) != len(want) {
			t.Fatalf("%s: iceberg-go columns %v, %d rows; want 2 columns, %d rows", name, cols, len(rows), len(want))
		}
		for _, r := range rows {
			w, ok := want[r[0].text]
			if !ok {
				t.Errorf("%s: unexpected row %v", name, r)
				continue
			}
			got := r[1].text
			if r[1].null {
				got = "NULL"
			}
			if got != w {
				t.Errorf("%s id %s: iceberg-go reads %s, want %s", name, r[0].text, got, w)
			}
		}
	}
	check("t", map[string]string{
		"1": `{"days": -2, "months": 1, "microseconds": 10800500000}`,
		"2": "NULL",
		"3": `{"days": 1, "months": -12, "microseconds": 0}`,
		"4": `{"days": 0, "months": 0, "microseconds": 2592000000000}`,
		"5": `{"days": 0, "months": 0, "microseconds": -1}`,
	})
	check("c", map[string]string{"1": `{"days": -4, "months": 2, "microseconds": 21601000000}`})
	var text string
	if err := conn.QueryRow(context.Background(), "SELECT string_agg(d::text, ', ' ORDER BY id) FROM ivl.t").Scan(&text); err != nil {
		t.Fatal(err)
	}
	if want := "1 mon -2 days +03:00:00.5, -1 years +1 day, 720:00:00, -00:00:00.000001"; text != want {
		t.Errorf("icegate reads back %q, want %q", text, want)
	}
}
