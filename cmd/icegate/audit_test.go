package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/internal/audit"
)

// TestAuditLog runs logins and statements through pgx against a server
// with audit.file set, then parses every line of the log and checks its
// fields. It runs over each kind of local catalog: the SQL catalog
// commits a block's tables in one multi-table commit, the hadoop catalog
// one table after the other.
func TestAuditLog(t *testing.T) {
	for _, tc := range []struct {
		name     string
		database string // the catalog the session connects to
		config   string // a catalog "lake" in the config file, "" for none
	}{
		{name: "hadoop", database: "icegate"},
		{name: "sql", database: "lake", config: "catalogs:\n  lake:\n    type: sql\n    uri: %q\n    warehouse: %s\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var extra []string
			if tc.config != "" {
				config := filepath.Join(dir, "icegate.yaml")
				body := fmt.Sprintf(tc.config, "jdbc:sqlite:"+filepath.Join(dir, "catalog.db"), filepath.Join(dir, "lake"))
				if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
				extra = []string{"--config", config}
			}
			testAuditLog(t, dir, tc.database, extra)
		})
	}
}

func testAuditLog(t *testing.T, dir, database string, extra []string) {
	logFile := filepath.Join(dir, "audit.jsonl")
	t.Setenv("ICEGATE_AUDIT_FILE", logFile)
	t.Setenv("ICEGATE_PASSWORD", "s3cret")
	addr, _, stop := serveOn(t, dir, filepath.Join(dir, "wh"), extra...)
	ctx := context.Background()

	if c, err := pgx.Connect(ctx, "postgres://icegate:wrong@"+addr+"/"+database+"?sslmode=disable&application_name=auditor"); err == nil {
		c.Close(ctx)
		t.Fatal("a wrong password was accepted")
	}
	c, err := pgx.Connect(ctx, "postgres://icegate:s3cret@"+addr+"/"+database+"?sslmode=disable&application_name=auditor")
	if err != nil {
		t.Fatal(err)
	}
	// tables are the tables a statement's record must name, each with
	// the snapshot its commit produced and its new metadata file.
	statements := []struct {
		sql    string
		simple bool
		kind   string
		state  string
		tables []string
	}{
		{sql: "CREATE SCHEMA s", kind: audit.KindDDL, state: "00000"},
		{sql: "CREATE TABLE s.t (id int, label text)", kind: audit.KindDDL, state: "00000"},
		{sql: "INSERT INTO s.t VALUES (1, 'a'), (2, 'b')", kind: audit.KindDML, state: "00000", tables: []string{"s.t"}},
		{sql: "SELECT count(*) FROM s.t", state: ""}, // not audited
		{sql: "UPDATE s.t SET label = 'B' WHERE id = 2", kind: audit.KindDML, state: "00000", tables: []string{"s.t"}},
		{sql: "INSERT INTO s.missing VALUES (1)", kind: audit.KindDML, state: "42P01"},
		{sql: "DELETE FROM s.t WHERE id = 1", simple: true, kind: audit.KindDML, state: "00000", tables: []string{"s.t"}},
		{sql: "BEGIN", state: ""},
		{sql: "INSERT INTO s.t VALUES (9, 'in a block')", kind: audit.KindDML, state: "00000"}, // commits at COMMIT
		{sql: "COMMIT", kind: audit.KindCommit, state: "00000", tables: []string{"s.t"}},
		{sql: "BEGIN", simple: true, state: ""},
		{sql: "DELETE FROM s.t WHERE id = 9", simple: true, kind: audit.KindDML, state: "00000"},
		{sql: "COMMIT", simple: true, kind: audit.KindCommit, state: "00000", tables: []string{"s.t"}},
		// A schema change commits metadata without a snapshot.
		{sql: "ALTER TABLE s.t ADD COLUMN note text", kind: audit.KindDDL, state: "00000", tables: []string{"s.t"}},
		{sql: "CREATE TABLE s.u (id int)", kind: audit.KindDDL, state: "00000"},
		// A block writing two tables commits both at once.
		{sql: "BEGIN", simple: true, state: ""},
		{sql: "INSERT INTO s.t VALUES (5, 'e', 'x')", simple: true, kind: audit.KindDML, state: "00000"},
		{sql: "INSERT INTO s.u VALUES (5)", simple: true, kind: audit.KindDML, state: "00000"},
		{sql: "COMMIT", simple: true, kind: audit.KindCommit, state: "00000", tables: []string{"s.t", "s.u"}},
		// The same in one query string.
		{sql: "INSERT INTO s.t VALUES (6, 'f', 'y'); INSERT INTO s.u VALUES (6)", simple: true, kind: audit.KindDML, state: "00000", tables: []string{"s.t", "s.u"}},
		// Procedures commit through the catalog themselves.
		{sql: "CALL system.rewrite_data_files(table => 's.t', options => map('min-input-files', '2'))", kind: audit.KindProcedure, state: "00000", tables: []string{"s.t"}},
		{sql: "CALL system.expire_snapshots(table => 's.t', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)", kind: audit.KindProcedure, state: "00000", tables: []string{"s.t"}},
	}
	for _, st := range statements {
		mode := pgx.QueryExecModeCacheStatement
		if st.simple {
			mode = pgx.QueryExecModeSimpleProtocol
		}
		_, err := c.Exec(ctx, st.sql, mode)
		if (err != nil) != (st.state != "00000" && st.state != "") {
			t.Fatalf("%s: %v", st.sql, err)
		}
	}
	tag, err := c.PgConn().CopyFrom(ctx, strings.NewReader("3\tc\tz\n4\td\tz\n"), "COPY s.t FROM STDIN")
	if err != nil || tag.RowsAffected() != 2 {
		t.Fatalf("COPY: %v %v", tag, err)
	}
	var last int64
	if err := c.QueryRow(ctx, `SELECT snapshot_id FROM s.t$snapshots ORDER BY committed_at DESC, snapshot_id DESC LIMIT 1`).Scan(&last); err != nil {
		t.Fatal(err)
	}
	local := c.PgConn().Conn().LocalAddr().String()
	c.Close(ctx)
	stop()

	f, err := os.Open(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if st, _ := f.Stat(); st.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode %v, want 0600", st.Mode().Perm())
	}
	var recs []audit.Record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r audit.Record
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if r.User != "icegate" || r.Application != "auditor" || r.Client == "" || time.Since(r.Time) > time.Minute {
			t.Errorf("record without user, application_name, client or a recent time: %+v", r)
		}
		recs = append(recs, r)
	}
	if len(recs) < 2 || recs[0].Event != audit.EventAuthentication || recs[0].SQLState != "28P01" || recs[0].Outcome != "failure" {
		t.Fatalf("first record %+v, want the failed authentication (28P01)", recs[0])
	}
	if r := recs[1]; r.Event != audit.EventAuthentication || r.Outcome != "success" || r.Method != "scram-sha-256" || r.Client != local {
		t.Errorf("second record %+v, want a successful scram-sha-256 authentication from %s", r, local)
	}
	type wanted struct {
		rec    audit.Record
		tables []string
	}
	var want []wanted
	for _, st := range statements {
		if st.kind != "" {
			want = append(want, wanted{audit.Record{Kind: st.kind, Statement: st.sql, SQLState: st.state}, st.tables})
		}
	}
	want = append(want, wanted{audit.Record{Kind: audit.KindCopy, Statement: "COPY s.t FROM STDIN", SQLState: "00000"}, []string{"s.t"}})
	got := recs[2:]
	if len(got) != len(want) {
		t.Fatalf("%d statement records, want %d: %+v", len(got), len(want), got)
	}
	for i, wt := range want {
		g, w := got[i], wt.rec
		if g.Event != audit.EventStatement || g.Kind != w.Kind || g.Statement != w.Statement || g.SQLState != w.SQLState {
			t.Errorf("record %d = %+v, want %s %q %s", i, g, w.Kind, w.Statement, w.SQLState)
		}
		if (g.SQLState == "00000") != (g.Outcome == "success") {
			t.Errorf("record %d: outcome %q with SQLSTATE %s", i, g.Outcome, g.SQLState)
		}
		var names []string
		for _, c := range g.Tables {
			names = append(names, c.Table)
			if c.SnapshotID == 0 || c.MetadataLocation == "" {
				t.Errorf("record %d (%s): commit %+v without its snapshot or metadata file", i, w.Statement, c)
			}
		}
		slices.Sort(names)
		if !slices.Equal(names, wt.tables) {
			t.Errorf("record %d (%s): tables %v, want %v", i, w.Statement, names, wt.tables)
		}
	}
	if tbl := got[len(got)-1].Tables; len(tbl) == 1 && tbl[0].SnapshotID != last {
		t.Errorf("COPY's record names snapshot %d, the table's last snapshot is %d", tbl[0].SnapshotID, last)
	}
}

