package translate

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/procedure"
)

// callOutput is a statement's output as queryOutput prints it: the header,
// the rows, the tag; or the error.
func callOutput(t *testing.T, s *session, sql string) string {
	t.Helper()
	return queryOutput(t, s, &datadriven.Case{Input: sql})
}

// TestSnapshotProcedures runs the ref-moving procedures over a table with
// three snapshots: s0 inserts 1, s1 inserts 2, s2 deletes 1. Each case
// starts from that state; $0, $1, $2 in a statement stand for the ids.
func TestSnapshotProcedures(t *testing.T) {
	cases := []struct {
		name  string
		calls []string // all but the last must succeed
		want  string   // output of the last call: a prefix of it
		rows  string   // the table's ids after
	}{
		{"rollback", []string{"CALL system.rollback_to_snapshot('t', $0)"},
			"previous_snapshot_id:bigint\tcurrent_snapshot_id:bigint\n$2\t$0\nCALL", "1"},
		{"rollback, keyword names", []string{"CALL system.rollback_to_snapshot(table => 't', snapshot_id => $1)"},
			"previous_snapshot_id:bigint\tcurrent_snapshot_id:bigint\n$2\t$1\nCALL", "1,2"},
		{"rollback, catalog-qualified", []string{"CALL icegate.system.rollback_to_snapshot(\"TABLE\" => 'icegate.public.t', snapshot_id => $1)"},
			"previous", "1,2"},
		{"rollback, spark_catalog", []string{"CALL spark_catalog.system.rollback_to_snapshot(table => 't', snapshot_id => $1)"},
			"previous", "1,2"},
		{"rollback, expression", []string{`CALL system.rollback_to_snapshot('t', (SELECT snapshot_id FROM "t$snapshots" ORDER BY committed_at, snapshot_id LIMIT 1))`},
			"previous", "1"},
		{"rollback to head", []string{"CALL system.rollback_to_snapshot('t', $2)"},
			"previous_snapshot_id:bigint\tcurrent_snapshot_id:bigint\n$2\t$2\nCALL", "2"},
		{"rollback, unknown", []string{"CALL system.rollback_to_snapshot('t', 42)"},
			"error (22023): cannot roll back to unknown snapshot ID: 42", "2"},
		{"rollback, not an ancestor", []string{"CALL system.rollback_to_snapshot('t', $0)", "CALL system.rollback_to_snapshot('t', $2)"},
			"error (55000): cannot roll back to snapshot $2: not an ancestor of the current state", "1"},
		{"rollback, missing table", []string{"CALL system.rollback_to_snapshot('nope', 1)"},
			`error (42P01): relation "nope" does not exist`, "2"},
		{"rollback, missing argument", []string{"CALL system.rollback_to_snapshot('t')"},
			"error (42883): procedure system.rollback_to_snapshot needs argument snapshot_id", "2"},
		{"rollback, bad argument", []string{"CALL system.rollback_to_snapshot('t', 'x')"},
			`error (22P02): invalid input syntax for type bigint: "x"`, "2"},
		{"rollback, unknown name", []string{"CALL system.rollback_to_snapshot('t', snapshot => 1)"},
			`error (42883): procedure system.rollback_to_snapshot has no parameter named "snapshot"`, "2"},
		{"set current, not an ancestor", []string{"CALL system.rollback_to_snapshot('t', $0)", "CALL system.set_current_snapshot('t', $2)"},
			"previous_snapshot_id:bigint\tcurrent_snapshot_id:bigint\n$0\t$2\nCALL", "2"},
		{"set current by ref", []string{"CALL system.set_current_snapshot(table => 't', ref => 'main')"},
			"previous_snapshot_id:bigint\tcurrent_snapshot_id:bigint\n$2\t$2\nCALL", "2"},
		{"set current, both", []string{"CALL system.set_current_snapshot('t', $0, 'main')"},
			"error (22023): either snapshot_id or ref must be provided, not both", "2"},
		{"set current, neither", []string{"CALL system.set_current_snapshot('t')"},
			"error (22023): either snapshot_id or ref must be provided, not both", "2"},
		{"set current, unknown ref", []string{"CALL system.set_current_snapshot('t', ref => 'b')"},
			"error (22023): cannot find matching snapshot ID for ref b", "2"},
		{"rollback to timestamp now", []string{"CALL system.rollback_to_timestamp(table => 't', timestamp => now())"},
			"previous_snapshot_id:bigint\tcurrent_snapshot_id:bigint\n$2\t$2\nCALL", "2"},
		{"rollback to timestamp, expression", []string{`CALL system.rollback_to_timestamp('t', (SELECT committed_at + interval '1 millisecond' FROM "t$snapshots" WHERE snapshot_id = $0))`},
			"previous_snapshot_id:bigint\tcurrent_snapshot_id:bigint\n$2\t$0\nCALL", "1"},
		{"rollback to timestamp, too old", []string{"CALL system.rollback_to_timestamp('t', TIMESTAMP '2000-01-01 00:00:00')"},
			"error (22023): cannot roll back: no snapshot of main older than 2000-01-01T00:00:00Z", "2"},
		{"rollback to timestamp, string", []string{"CALL system.rollback_to_timestamp('t', '2000-01-01 00:00:00+00')"},
			"error (22023): cannot roll back: no snapshot of main older than", "2"},
		{"ancestors", []string{"CALL system.ancestors_of('t')"},
			"snapshot_id:bigint\ttimestamp:bigint\n$2\t", "2"},
		{"ancestors of", []string{"CALL system.ancestors_of('t', snapshot_id => $0)"},
			"snapshot_id:bigint\ttimestamp:bigint\n$0\t", "2"},
		{"unknown procedure", []string{"CALL system.nope('t')"},
			"error (42883): procedure system.nope does not exist", "2"},
		{"other namespace", []string{"CALL other.rollback_to_snapshot('t', $0)"},
			"error (42883): procedure other.rollback_to_snapshot does not exist", "2"},
		{"in a transaction block", []string{"BEGIN", "CALL system.rollback_to_snapshot('t', $0)"},
			"error (25001): CALL system.rollback_to_snapshot cannot run inside a transaction block", "2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _, _ := newWriteSession(t)
			run(t, s, "CREATE TABLE t (id int)")
			run(t, s, "INSERT INTO t VALUES (1)")
			run(t, s, "INSERT INTO t VALUES (2)")
			run(t, s, "DELETE FROM t WHERE id = 1")
			ids := snapshotIDs(t, s, "t")
			subst := func(q string) string {
				for i := len(ids) - 1; i >= 0; i-- {
					q = strings.ReplaceAll(q, "$"+string(rune('0'+i)), ids[i])
				}
				return q
			}
			for _, q := range c.calls[:len(c.calls)-1] {
				run(t, s, subst(q))
			}
			got := callOutput(t, s, subst(c.calls[len(c.calls)-1]))
			if want := subst(c.want); !strings.HasPrefix(got, want) {
				t.Errorf("got:\n%s\nwant (prefix):\n%s", got, want)
			}
			if c.name == "in a transaction block" {
				run(t, s, "ROLLBACK")
			}
			if got := strings.Join(queryRows(t, s, "SELECT id FROM t ORDER BY id"), ","); got != c.rows {
				t.Errorf("rows %s, want %s", got, c.rows)
			}
		})
	}
}

