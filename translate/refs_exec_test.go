package translate

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// TestRefAsOfVersion makes a tag and a branch at an older snapshot by its
// id and reads and writes them.
func TestRefAsOfVersion(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	run(t, s, `CREATE TABLE t (id int)`)
	run(t, s, `INSERT INTO t VALUES (1), (2)`)
	first := queryRows(t, s, `SELECT snapshot_id FROM t$snapshots`)[0]
	run(t, s, `INSERT INTO t VALUES (3)`)
	run(t, s, fmt.Sprintf("ALTER TABLE t CREATE TAG `v-1` AS OF VERSION %s RETAIN 12 HOURS", first))
	run(t, s, fmt.Sprintf(`ALTER TABLE t CREATE BRANCH fix AS OF VERSION %s`, first))
	if got := queryRows(t, s, "SELECT count(*) FROM t VERSION AS OF 'v-1'"); got[0] != "2" {
		t.Errorf("tag v-1 reads %v rows, want 2", got)
	}
	run(t, s, `INSERT INTO t.branch_fix SELECT 10`)
	if got := queryRows(t, s, `SELECT sum(id) FROM t.branch_fix`); got[0] != "13" {
		t.Errorf("branch fix sums to %v, want 13", got)
	}
	if got := queryRows(t, s, `SELECT sum(id) FROM t`); got[0] != "6" {
		t.Errorf("main sums to %v, want 6", got)
	}
	tbl, err := cat.LoadTable(context.Background(), catalog.Identifier{Namespace: []string{"public"}, Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	m := tbl.Metadata
	tag, fix := m.Refs["v-1"], m.Refs["fix"]
	if fmt.Sprint(tag.SnapshotID) != first || tag.Type != "tag" || tag.MaxRefAgeMs == nil || *tag.MaxRefAgeMs != 12*3600*1000 {
		t.Errorf("tag %+v, want snapshot %s retained 12 hours", tag, first)
	}
	// the branch's commit has the tagged snapshot as parent
	head := m.SnapshotByID(fix.SnapshotID)
	if head == nil || head.ParentSnapshotID == nil || fmt.Sprint(*head.ParentSnapshotID) != first {
		t.Errorf("branch head %+v, want a child of %s", head, first)
	}
	// REPLACE BRANCH points it back at the tag's snapshot; one commit
	before := len(m.MetadataLog)
	run(t, s, fmt.Sprintf(`ALTER TABLE t REPLACE BRANCH fix AS OF VERSION %s`, first))
	if got := queryRows(t, s, `SELECT sum(id) FROM t.branch_fix`); got[0] != "3" {
		t.Errorf("replaced branch sums to %v, want 3", got)
	}
	tbl, err = cat.LoadTable(context.Background(), tbl.Ident)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tbl.Metadata.MetadataLog) - before; n != 1 {
		t.Errorf("REPLACE BRANCH made %d commits, want 1", n)
	}
	// main moves like any branch: the table reads the older snapshot
	run(t, s, fmt.Sprintf(`ALTER TABLE t REPLACE BRANCH main AS OF VERSION %s`, first))
	if got := queryRows(t, s, `SELECT sum(id) FROM t`); got[0] != "3" {
		t.Errorf("main sums to %v after REPLACE BRANCH main, want 3", got)
	}
}

// TestRefDDLConcurrent creates one branch from 8 sessions at once: exactly
// one succeeds, the others fail with 42710 (it exists) or 40001 (they lost
// the race to the commit), and the branch points at main's head.
func TestRefDDLConcurrent(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	run(t, s, `CREATE TABLE t (id int)`)
	run(t, s, `INSERT INTO t VALUES (1)`)
	const workers = 8
	outs := make(chan string, workers)
	for w := 0; w < workers; w++ {
		go func() {
			sess, err := s.backend.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
			if err != nil {
				outs <- err.Error()
				return
			}
			outs <- statementOutput(sess.(*session), `ALTER TABLE t CREATE BRANCH b`)
		}()
	}
	ok := 0
	for w := 0; w < workers; w++ {
		out := <-outs
		switch {
		case out == "ALTER TABLE":
			ok++
		case strings.HasPrefix(out, "error (42710)"), strings.HasPrefix(out, "error (40001)"):
		default:
			t.Errorf("unexpected: %s", out)
		}
	}
	if ok != 1 {
		t.Errorf("%d sessions created the branch, want 1", ok)
	}
	tbl, err := cat.LoadTable(context.Background(), catalog.Identifier{Namespace: []string{"public"}, Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if b := tbl.Metadata.Refs["b"]; b.SnapshotID != *tbl.Metadata.CurrentSnapshotID || b.Type != "branch" {
		t.Errorf("branch b %+v, main at %d", b, *tbl.Metadata.CurrentSnapshotID)
	}
}
