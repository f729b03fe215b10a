package integration

import (
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestRecordedTypesPgx: json, jsonb, varchar(n), char(n) and smallint
// columns through pgx as an application uses them: jsonb parameters from a
// Go map, jsonb and json results scanned into maps and structs (pgx reads
// jsonb in the binary format: a version byte and the text), the columns'
// type OIDs and typmods in RowDescription, and the errors of values the
// types reject. The same scenario runs against PostgreSQL when
// ICEGATE_TEST_PG names one, so both must give the same answers.
func TestRecordedTypesPgx(t *testing.T) {
	run := func(t *testing.T, conn *pgx.Conn) {
		ctx := testCtx(t)
		for _, sql := range []string{
			"CREATE SCHEMA IF NOT EXISTS pgxtypes",
			"DROP TABLE IF EXISTS pgxtypes.t",
			"CREATE TABLE pgxtypes.t (id int, j jsonb, k json, v varchar(3), c char(3), s smallint)",
		} {
			if _, err := conn.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
		type doc struct {
			Z int  `json:"z"`
			A bool `json:"a"`
		}
		if _, err := conn.Exec(ctx, "INSERT INTO pgxtypes.t VALUES ($1, $2, $3, $4, $5, $6)",
			1, map[string]any{"b": map[string]any{"c": nil}, "a": []any{1, "x"}}, doc{Z: 1, A: true}, "abc", "x", int16(-2)); err != nil {
			t.Fatalf("insert with parameters: %v", err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO pgxtypes.t VALUES (2, '{"b": 1, "a": 1, "a": 2}', '{"z" : 5}', 'ab', 'ab ', 32767)`); err != nil {
			t.Fatalf("insert literals: %v", err)
		}

		for _, format := range []int16{pgx.TextFormatCode, pgx.BinaryFormatCode} {
			rows, err := conn.Query(ctx, "SELECT id, j, k, v, c, s, j::text FROM pgxtypes.t ORDER BY id", pgx.QueryResultFormats{format})
			if err != nil {
				t.Fatalf("format %d: %v", format, err)
			}
			var oids [][2]int64
			for _, fd := range rows.FieldDescriptions() {
				oids = append(oids, [2]int64{int64(fd.DataTypeOID), int64(fd.TypeModifier)})
			}
			if want := [][2]int64{{23, -1}, {3802, -1}, {114, -1}, {1043, 7}, {1042, 7}, {21, -1}, {25, -1}}; !reflect.DeepEqual(oids, want) {
				t.Errorf("format %d: column types %v, want %v", format, oids, want)
			}
			type row struct {
				id    int32
				j     map[string]any
				k     doc
				v, c  string
				s     int16
				jtext string
			}
			var got []row
			for rows.Next() {
				var r row
				if err := rows.Scan(&r.id, &r.j, &r.k, &r.v, &r.c, &r.s, &r.jtext); err != nil {
					t.Fatalf("format %d: scan: %v", format, err)
				}
				got = append(got, r)
			}
			if err := rows.Err(); err != nil {
				t.Fatalf("format %d: %v", format, err)
			}
			want := []row{
				{1, map[string]any{"a": []any{float64(1), "x"}, "b": map[string]any{"c": nil}}, doc{Z: 1, A: true}, "abc", "x  ", -2,
					`{"a": [1, "x"], "b": {"c": null}}`},
				{2, map[string]any{"a": float64(2), "b": float64(1)}, doc{Z: 5}, "ab", "ab ", 32767, `{"a": 2, "b": 1}`},
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("format %d: rows\n got %+v\nwant %+v", format, got, want)
			}
		}

		for _, c := range []struct{ sql, code string }{
			{"INSERT INTO pgxtypes.t (id, v) VALUES (3, 'abcd')", "22001"},
			{"INSERT INTO pgxtypes.t (id, c) VALUES (3, 'abcd')", "22001"},
			{"INSERT INTO pgxtypes.t (id, s) VALUES (3, 32768)", "22003"},
			{`INSERT INTO pgxtypes.t (id, j) VALUES (3, '{"a":')`, "22P02"},
			{"INSERT INTO pgxtypes.t (id, k) VALUES (3, 'x')", "22P02"},
		} {
			_, err := conn.Exec(ctx, c.sql)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != c.code {
				t.Errorf("%s: error %v, want SQLSTATE %s", c.sql, err, c.code)
			}
		}
		// Parameters get the same checks.
		for _, c := range []struct {
			sql  string
			arg  any
			code string
		}{
			{"INSERT INTO pgxtypes.t (id, v) VALUES (3, $1)", "abcd", "22001"},
			{"INSERT INTO pgxtypes.t (id, k) VALUES (3, $1)", "not json", "22P02"},
			{"INSERT INTO pgxtypes.t (id, j) VALUES (3, $1)", "[1,", "22P02"},
		} {
			_, err := conn.Exec(ctx, c.sql, c.arg)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != c.code {
				t.Errorf("%s with %q: error %v, want SQLSTATE %s", c.sql, c.arg, err, c.code)
			}
		}
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pgxtypes.t").Scan(&n); err != nil || n != 2 {
			t.Errorf("rows after the rejected writes: %d (%v), want 2", n, err)
		}
	}
	t.Run("icegate", func(t *testing.T) {
		run(t, connect(t, startServer(t, t.TempDir(), serverOpts{})))
	})
	t.Run("postgres", func(t *testing.T) {
		url := os.Getenv("ICEGATE_TEST_PG")
		if url == "" {
			t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to run the scenario there too; .ci/run does")
		}
		run(t, connectPostgres(t, url))
	})
}

// TestIntervalColumnPgx: an interval column through pgx: a pgtype.Interval
// parameter (sent in the binary format), results in both formats scanned
// into pgtype.Interval and as text, and the column's type OID. The same
// scenario runs against PostgreSQL when ICEGATE_TEST_PG names one.
func TestIntervalColumnPgx(t *testing.T) {
	run := func(t *testing.T, conn *pgx.Conn) {
		ctx := testCtx(t)
		for _, sql := range []string{
			"CREATE SCHEMA IF NOT EXISTS pgxtypes",
			"DROP TABLE IF EXISTS pgxtypes.iv",
			"CREATE TABLE pgxtypes.iv (id int, d interval)",
		} {
			if _, err := conn.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
		param := pgtype.Interval{Months: -14, Days: 3, Microseconds: 14706789000, Valid: true}
		if _, err := conn.Exec(ctx, "INSERT INTO pgxtypes.iv VALUES (1, $1), (2, NULL), (3, '1 mon -2 days')", param); err != nil {
			t.Fatalf("insert: %v", err)
		}
		for _, format := range []int16{pgx.TextFormatCode, pgx.BinaryFormatCode} {
			rows, err := conn.Query(ctx, "SELECT d, d::text FROM pgxtypes.iv ORDER BY id", pgx.QueryResultFormats{format, format})
			if err != nil {
				t.Fatalf("format %d: %v", format, err)
			}
			if oid := rows.FieldDescriptions()[0].DataTypeOID; oid != 1186 {
				t.Errorf("format %d: type OID %d, want 1186", format, oid)
			}
			var got []pgtype.Interval
			var texts []*string
			for rows.Next() {
				var iv pgtype.Interval
				var s *string
				if err := rows.Scan(&iv, &s); err != nil {
					t.Fatalf("format %d: scan: %v", format, err)
				}
				got, texts = append(got, iv), append(texts, s)
			}
			if err := rows.Err(); err != nil {
				t.Fatalf("format %d: %v", format, err)
			}
			want := []pgtype.Interval{param, {}, {Months: 1, Days: -2, Valid: true}}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("format %d: intervals %+v, want %+v", format, got, want)
			}
			if len(texts) != 3 || texts[0] == nil || *texts[0] != "-1 years -2 mons +3 days 04:05:06.789" || texts[1] != nil {
				t.Errorf("format %d: texts %v", format, texts)
			}
		}
	}
	t.Run("icegate", func(t *testing.T) {
		run(t, connect(t, startServer(t, t.TempDir(), serverOpts{})))
	})
	t.Run("postgres", func(t *testing.T) {
		url := os.Getenv("ICEGATE_TEST_PG")
		if url == "" {
			t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to run the scenario there too; .ci/run does")
		}
		run(t, connectPostgres(t, url))
	})
}

// TestParameterTypesFromContext: a parameter compared with a column takes
// the column's type, as PostgreSQL infers it (pgx's LoadType sends
// "... WHERE oid = $1" and encodes its argument by the type Describe
// reports). The same statements are described by PostgreSQL when
// ICEGATE_TEST_PG names one, and must agree.
func TestParameterTypesFromContext(t *testing.T) {
	queries := []string{
		"SELECT typname FROM pg_type WHERE oid = $1",
		"SELECT typname FROM pg_type WHERE typname = $1 AND $2 = typnamespace",
		"SELECT 1 FROM ptypes.r WHERE v = $1 AND c = $2 AND s = $3 AND j = $4 AND $5 < s AND n >= $6 AND d <> $7 AND i = $8",
		"SELECT 1 + $1::int, $2 || 'x', $3 IN (1, 2), attname FROM pg_attribute WHERE attrelid = $4 AND attnum > $5",
	}
	describe := func(t *testing.T, conn *pgx.Conn) [][]uint32 {
		ctx := testCtx(t)
		for _, sql := range []string{
			"CREATE SCHEMA IF NOT EXISTS ptypes",
			"DROP TABLE IF EXISTS ptypes.r",
			"CREATE TABLE ptypes.r (v varchar(5), c char(3), s smallint, j jsonb, n numeric(10,2), d date, i interval)",
		} {
			if _, err := conn.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
		var out [][]uint32
		for _, q := range queries {
			sd, err := conn.Prepare(ctx, "", q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			out = append(out, sd.ParamOIDs)
		}
		// The parameters so typed run.
		var name string
		if err := conn.QueryRow(ctx, queries[0], uint32(23)).Scan(&name); err != nil || name != "int4" {
			t.Errorf("%s with 23: %q, %v", queries[0], name, err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO ptypes.r VALUES ('ab', 'ab', 1, '{"a": 1}', 1.5, '2020-01-01', '1 day')`); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := conn.QueryRow(ctx, queries[2], "ab", "ab ", int16(1), map[string]any{"a": 1}, int16(0), 1.5, "2020-01-02", "24 hours").Scan(&n); err != nil || n != 1 {
			t.Errorf("%s: %d, %v", queries[2], n, err)
		}
		return out
	}
	got := describe(t, connect(t, startServer(t, t.TempDir(), serverOpts{})))
	// PostgreSQL 15's answers: oid, name, character (bpchar), smallint,
	// jsonb, numeric, date and interval from the other side; varchar
	// compares as text.
	want := [][]uint32{{26}, {19, 26}, {25, 1042, 21, 3802, 21, 1700, 1082, 1186}, {23, 25, 23, 26, 21}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("icegate parameter types %v, want %v", got, want)
	}
	if url := os.Getenv("ICEGATE_TEST_PG"); url != "" {
		if pg := describe(t, connectPostgres(t, url)); !reflect.DeepEqual(pg, want) {
			t.Errorf("PostgreSQL parameter types %v, want %v", pg, want)
		}
	}
}

// TestInfinityPgx: 'infinity' and '-infinity' dates and timestamps through
// pgx in both formats (binary: int32 and int64 bounds) and as parameters,
// in columns; the same scenario runs against PostgreSQL when
// ICEGATE_TEST_PG names one.
func TestInfinityPgx(t *testing.T) {
	run := func(t *testing.T, conn *pgx.Conn) {
		ctx := testCtx(t)
		for _, sql := range []string{
			"CREATE SCHEMA IF NOT EXISTS pgxtypes",
			"DROP TABLE IF EXISTS pgxtypes.inf",
			"CREATE TABLE pgxtypes.inf (id int, d date, ts timestamp, tz timestamptz)",
		} {
			if _, err := conn.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
		if _, err := conn.Exec(ctx, "INSERT INTO pgxtypes.inf VALUES (1, 'infinity', '-infinity', 'infinity'), (2, $1, $2, $3)",
			pgtype.Date{InfinityModifier: pgtype.NegativeInfinity, Valid: true},
			pgtype.Timestamp{InfinityModifier: pgtype.Infinity, Valid: true},
			pgtype.Timestamptz{InfinityModifier: pgtype.NegativeInfinity, Valid: true}); err != nil {
			t.Fatalf("insert: %v", err)
		}
		for _, format := range []int16{pgx.TextFormatCode, pgx.BinaryFormatCode} {
			rows, err := conn.Query(ctx, "SELECT d, ts, tz FROM pgxtypes.inf ORDER BY id", pgx.QueryResultFormats{format})
			if err != nil {
				t.Fatalf("format %d: %v", format, err)
			}
			var got [][3]pgtype.InfinityModifier
			for rows.Next() {
				var d pgtype.Date
				var ts pgtype.Timestamp
				var tz pgtype.Timestamptz
				if err := rows.Scan(&d, &ts, &tz); err != nil {
					t.Fatalf("format %d: scan: %v", format, err)
				}
				got = append(got, [3]pgtype.InfinityModifier{d.InfinityModifier, ts.InfinityModifier, tz.InfinityModifier})
			}
			if err := rows.Err(); err != nil {
				t.Fatalf("format %d: %v", format, err)
			}
			want := [][3]pgtype.InfinityModifier{
				{pgtype.Infinity, pgtype.NegativeInfinity, pgtype.Infinity},
				{pgtype.NegativeInfinity, pgtype.Infinity, pgtype.NegativeInfinity},
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("format %d: %v, want %v", format, got, want)
			}
		}
	}
	t.Run("icegate", func(t *testing.T) {
		run(t, connect(t, startServer(t, t.TempDir(), serverOpts{})))
	})
	t.Run("postgres", func(t *testing.T) {
		url := os.Getenv("ICEGATE_TEST_PG")
		if url == "" {
			t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to run the scenario there too; .ci/run does")
		}
		run(t, connectPostgres(t, url))
	})
}
