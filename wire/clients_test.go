package wire

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	_ "github.com/lib/pq"

	"github.com/icegate/icegate/internal/pgerr"
)

var execModes = []pgx.QueryExecMode{
	pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe, pgx.QueryExecModeDescribeExec,
	pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol,
}

func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// normalize makes values decoded from text and from binary comparable.
func normalize(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case pgtype.Numeric:
		f, _ := x.Float64Value()
		return f.Float64
	case pgtype.Time:
		return x.Microseconds
	case []any:
		out := make([]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	}
	return v
}

// TestPgxEveryType reads every type through pgx in every exec mode: binary
// results (the cached modes) and text (Exec, simple protocol) must decode
// to the same values, and those values are the expected ones.
func TestPgxEveryType(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	want := []any{
		true, int16(-32768), int32(2147483647), int64(math.MinInt64), float32(1.1), float64(1e20), 12345.67, "héllo",
		[]byte{0, 0xff, 0x10}, "2024-01-31T00:00:00Z", int64(45296789000), "2024-01-31T12:34:56.5Z", "2024-01-31T12:34:56.5Z",
		"2024-01-31T12:34:56.123456Z",
		[16]uint8{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11},
		map[string]any{"a": float64(1), "b": []any{float64(1), float64(2)}}, []any{int32(1), int32(2), nil}, []any{"a b", nil}, "red",
		pgtype.Interval{Microseconds: 14706789000, Days: 3, Months: 14, Valid: true},
	}
	for _, mode := range execModes {
		t.Run(mode.String(), func(t *testing.T) {
			rows, err := conn.Query(context.Background(), "select types", mode)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]any
			for rows.Next() {
				vals, err := rows.Values()
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, vals)
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 {
				t.Fatalf("%d rows, want 2", len(got))
			}
			for k, w := range want {
				if g := normalize(got[0][k]); !reflect.DeepEqual(g, w) {
					t.Errorf("column %s: got %#v, want %#v", typesColumns[k].Name, g, w)
				}
				if got[1][k] != nil {
					t.Errorf("column %s of the NULL row: got %#v", typesColumns[k].Name, got[1][k])
				}
			}
			if tag := rows.CommandTag().String(); tag != "SELECT 2" {
				t.Errorf("tag %q", tag)
			}
		})
	}
}

// TestPgxTextBytes checks the raw text of every column as the simple
// protocol delivers it.
func TestPgxTextBytes(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	rr := conn.PgConn().ExecParams(context.Background(), "select types", nil, nil, nil, nil)
	res := rr.Read()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	for k, v := range res.Rows[0] {
		if string(v) != typesText[k] {
			t.Errorf("column %s: %q, want %q", typesColumns[k].Name, v, typesText[k])
		}
	}
	for k, f := range res.FieldDescriptions {
		if f.DataTypeOID != typesColumns[k].TypeOID || f.TypeModifier != typesColumns[k].Typmod || f.Format != 0 {
			t.Errorf("field %d: %+v", k, f)
		}
	}
	if f := res.FieldDescriptions[0]; f.TableOID != 16384 || f.TableAttributeNumber != 1 || f.DataTypeSize != 1 {
		t.Errorf("field b describes table %d col %d size %d", f.TableOID, f.TableAttributeNumber, f.DataTypeSize)
	}
}