// TestAncestorsOfRows: ancestors_of lists main's chain, newest first, with
// each snapshot's commit time in milliseconds.
func TestAncestorsOfRows(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int)")
	for range 3 {
		run(t, s, "INSERT INTO t VALUES (1)")
	}
	got := queryRows(t, s, "CALL system.ancestors_of('t')")
	want := queryRows(t, s, `SELECT snapshot_id, (extract(epoch FROM committed_at) * 1000)::bigint FROM "t$snapshots" ORDER BY committed_at DESC, snapshot_id DESC`)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("ancestors_of:\n%v\nwant\n%v", got, want)
	}
}

// TestFastForward moves a branch to the head of another ref whose history
// it is part of; a branch that diverged is refused.
func TestFastForward(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int)")
	run(t, s, "INSERT INTO t VALUES (1)")
	ids := snapshotIDs(t, s, "t")
	// branch b at the first snapshot (no branch DDL needed here)
	ctx := context.Background()
	id := catalog.Identifier{Namespace: []string{"public"}, Name: "t"}
	first, _ := strconv.ParseInt(ids[0], 10, 64)
	if _, err := cat.CommitTable(ctx, id, nil, []catalog.Update{catalog.SetSnapshotRef{Name: "b", Ref: catalog.SnapshotRef{SnapshotID: first, Type: "branch"}}}); err != nil {
		t.Fatal(err)
	}
	run(t, s, "INSERT INTO t VALUES (2)")
	ids = snapshotIDs(t, s, "t")
	got := callOutput(t, s, "CALL system.fast_forward(table => 't', branch => 'b', to => 'main')")
	want := "branch_updated:text\tprevious_ref:bigint\tupdated_ref:bigint\nb\t" + ids[0] + "\t" + ids[1] + "\nCALL"
	if !strings.HasPrefix(got, want) {
		t.Errorf("fast_forward:\n%s\nwant\n%s", got, want)
	}
	// main rolled back: b is now ahead of main, not behind it
	run(t, s, "CALL system.rollback_to_snapshot('t', "+ids[0]+")")
	if got := callOutput(t, s, "CALL system.fast_forward('t', 'b', 'main')"); !strings.HasPrefix(got, "error (55000): cannot fast-forward: b is not an ancestor of main") {
		t.Errorf("diverged: %s", got)
	}
	if got := callOutput(t, s, "CALL system.fast_forward('t', 'main', 'b')"); !strings.Contains(got, "main\t"+ids[0]+"\t"+ids[1]) {
		t.Errorf("main forward: %s", got)
	}
	if got := callOutput(t, s, "CALL system.fast_forward('t', 'nope', 'b')"); !strings.HasPrefix(got, "error (22023): branch nope does not exist") {
		t.Errorf("missing branch: %s", got)
	}
}

