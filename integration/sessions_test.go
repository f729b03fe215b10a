package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// sessionScript exercises cursors, transaction blocks, savepoints and
// transaction-scoped settings. Each entry is one Query message (the simple
// protocol; some hold several statements, as psqlODBC sends them). The
// tables live in schema txs: t (a int, b text) with a = 1..10 and big (a
// int) with a = 1..5000.
var sessionScript = []string{
	// Cursors outside a block: only WITH HOLD, or inside one query string.
	`DECLARE c CURSOR FOR SELECT a, b FROM txs.t ORDER BY a`,
	`DECLARE c CURSOR WITH HOLD FOR SELECT a, b FROM txs.t ORDER BY a`,
	`FETCH 2 FROM c`, `FETCH PRIOR FROM c`, `FETCH c`, `MOVE -1 IN c`, `FETCH NEXT IN c`,
	`CLOSE c`, `CLOSE c`,
	`DECLARE c CURSOR FOR SELECT 1 AS x; FETCH c`, `FETCH c`,
	// NO SCROLL: backward is 55000 and fails the block.
	`BEGIN`, `DECLARE c NO SCROLL CURSOR FOR SELECT a, b FROM txs.t ORDER BY a`,
	`FETCH 2 FROM c`, `FETCH PRIOR FROM c`, `FETCH c`, `COMMIT`,
	`BEGIN`, `DECLARE c NO SCROLL CURSOR FOR SELECT a FROM txs.t ORDER BY a`,
	`FETCH ABSOLUTE 3 c`, `FETCH ABSOLUTE 5 c`, `FETCH RELATIVE 2 c`, `MOVE 0 c`, `FETCH FORWARD 2 c`,
	`FETCH FIRST c`, `ROLLBACK`,
	// Every direction on a SCROLL cursor.
	`BEGIN`, `DECLARE c SCROLL CURSOR FOR SELECT a FROM txs.t ORDER BY a`,
	`FETCH LAST c`, `FETCH ABSOLUTE -2 c`, `FETCH RELATIVE 0 c`, `MOVE 100 c`, `FETCH 0 c`,
	`MOVE BACKWARD ALL c`, `FETCH c`, `FETCH FORWARD ALL c`, `FETCH BACKWARD 3 c`, `MOVE ABSOLUTE 0 c`,
	`MOVE PRIOR c`, `FETCH FIRST c`, `FETCH ALL c`, `MOVE -3 c`, `FETCH RELATIVE -2 c`, `FETCH ABSOLUTE 4 c`,
	`FETCH ABSOLUTE 2 c`, `FETCH ABSOLUTE 9 c`, `FETCH BACKWARD ALL c`, `FETCH 3 c`, `FETCH -2 c`,
	`FETCH FORWARD 0 c`, `MOVE FORWARD 0 c`, `FETCH BACKWARD 0 c`, `MOVE LAST c`, `MOVE NEXT c`, `MOVE 0 c`,
	`FETCH ABSOLUTE 0 c`, `FETCH ABSOLUTE 11 c`, `FETCH PRIOR c`, `MOVE RELATIVE -20 c`, `FETCH NEXT c`,
	`DECLARE c CURSOR FOR SELECT 1`, `ROLLBACK`,
	// Tableau over psqlODBC.
	`BEGIN;declare "SQL_CUR04645D10" cursor for select a from txs.big order by a;fetch 2048 in "SQL_CUR04645D10";`,
	`fetch 2048 in "SQL_CUR04645D10"`, `fetch 2048 in "SQL_CUR04645D10"`, `fetch 2048 in "SQL_CUR04645D10"`,
	`close "SQL_CUR04645D10"`, `COMMIT`,
	// BINARY cursors send binary rows under the simple protocol.
	`BEGIN; DECLARE bc BINARY CURSOR FOR SELECT a, b FROM txs.t ORDER BY a; FETCH 2 bc; MOVE 1 bc; FETCH bc; COMMIT`,
	// WITH HOLD survives COMMIT; the others close.
	`BEGIN`, `DECLARE h CURSOR WITH HOLD FOR SELECT a FROM txs.t ORDER BY a`, `DECLARE d CURSOR FOR SELECT 2 AS y`,
	`FETCH 2 h`, `COMMIT`, `FETCH h`, `FETCH d`, `FETCH PRIOR h`, `FETCH ALL h`,
	`BEGIN`, `FETCH h`, `ROLLBACK`, `FETCH h`, `CLOSE ALL`, `FETCH h`,
	// A cursor declared after a savepoint closes at ROLLBACK TO.
	`BEGIN`, `SAVEPOINT s`, `DECLARE e CURSOR FOR SELECT 1 AS x`, `ROLLBACK TO s`, `FETCH e`, `ROLLBACK TO s`,
	`DECLARE e CURSOR FOR SELECT 1 AS x`, `SAVEPOINT s2`, `RELEASE s2`, `FETCH e`, `RELEASE s`, `RELEASE s`, `ROLLBACK`,
	// The failed state.
	`BEGIN`, `SELECT 1/0`, `SELECT 1`, `SAVEPOINT x`, `ROLLBACK TO nosuch`, `COMMIT`,
	`BEGIN; SELECT 1/0; SELECT 2`, `SELECT 3`, `ROLLBACK; SELECT 4`,
	`BEGIN`, `SAVEPOINT a`, `SELECT 1/0`, `ROLLBACK TO a`, `SELECT 2`, `RELEASE a`, `RELEASE a`, `COMMIT`,
	`BEGIN`, `SAVEPOINT a`, `SAVEPOINT a`, `RELEASE a`, `ROLLBACK TO a`, `RELEASE a`, `ROLLBACK TO a`, `ROLLBACK`,
	`COMMIT`, `ROLLBACK`, `BEGIN`, `BEGIN`, `ROLLBACK`,
	`SAVEPOINT b`, `ROLLBACK TO b`, `RELEASE b`, `CLOSE nosuch`, `FETCH nosuch`, `MOVE nosuch`,
	`BEGIN`, `FETCH 1 IN nosuch`, `ROLLBACK`,
	// Characteristics.
	`BEGIN READ ONLY`, `SHOW transaction_read_only`, `CREATE TABLE txs.z (a int)`, `ROLLBACK`,
	`BEGIN ISOLATION LEVEL SERIALIZABLE, READ WRITE, NOT DEFERRABLE`, `SHOW TRANSACTION ISOLATION LEVEL`,
	`SHOW transaction_read_only`, `COMMIT`, `SHOW transaction_isolation`,
	`START TRANSACTION ISOLATION LEVEL REPEATABLE READ`, `SHOW transaction_isolation`, `COMMIT`,
	`SET TRANSACTION READ ONLY`, `SHOW transaction_read_only`,
	`BEGIN`, `SET TRANSACTION READ ONLY`, `SHOW transaction_read_only`, `INSERT INTO txs.t VALUES (99, 'no')`, `ROLLBACK`,
	`BEGIN`, `SELECT 1`, `SET TRANSACTION ISOLATION LEVEL SERIALIZABLE`, `ROLLBACK`,
	`BEGIN`, `SELECT 1`, `SET TRANSACTION READ ONLY`, `SET TRANSACTION READ WRITE`, `ROLLBACK`,
	`SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY`, `SHOW default_transaction_read_only`,
	`BEGIN`, `SHOW transaction_read_only`, `ROLLBACK`, `SET default_transaction_read_only = off`,
	`SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ`, `SHOW transaction_isolation`,
	`BEGIN`, `SHOW transaction_isolation`, `ROLLBACK`, `RESET default_transaction_isolation`,
	// Settings: SET LOCAL ends with the block; ROLLBACK undoes SET.
	`BEGIN`, `SET LOCAL DateStyle = 'German'`, `SHOW DateStyle`, `COMMIT`, `SHOW DateStyle`,
	`BEGIN`, `SET statement_timeout = '5s'`, `SAVEPOINT s`, `SET statement_timeout = '7s'`, `ROLLBACK TO s`,
	`SHOW statement_timeout`, `ROLLBACK`, `SHOW statement_timeout`,
	`BEGIN`, `SET LOCAL statement_timeout = '3s'`, `SET statement_timeout = '4s'`, `COMMIT`, `SHOW statement_timeout`,
	`BEGIN`, `SET statement_timeout = '4s'`, `SET LOCAL statement_timeout = '3s'`, `SHOW statement_timeout`, `COMMIT`,
	`SHOW statement_timeout`, `RESET statement_timeout`,
	`BEGIN`, `SET LOCAL myapp.tenant = 'a'`, `SHOW myapp.tenant`, `COMMIT`, `SELECT current_setting('myapp.tenant', true)`,
	`BEGIN`, `SET myapp.x = 'a'`, `ROLLBACK`, `SELECT current_setting('myapp.x', true) IS NULL`,
	`SET myapp.y = 'b'`, `RESET ALL`, `SHOW myapp.y`,
	`SET LOCAL statement_timeout = '1s'`, `SHOW statement_timeout`,
	// set_config and current_setting, by constant or by column.
	`SELECT set_config('statement_timeout', '3s', false), current_setting('statement_timeout')`,
	`SELECT set_config('statement_timeout', NULL, false)`, `SELECT set_config(NULL, '1', false)`,
	`SELECT set_config('nosuch', '1', false)`, `SELECT current_setting('nosuch')`,
	`SELECT current_setting('nosuch', true) IS NULL, current_setting(NULL) IS NULL`,
	`SELECT current_setting(name) FROM (VALUES ('DateStyle'), ('extra_float_digits')) v(name)`,
	`BEGIN`, `SELECT set_config('DateStyle', 'sql', true)`, `SHOW DateStyle`, `COMMIT`, `SHOW DateStyle`,
	`BEGIN`, `SELECT set_config('DateStyle', 'german', false)`, `ROLLBACK`, `SHOW DateStyle`,
	`SELECT set_config('DateStyle', 'german', false)`, `SHOW DateStyle`, `RESET DateStyle`,
	`BEGIN`, `DISCARD ALL`, `ROLLBACK`, `DISCARD ALL`,
	`BEGIN; SELECT 1; COMMIT; SELECT 2`,
	`COMMIT AND CHAIN`, `BEGIN`, `COMMIT AND CHAIN`, `SHOW transaction_isolation`, `ROLLBACK`,
	// Schema changes are transactional: in order with the rows, undone by
	// ROLLBACK and ROLLBACK TO SAVEPOINT.
	`BEGIN`, `CREATE TABLE txs.m (id int, name text)`, `INSERT INTO txs.m VALUES (1, 'one')`,
	`ALTER TABLE txs.m ADD COLUMN score int`, `INSERT INTO txs.m VALUES (2, 'two', 20)`, `SELECT * FROM txs.m ORDER BY id`,
	`SAVEPOINT s`, `ALTER TABLE txs.m DROP COLUMN score`, `SELECT * FROM txs.m ORDER BY id`, `ROLLBACK TO SAVEPOINT s`,
	`SELECT * FROM txs.m ORDER BY id`, `COMMIT`, `SELECT * FROM txs.m ORDER BY id`,
	`BEGIN`, `CREATE TABLE txs.gone (a int)`, `INSERT INTO txs.gone VALUES (1)`, `ROLLBACK`, `SELECT * FROM txs.gone`,
	`BEGIN`, `DROP TABLE txs.m`, `SELECT count(*) FROM txs.m`, `ROLLBACK`, `SELECT count(*) FROM txs.m`,
	`BEGIN`, `CREATE VIEW txs.v AS SELECT id FROM txs.m`, `SELECT * FROM txs.v ORDER BY id`, `ROLLBACK`, `SELECT * FROM txs.v`,
	`BEGIN`, `CREATE TABLE txs.later (a int)`, `COMMIT`, `SELECT count(*) FROM txs.later`,
	// SQL prepared statements: DEALLOCATE inside a block, and not undone by
	// ROLLBACK.
	`PREPARE p1 (int) AS SELECT $1 + 1`, `EXECUTE p1 (1)`, `PREPARE p1 AS SELECT 1`,
	`BEGIN`, `DEALLOCATE p1`, `SELECT 1`, `DEALLOCATE p1`, `ROLLBACK`, `EXECUTE p1 (1)`,
	`PREPARE p2 AS SELECT 2`, `DEALLOCATE PREPARE p2`, `PREPARE p3 AS SELECT 3`, `DEALLOCATE ALL`, `EXECUTE p3`,
}

