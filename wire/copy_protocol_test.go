package wire

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/lib/pq"

	"github.com/icegate/icegate/internal/pgerr"
)

// pgError returns err as a *pgconn.PgError, failing the test otherwise.
func pgError(t *testing.T, err error) *pgconn.PgError {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("want a PostgreSQL error, got %v", err)
	}
	return pe
}

// TestCopyFromPgx runs COPY FROM STDIN with pgx (simple protocol) and
// checks the rows the statement received, errors with their line, and that
// the connection goes on after an error.
func TestCopyFromPgx(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	ctx := context.Background()
	tests := []struct {
		name   string
		sql    string
		data   string
		tag    string
		rows   []string
		code   string
		msg    string
		detail string
	}{
		{name: "text", sql: "copy t from stdin", data: "1\tx\t\\N\n2\ta\\tb\tc\n\\.\n", tag: "COPY 2",
			rows: []string{"1|x|<null>", "2|a\tb|c"}},
		{name: "csv header", sql: "copy t from stdin csv header", data: "a,b,c\r\n1,\"x,\ny\",\r\n", tag: "COPY 1",
			rows: []string{"1|x,\ny|<null>"}},
		{name: "parse error", sql: "copy t from stdin", data: "1\ta\tb\n2\ta\tb\n3\ta\n4\ta\tb\n",
			code: pgerr.BadCopyFileFormat, msg: `missing data for column "c"`, detail: "COPY t, line 3: \"3\ta\""},
		{name: "value error", sql: "copy t from stdin csv", data: "1,a,b\n2,a,b\nx,a,b\n",
			code: pgerr.InvalidTextRepresentation, msg: `invalid input syntax for type integer: "x"`, detail: `COPY t, line 3, column a: "x"`},
		{name: "statement error", sql: "copy t from stdin fail", data: "1\ta\tb\n", code: "53100", msg: "no space left on device"},
		{name: "binary bad signature", sql: "copy t from stdin binary", data: "PGCOPY\n", code: pgerr.BadCopyFileFormat,
			msg: "COPY file signature not recognized"},
		{name: "binary", sql: "copy t from stdin binary", tag: "COPY 1", rows: []string{"7|x|<null>"},
			data: "PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x04\x00\x00\x00\x07\x00\x00\x00\x01x\xff\xff\xff\xff\xff\xff"},
		{name: "statement stops early", sql: "copy t from stdin stop=1", data: "1\ta\tb\n2\ta\tb\n", tag: "COPY 1", rows: []string{"1|a|b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts.backend.copied.take()
			tag, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(tc.data), tc.sql)
			if tc.code != "" {
				pe := pgError(t, err)
				if pe.Code != tc.code || pe.Message != tc.msg || pe.Detail != tc.detail {
					t.Errorf("error %s %q detail %q, want %s %q detail %q", pe.Code, pe.Message, pe.Detail, tc.code, tc.msg, tc.detail)
				}
				if got := ts.backend.copied.take(); len(got) != 0 {
					t.Errorf("a failed COPY kept rows %q", got)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if tag.String() != tc.tag {
					t.Errorf("tag %q, want %q", tag, tc.tag)
				}
				if got := ts.backend.copied.take(); !slices.Equal(got, tc.rows) {
					t.Errorf("rows %q, want %q", got, tc.rows)
				}
			}
			var n int64
			if err := conn.QueryRow(ctx, "select numbers 3 3").Scan(&n); err != nil || n != 1 {
				t.Fatalf("connection after COPY: %v %d", err, n)
			}
		})
	}
}

// failingReader returns some data, then an error, which pgx turns into
// CopyFail.
type failingReader struct{ sent bool }

func (r *failingReader) Read(p []byte) (int, error) {
	if !r.sent {
		r.sent = true
		return copy(p, "1\ta\tb\n"), nil
	}
	return 0, errors.New("disk read failed")
}

func TestCopyFail(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	_, err := conn.PgConn().CopyFrom(context.Background(), &failingReader{}, "copy t from stdin")
	pe := pgError(t, err)
	if pe.Code != pgerr.QueryCanceled || pe.Message != "COPY from stdin failed: disk read failed" {
		t.Errorf("error %s %q", pe.Code, pe.Message)
	}
	if got := ts.backend.copied.take(); len(got) != 0 {
		t.Errorf("rows kept after CopyFail: %q", got)
	}
}

// TestCopyFromLarge streams 200,000 rows (about 4 MB) through pgx.
func TestCopyFromLarge(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	pr, pw := io.Pipe()
	const n = 200000
	go func() {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "%d,value %d,\"q\"\"%d\"\n", i, i, i)
			if b.Len() > 32<<10 {
				_, _ = pw.Write([]byte(b.String()))
				b.Reset()
			}
		}
		_, _ = pw.Write([]byte(b.String()))
		pw.Close()
	}()
	tag, err := conn.PgConn().CopyFrom(context.Background(), pr, "copy t from stdin csv")
	if err != nil {
		t.Fatal(err)
	}
	if tag.String() != fmt.Sprintf("COPY %d", n) {
		t.Errorf("tag %q", tag)
	}
	rows := ts.backend.copied.take()
	if len(rows) != n || rows[n-1] != fmt.Sprintf("%d|value %d|q\"%d", n, n, n) {
		t.Errorf("%d rows, last %q", len(rows), rows[len(rows)-1])
	}
}

