package integration

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/lib/pq"

	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestCopyRoundTrip writes a table with COPY FROM STDIN (pgx, lib/pq,
// psql's \copy), reads it back with COPY TO STDOUT, and checks that a
// failed COPY commits nothing.
func TestCopyRoundTrip(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	conn := connect(t, addr)
	ctx := testCtx(t)
	if _, err := conn.Exec(ctx, "CREATE TABLE c (id int NOT NULL, name text, amount numeric(8,2), d date)"); err != nil {
		t.Fatal(err)
	}
	copyIn := func(sql, data string) (string, error) {
		tag, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(data), sql)
		return tag.String(), err
	}
	count := func() int64 {
		t.Helper()
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM c").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if tag, err := copyIn("COPY c FROM STDIN", "1\tone\t1.50\t2024-01-01\n2\t\\N\t2\t\\N\n3\ttab\\there\\nnl\t\\N\t2024-03-03\n\\.\n"); err != nil || tag != "COPY 3" {
		t.Fatalf("text COPY: %q %v", tag, err)
	}
	if tag, err := copyIn("COPY c FROM STDIN (FORMAT csv, HEADER)", "id,name,amount,d\r\n4,\"quoted, \"\"x\"\"\r\n2nd line\",,\r\n5,\"\",3.25,2024-05-05\r\n"); err != nil || tag != "COPY 2" {
		t.Fatalf("csv COPY: %q %v", tag, err)
	}

	errTests := []struct {
		name, sql, data, code, msg, detail string
	}{
		{"bad value", "COPY c FROM STDIN", "6\tsix\t1\t2024-01-01\n7\tseven\tx\t2024-01-01\n", pgerr.InvalidTextRepresentation,
			`invalid input syntax for type numeric: "x"`, `COPY c, line 2, column amount: "x"`},
		{"missing column", "COPY c FROM STDIN", "6\tsix\t1\t2024-01-01\n7\tseven\n", "22P04",
			`missing data for column "amount"`, "COPY c, line 2: \"7\tseven\""},
		{"unterminated quote", "COPY c FROM STDIN CSV", "6,\"six,1,2024-01-01\n", "22P04", "unterminated CSV quoted field",
			"COPY c, line 1: \"6,\"six,1,2024-01-01\n\""},
	}
	for _, tc := range errTests {
		_, err := copyIn(tc.sql, tc.data)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != tc.code || pe.Message != tc.msg || pe.Detail != tc.detail {
			t.Errorf("%s: got %v (detail %q), want %s %q detail %q", tc.name, err, detailOf(err), tc.code, tc.msg, tc.detail)
		}
	}
	_, err := conn.PgConn().CopyFrom(ctx, &brokenReader{data: "6\tsix\t1\t2024-01-01\n"}, "COPY c FROM STDIN")
	if pe := (*pgconn.PgError)(nil); !errors.As(err, &pe) || pe.Code != pgerr.QueryCanceled || pe.Message != "COPY from stdin failed: file vanished" {
		t.Errorf("CopyFail: %v", err)
	}
	if n := count(); n != 5 {
		t.Fatalf("%d rows after the failed COPYs, want 5", n)
	}

	// lib/pq's CopyIn, in a transaction.
	db, err := sql.Open("postgres", connString(addr, "icegate", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := tx.Prepare(pq.CopyIn("c", "id", "name"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range [][]any{{6, `back\slash`}, {7, nil}} {
		if _, err := stmt.Exec(row...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := stmt.Exec(); err != nil {
		t.Fatal(err)
	}
	if err := stmt.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	wantText := "1\tone\t1.50\t2024-01-01\n2\t\\N\t2.00\t\\N\n3\ttab\\there\\nnl\t\\N\t2024-03-03\n" +
		"4\tquoted, \"x\"\\r\\n2nd line\t\\N\t\\N\n5\t\t3.25\t2024-05-05\n6\tback\\\\slash\t\\N\t\\N\n7\t\\N\t\\N\t\\N\n"
	wantCSV := "id,name,amount,d\n1,one,1.50,2024-01-01\n2,,2.00,\n3,\"tab\there\nnl\",,2024-03-03\n" +
		"4,\"quoted, \"\"x\"\"\r\n2nd line\",,\n5,\"\",3.25,2024-05-05\n6,back\\slash,,\n7,,,\n"
	for _, tc := range []struct{ sql, want, tag string }{
		{"COPY (SELECT * FROM c ORDER BY id) TO STDOUT", wantText, "COPY 7"},
		{"COPY (SELECT * FROM c ORDER BY id) TO STDOUT (FORMAT csv, HEADER)", wantCSV, "COPY 7"},
	} {
		var out strings.Builder
		tag, err := conn.PgConn().CopyTo(ctx, &out, tc.sql)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		if tag.String() != tc.tag || out.String() != tc.want {
			t.Errorf("%s: %s\n%q\nwant\n%q", tc.sql, tag, out.String(), tc.want)
		}
	}

	// psql's \copy is COPY FROM STDIN / TO STDOUT underneath.
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql is not on PATH: install postgresql-client to test \\copy")
	}
	host, port, _ := strings.Cut(addr, ":")
	run := func(stdin, command string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, psql, "-X", "-q", "-h", host, "-p", port, "-U", "icegate", "-d", "icegate", "-v", "ON_ERROR_STOP=1", "-c", command)
		cmd.Env = cleanEnv()
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("psql -c %q: %v\n%s", command, err, out)
		}
		return string(out)
	}
	run("8\teight\t8\t2024-08-08\n9\t\\N\t\\N\t\\N\n", `\copy c from stdin`)
	run("10,\"ten, csv\",,\n", `\copy c (id, name, amount, d) from stdin with (format csv)`)
	got := run("", `\copy (SELECT * FROM c WHERE id >= 8 ORDER BY id) to stdout with (format csv)`)
	if want := "8,eight,8.00,2024-08-08\n9,,,\n10,\"ten, csv\",,\n"; got != want {
		t.Errorf("psql \\copy to stdout: %q, want %q", got, want)
	}
}

// brokenReader returns data, then an error: pgx sends CopyFail.
type brokenReader struct {
	data string
	done bool
}

func (r *brokenReader) Read(p []byte) (int, error) {
	if r.done {
		return 0, errors.New("file vanished")
	}
	r.done = true
	return copy(p, r.data), nil
}

func detailOf(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Detail
	}
	return ""
}

// TestCopyToFixtures checks COPY TO STDOUT of every small fixture table
// carries the same values as SELECT *, escaped as PostgreSQL's text format
// escapes them.
func TestCopyToFixtures(t *testing.T) {
	warehouse := fixtures.Warehouse(t)
	fixtures := loadFixtures(t, warehouse)
	addr := startServer(t, warehouse, serverOpts{})
	c := &reconnecting{t: t, addr: addr}
	checked := 0
	for _, fx := range fixtures {
		if _, ok := knownUnsupported[fx.Folder]; ok || fx.ExpectedRows == nil || *fx.ExpectedRows > 5000 {
			continue
		}
		t.Run(fx.Folder, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			conn := c.get()
			name := fx.sqlName()
			res, err := queryText(ctx, conn, "SELECT * FROM "+name)
			if err != nil {
				t.Skipf("SELECT fails, which TestFixtures reports: %v", err)
			}
			var want []string
			for _, row := range res.rows {
				fields := make([]string, len(row))
				for k, v := range row {
					fields[k] = copyTextEscape(v)
				}
				want = append(want, strings.Join(fields, "\t"))
			}
			var out strings.Builder
			tag, err := conn.PgConn().CopyTo(ctx, &out, "COPY "+name+" TO STDOUT")
			if err != nil {
				t.Fatalf("COPY TO: %v", err)
			}
			if tag.String() != fmt.Sprintf("COPY %d", len(res.rows)) {
				t.Errorf("tag %q for %d rows", tag, len(res.rows))
			}
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if out.Len() == 0 {
				got = nil
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("COPY TO differs from SELECT:\n got %q\nwant %q", head(got, 3), head(want, 3))
			}
		})
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d fixture tables checked", checked)
	}
}

// copyTextEscape escapes a SELECT text value as COPY's text format does
// (nullValue, the marker queryText uses for NULL, becomes \N).
func copyTextEscape(v string) string {
	if v == nullValue {
		return `\N`
	}
	r := strings.NewReplacer(`\`, `\\`, "\b", `\b`, "\f", `\f`, "\n", `\n`, "\r", `\r`, "\t", `\t`, "\v", `\v`)
	return r.Replace(v)
}

// TestCopyBinary loads rows with pgx's CopyFrom (binary COPY FROM) and
// reads them back with binary COPY TO through pgx's decoders.
func TestCopyBinary(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	conn := connect(t, addr)
	ctx := testCtx(t)
	if _, err := conn.Exec(ctx, "CREATE TABLE b (id bigint, name text, amount numeric(8,2), d date, ts timestamp, ok boolean)"); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)
	ts := time.Date(2024, 2, 29, 12, 34, 56, 789000000, time.UTC)
	amount := pgtype.Numeric{}
	if err := amount.Scan("1234.50"); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{{int64(1), "tab\there", amount, day, ts, true}, {int64(2), nil, nil, nil, nil, nil}}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"b"}, []string{"id", "name", "amount", "d", "ts", "ok"}, pgx.CopyFromRows(rows))
	if err != nil || n != 2 {
		t.Fatalf("CopyFrom: %d %v", n, err)
	}
	var out strings.Builder
	if _, err := conn.PgConn().CopyTo(ctx, &out, "COPY (SELECT * FROM b ORDER BY id) TO STDOUT"); err != nil {
		t.Fatal(err)
	}
	want := "1\ttab\\there\t1234.50\t2024-02-29\t2024-02-29 12:34:56.789\tt\n2\t\\N\t\\N\t\\N\t\\N\t\\N\n"
	if out.String() != want {
		t.Errorf("text COPY TO after binary COPY FROM: %q, want %q", out.String(), want)
	}
	out.Reset()
	tag, err := conn.PgConn().CopyTo(ctx, &out, "COPY (SELECT id, name FROM b ORDER BY id) TO STDOUT (FORMAT binary)")
	wantBin := "PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
		"\x00\x02\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x08tab\there" +
		"\x00\x02\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\x02\xff\xff\xff\xff\xff\xff"
	if err != nil || tag.String() != "COPY 2" || out.String() != wantBin {
		t.Errorf("binary COPY TO: %v %s %q", err, tag, out.String())
	}
}