// TestTableExecute runs Trino's ALTER TABLE ... EXECUTE: a command mapped
// to a procedure that is registered runs it; one whose procedure is not
// there yet says so (0A000); an unknown one is 42883.
func TestTableExecute(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int)")
	if got := statementOutput(s, "ALTER TABLE t EXECUTE drop_extended_stats"); !strings.HasPrefix(got, "error (42883): table procedure drop_extended_stats does not exist") {
		t.Errorf("unknown: %s", got)
	}
	if got := statementOutput(s, "ALTER TABLE t EXECUTE optimize WHERE id = 1"); !strings.HasPrefix(got, "error (0A000)") {
		t.Errorf("WHERE: %s", got)
	}
	for _, c := range procedure.TrinoCommands() {
		arg := "'1d'"
		if c.Name == "optimize" {
			arg = "'1MB'" // a data size
		}
		for _, q := range []string{"ALTER TABLE t EXECUTE " + c.Name, "ALTER TABLE public.t EXECUTE " + c.Name + "(" + c.Params[0].Name + " => " + arg + ")"} {
			got := statementOutput(s, q)
			if _, ok := procedure.Lookup(c.Procedure); ok {
				if got != "ALTER TABLE" {
					t.Errorf("%s: %s", q, got)
				}
			} else if !strings.HasPrefix(got, "error (0A000)") || !strings.Contains(got, c.Procedure) {
				t.Errorf("%s: %s, want 0A000 naming %s", q, got, c.Procedure)
			}
		}
	}
}

// racingEnv lets another session commit an INSERT right after each of the
// first races table loads: the procedure's decision is then based on a
// stale main.
type racingEnv struct {
	*callEnv
	other *session
	races int
}

func (e *racingEnv) Table(ctx context.Context, name string) (*catalog.Table, catalog.MutableCatalog, error) {
	t, mc, err := e.callEnv.Table(ctx, name)
	if err == nil && e.races > 0 {
		e.races--
		if out := statementOutput(e.other, "INSERT INTO t VALUES (9)"); out != "INSERT 0 1" {
			return nil, nil, errors.New("concurrent insert: " + out)
		}
	}
	return t, mc, err
}