// sessionSetup creates the script's tables (on PostgreSQL after dropping
// the schema).
var sessionSetup = []string{
	`CREATE SCHEMA txs`,
	`CREATE TABLE txs.t AS SELECT g AS a, 'x' || g AS b FROM generate_series(1, 10) g`,
	`CREATE TABLE txs.big AS SELECT g AS a FROM generate_series(1, 5000) g`,
}

// sessionConn is a connection that records notices.
type sessionConn struct {
	conn    *pgx.Conn
	mu      sync.Mutex
	notices []string
}

func connectRecording(t *testing.T, url string) *sessionConn {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["TimeZone"] = "UTC"
	cfg.RuntimeParams["DateStyle"] = "ISO, MDY"
	sc := &sessionConn{}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		sc.mu.Lock()
		defer sc.mu.Unlock()
		if n.Code == "00000" || n.Code == "01000" {
			return // icegate's notes on per-statement commits
		}
		sc.notices = append(sc.notices, n.Severity+" "+n.Code+" "+n.Message)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if sc.conn, err = pgx.ConnectConfig(ctx, cfg); err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { sc.conn.Close(context.Background()) })
	return sc
}

// run sends one Query message and renders what came back: each result's
// tag and rows (binary columns as bytes), the error's SQLSTATE and
// message, notices, and the ReadyForQuery status.
func (sc *sessionConn) run(ctx context.Context, sql string) string {
	sc.mu.Lock()
	sc.notices = nil
	sc.mu.Unlock()
	results, err := sc.conn.PgConn().Exec(ctx, sql).ReadAll()
	var b strings.Builder
	for _, r := range results {
		if r.Err != nil {
			continue
		}
		fmt.Fprintf(&b, "[%s]", r.CommandTag)
		for _, fd := range r.FieldDescriptions {
			fmt.Fprintf(&b, " %s/%d", fd.Name, fd.Format)
		}
		for _, row := range r.Rows {
			b.WriteString(" (")
			for i, v := range row {
				if i > 0 {
					b.WriteString(",")
				}
				switch {
				case v == nil:
					b.WriteString("NULL")
				case r.FieldDescriptions[i].Format == 1:
					fmt.Fprintf(&b, "%x", v)
				default:
					b.Write(v)
				}
			}
			b.WriteString(")")
		}
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		fmt.Fprintf(&b, " ERROR %s %s", pe.Code, pe.Message)
	} else if err != nil {
		fmt.Fprintf(&b, " ERROR %v", err)
	}
	sc.mu.Lock()
	for _, n := range sc.notices {
		b.WriteString(" | " + n)
	}
	sc.mu.Unlock()
	fmt.Fprintf(&b, " {%c}", sc.conn.PgConn().TxStatus())
	return b.String()
}

