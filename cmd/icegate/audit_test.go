package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/internal/audit"
)

// TestAuditLog runs logins and statements through pgx against a server
// with audit.file set, then parses every line of the log and checks its
// fields.
func TestAuditLog(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "audit.jsonl")
	t.Setenv("ICEGATE_AUDIT_FILE", logFile)
	t.Setenv("ICEGATE_PASSWORD", "s3cret")
	addr, _, stop := serveOn(t, dir, filepath.Join(dir, "wh"))
	ctx := context.Background()

	if c, err := pgx.Connect(ctx, "postgres://icegate:wrong@"+addr+"/icegate?sslmode=disable&application_name=auditor"); err == nil {
		c.Close(ctx)
		t.Fatal("a wrong password was accepted")
	}
	c, err := pgx.Connect(ctx, "postgres://icegate:s3cret@"+addr+"/icegate?sslmode=disable&application_name=auditor")
	if err != nil {
		t.Fatal(err)
	}
	statements := []struct {
		sql     string
		simple  bool
		kind    string
		state   string
		commits bool
	}{
		{sql: "CREATE SCHEMA s", kind: audit.KindDDL, state: "00000"},
		{sql: "CREATE TABLE s.t (id int, label text)", kind: audit.KindDDL, state: "00000"},
		{sql: "INSERT INTO s.t VALUES (1, 'a'), (2, 'b')", kind: audit.KindDML, state: "00000", commits: true},
		{sql: "SELECT count(*) FROM s.t", state: ""}, // not audited
		{sql: "UPDATE s.t SET label = 'B' WHERE id = 2", kind: audit.KindDML, state: "00000", commits: true},
		{sql: "INSERT INTO s.missing VALUES (1)", kind: audit.KindDML, state: "42P01"},
		{sql: "DELETE FROM s.t WHERE id = 1", simple: true, kind: audit.KindDML, state: "00000", commits: true},
		{sql: "BEGIN", state: ""},
		{sql: "INSERT INTO s.t VALUES (9, 'in a block')", kind: audit.KindDML, state: "00000"}, // commits at COMMIT
		{sql: "COMMIT", kind: audit.KindCommit, state: "00000", commits: true},
		{sql: "BEGIN", simple: true, state: ""},
		{sql: "DELETE FROM s.t WHERE id = 9", simple: true, kind: audit.KindDML, state: "00000"},
		{sql: "COMMIT", simple: true, kind: audit.KindCommit, state: "00000", commits: true},
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
	tag, err := c.PgConn().CopyFrom(ctx, strings.NewReader("3\tc\n4\td\n"), "COPY s.t FROM STDIN")
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
	var want []audit.Record
	for _, st := range statements {
		if st.kind != "" {
			want = append(want, audit.Record{Kind: st.kind, Statement: st.sql, SQLState: st.state})
		}
	}
	want = append(want, audit.Record{Kind: audit.KindCopy, Statement: "COPY s.t FROM STDIN", SQLState: "00000"})
	committing := map[string]bool{}
	for _, st := range statements {
		if st.commits {
			committing[st.sql] = true
		}
	}
	committing["COPY s.t FROM STDIN"] = true
	got := recs[2:]
	if len(got) != len(want) {
		t.Fatalf("%d statement records, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Event != audit.EventStatement || g.Kind != w.Kind || g.Statement != w.Statement || g.SQLState != w.SQLState {
			t.Errorf("record %d = %+v, want %s %q %s", i, g, w.Kind, w.Statement, w.SQLState)
		}
		if (g.SQLState == "00000") != (g.Outcome == "success") {
			t.Errorf("record %d: outcome %q with SQLSTATE %s", i, g.Outcome, g.SQLState)
		}
		if committing[w.Statement] && (len(g.Tables) != 1 || g.Tables[0].Table != "s.t" || g.Tables[0].SnapshotID == 0) {
			t.Errorf("record %d (%s): tables %+v, want s.t with its new snapshot", i, w.Statement, g.Tables)
		}
		if !committing[w.Statement] && len(g.Tables) > 0 {
			t.Errorf("record %d (%s): tables %+v, want none: it did not commit", i, w.Statement, g.Tables)
		}
	}
	if tbl := got[len(got)-1].Tables; len(tbl) == 1 && tbl[0].SnapshotID != last {
		t.Errorf("COPY's record names snapshot %d, the table's last snapshot is %d", tbl[0].SnapshotID, last)
	}
}