// TestCopyFromLibpq runs COPY FROM STDIN the way lib/pq's CopyIn does, in
// a transaction.
func TestCopyFromLibpq(t *testing.T) {
	ts := startServer(t, Config{})
	db, err := sql.Open("postgres", ts.url("tester", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := tx.Prepare(pq.CopyIn("t", "a", "b", "c"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range [][]any{{1, "tab\there", nil}, {2, `back\slash`, "x"}} {
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
	want := []string{"1|tab\there|<null>", `2|back\slash|x`}
	if got := ts.backend.copied.take(); !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}

	// An error: lib/pq reports it from Exec or Close.
	tx, err = db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	stmt, err = tx.Prepare(pq.CopyIn("t", "a", "b", "c"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = stmt.Exec("nan", "b", "c")
	if err == nil {
		_, err = stmt.Exec()
	}
	if err == nil {
		err = stmt.Close()
	}
	var pqe *pq.Error
	if !errors.As(err, &pqe) || string(pqe.Code) != pgerr.InvalidTextRepresentation || pqe.Detail != `COPY t, line 1, column a: "nan"` {
		t.Errorf("error %#v", err)
	}
}

// TestCopyToPgx checks the exact bytes of COPY TO STDOUT in both formats.
func TestCopyToPgx(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	escapedTypes := make([]string, len(typesText))
	nulls := make([]string, len(typesText))
	quotedTypes := make([]string, len(typesText))
	for k, v := range typesText {
		escapedTypes[k] = string(appendCopyText(nil, []byte(v), '\t'))
		quotedTypes[k] = string(appendCopyCSV(nil, []byte(v), &csvOpts, false, false))
		nulls[k] = `\N`
	}
	var numbers strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&numbers, "%d\n", i)
	}
	tests := []struct {
		sql, want, tag string
	}{
		{sql: "copy strs to stdout", tag: "COPY 11",
			want: "1\tplain\n2\ttab\\there\n3\tnl\\nand\\rcr\n4\tback\\\\slash\n5\t\\\\N\n6\t\n7\t\\N\n8\tsay \"hi\", ok\n9\t\\\\.\n10\tbell\x07\n11\théllo\n"},
		{sql: "copy strs to stdout csv header fq=1", tag: "COPY 11",
			want: "id,s\n1,\"plain\"\n2,\"tab\there\"\n3,\"nl\nand\rcr\"\n4,\"back\\slash\"\n5,\"\\N\"\n6,\"\"\n7,\n8,\"say \"\"hi\"\", ok\"\n9,\"\\.\"\n10,\"bell\x07\"\n11,\"héllo\"\n"},
		{sql: "copy strs to stdout csv delim=| null=x", tag: "COPY 11",
			want: "1|plain\n2|tab\there\n3|\"nl\nand\rcr\"\n4|back\\slash\n5|\\N\n6|\n7|x\n8|\"say \"\"hi\"\", ok\"\n9|\\.\n10|bell\x07\n11|héllo\n"},
		{sql: "copy types to stdout", tag: "COPY 2", want: strings.Join(escapedTypes, "\t") + "\n" + strings.Join(nulls, "\t") + "\n"},
		{sql: "copy types to stdout csv", tag: "COPY 2", want: strings.Join(quotedTypes, ",") + "\n" + strings.Repeat(",", len(typesText)-1) + "\n"},
		{sql: "copy numbers 2500 1000 to stdout", tag: "COPY 2500", want: numbers.String()},
	}
	for _, tc := range tests {
		t.Run(tc.sql, func(t *testing.T) {
			var out strings.Builder
			tag, err := conn.PgConn().CopyTo(context.Background(), &out, tc.sql)
			if err != nil {
				t.Fatal(err)
			}
			if tag.String() != tc.tag {
				t.Errorf("tag %q, want %q", tag, tc.tag)
			}
			if out.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", out.String(), tc.want)
			}
		})
	}
	var out strings.Builder
	tag, err := conn.PgConn().CopyTo(context.Background(), &out, "copy numbers 2 1 to stdout binary")
	want := "PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
		"\x00\x01\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\x01" +
		"\x00\x01\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\x02\xff\xff"
	if err != nil || tag.String() != "COPY 2" || out.String() != want {
		t.Errorf("binary COPY TO: %v %q\n%q\nwant\n%q", err, tag, out.String(), want)
	}
}

// TestCopyFromPgxBinary uses pgx's high-level CopyFrom, which sends the
// binary format, and reads it back with binary COPY TO.
func TestCopyFromPgxBinary(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	rows := [][]any{{int32(1), "tab\there", nil}, {int32(-2), "", "héllo"}}
	n, err := conn.CopyFrom(context.Background(), pgx.Identifier{"t"}, []string{"a", "b", "c"}, pgx.CopyFromRows(rows))
	if err != nil || n != 2 {
		t.Fatalf("CopyFrom: %d %v", n, err)
	}
	want := []string{"1|tab\there|<null>", "-2||héllo"}
	if got := ts.backend.copied.take(); !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	var out strings.Builder
	if _, err := conn.PgConn().CopyTo(context.Background(), &out, "copy types to stdout binary"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), string(copyBinaryHeader)) || !strings.HasSuffix(out.String(), "\xff\xff") {
		t.Errorf("binary COPY TO of every type: %q", out.String())
	}
}

// untilKind reads messages up to one whose summary is kind.
func (c *rawClient) untilKind(kind string) []string {
	c.t.Helper()
	var out []string
	for {
		msg, err := c.fe.Receive()
		if err != nil {
			c.t.Fatalf("receive after %v: %v", out, err)
		}
		out = append(out, summarize(msg))
		if out[len(out)-1] == kind {
			return out
		}
	}
}

// TestCopyExtendedProtocol drives COPY FROM STDIN through Parse, Bind,
// Describe and Execute, with Flush and Sync arriving during COPY, CopyFail,
// and a message that has no place in COPY.
func TestCopyExtendedProtocol(t *testing.T) {
	ts := startServer(t, Config{})
	c := rawConnect(t, ts.addr, nil)
	start := func() []string {
		c.send(&pgproto3.Parse{Query: "copy t from stdin csv"}, &pgproto3.Bind{},
			&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Flush{})
		return c.untilKind("CopyInResponse")
	}
	if got, want := start(), []string{"ParseComplete", "BindComplete", "NoData", "CopyInResponse"}; !slices.Equal(got, want) {
		t.Fatalf("start: %v, want %v", got, want)
	}
	c.send(&pgproto3.CopyData{Data: []byte("1,a,")}, &pgproto3.Flush{}, &pgproto3.CopyData{Data: []byte("b\n2,c,d\n")},
		&pgproto3.Sync{}, &pgproto3.CopyDone{}, &pgproto3.Sync{})
	if got, want := withoutStatus(c.until()), []string{"CommandComplete(COPY 2)", "ReadyForQuery(I)"}; !slices.Equal(got, want) {
		t.Errorf("end: %v, want %v", got, want)
	}
	if got, want := ts.backend.copied.take(), []string{"1|a|b", "2|c|d"}; !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}

	start()
	c.send(&pgproto3.CopyData{Data: []byte("1,a,b\n")}, &pgproto3.CopyFail{Message: "client gave up"}, &pgproto3.Sync{})
	if got, want := withoutStatus(c.until()), []string{"ErrorResponse(57014)", "ReadyForQuery(I)"}; !slices.Equal(got, want) {
		t.Errorf("CopyFail: %v, want %v", got, want)
	}

	start()
	c.send(&pgproto3.Query{String: "select numbers 1 1"})
	if got := c.untilKind("ErrorResponse(08P01)"); len(got) != 1 {
		t.Errorf("unexpected message: %v", got)
	}
	c.send(&pgproto3.CopyData{Data: []byte("1,a,b\n")}, &pgproto3.CopyDone{}, &pgproto3.Sync{})
	if got, want := withoutStatus(c.until()), []string{"ReadyForQuery(I)"}; !slices.Equal(got, want) {
		t.Errorf("after the protocol error: %v, want %v", got, want)
	}

	// Mid-stream error in the simple protocol: the error comes at once,
	// the rest of the client's COPY messages are dropped.
	c.send(&pgproto3.Query{String: "copy t from stdin"})
	c.untilKind("CopyInResponse")
	c.send(&pgproto3.CopyData{Data: []byte("1\ta\n")})
	if got, want := withoutStatus(c.until()), []string{"ErrorResponse(22P04)", "ReadyForQuery(I)"}; !slices.Equal(got, want) {
		t.Errorf("mid-stream error: %v, want %v", got, want)
	}
	c.send(&pgproto3.CopyData{Data: []byte("more\n")}, &pgproto3.CopyDone{}, &pgproto3.Query{String: "select numbers 1 1"})
	if got, want := withoutStatus(c.until()), []string{"RowDescription(n:20:0)", "DataRow(1)", "CommandComplete(SELECT 1)", "ReadyForQuery(I)"}; !slices.Equal(got, want) {
		t.Errorf("after the error: %v, want %v", got, want)
	}

	// COPY TO through the extended protocol.
	c.send(&pgproto3.Parse{Query: "copy numbers 2 1 to stdout"}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'},
		&pgproto3.Execute{}, &pgproto3.Sync{})
	want := []string{"ParseComplete", "BindComplete", "NoData", "CopyOutResponse", "CopyData", "CopyData", "CopyDone",
		"CommandComplete(COPY 2)", "ReadyForQuery(I)"}
	if got := withoutStatus(c.until()); !slices.Equal(got, want) {
		t.Errorf("extended COPY TO: %v, want %v", got, want)
	}
}