// TestAuditAuthenticationMethods checks each authentication record names
// the method of the access rule that decided the connection, for
// successes and refusals alike.
func TestAuditAuthenticationMethods(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "audit.jsonl")
	t.Setenv("ICEGATE_AUDIT_FILE", logFile)
	v, err := auth.NewVerifier("ann-pw")
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "icegate.yaml")
	body := "users:\n  - name: ann\n    scram: \"" + v + "\"\naccess:\n  rules:\n" +
		"    - {type: host, database: icegate, user: tina, address: 127.0.0.1/32, method: trust}\n" +
		"    - {type: host, database: all, user: rex, address: all, method: reject}\n" +
		"    - {type: host, database: all, user: all, address: 127.0.0.1/32, method: scram-sha-256}\n"
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	addr, _, stop := serveOn(t, dir, filepath.Join(dir, "wh"), "--config", config)
	ctx := context.Background()
	cases := []struct {
		user, password string
		method, mech   string
		state          string
	}{
		{user: "tina", method: "trust", state: "00000"},
		{user: "rex", password: "x", method: "reject", state: "28000"},
		{user: "ann", password: "ann-pw", method: "scram-sha-256", mech: "SCRAM-SHA-256", state: "00000"},
		{user: "ann", password: "wrong", method: "scram-sha-256", mech: "SCRAM-SHA-256", state: "28P01"},
	}
	for _, tc := range cases {
		c, err := pgx.Connect(ctx, "postgres://"+tc.user+":"+tc.password+"@"+addr+"/icegate?sslmode=disable")
		if (err == nil) != (tc.state == "00000") {
			t.Fatalf("%s: %v", tc.user, err)
		}
		if err == nil {
			c.Close(ctx)
		}
	}
	stop()
	recs := readAudit(t, logFile)
	if len(recs) != len(cases) {
		t.Fatalf("%d records, want %d: %+v", len(recs), len(cases), recs)
	}
	for i, tc := range cases {
		r := recs[i]
		if r.Event != audit.EventAuthentication || r.User != tc.user || r.Method != tc.method || r.Mechanism != tc.mech || r.SQLState != tc.state || r.Client == "" {
			t.Errorf("record %d = %+v, want %s authenticating by %s (%q) with %s", i, r, tc.user, tc.method, tc.mech, tc.state)
		}
	}
}

