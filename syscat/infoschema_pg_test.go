package syscat

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// referencePG connects to the PostgreSQL named by ICEGATE_TEST_PG, or skips.
func referencePG(t *testing.T) *pgx.Conn {
	t.Helper()
	url := os.Getenv("ICEGATE_TEST_PG")
	if url == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL 15 server URL to compare information_schema; .ci/run does")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to PostgreSQL (ICEGATE_TEST_PG): %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// pgRows runs sql on the reference server and renders the rows as text
// ("NULL" for NULL).
func pgRows(t *testing.T, conn *pgx.Conn, sql string, args ...any) [][]string {
	t.Helper()
	rows, err := conn.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatalf("PostgreSQL: %s: %v", sql, err)
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			t.Fatalf("PostgreSQL: %s: %v", sql, err)
		}
		line := make([]string, len(vals))
		for i, v := range vals {
			line[i] = textOf(v)
		}
		out = append(out, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("PostgreSQL: %s: %v", sql, err)
	}
	return out
}

// Every relation of PostgreSQL's information_schema (but its internal _pg_*
// views) is registered with the same OID, kind, column names and order, and
// column types (a domain's base type where PostgreSQL has the domain).
func TestInformationSchemaMatchesPostgres(t *testing.T) {
	conn := referencePG(t)
	type rel struct {
		oid  uint32
		kind string
		cols []string
	}
	want := map[string]*rel{}
	for _, r := range pgRows(t, conn, `
		SELECT c.relname, c.oid, c.relkind::text, a.attname,
		       CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
		FROM pg_class c
		JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
		JOIN pg_type t ON t.oid = a.atttypid
		WHERE c.relnamespace = 'information_schema'::regnamespace AND c.relname NOT LIKE '\_pg%'
		ORDER BY c.relname, a.attnum`) {
		w := want[r[0]]
		if w == nil {
			var oid uint32
			fmt.Sscan(r[1], &oid)
			w = &rel{oid: oid, kind: r[2]}
			want[r[0]] = w
		}
		w.cols = append(w.cols, r[3]+" "+r[4])
	}
	if len(want) == 0 {
		t.Fatal("PostgreSQL lists no information_schema relations")
	}
	for name, w := range want {
		tab := Lookup("information_schema", name)
		if tab == nil {
			t.Errorf("information_schema.%s is not registered", name)
			continue
		}
		if tab.OID != w.oid || string(tab.Kind) != w.kind {
			t.Errorf("information_schema.%s: OID %d kind %c, PostgreSQL has %d %s", name, tab.OID, tab.Kind, w.oid, w.kind)
		}
		var got []string
		for _, c := range tab.Columns {
			got = append(got, fmt.Sprintf("%s %d", c.Name, c.Type))
		}
		if g, x := strings.Join(got, ", "), strings.Join(w.cols, ", "); g != x {
			t.Errorf("information_schema.%s columns:\n got %s\nwant %s", name, g, x)
		}
	}
	for _, tab := range Tables() {
		if tab.Schema == "information_schema" && want[tab.Name] == nil {
			t.Errorf("information_schema.%s is registered but PostgreSQL has no such relation", tab.Name)
		}
	}
}

// The test's objects on the reference server: the same tables and view as
// salesSnapshot.
const infoTestSchema = "icegate_infoschema_test"

var infoTestDDL = []string{
	`CREATE SCHEMA ` + infoTestSchema,
	`CREATE TABLE ` + infoTestSchema + `.orders (id bigint PRIMARY KEY, qty int NOT NULL DEFAULT 1,
		small smallint, price numeric(10,2), note text, code varchar(20), vcode varchar, flag bool,
		d date, ts timestamp, tstz timestamptz, u uuid, b bytea, f8 float8, f4 real, ints int[],
		n numeric, t time, j jsonb)`,
	`COMMENT ON TABLE ` + infoTestSchema + `.orders IS 'the orders'`,
	`COMMENT ON COLUMN ` + infoTestSchema + `.orders.note IS 'free text'`,
	`CREATE TABLE ` + infoTestSchema + `.lines (order_id bigint NOT NULL, line int NOT NULL, sku text,
		PRIMARY KEY (order_id, line))`,
	`CREATE VIEW ` + infoTestSchema + `.order_totals AS
		SELECT id, sum(qty) AS total FROM ` + infoTestSchema + `.orders GROUP BY id`,
	`COMMENT ON VIEW ` + infoTestSchema + `.order_totals IS 'totals'`,
}