func TestLibPQ(t *testing.T) {
	ts := startServer(t, Config{})
	db, err := sql.Open("postgres", ts.url("tester", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("select types")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	raw := make([]sql.RawBytes, len(typesColumns))
	dest := make([]any, len(raw))
	for k := range raw {
		dest[k] = &raw[k]
	}
	// lib/pq parses these types from our text; database/sql then formats
	// the Go values again.
	parsed := map[string]string{
		"b": "true", "by": "\x00\xff\x10", "d": "2024-01-31T00:00:00Z", "tm": "0000-01-01T12:34:56.789Z",
		"ts": "2024-01-31T12:34:56.5Z", "tz": "2024-01-31T12:34:56.5Z", "tsns": "2024-01-31T12:34:56.123456Z",
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		for k, v := range raw {
			want, ok := parsed[typesColumns[k].Name]
			if !ok {
				want = typesText[k]
			}
			switch {
			case n == 0 && string(v) != want:
				t.Errorf("column %s: %q, want %q", typesColumns[k].Name, v, want)
			case n == 1 && v != nil:
				t.Errorf("column %s of the NULL row: %q", typesColumns[k].Name, v)
			}
		}
		n++
	}
	if err := rows.Err(); err != nil || n != 2 {
		t.Fatalf("%d rows, err %v", n, err)
	}
	// With arguments lib/pq uses the extended protocol with text parameters.
	var echoed string
	if err := db.QueryRow("echo int8", 42).Scan(&echoed); err != nil || echoed != "42" {
		t.Errorf("echo: %q, %v", echoed, err)
	}
	_, err = db.Exec("error")
	if err == nil || !containsCode(err, "42601") {
		t.Errorf("error statement: %v, want 42601", err)
	}
}

func containsCode(err error, code string) bool {
	type coder interface{ SQLState() string }
	var c coder
	return errors.As(err, &c) && c.SQLState() == code
}

// TestPgxBinaryParams sends every parameter type pgx encodes in binary and
// checks the text the backend received.
func TestPgxBinaryParams(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	var num pgtype.Numeric
	if err := num.Scan("-12.340"); err != nil {
		t.Fatal(err)
	}
	var tiny pgtype.Numeric
	if err := tiny.Scan("0.0000000001"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		typ  string
		arg  any
		want string
	}{
		{"bool", true, "true"},
		{"int2", int16(-5), "-5"},
		{"int4", int32(2147483647), "2147483647"},
		{"int8", int64(math.MinInt64), "-9223372036854775808"},
		{"float4", float32(1.1), "1.1"},
		{"float8", 1e20, "1e+20"},
		{"float8", 0.1, "0.1"},
		{"text", "héllo", "héllo"},
		{"numeric", num, "-12.340"},
		{"numeric", tiny, "0.0000000001"},
		{"bytea", []byte{0, 0xff}, `\x00ff`},
		{"uuid", [16]byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11}, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"date", time.Date(2024, 1, 31, 0, 0, 0, 0, time.UTC), "2024-01-31"},
		{"timestamp", time.Date(2024, 1, 31, 12, 34, 56, 500000000, time.UTC), "2024-01-31 12:34:56.5"},
		{"timestamptz", time.Date(2024, 1, 31, 12, 34, 56, 500000000, time.UTC), "2024-01-31 12:34:56.5+00"},
		{"jsonb", map[string]any{"a": 1}, `{"a":1}`},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/%v", tc.typ, tc.arg), func(t *testing.T) {
			var got string
			if err := conn.QueryRow(context.Background(), "echo "+tc.typ, tc.arg).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("backend received %q, want %q", got, tc.want)
			}
		})
	}
}

func TestErrorFields(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	cases := []struct {
		sql      string
		code     string
		position int32
		mode     pgx.QueryExecMode
	}{
		{"error", pgerr.SyntaxError, 1, pgx.QueryExecModeCacheStatement},
		{"select numbers 1 1;  error", pgerr.SyntaxError, 22, pgx.QueryExecModeSimpleProtocol},
		{"select nothing", pgerr.UndefinedTable, 8, pgx.QueryExecModeExec},
		{"fail", pgerr.InternalError, 0, pgx.QueryExecModeCacheStatement},
	}
	for _, tc := range cases {
		t.Run(tc.sql, func(t *testing.T) {
			_, err := conn.Exec(context.Background(), tc.sql, tc.mode)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a PgError", err)
			}
			if pe.Code != tc.code || pe.Position != tc.position || pe.Severity != "ERROR" {
				t.Errorf("got %s at %d (%s): %s", pe.Code, pe.Position, pe.Severity, pe.Message)
			}
			if tc.code == pgerr.InternalError && pe.Message != "read data file: disk on fire" {
				t.Errorf("internal error message %q", pe.Message)
			}
			// The connection stays usable.
			var n int64
			if err := conn.QueryRow(context.Background(), "select numbers 1 1").Scan(&n); err != nil || n != 1 {
				t.Errorf("after the error: %d, %v", n, err)
			}
		})
	}
}

func TestNotice(t *testing.T) {
	ts := startServer(t, Config{})
	cfg, err := pgx.ParseConfig(ts.url("tester", ""))
	if err != nil {
		t.Fatal(err)
	}
	notices := make(chan string, 1)
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices <- n.Severity + " " + n.Message }
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "notice"); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-notices:
		if n != "NOTICE hello from the backend" {
			t.Errorf("notice %q", n)
		}
	default:
		t.Error("no notice")
	}
}

func TestStartupParameters(t *testing.T) {
	ts := startServer(t, Config{})
	cases := []struct{ url, want string }{
		{strings.Replace(ts.url("alice", "application_name=app1"), "/icegate?", "/?", 1), "alice/alice/app1"},
		{ts.url("bob", ""), "bob/icegate/"},
	}
	for _, tc := range cases {
		conn := connect(t, tc.url)
		var got string
		if err := conn.QueryRow(context.Background(), "whoami").Scan(&got); err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.url, got, err, tc.want)
		}
		if v := conn.PgConn().ParameterStatus("server_version"); v != "16.0 (icegate)" {
			t.Errorf("server_version %q", v)
		}
		if conn.PgConn().PID() == 0 {
			t.Error("no BackendKeyData process id")
		}
	}
}

// TestLargeResult streams more rows than one write buffer holds, in every
// exec mode.
func TestLargeResult(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	const n = 200000
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		rows, err := conn.Query(context.Background(), "select numbers 200000 70000", mode)
		if err != nil {
			t.Fatal(err)
		}
		var sum, count int64
		for rows.Next() {
			var v int64
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			sum += v
			count++
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if count != n || sum != n*(n+1)/2 {
			t.Errorf("%v: %d rows summing to %d", mode, count, sum)
		}
	}
}
