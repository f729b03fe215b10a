package integration

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// TestExtendedErrorOrder sends statements whose errors PostgreSQL raises
// while planning (constant folding: 1/0, integer overflow, a bad literal
// cast) or analysing (an unknown column) over the extended protocol, as
// drivers do, to icegate and to PostgreSQL, and wants the same sequence of
// backend messages: the error at Bind (an unnamed statement is planned
// there, a named one with its parameters) or at Parse, never after a
// RowDescription of the portal.
func TestExtendedErrorOrder(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare answers; .ci/run does")
	}
	igURL := "postgres://icegate@" + startServer(t, t.TempDir(), serverOpts{}) + "/icegate?sslmode=disable"
	cases := []struct {
		flow string // unnamed: Parse Bind Describe(P) Execute Sync; named: Parse(s) Describe(S) Sync, then Bind(s, params) Describe(P) Execute Sync
		sql  string
		args []string
	}{
		{"unnamed", "SELECT 1/0", nil},
		{"unnamed", "SELECT 2147483647 + 1", nil},
		{"unnamed", "SELECT 'x'::int", nil},
		{"unnamed", "SELECT sqrt(-1)", nil},
		{"unnamed", "SELECT 1 WHERE 1/0 = 1", nil},
		{"unnamed", "SELECT nocol", nil},
		{"unnamed", "SELECT 1/0 FROM (VALUES (1)) v(x)", nil},
		{"unnamed", "SELECT 1", nil},
		{"named", "SELECT 1/0", nil},
		{"named", "SELECT 1/$1::int", []string{"0"}},
		{"named", "SELECT $1::int + 2147483647", []string{"1"}},
		{"named", "SELECT 'x'::int + $1::int", []string{"1"}},
		{"named", "SELECT $1::int", []string{"7"}},
	}
	for _, c := range cases {
		want := messageOrder(t, pgURL, c.flow, c.sql, c.args)
		got := messageOrder(t, igURL, c.flow, c.sql, c.args)
		if got != want {
			t.Errorf("%s %q:\n  icegate:    %s\n  PostgreSQL: %s", c.flow, c.sql, got, want)
		}
	}
}

// messageOrder runs one flow and names the backend messages in order
// (errors with their SQLSTATE), "|" between the two rounds of the named
// flow.
func messageOrder(t *testing.T, url, flow, sql string, args []string) string {
	t.Helper()
	ctx := testCtx(t)
	conn, err := pgconn.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	fe := conn.Frontend()
	params := make([][]byte, len(args))
	for i, a := range args {
		params[i] = []byte(a)
	}
	execute := func(stmt string) {
		fe.Send(&pgproto3.Bind{PreparedStatement: stmt, Parameters: params})
		fe.Send(&pgproto3.Describe{ObjectType: 'P'})
		fe.Send(&pgproto3.Execute{})
		fe.Send(&pgproto3.Sync{})
	}
	if flow == "named" {
		fe.Send(&pgproto3.Parse{Name: "s1", Query: sql})
		fe.Send(&pgproto3.Describe{ObjectType: 'S', Name: "s1"})
		fe.Send(&pgproto3.Sync{})
	} else {
		fe.Send(&pgproto3.Parse{Query: sql})
		execute("")
	}
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for round := 1; ; {
		m, err := fe.Receive()
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		name := strings.TrimPrefix(fmt.Sprintf("%T", m), "*pgproto3.")
		if e, ok := m.(*pgproto3.ErrorResponse); ok {
			name += "(" + e.Code + ")"
		}
		out = append(out, name)
		if _, ok := m.(*pgproto3.ReadyForQuery); !ok {
			continue
		}
		if flow != "named" || round == 2 {
			break
		}
		round++
		out = append(out, "|")
		execute("s1")
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	return strings.Join(out, " ")
}

// TestExtendedQueryStartedAtBind reads a result of many batches over the
// extended protocol, whole and through a portal suspended by Execute's
// row limit: the query starts at Bind and Execute streams the rest.
func TestExtendedQueryStartedAtBind(t *testing.T) {
	addr := startServer(t, t.TempDir(), serverOpts{})
	conn := connect(t, addr)
	var n, sum int64
	if err := conn.QueryRow(testCtx(t), "SELECT count(*), sum(g) FROM (SELECT g FROM generate_series(1, $1::int) g) s", 300000).Scan(&n, &sum); err != nil || n != 300000 || sum != 300000*300001/2 {
		t.Fatalf("count, sum = %d, %d, %v", n, sum, err)
	}
	rows, err := conn.Query(testCtx(t), "SELECT g FROM generate_series(1, $1::int) g", 300000)
	if err != nil {
		t.Fatal(err)
	}
	var got, last int64
	for rows.Next() {
		if err := rows.Scan(&last); err != nil {
			t.Fatal(err)
		}
		got++
	}
	if rows.Err() != nil || got != 300000 || last != 300000 {
		t.Fatalf("%d rows, last %d: %v", got, last, rows.Err())
	}
	pc, err := pgconn.Connect(testCtx(t), "postgres://icegate@"+addr+"/icegate?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close(testCtx(t))
	fe := pc.Frontend()
	fe.Send(&pgproto3.Parse{Query: "SELECT g FROM generate_series(1, 100000) g"})
	fe.Send(&pgproto3.Bind{})
	fe.Send(&pgproto3.Execute{MaxRows: 70000})
	fe.Send(&pgproto3.Execute{MaxRows: 70000})
	fe.Send(&pgproto3.Sync{})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var seq []string
	dataRows := 0
	for {
		m, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		switch m := m.(type) {
		case *pgproto3.DataRow:
			dataRows++
			continue
		case *pgproto3.ErrorResponse:
			t.Fatalf("error: %s %s", m.Code, m.Message)
		case *pgproto3.CommandComplete:
			seq = append(seq, string(m.CommandTag))
			continue
		}
		seq = append(seq, strings.TrimPrefix(fmt.Sprintf("%T", m), "*pgproto3."))
		if _, ok := m.(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	if dataRows != 100000 || strings.Join(seq, " ") != "ParseComplete BindComplete PortalSuspended SELECT 30000 ReadyForQuery" {
		t.Fatalf("%d rows, messages %v", dataRows, seq)
	}
}
