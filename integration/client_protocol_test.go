package integration

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// clientProtocolSetup is the schema both tests read: a table and a view
// over it that renames and reorders its columns.
const clientProtocolSetup = `CREATE SCHEMA IF NOT EXISTS public;
CREATE TABLE public.t (a int, b text, c bigint);
INSERT INTO public.t VALUES (1, 'x', 10), (2, 'y', 20), (3, 'z', 30);
CREATE VIEW public.v AS SELECT c, a AS aa FROM public.t`

// protocolConn serves a fresh warehouse with clientProtocolSetup and
// returns a low-level connection to it.
func protocolConn(t *testing.T) *pgconn.PgConn {
	t.Helper()
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx := testCtx(t)
	pc, err := pgconn.Connect(ctx, connString(addr, "icegate", ""))
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { pc.Close(ctx) })
	if _, err := pc.Exec(ctx, clientProtocolSetup).ReadAll(); err != nil {
		t.Fatalf("setup: %v", err)
	}
	return pc
}

// originText renders RowDescription fields as name=relation.attnum, the
// relation named through pg_class ("0" for no origin).
func originText(t *testing.T, pc *pgconn.PgConn, fields []pgconn.FieldDescription) string {
	t.Helper()
	var out []string
	for _, f := range fields {
		rel := "0"
		if f.TableOID != 0 {
			r := pc.ExecParams(testCtx(t), "SELECT relname FROM pg_class WHERE oid = $1::oid",
				[][]byte{[]byte(fmt.Sprint(f.TableOID))}, nil, nil, nil).Read()
			switch {
			case r.Err != nil:
				t.Fatalf("look up relation %d: %v", f.TableOID, r.Err)
			case len(r.Rows) != 1:
				rel = fmt.Sprintf("?%d", f.TableOID)
			default:
				rel = string(r.Rows[0][0])
			}
		}
		out = append(out, fmt.Sprintf("%s=%s.%d", f.Name, rel, f.TableAttributeNumber))
	}
	return strings.Join(out, " ")
}

// TestColumnOrigins checks RowDescription's table OID and attribute number
// against what PostgreSQL 15 sends for the same schema: plain references to
// a table's columns (through aliases, subqueries, CTEs, joins, grouping)
// name the table and the column's attnum, a view's columns name the view,
// and expressions, aggregates and set operations name nothing. Every path
// that describes rows must agree: Describe statement, Describe portal and
// the simple protocol.
func TestColumnOrigins(t *testing.T) {
	pc := protocolConn(t)
	ctx := testCtx(t)
	cases := []struct{ sql, want string }{
		{"SELECT a, b, c FROM t", "a=t.1 b=t.2 c=t.3"},
		{"SELECT t.a AS x, a+1, count(*) OVER () FROM t", "x=t.1 ?column?=0.0 count=0.0"},
		{"SELECT x.b FROM (SELECT b, a FROM t) x", "b=t.2"},
		{"SELECT * FROM v", "c=v.1 aa=v.2"},
		{"SELECT a, count(*), max(c) FROM t GROUP BY a", "a=t.1 count=0.0 max=0.0"},
		{"SELECT DISTINCT b FROM t", "b=t.2"},
		{"WITH w AS (SELECT c FROM t) SELECT c FROM w", "c=t.3"},
		{"SELECT t1.a, t2.b FROM t t1 LEFT JOIN t t2 ON t1.a = t2.a", "a=t.1 b=t.2"},
		{"SELECT a FROM t UNION SELECT a FROM t", "a=0.0"},
		{"SELECT relname, oid, tableoid FROM pg_class LIMIT 1", "relname=pg_class.2 oid=pg_class.1 tableoid=pg_class.65530"},
		{"SELECT table_name FROM information_schema.tables LIMIT 1", "table_name=tables.3"},
		{"SELECT a FROM t ORDER BY b", "a=t.1"},
		{"SELECT a::text, 1 AS one FROM t", "a=0.0 one=0.0"},
		{"SELECT (SELECT b FROM t LIMIT 1) AS sb", "sb=0.0"},
	}
	for _, c := range cases {
		sd, err := pc.Prepare(ctx, "origins", c.sql, nil)
		if err != nil {
			t.Errorf("%s: prepare: %v", c.sql, err)
			continue
		}
		if got := originText(t, pc, sd.Fields); got != c.want {
			t.Errorf("%s: Describe statement gives %s, want %s", c.sql, got, c.want)
		}
		rr := pc.ExecPrepared(ctx, "origins", nil, nil, nil).Read()
		if rr.Err != nil {
			t.Errorf("%s: execute: %v", c.sql, rr.Err)
			continue
		}
		if got := originText(t, pc, rr.FieldDescriptions); got != c.want {
			t.Errorf("%s: Describe portal gives %s, want %s", c.sql, got, c.want)
		}
		res, err := pc.Exec(ctx, c.sql).ReadAll()
		if err != nil || len(res) != 1 {
			t.Errorf("%s: simple query: %v (%d results)", c.sql, err, len(res))
			continue
		}
		if got := originText(t, pc, res[0].FieldDescriptions); got != c.want {
			t.Errorf("%s: simple query gives %s, want %s", c.sql, got, c.want)
		}
		if err := pc.Deallocate(ctx, "origins"); err != nil {
			t.Fatalf("deallocate: %v", err)
		}
	}
}