// TestSessionsAgainstPostgres runs sessionScript on icegate and on the
// reference PostgreSQL and compares every answer: tags, rows, SQLSTATEs
// and messages, warnings, and the transaction status.
func TestSessionsAgainstPostgres(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare session behaviour; .ci/run does")
	}
	ctx := testCtx(t)
	addr := startServer(t, t.TempDir(), serverOpts{})
	ig := connectRecording(t, connString(addr, "icegate", ""))
	pg := connectRecording(t, pgURL)
	if _, err := pg.conn.Exec(ctx, "DROP SCHEMA IF EXISTS txs CASCADE"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = pg.conn.Exec(context.Background(), "DROP SCHEMA IF EXISTS txs CASCADE") })
	for _, sql := range sessionSetup {
		for _, c := range []*sessionConn{ig, pg} {
			if _, err := c.conn.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
	}
	for i, sql := range sessionScript {
		want := pg.run(ctx, sql)
		got := ig.run(ctx, sql)
		if got != want {
			t.Errorf("step %d %s\n got: %s\nwant: %s", i, sql, got, want)
		}
	}
}

// TestSnapshotPerTableInBlock: inside BEGIN ... COMMIT the first read of
// a table pins its snapshot; other sessions' commits stay invisible to the
// block, its own writes move the pin forward, and the pins end with the
// block.
func TestSnapshotPerTableInBlock(t *testing.T) {
	ctx := testCtx(t)
	addr := startServer(t, t.TempDir(), serverOpts{})
	a, b := connect(t, addr), connect(t, addr)
	execAll(t, a, sessionSetup...)
	count := func(conn *pgx.Conn, table string) int64 {
		t.Helper()
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM txs."+table).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		return n
	}
	steps := []struct {
		what string
		run  func() int64
		want int64
	}{
		{"block reads t", func() int64 { execAll(t, a, "BEGIN"); return count(a, "t") }, 10},
		{"other session writes t and big", func() int64 {
			execAll(t, b, "INSERT INTO txs.t VALUES (11, 'x11')", "INSERT INTO txs.big VALUES (5001)")
			return count(b, "t")
		}, 11},
		{"block still sees its snapshot of t", func() int64 { return count(a, "t") }, 10},
		{"a cursor in the block too", func() int64 {
			var n int64
			execAll(t, a, "DECLARE k CURSOR FOR SELECT count(*) FROM txs.t")
			if err := a.QueryRow(ctx, "FETCH k").Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}, 10},
		{"first read of big pins its current snapshot", func() int64 { return count(a, "big") }, 5001},
		{"big stays pinned", func() int64 { execAll(t, b, "INSERT INTO txs.big VALUES (5002)"); return count(a, "big") }, 5001},
		{"the block reads its own write on top of its snapshot", func() int64 {
			execAll(t, a, "INSERT INTO txs.t VALUES (12, 'x12')")
			return count(a, "t")
		}, 11},
		{"the other session does not see it before COMMIT", func() int64 { return count(b, "t") }, 11},
		{"after COMMIT reads are fresh", func() int64 { execAll(t, a, "COMMIT"); return count(a, "big") }, 5002},
		{"COMMIT added the block's row to the other session's", func() int64 { return count(a, "t") }, 12},
		{"outside a block every statement is fresh", func() int64 {
			execAll(t, b, "INSERT INTO txs.t VALUES (13, 'x13')")
			return count(a, "t")
		}, 13},
	}
	for _, s := range steps {
		if got := s.run(); got != s.want {
			t.Errorf("%s: count %d, want %d", s.what, got, s.want)
		}
	}
}

