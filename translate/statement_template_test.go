package translate

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// execPrepared executes st with text parameters and returns its rows, one
// tab-separated line each, or the error's SQLSTATE as "error CODE".
func execPrepared(t *testing.T, st Statement, params ...*string) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := st.Execute(ctx, params)
	if err != nil {
		return []string{"error " + pgerr.Code(err)}
	}
	defer rows.Close()
	var out []string
	for {
		b, err := rows.Next(ctx)
		if err != nil {
			return []string{"error " + pgerr.Code(err)}
		}
		if b == nil {
			return out
		}
		for i := 0; i < int(b.NumRows()); i++ {
			vals := make([]string, b.NumCols())
			for c := range vals {
				vals[c] = valueText(b.Column(c), i)
			}
			out = append(out, strings.Join(vals, "\t"))
		}
	}
}

func prepareOne(t *testing.T, s *session, sql string) *selectStatement {
	t.Helper()
	stmts, err := s.Prepare(context.Background(), sql, nil)
	if err != nil {
		t.Fatalf("prepare %s: %v", sql, err)
	}
	st, ok := stmts[0].(*selectStatement)
	if !ok {
		t.Fatalf("prepare %s: %T, want a query", sql, stmts[0])
	}
	return st
}

func strp(s string) *string { return &s }