// TestColumnOriginsAtOldSnapshot checks origins of a table read at a
// snapshot whose schema is not the current one: attnums are positions in
// the current schema (pg_attribute's), and a column the current schema
// dropped has no origin.
func TestColumnOriginsAtOldSnapshot(t *testing.T) {
	pc := protocolConn(t)
	ctx := testCtx(t)
	r := pc.Exec(ctx, `SELECT snapshot_id FROM public."t$snapshots"`)
	res, err := r.ReadAll()
	if err != nil || len(res) != 1 || len(res[0].Rows) != 1 {
		t.Fatalf("snapshot of t: %v %v", err, res)
	}
	snapshot := string(res[0].Rows[0][0])
	if _, err := pc.Exec(ctx, "ALTER TABLE public.t DROP COLUMN a").ReadAll(); err != nil {
		t.Fatalf("drop column: %v", err)
	}
	for _, c := range []struct{ sql, want string }{
		{"SELECT a, b, c FROM t VERSION AS OF " + snapshot, "a=0.0 b=t.1 c=t.2"},
		{"SELECT b, c FROM t", "b=t.1 c=t.2"},
	} {
		sd, err := pc.Prepare(ctx, "origins", c.sql, nil)
		if err != nil {
			t.Fatalf("%s: prepare: %v", c.sql, err)
		}
		if got := originText(t, pc, sd.Fields); got != c.want {
			t.Errorf("%s: gives %s, want %s", c.sql, got, c.want)
		}
		if err := pc.Deallocate(ctx, "origins"); err != nil {
			t.Fatalf("deallocate: %v", err)
		}
	}
}