// The rows icegate computes for a snapshot holding the same objects as the
// reference server are the rows PostgreSQL's information_schema shows for
// them. OIDs (in the names of NOT NULL constraints) are taken from the
// server; the view's text is PostgreSQL's, since icegate shows a view's SQL
// as stored.
func TestInformationSchemaRowsMatchPostgres(t *testing.T) {
	conn := referencePG(t)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+infoTestSchema+" CASCADE"); err != nil {
		t.Fatalf("PostgreSQL: %v", err)
	}
	for _, sql := range infoTestDDL {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("PostgreSQL: %s: %v", sql, err)
		}
	}
	t.Cleanup(func() { conn.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+infoTestSchema+" CASCADE") })

	s := salesSnapshot(infoTestSchema)
	who := pgRows(t, conn, "SELECT current_database(), current_user, current_setting('server_version'), $1::regnamespace::oid", infoTestSchema)[0]
	s.Database, s.User, s.ServerVersion = who[0], who[1], who[2]
	fmt.Sscan(who[3], &s.Namespaces[0].OID)
	for _, r := range s.Relations {
		row := pgRows(t, conn, "SELECT $1::regclass::oid, coalesce(pg_get_viewdef($1::regclass), '')", infoTestSchema+"."+r.Name)[0]
		fmt.Sscan(row[0], &r.OID)
		if r.Kind == 'v' {
			r.ViewDef = row[1]
		}
	}
	s.Index()

	tests := []struct{ view, where string }{
		{"tables", "table_schema"},
		{"columns", "table_schema"},
		{"views", "table_schema"},
		{"schemata", "schema_name"},
		{"table_constraints", "table_schema"},
		{"key_column_usage", "table_schema"},
		{"constraint_column_usage", "table_schema"},
		{"constraint_table_usage", "table_schema"},
		{"check_constraints", "constraint_schema"},
		{"referential_constraints", "constraint_schema"},
		{"table_privileges", "table_schema"},
		{"role_table_grants", "table_schema"},
		{"column_privileges", "table_schema"},
		{"role_column_grants", "table_schema"},
		{"element_types", "object_schema"},
		{"column_udt_usage", "table_schema"},
		{"data_type_privileges", "object_schema"},
		{"domains", "domain_schema"},
		{"sequences", "sequence_schema"},
		{"triggers", "trigger_schema"},
		{"attributes", "udt_schema"},
		{"information_schema_catalog_name", ""},
		{"character_sets", ""},
		{"sql_parts", ""},
		{"sql_sizing", ""},
		{"sql_implementation_info", ""},
		{"usage_privileges", "object_name"},
		{"collations", "collation_name"},
		{"collation_character_set_applicability", "collation_name"},
	}
	for _, tt := range tests {
		t.Run(tt.view, func(t *testing.T) {
			sql := "SELECT * FROM information_schema." + tt.view
			value := infoTestSchema
			switch {
			case tt.where == "collation_name" || tt.view == "usage_privileges":
				// icegate has PostgreSQL's built-in collations only.
				value = "ucs_basic"
				sql += " WHERE " + tt.where + " = $1"
			case tt.view == "sql_implementation_info":
				// PostgreSQL's DBMS VERSION carries its packager's suffix.
				sql += " WHERE implementation_info_name <> 'DBMS VERSION'"
			case tt.where != "":
				sql += " WHERE " + tt.where + " = $1"
			}
			var want [][]string
			if strings.Contains(sql, "$1") {
				want = pgRows(t, conn, sql, value)
			} else {
				want = pgRows(t, conn, sql)
			}
			got := infoRows(t, s, tt.view, tt.where, value)
			if tt.view == "sql_implementation_info" {
				got = slices.DeleteFunc(got, func(r []string) bool { return r[1] == "DBMS VERSION" })
			}
			if d := diffRows(got, want); d != "" {
				t.Errorf("information_schema.%s differs from PostgreSQL's (- icegate only, + PostgreSQL only):\n%s", tt.view, d)
			}
		})
	}
}

// The catalog relations' own columns are described as PostgreSQL describes
// them (information_schema's by their domains' base types). is_updatable is
// left out: icegate writes no catalog.
func TestInformationSchemaCatalogColumnsMatchPostgres(t *testing.T) {
	conn := referencePG(t)
	s := &Snapshot{Database: "x", User: "postgres"}
	s.Index()
	var names []string
	for _, tab := range Tables() {
		names = append(names, tab.Schema+"."+tab.Name)
	}
	s.Database = pgRows(t, conn, "SELECT current_database()")[0][0]
	cols := []string{"table_schema", "table_name", "column_name", "ordinal_position", "column_default", "is_nullable",
		"data_type", "character_maximum_length", "character_octet_length", "numeric_precision",
		"numeric_precision_radix", "numeric_scale", "datetime_precision", "interval_type",
		"collation_catalog", "collation_schema", "collation_name", "udt_catalog", "udt_schema", "udt_name",
		"dtd_identifier", "is_identity", "is_generated"}
	want := pgRows(t, conn, "SELECT "+strings.Join(cols, ", ")+" FROM information_schema.columns WHERE table_schema || '.' || table_name = ANY($1)", names)
	var got [][]string
	for _, schema := range []string{"pg_catalog", "information_schema"} {
		got = append(got, infoRows(t, s, "columns", "table_schema", schema, cols...)...)
	}
	got = slices.DeleteFunc(got, func(r []string) bool { return icegateRelation(r[1]) })
	if d := diffRows(got, want); d != "" {
		t.Errorf("columns of the catalog relations differ (- icegate only, + PostgreSQL only):\n%s", d)
	}
}