// TestRollbackLostRace: a rollback whose ref move loses the race to a
// concurrent commit decides again on the reloaded table once; losing twice
// is 40001 with the table as the other writer left it.
func TestRollbackLostRace(t *testing.T) {
	for _, c := range []struct {
		races int
		code  string
		rows  string
	}{{1, "", "1"}, {2, pgerr.SerializationFailure, "1,2,9,9"}} {
		s, cat, _ := newWriteSession(t)
		other, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
		if err != nil {
			t.Fatal(err)
		}
		run(t, s, "CREATE TABLE t (id int)")
		run(t, s, "INSERT INTO t VALUES (1)")
		run(t, s, "INSERT INTO t VALUES (2)")
		first, _ := strconv.ParseInt(snapshotIDs(t, s, "t")[0], 10, 64)
		p, _ := procedure.Lookup("rollback_to_snapshot")
		env := &racingEnv{callEnv: &callEnv{sess: s, now: time.Now()}, other: other.(*session), races: c.races}
		rows, err := p.Run(context.Background(), env, procedure.Args{"table": "t", "snapshot_id": first})
		if got := pgerr.Code(catalogError(err, kindTable, "t")); err != nil && got != c.code || err == nil && c.code != "" {
			t.Errorf("%d races: %v (%s), want %q", c.races, err, got, c.code)
		}
		if err == nil {
			ids := snapshotIDs(t, s, "t")
			if want := []any{mustInt(t, ids[len(ids)-1]), first}; len(rows) != 1 || rows[0][0] != want[0] || rows[0][1] != want[1] {
				t.Errorf("%d races: rows %v, want previous = the concurrent head, current = %d", c.races, rows, first)
			}
		}
		if got := strings.Join(queryRows(t, s, "SELECT id FROM t ORDER BY id"), ","); got != c.rows {
			t.Errorf("%d races: rows %s, want %s", c.races, got, c.rows)
		}
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestCallParameters: $n as a whole argument takes the type of its
// procedure parameter; NULL for an optional one is its default; $n inside
// an expression is refused.
func TestCallParameters(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int)")
	run(t, s, "INSERT INTO t VALUES (1)")
	run(t, s, "INSERT INTO t VALUES (2)")
	ids := snapshotIDs(t, s, "t")
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, "CALL system.set_current_snapshot($1, snapshot_id => $2, ref => $3)", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := stmts[0]
	if got := st.ParamTypes(); len(got) != 3 || got[0] != 25 || got[1] != 20 || got[2] != 25 {
		t.Errorf("parameter types %v, want text, bigint, text", got)
	}
	tn, id := "t", ids[0]
	rows, err := st.Execute(ctx, []*string{&tn, &id, nil})
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if got := strings.Join(queryRows(t, s, "SELECT id FROM t"), ","); got != "1" {
		t.Errorf("rows %s, want 1", got)
	}
	if _, err := st.Execute(ctx, []*string{&tn}); pgerr.Code(err) != pgerr.ProtocolViolation {
		t.Errorf("one parameter for three: %v", err)
	}
	bad := "x"
	if _, err := st.Execute(ctx, []*string{&tn, &bad, nil}); pgerr.Code(err) != pgerr.InvalidTextRepresentation {
		t.Errorf("bad bigint: %v", err)
	}
	for _, q := range []string{"CALL system.rollback_to_snapshot('t', $1 + 1)", "CALL system.rollback_to_snapshot(snapshot_id => 1, \"table\" => 'x' || $1)"} {
		if _, err = s.Prepare(ctx, q, nil); pgerr.Code(err) != pgerr.FeatureNotSupported {
			t.Errorf("%s: %v", q, err)
		}
	}
	// a string that spells the JSON key is no parameter
	if _, err := s.Prepare(ctx, `CALL system.rollback_to_snapshot('t' || '"ParamRef":', 1)`, nil); err != nil {
		t.Errorf("string argument: %v", err)
	}
}

// TestCallStatementTimeout: statement_timeout ends a procedure as any
// statement (57014), here while its argument is evaluated.
func TestCallStatementTimeout(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int)")
	run(t, s, "SET statement_timeout = 50")
	got := statementOutput(s, "CALL system.rollback_to_snapshot('t', (SELECT count(*) FROM generate_series(1, 100000000)))")
	if !strings.HasPrefix(got, "error (57014): canceling statement due to statement timeout") {
		t.Errorf("got %s", got)
	}
}