// readAudit parses every line of an audit log, refusing unknown fields.
func readAudit(t *testing.T, path string) []audit.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []audit.Record
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		var r audit.Record
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		recs = append(recs, r)
	}
	return recs
}

// TestAuditRotateOnSIGHUP rotates the audit log as logrotate does: move
// the file, then SIGHUP. The server goes on into a new file at the path,
// the moved file keeps every earlier record, a session open across the
// rotation writes into the new file, and nothing is lost or doubled.
func TestAuditRotateOnSIGHUP(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "audit.jsonl")
	t.Setenv("ICEGATE_AUDIT_FILE", logFile)
	t.Setenv("ICEGATE_PASSWORD", "s3cret")
	addr, logs, stop := serveOn(t, dir, filepath.Join(dir, "wh"))
	ctx := context.Background()
	c, err := pgx.Connect(ctx, "postgres://icegate:s3cret@"+addr+"/icegate?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	exec := func(sqls ...string) {
		t.Helper()
		for _, sql := range sqls {
			if _, err := c.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
	}
	before := []string{"CREATE SCHEMA s", "CREATE TABLE s.t (id int)", "INSERT INTO s.t VALUES (1)"}
	exec(before...)
	if err := os.Rename(logFile, logFile+".1"); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), `msg="audit log reopened"`); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no reopening of the audit log after SIGHUP:\n%s", logs.String())
		}
	}
	after := []string{"INSERT INTO s.t VALUES (2)", "DELETE FROM s.t WHERE id = 1"}
	exec(after...)
	c.Close(ctx)
	stop()

	statements := func(path string) []string {
		var out []string
		for _, r := range readAudit(t, path) {
			if r.Event == audit.EventStatement {
				out = append(out, r.Statement)
			}
		}
		return out
	}
	if got := statements(logFile + ".1"); !slices.Equal(got, before) {
		t.Errorf("the rotated file holds %q, want %q", got, before)
	}
	if got := statements(logFile); !slices.Equal(got, after) {
		t.Errorf("the new file holds %q, want %q", got, after)
	}
}