// TestPreparedTemplate executes prepared queries across what happens to
// the catalog between executions: each step runs SQL (or nothing), then
// executes the statement and checks its rows and how many times Execute
// has bound it in all (once for the template, again only when the
// catalog changed under it or the query cannot have a template).
func TestPreparedTemplate(t *testing.T) {
	type step struct {
		sql    string // run before the execution ("" none)
		params []*string
		want   string // rows joined by "|", or "error CODE"
		binds  int
	}
	setup := []string{
		"CREATE SCHEMA a", "CREATE SCHEMA b",
		"CREATE TABLE a.t (id bigint, v text)", "INSERT INTO a.t VALUES (1, 'a1'), (2, 'a2')",
		"CREATE TABLE b.t (id bigint, v text)", "INSERT INTO b.t VALUES (1, 'b1')",
		"SET search_path = a",
	}
	tests := []struct {
		name   string
		before string // run before Prepare
		query  string
		steps  []step
	}{
		{"reuse and new snapshots", "", "SELECT v FROM a.t WHERE id = $1", []step{
			{params: []*string{strp("1")}, want: "a1", binds: 1},
			{params: []*string{strp("2")}, want: "a2", binds: 1},
			{sql: "INSERT INTO a.t VALUES (3, 'a3')", params: []*string{strp("3")}, want: "a3", binds: 1},
			{sql: "DELETE FROM a.t WHERE id = 3", params: []*string{strp("3")}, want: "", binds: 1},
			{params: []*string{nil}, want: "", binds: 1},
			{params: []*string{strp("x")}, want: "error " + pgerr.InvalidTextRepresentation, binds: 1},
			{params: []*string{strp(" 2 ")}, want: "a2", binds: 1},
			{params: []*string{strp("+2")}, want: "a2", binds: 1},
			{params: []*string{strp("1_0")}, want: "error " + pgerr.InvalidTextRepresentation, binds: 1},
			{params: []*string{strp("99999999999999999999")}, want: "error " + pgerr.NumericValueOutOfRange, binds: 1},
			{params: []*string{strp("2")}, want: "a2", binds: 1},
		}},
		{"add column keeps a named column list", "", "SELECT id, v FROM a.t WHERE id >= $1 ORDER BY id", []step{
			{params: []*string{strp("2")}, want: "2\ta2", binds: 1},
			{sql: "ALTER TABLE a.t ADD COLUMN w int", params: []*string{strp("2")}, want: "2\ta2", binds: 2},
			{params: []*string{strp("1")}, want: "1\ta1|2\ta2", binds: 2},
		}},
		{"add column changes SELECT *", "", "SELECT * FROM a.t WHERE id = $1", []step{
			{params: []*string{strp("1")}, want: "1\ta1", binds: 1},
			{sql: "ALTER TABLE a.t ADD COLUMN w int", params: []*string{strp("1")}, want: "error " + pgerr.FeatureNotSupported, binds: 2},
		}},
		{"drop and create", "", "SELECT v FROM a.t WHERE id = $1", []step{
			{params: []*string{strp("1")}, want: "a1", binds: 1},
			{sql: "DROP TABLE a.t", params: []*string{strp("1")}, want: "error " + pgerr.UndefinedTable},
			{sql: "CREATE TABLE a.t (id bigint, v text)", params: []*string{strp("1")}, want: ""},
			{sql: "INSERT INTO a.t VALUES (1, 'new')", params: []*string{strp("1")}, want: "new"},
		}},
		{"search_path", "", "SELECT v FROM t WHERE id = $1", []step{
			{params: []*string{strp("1")}, want: "a1", binds: 1},
			{params: []*string{strp("1")}, want: "a1", binds: 1},
			{sql: "SET search_path = b", params: []*string{strp("1")}, want: "b1", binds: 2},
			{params: []*string{strp("1")}, want: "b1", binds: 2},
			{sql: "DROP TABLE b.t", params: []*string{strp("1")}, want: "error " + pgerr.UndefinedTable},
			{sql: "SET search_path = a", params: []*string{strp("2")}, want: "a2"},
		}},
		{"view replaced", "CREATE VIEW a.w AS SELECT id, v FROM a.t", "SELECT v FROM a.w WHERE id = $1", []step{
			{params: []*string{strp("1")}, want: "a1", binds: 1},
			{params: []*string{strp("2")}, want: "a2"},
			{sql: "CREATE OR REPLACE VIEW a.w AS SELECT id, upper(v) AS v FROM a.t", params: []*string{strp("2")}, want: "A2", binds: 2},
		}},
		{"transaction block sees its writes", "", "SELECT count(*) FROM a.t WHERE id > $1", []step{
			{params: []*string{strp("0")}, want: "2", binds: 1},
			{sql: "BEGIN", params: []*string{strp("0")}, want: "2", binds: 1},
			{sql: "INSERT INTO a.t VALUES (5, 'a5')", params: []*string{strp("0")}, want: "3", binds: 1},
			{sql: "ROLLBACK", params: []*string{strp("0")}, want: "2", binds: 1},
		}},
		{"subquery and join", "", "SELECT x.v, (SELECT max(v) FROM b.t WHERE id <= $2) FROM a.t x JOIN b.t y ON x.id = y.id WHERE x.id = $1", []step{
			{params: []*string{strp("1"), strp("5")}, want: "a1\tb1", binds: 1},
			{sql: "INSERT INTO b.t VALUES (2, 'b2')", params: []*string{strp("2"), strp("1")}, want: "a2\tb1", binds: 1},
		}},
		{"subquery sees new rows", "", "SELECT v, (SELECT count(*) FROM b.t) FROM a.t WHERE id = $1", []step{
			{params: []*string{strp("1")}, want: "a1\t1", binds: 1},
			{sql: "INSERT INTO b.t VALUES (7, 'b7')", params: []*string{strp("1")}, want: "a1\t2", binds: 1},
			{sql: "INSERT INTO b.t VALUES (8, 'b8')", params: []*string{strp("1")}, want: "a1\t3", binds: 1},
		}},
		{"shared WITH query sees new rows", "", "WITH c AS MATERIALIZED (SELECT count(*) AS n FROM b.t) SELECT c.n + d.n + $1 FROM c, c AS d", []step{
			{params: []*string{strp("10")}, want: "12", binds: 1},
			{sql: "INSERT INTO b.t VALUES (7, 'b7')", params: []*string{strp("10")}, want: "14", binds: 1},
			{params: []*string{strp("20")}, want: "24", binds: 1},
		}},
		{"the clock binds each time", "", "SELECT v FROM a.t WHERE id = $1 AND now() > '2000-01-01'", []step{
			{params: []*string{strp("1")}, want: "a1", binds: 2},
			{params: []*string{strp("2")}, want: "a2", binds: 3},
		}},
		{"a sequence binds each time", "CREATE SEQUENCE a.sq", "SELECT v, nextval('a.sq') FROM a.t WHERE id = $1", []step{
			{params: []*string{strp("1")}, want: "a1\t1", binds: 2},
			{params: []*string{strp("1")}, want: "a1\t2", binds: 3},
			{params: []*string{strp("2")}, want: "a2\t3", binds: 4},
		}},
		{"LIMIT $1 binds each time", "", "SELECT v FROM a.t ORDER BY id LIMIT $1", []step{
			{params: []*string{strp("1")}, want: "a1", binds: 2},
			{params: []*string{strp("2")}, want: "a1|a2", binds: 3},
		}},
		{"without parameters", "", "SELECT v FROM a.t ORDER BY id", []step{
			{want: "a1|a2", binds: 0},
			{want: "a1|a2", binds: 1},
			{sql: "INSERT INTO a.t VALUES (4, 'a4')", want: "a1|a2|a4", binds: 1},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, _ := newWriteSession(t)
			for _, q := range setup {
				run(t, s, q)
			}
			if tc.before != "" {
				run(t, s, tc.before)
			}
			st := prepareOne(t, s, tc.query)
			for i, stp := range tc.steps {
				if stp.sql != "" {
					run(t, s, stp.sql)
				}
				got := strings.Join(execPrepared(t, st, stp.params...), "|")
				if got != stp.want {
					t.Fatalf("step %d (%s): %q, want %q", i, stp.sql, got, stp.want)
				}
				if stp.binds != 0 && st.binds != stp.binds {
					t.Errorf("step %d (%s): %d bindings, want %d", i, stp.sql, st.binds, stp.binds)
				}
			}
		})
	}
}