// The catalog relations' privileges are PostgreSQL's: their owner's, and
// reading (pg_settings: changing too) for PUBLIC but where PostgreSQL keeps
// a catalog from PUBLIC.
func TestInformationSchemaCatalogPrivilegesMatchPostgres(t *testing.T) {
	conn := referencePG(t)
	s := &Snapshot{}
	who := pgRows(t, conn, "SELECT current_database(), current_user")[0]
	s.Database, s.User = who[0], who[1]
	s.Index()
	var names []string
	for _, tab := range Tables() {
		names = append(names, tab.Schema+"."+tab.Name)
	}
	want := pgRows(t, conn, "SELECT * FROM information_schema.table_privileges WHERE table_schema || '.' || table_name = ANY($1)", names)
	var got [][]string
	for _, schema := range []string{"pg_catalog", "information_schema"} {
		got = append(got, infoRows(t, s, "table_privileges", "table_schema", schema)...)
	}
	got = slices.DeleteFunc(got, func(r []string) bool { return icegateRelation(r[4]) })
	if d := diffRows(got, want); d != "" {
		t.Errorf("privileges on the catalog relations differ (- icegate only, + PostgreSQL only):\n%s", d)
	}
}

// routines and parameters list the built-in functions as PostgreSQL does.
// (PostgreSQL takes seconds to compute element_types for them: its rows for
// functions are checked in TestInformationSchemaRows.)
func TestInformationSchemaRoutinesMatchPostgres(t *testing.T) {
	conn := referencePG(t)
	s := &Snapshot{Database: "x", User: "postgres"}
	who := pgRows(t, conn, "SELECT current_database()")[0]
	s.Database = who[0]
	s.Index()
	var names []string
	for _, p := range builtinRoutines() {
		names = append(names, specificName(p))
	}
	if len(names) == 0 {
		t.Fatal("no built-in functions")
	}
	for _, view := range []string{"routines", "parameters", "routine_privileges", "role_routine_grants", "data_type_privileges"} {
		t.Run(view, func(t *testing.T) {
			var want, got [][]string
			if view == "data_type_privileges" {
				want = pgRows(t, conn, "SELECT * FROM information_schema.data_type_privileges WHERE object_type = 'ROUTINE' AND object_name = ANY($1)", names)
				got = infoRows(t, s, view, "object_type", "ROUTINE")
			} else {
				want = pgRows(t, conn, "SELECT * FROM information_schema."+view+" WHERE specific_name = ANY($1)", names)
				got = infoRows(t, s, view, "", "")
			}
			if view == "parameters" {
				// parameter_default (the last column): see parameterRowsFrom.
				for _, r := range want {
					r[len(r)-1] = "NULL"
				}
			}
			if d := diffRows(got, want); d != "" {
				t.Errorf("information_schema.%s differs from PostgreSQL's (- icegate only, + PostgreSQL only):\n%s", view, d)
			}
		})
	}
}

// diffRows lists the rows only one side has, "" when both have the same.
func diffRows(got, want [][]string) string {
	count := map[string]int{}
	for _, r := range got {
		count[strings.Join(r, "|")]++
	}
	for _, r := range want {
		count[strings.Join(r, "|")]--
	}
	var lines []string
	for line, n := range count {
		for ; n > 0; n-- {
			lines = append(lines, "- "+line)
		}
		for ; n < 0; n++ {
			lines = append(lines, "+ "+line)
		}
	}
	slices.SortFunc(lines, func(a, b string) int { return strings.Compare(a[2:], b[2:]) })
	return strings.Join(lines, "\n")
}

// icegateRelation reports whether name is one of icegate's own pg_catalog
// relations (icegate_shapes.go), which PostgreSQL does not have.
func icegateRelation(name string) bool {
	return slices.ContainsFunc(icegateShapes, func(sh shape) bool { return sh.name == name })
}