// TestPortalsInBlock drives the extended protocol as pgJDBC does with
// autocommit off and a fetch size: a portal executed 100 rows at a time
// survives Sync inside BEGIN; an error fails the block (ReadyForQuery 'E'),
// a later Parse is 25P02, and ROLLBACK ends it.
func TestPortalsInBlock(t *testing.T) {
	ctx := testCtx(t)
	addr := startServer(t, t.TempDir(), serverOpts{})
	execAll(t, connect(t, addr), sessionSetup...)
	conn := connect(t, addr)
	pc := conn.PgConn()
	read := func() string {
		t.Helper()
		rows := 0
		var out []string
		for {
			msg, err := pc.ReceiveMessage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			switch m := msg.(type) {
			case *pgproto3.DataRow:
				rows++
				continue
			case *pgproto3.ErrorResponse:
				out = append(out, "error "+m.Code)
			case *pgproto3.PortalSuspended:
				out = append(out, fmt.Sprintf("suspended after %d", rows))
			case *pgproto3.CommandComplete:
				out = append(out, fmt.Sprintf("%s after %d", m.CommandTag, rows))
			case *pgproto3.ReadyForQuery:
				out = append(out, "ready "+string(m.TxStatus))
				return strings.Join(out, "; ")
			}
		}
	}
	send := func(msgs ...pgproto3.FrontendMessage) {
		t.Helper()
		fe := pc.Frontend()
		for _, m := range msgs {
			fe.Send(m)
		}
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		msgs []pgproto3.FrontendMessage
		want string
	}{
		{[]pgproto3.FrontendMessage{&pgproto3.Query{String: "BEGIN"}}, "BEGIN after 0; ready T"},
		{[]pgproto3.FrontendMessage{
			&pgproto3.Parse{Name: "s1", Query: "SELECT a FROM txs.big ORDER BY a"},
			&pgproto3.Bind{PreparedStatement: "s1", DestinationPortal: "p"},
			&pgproto3.Execute{Portal: "p", MaxRows: 100}, &pgproto3.Sync{}},
			"suspended after 100; ready T"},
		{[]pgproto3.FrontendMessage{&pgproto3.Execute{Portal: "p", MaxRows: 100}, &pgproto3.Sync{}},
			"suspended after 100; ready T"},
		{[]pgproto3.FrontendMessage{&pgproto3.Execute{Portal: "p"}, &pgproto3.Sync{}},
			"SELECT 4800 after 4800; ready T"},
		{[]pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "SELECT 1/0"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			"error 22012; ready E"},
		{[]pgproto3.FrontendMessage{&pgproto3.Parse{Query: "SELECT 1"}, &pgproto3.Sync{}}, "error 25P02; ready E"},
		{[]pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "s1"}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			"error 25P02; ready E"},
		{[]pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "ROLLBACK"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			"ROLLBACK after 0; ready I"},
		{[]pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "DECLARE c CURSOR FOR SELECT 1"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			"error 25P01; ready I"},
		// DISCARD ALL and DEALLOCATE ALL drop the prepared statements.
		{[]pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "s1"}, &pgproto3.Execute{MaxRows: 1}, &pgproto3.Sync{}},
			"suspended after 1; ready I"},
		{[]pgproto3.FrontendMessage{&pgproto3.Query{String: "DISCARD ALL"}}, "DISCARD ALL after 0; ready I"},
		{[]pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "s1"}, &pgproto3.Sync{}}, "error 26000; ready I"},
		{[]pgproto3.FrontendMessage{&pgproto3.Parse{Name: "s2", Query: "SELECT 1"}, &pgproto3.Sync{}}, "ready I"},
		{[]pgproto3.FrontendMessage{&pgproto3.Query{String: "DEALLOCATE ALL"}}, "DEALLOCATE ALL after 0; ready I"},
		{[]pgproto3.FrontendMessage{&pgproto3.Parse{Name: "s2", Query: "SELECT 2"}, &pgproto3.Sync{}}, "ready I"},
	}
	for i, s := range steps {
		send(s.msgs...)
		if got := read(); got != s.want {
			t.Errorf("step %d: %s, want %s", i, got, s.want)
		}
	}
}