// TestPreparedTemplateTypes executes a prepared comparison with a
// parameter of each type a template takes, by text value.
func TestPreparedTemplateTypes(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE SCHEMA ns")
	run(t, s, `CREATE TABLE ns.ty (b boolean, i2 smallint, i4 int, i8 bigint, f4 real, f8 double precision,
		n numeric(10,2), tx text, vc varchar(10), d date, tm time, ts timestamp, tz timestamptz, u uuid, by bytea, iv interval)`)
	run(t, s, `INSERT INTO ns.ty VALUES (true, 2, 4, 8, 1.5, 2.25, 12.34, 'text', 'var', '2024-02-29', '12:34:56',
		'2024-02-29 12:00:00', '2024-02-29 12:00:00+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\xdeadbeef', '1 day 2 hours')`)
	run(t, s, "SET TimeZone = 'UTC'")
	tsMicros := time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC).UnixMicro()
	uuid := []byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11}
	for _, tc := range []struct {
		col, val string
		typed    any // the value as wire decodes it from binary
	}{
		{"b", "true", true}, {"i2", "2", int16(2)}, {"i4", "4", int32(4)}, {"i8", "8", int64(8)},
		{"f4", "1.5", float32(1.5)}, {"f8", "2.25", 2.25}, {"n", "12.34", Numeric{Unscaled: big.NewInt(1234), Scale: 2}},
		{"tx", "text", "text"}, {"vc", "var", "var"}, {"d", "2024-02-29", int32(19782)}, {"tm", "12:34:56", int64(45296000000)},
		{"ts", "2024-02-29 12:00:00", tsMicros}, {"tz", "2024-02-29 12:00:00+00", tsMicros},
		{"u", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", uuid}, {"by", `\xdeadbeef`, []byte{0xde, 0xad, 0xbe, 0xef}},
		{"iv", "1 day 2 hours", arrow.MonthDayNanoInterval{Days: 1, Nanoseconds: 2 * 3600 * 1e9}},
	} {
		st := prepareOne(t, s, "SELECT count(*) FROM ns.ty WHERE "+tc.col+" = $1")
		for range 2 {
			if got := strings.Join(execPrepared(t, st, strp(tc.val)), "|"); got != "1" {
				t.Errorf("%s = %s: %q, want 1", tc.col, tc.val, got)
			}
		}
		if st.binds != 1 {
			t.Errorf("%s: %d bindings, want 1", tc.col, st.binds)
		}
		if got := strings.Join(execPrepared(t, st, nil), "|"); got != "0" {
			t.Errorf("%s = NULL: %q, want 0", tc.col, got)
		}
		if got := strings.Join(execTyped(t, st, tc.typed), "|"); got != "1" {
			t.Errorf("%s = %v (typed): %q, want 1", tc.col, tc.typed, got)
		}
		// A statement without a template binds the value's text form.
		nt := prepareOne(t, s, "SELECT count(*) FROM ns.ty WHERE "+tc.col+" = $1 AND now() IS NOT NULL")
		if got := strings.Join(execTyped(t, nt, tc.typed), "|"); got != "1" {
			t.Errorf("%s = %v (typed, bound as text): %q, want 1", tc.col, tc.typed, got)
		}
		if st.binds != 1 || nt.tmpl != nil {
			t.Errorf("%s: %d bindings, want 1; template of a statement reading the clock: %v", tc.col, st.binds, nt.tmpl != nil)
		}
	}
}

// execTyped executes st with typed parameter values (TypedStatement).
func execTyped(t *testing.T, st *selectStatement, typed ...any) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := st.ExecuteTyped(ctx, make([]*string, len(typed)), typed)
	if err != nil {
		return []string{"error " + pgerr.Code(err)}
	}
	defer rows.Close()
	var out []string
	for {
		b, err := rows.Next(ctx)
		if err != nil {
			return []string{"error " + pgerr.Code(err)}
		}
		if b == nil {
			return out
		}
		for i := 0; i < int(b.NumRows()); i++ {
			out = append(out, valueText(b.Column(0), i))
		}
	}
}