// TestCursorAsPortal drives a SQL cursor through extended-protocol portal
// messages, as psycopg 3's server-side cursors do, and checks the exact
// answer, which is PostgreSQL 15's: Describe gives the cursor's rows (text
// even for a BINARY cursor), Execute with a row limit fetches from the
// cursor's position and suspends when it filled the limit, FETCH continues
// from where Execute stopped, Bind cannot reuse the name, Close closes the
// cursor.
func TestCursorAsPortal(t *testing.T) {
	pc := protocolConn(t)
	fe := pc.Frontend()
	steps := []struct {
		name string
		send []pgproto3.FrontendMessage
		want []string
	}{
		{"declare", []pgproto3.FrontendMessage{&pgproto3.Query{String: "BEGIN; DECLARE c CURSOR FOR SELECT a, b FROM t ORDER BY a"}},
			[]string{"CommandComplete BEGIN", "CommandComplete DECLARE CURSOR", "ReadyForQuery T"}},
		{"describe and execute", []pgproto3.FrontendMessage{&pgproto3.Describe{ObjectType: 'P', Name: "c"},
			&pgproto3.Execute{Portal: "c", MaxRows: 2}, &pgproto3.Execute{Portal: "c", MaxRows: 2}, &pgproto3.Sync{}},
			[]string{"RowDescription a:23:0:1 b:25:0:2", `DataRow 1 x`, `DataRow 2 y`, "PortalSuspended",
				`DataRow 3 z`, "CommandComplete SELECT 1", "ReadyForQuery T"}},
		{"FETCH after the portal's rows", []pgproto3.FrontendMessage{&pgproto3.Query{String: "FETCH ALL FROM c"}},
			[]string{"RowDescription a:23:0:1 b:25:0:2", "CommandComplete FETCH 0", "ReadyForQuery T"}},
		{"execute at the end", []pgproto3.FrontendMessage{&pgproto3.Execute{Portal: "c"}, &pgproto3.Sync{}},
			[]string{"CommandComplete SELECT 0", "ReadyForQuery T"}},
		{"close", []pgproto3.FrontendMessage{&pgproto3.Close{ObjectType: 'P', Name: "c"}, &pgproto3.Sync{}},
			[]string{"CloseComplete", "ReadyForQuery T"}},
		{"FETCH from the closed cursor", []pgproto3.FrontendMessage{&pgproto3.Query{String: "FETCH 1 FROM c"}},
			[]string{"ErrorResponse 34000", "ReadyForQuery E"}},
		{"rollback", []pgproto3.FrontendMessage{&pgproto3.Query{String: "ROLLBACK"}},
			[]string{"CommandComplete ROLLBACK", "ReadyForQuery I"}},
		{"binary cursor", []pgproto3.FrontendMessage{&pgproto3.Query{String: "BEGIN; DECLARE bc BINARY CURSOR FOR SELECT a FROM t ORDER BY a"}},
			[]string{"CommandComplete BEGIN", "CommandComplete DECLARE CURSOR", "ReadyForQuery T"}},
		{"binary cursor's portal is text", []pgproto3.FrontendMessage{&pgproto3.Describe{ObjectType: 'P', Name: "bc"},
			&pgproto3.Execute{Portal: "bc"}, &pgproto3.Sync{}},
			[]string{"RowDescription a:23:0:1", "DataRow 1", "DataRow 2", "DataRow 3", "CommandComplete SELECT 3", "ReadyForQuery T"}},
		{"bind to a cursor's name", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "SELECT 1"},
			&pgproto3.Bind{DestinationPortal: "bc"}, &pgproto3.Sync{}},
			[]string{"ParseComplete", "ErrorResponse 42P03", "ReadyForQuery E"}},
		{"describe an unknown portal", []pgproto3.FrontendMessage{&pgproto3.Query{String: "ROLLBACK"},
			&pgproto3.Describe{ObjectType: 'P', Name: "nope"}, &pgproto3.Sync{}},
			[]string{"CommandComplete ROLLBACK", "ReadyForQuery I", "ErrorResponse 34000", "ReadyForQuery I"}},
	}
	for _, s := range steps {
		for _, m := range s.send {
			fe.Send(m)
		}
		if err := fe.Flush(); err != nil {
			t.Fatalf("%s: send: %v", s.name, err)
		}
		var got []string
		for len(got) < len(s.want) {
			msg, err := fe.Receive()
			if err != nil {
				t.Fatalf("%s: receive after %q: %v", s.name, got, err)
			}
			if line := protocolLine(msg); line != "" {
				got = append(got, line)
			}
		}
		if !slices.Equal(got, s.want) {
			t.Errorf("%s:\n got %q\nwant %q", s.name, got, s.want)
		}
	}
}

// protocolLine renders a backend message for TestCursorAsPortal; "" for
// messages it ignores (ParameterStatus, notices).
func protocolLine(msg pgproto3.BackendMessage) string {
	switch m := msg.(type) {
	case *pgproto3.RowDescription:
		var fs []string
		for _, f := range m.Fields {
			fs = append(fs, fmt.Sprintf("%s:%d:%d:%d", f.Name, f.DataTypeOID, f.Format, f.TableAttributeNumber))
		}
		return "RowDescription " + strings.Join(fs, " ")
	case *pgproto3.DataRow:
		var vs []string
		for _, v := range m.Values {
			vs = append(vs, string(v))
		}
		return "DataRow " + strings.Join(vs, " ")
	case *pgproto3.CommandComplete:
		return "CommandComplete " + string(m.CommandTag)
	case *pgproto3.ErrorResponse:
		return "ErrorResponse " + m.Code
	case *pgproto3.ReadyForQuery:
		return "ReadyForQuery " + string(m.TxStatus)
	case *pgproto3.ParameterStatus, *pgproto3.NoticeResponse:
		return ""
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", msg), "*pgproto3.")
}
