package integration

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestRolesSharedByGateways: a role created through one gateway logs in
// through another over the same warehouse, and what ALTER ROLE changes
// there (LOGIN, PASSWORD, VALID UNTIL, CONNECTION LIMIT) applies to the
// next connection through the other.
func TestRolesSharedByGateways(t *testing.T) {
	wh := t.TempDir()
	a := startServer(t, wh, serverOpts{password: "su", roles: true})
	b := startServer(t, wh, serverOpts{password: "su", roles: true})
	admin, err := pgx.Connect(testCtx(t), connString(a, "icegate", "su"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	login := func(pw string) (*pgx.Conn, string) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, connString(b, "carol", pw))
		if err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) {
				return nil, pe.Code
			}
			t.Fatalf("connect: %v", err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c, ""
	}
	steps := []struct {
		admin string // run on gateway a first ("" none)
		pw    string
		want  string // SQLSTATE of logging in through gateway b
	}{
		{pw: "pw1", want: "28P01"}, // no such role yet
		{admin: "CREATE ROLE carol LOGIN PASSWORD 'pw1'", pw: "pw1"},
		{pw: "wrong", want: "28P01"},
		{admin: "ALTER ROLE carol NOLOGIN", pw: "pw1", want: "28000"},
		{admin: "ALTER ROLE carol LOGIN VALID UNTIL '2000-01-01'", pw: "pw1", want: "28P01"},
		{admin: "ALTER ROLE carol VALID UNTIL 'infinity'", pw: "pw1"},
		{admin: "ALTER ROLE carol PASSWORD 'SCRAM-SHA-256$4096:c2FsdHNhbHRzYWx0c2FsdA==$5m9xLD1d2bqbhPRbAWbfqVwf4c+Db+9odZrC48xuQAE=:MU0E8q8QOm5Y6Pq3fybYjyaaNlLTvMfK7wlpDs1HmSk='", pw: "pw1", want: "28P01"},
		{admin: "ALTER ROLE carol PASSWORD 'pw2'", pw: "pw2"},
	}
	for i, st := range steps {
		if st.admin != "" {
			if _, err := admin.Exec(testCtx(t), st.admin); err != nil {
				t.Fatalf("step %d: %s: %v", i, st.admin, err)
			}
		}
		c, got := login(st.pw)
		if got != st.want {
			t.Errorf("step %d (%s): login with %q: SQLSTATE %q, want %q", i, st.admin, st.pw, got, st.want)
		}
		if c != nil {
			c.Close(context.Background())
		}
	}
	// CONNECTION LIMIT counts the sessions of one gateway.
	if _, err := admin.Exec(testCtx(t), "ALTER ROLE carol CONNECTION LIMIT 1"); err != nil {
		t.Fatal(err)
	}
	// The sessions closed above end on the server a moment later.
	var c *pgx.Conn
	code := ""
	for range 50 {
		if c, code = login("pw2"); code != "53300" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code != "" {
		t.Fatalf("first session under CONNECTION LIMIT 1: %s", code)
	}
	if _, code := login("pw2"); code != "53300" {
		t.Errorf("second session under CONNECTION LIMIT 1: SQLSTATE %q, want 53300", code)
	}
	// A role may change its own password, not its attributes.
	for _, tc := range []struct{ sql, want string }{
		{"ALTER ROLE carol PASSWORD 'pw3'", ""},
		{"ALTER ROLE carol CREATEDB", "42501"},
		{"ALTER ROLE icegate PASSWORD 'x'", "0A000"},
		{"CREATE ROLE pg_mine", "42501"}, // the permission is checked before the name
		{"DROP ROLE carol", "42501"},
	} {
		_, err := c.Exec(testCtx(t), tc.sql)
		got := ""
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			got = pe.Code
		} else if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("as carol: %s: %q, want %q", tc.sql, got, tc.want)
		}
	}
	if _, err := admin.Exec(testCtx(t), "CREATE ROLE pg_mine"); sqlState(err) != "42939" {
		t.Errorf("CREATE ROLE pg_mine: %v, want 42939", err)
	}
	var n int
	if err := admin.QueryRow(testCtx(t), "SELECT count(*) FROM pg_roles WHERE rolname = 'carol' AND rolcanlogin AND rolconnlimit = 1").Scan(&n); err != nil || n != 1 {
		t.Errorf("pg_roles shows carol %d times (%v), want once", n, err)
	}
}