// TestPreparedExplainShowsValues: EXPLAIN of a prepared query shows the
// parameter's value, the same at every Execute.
func TestPreparedExplainShowsValues(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE SCHEMA a")
	run(t, s, "CREATE TABLE a.t (id bigint, v text)")
	stmts, err := s.Prepare(context.Background(), "EXPLAIN SELECT v FROM a.t WHERE id = $1", nil)
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for i := range 3 {
		got := strings.Join(execPrepared(t, stmts[0], strp("2")), "\n")
		if !strings.Contains(got, "Filter: (id = 2)") {
			t.Errorf("execution %d: %s\nwant Filter: (id = 2)", i, got)
		}
		if i == 0 {
			first = got
		} else if got != first {
			t.Errorf("execution %d: %s\nwant as the first: %s", i, got, first)
		}
	}
}

// TestPreparedTemplateOtherWriter executes a prepared query while a
// writer with its own catalog over the same warehouse (as another
// process is: nothing cached in common) commits between executions: each
// Execute sees the last commit, and a schema change rebinds the query or,
// when its result type changes, fails as PostgreSQL does.
func TestPreparedTemplateOtherWriter(t *testing.T) {
	type step struct {
		sql    string // run by the other writer before the execution
		params []*string
		want   string // rows joined by "|", or "error CODE"
		binds  int
	}
	tests := []struct {
		name  string
		query string
		steps []step
	}{
		{"rows committed elsewhere", "SELECT v FROM ns.t WHERE id = $1", []step{
			{params: []*string{strp("1")}, want: "a1", binds: 1},
			{sql: "INSERT INTO ns.t VALUES (3, 'a3')", params: []*string{strp("3")}, want: "a3", binds: 1},
			{sql: "DELETE FROM ns.t WHERE id = 1", params: []*string{strp("1")}, want: "", binds: 1},
			{sql: "UPDATE ns.t SET v = 'b2' WHERE id = 2", params: []*string{strp("2")}, want: "b2", binds: 1},
			{params: []*string{strp("3")}, want: "a3", binds: 1},
		}},
		{"a column added elsewhere, named columns", "SELECT id, v FROM ns.t WHERE id = $1", []step{
			{params: []*string{strp("2")}, want: "2\ta2", binds: 1},
			{sql: "ALTER TABLE ns.t ADD COLUMN w int", params: []*string{strp("2")}, want: "2\ta2", binds: 2},
			{sql: "INSERT INTO ns.t VALUES (4, 'a4', 7)", params: []*string{strp("4")}, want: "4\ta4", binds: 2},
		}},
		{"a column added elsewhere, SELECT *", "SELECT * FROM ns.t WHERE id = $1", []step{
			{params: []*string{strp("1")}, want: "1\ta1", binds: 1},
			{sql: "ALTER TABLE ns.t ADD COLUMN w int", params: []*string{strp("1")}, want: "error " + pgerr.FeatureNotSupported},
		}},
		{"a column's type changed elsewhere", "SELECT v FROM ns.t WHERE id = $1", []step{
			{params: []*string{strp("1")}, want: "a1", binds: 1},
			{sql: "ALTER TABLE ns.t ALTER COLUMN id TYPE bigint", params: []*string{strp("1")}, want: "a1"},
			{sql: "ALTER TABLE ns.t RENAME COLUMN v TO u", params: []*string{strp("1")}, want: "error " + pgerr.UndefinedColumn},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, dir := newWriteSession(t)
			for _, q := range []string{"CREATE SCHEMA ns", "CREATE TABLE ns.t (id int, v text)",
				"INSERT INTO ns.t VALUES (1, 'a1'), (2, 'a2')"} {
				run(t, s, q)
			}
			other, err := catalog.NewFilesystem("icegate", dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			ob, err := NewBackend(other, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
			if err != nil {
				t.Fatal(err)
			}
			w := ob.(*session)
			st := prepareOne(t, s, tc.query)
			for i, stp := range tc.steps {
				if stp.sql != "" {
					run(t, w, stp.sql)
				}
				got := strings.Join(execPrepared(t, st, stp.params...), "|")
				if got != stp.want {
					t.Fatalf("step %d (%s): %q, want %q", i, stp.sql, got, stp.want)
				}
				if stp.binds != 0 && st.binds != stp.binds {
					t.Errorf("step %d (%s): %d bindings, want %d", i, stp.sql, st.binds, stp.binds)
				}
			}
		})
	}
}