// TestCursorParameters declares a cursor through the extended protocol
// with a parameter and reads it with FETCH, as pgx sends them.
func TestCursorParameters(t *testing.T) {
	ctx := testCtx(t)
	addr := startServer(t, t.TempDir(), serverOpts{})
	conn := connect(t, addr)
	execAll(t, conn, sessionSetup...)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "DECLARE p CURSOR FOR SELECT a, b FROM txs.t WHERE a > $1 ORDER BY a", 7); err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 3 {
		rows, err := tx.Query(ctx, "FETCH 2 FROM p")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var a int32
			var b string
			if err := rows.Scan(&a, &b); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%d:%s", a, b))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		got = append(got, rows.CommandTag().String())
	}
	want := "8:x8 9:x9 FETCH 2 10:x10 FETCH 1 FETCH 0"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got %s, want %s", g, want)
	}
}

// TestCursorStatementTimeout: statement_timeout bounds each FETCH and
// MOVE, not the cursor's life.
func TestCursorStatementTimeout(t *testing.T) {
	ctx := testCtx(t)
	addr := startServer(t, t.TempDir(), serverOpts{})
	conn := connect(t, addr)
	execAll(t, conn, sessionSetup...)
	execAll(t, conn, "SET statement_timeout = '100ms'", "BEGIN",
		"DECLARE quick CURSOR FOR SELECT a FROM txs.t ORDER BY a",
		"DECLARE slow CURSOR FOR SELECT x.a FROM txs.big x, txs.big y")
	time.Sleep(300 * time.Millisecond)
	var a int32
	if err := conn.QueryRow(ctx, "FETCH quick").Scan(&a); err != nil || a != 1 {
		t.Fatalf("FETCH quick after an idle pause: %d, %v", a, err)
	}
	wantSQLState(t, conn, "MOVE ALL IN slow", "57014", "canceling statement due to statement timeout")
	wantSQLState(t, conn, "FETCH quick", "25P02", "current transaction is aborted")
	execAll(t, conn, "ROLLBACK")
}

// TestClientMinMessages: notices below client_min_messages are not sent,
// as in PostgreSQL (ruby-pg, PHP and Perl applications set it to warning
// to quiet DROP ... IF EXISTS); INFO always is.
func TestClientMinMessages(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	ctx := testCtx(t)
	cfg, err := pgx.ParseConfig(connString(addr, "icegate", ""))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, n.Severity)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, tc := range []struct {
		level string
		want  string
	}{{"notice", "NOTICE"}, {"warning", ""}, {"error", ""}, {"debug1", "NOTICE"}, {"log", "NOTICE"}} {
		mu.Lock()
		got = nil
		mu.Unlock()
		if _, err := conn.Exec(ctx, "SET client_min_messages = "+tc.level); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, "DROP TABLE IF EXISTS no_such_table"); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if s := strings.Join(got, ","); s != tc.want {
			t.Errorf("client_min_messages %s: notices %q, want %q", tc.level, s, tc.want)
		}
		mu.Unlock()
	}
}
