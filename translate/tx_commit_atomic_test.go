package translate

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/sqldb"
	"github.com/icegate/icegate/internal/pgerr"
)

// commitCounter is the SQL catalog counting its commits of one table and
// of several.
type commitCounter struct {
	*catalog.SQL
	single, multi atomic.Int32
}

func (c *commitCounter) CommitTable(ctx context.Context, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) (*catalog.Table, error) {
	c.single.Add(1)
	return c.SQL.CommitTable(ctx, id, reqs, updates)
}

func (c *commitCounter) CommitTables(ctx context.Context, commits []catalog.TableCommit) error {
	c.multi.Add(1)
	return c.SQL.CommitTables(ctx, commits)
}

// sqlSessions opens n sessions over a SQL catalog on SQLite.
func sqlSessions(t *testing.T, n int) ([]*session, *commitCounter) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, dialect, err := sqldb.Open(ctx, "jdbc:sqlite:"+filepath.Join(dir, "catalog.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sc, err := catalog.NewSQL(ctx, "lake", db, dialect, filepath.Join(dir, "wh"), nil)
	if err != nil {
		t.Fatal(err)
	}
	cat := &commitCounter{SQL: sc}
	b := NewBackend(cat, Options{})
	var out []*session
	for range n {
		s, err := b.NewSession(ctx, StartupInfo{User: "tester", Database: "lake"})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s.(*session))
	}
	return out, cat
}

// TestCommitSeveralTablesAtomically: on a catalog that commits several
// tables at once, a block's COMMIT over several tables is one such commit,
// so a conflict on one table leaves every table as it was.
func TestCommitSeveralTablesAtomically(t *testing.T) {
	ss, cat := sqlSessions(t, 2)
	s, other := ss[0], ss[1]
	for _, q := range []string{
		"CREATE SCHEMA db",
		"CREATE TABLE db.a (id int, v text)",
		"CREATE TABLE db.b (id int, v text)",
		"INSERT INTO db.b VALUES (1, 'one'), (2, 'two')",
	} {
		run(t, s, q)
	}

	// Two inserts: one commit of both tables.
	single, multi := cat.single.Load(), cat.multi.Load()
	for _, q := range []string{"BEGIN", "INSERT INTO db.a VALUES (1, 'x')", "INSERT INTO db.b VALUES (3, 'three')", "COMMIT"} {
		run(t, s, q)
	}
	if got := cat.multi.Load() - multi; got != 1 {
		t.Fatalf("COMMIT of two tables made %d multi-table commits; want 1", got)
	}
	if got := cat.single.Load() - single; got != 0 {
		t.Fatalf("COMMIT of two tables made %d single-table commits; want 0", got)
	}
	if got := queryRows(t, other, "SELECT count(*) FROM db.a"); !slices.Equal(got, []string{"1"}) {
		t.Fatalf("a has %v rows after COMMIT", got)
	}
	if got := queryRows(t, other, "SELECT count(*) FROM db.b"); !slices.Equal(got, []string{"3"}) {
		t.Fatalf("b has %v rows after COMMIT", got)
	}

	// A schema change and an insert commit together too.
	for _, q := range []string{"BEGIN", "ALTER TABLE db.a ADD COLUMN w int", "INSERT INTO db.b VALUES (4, 'four')", "COMMIT"} {
		run(t, s, q)
	}
	if got := queryRows(t, other, "SELECT count(*) FROM db.b"); !slices.Equal(got, []string{"4"}) {
		t.Fatalf("b has %v rows after COMMIT", got)
	}
	queryRows(t, other, "SELECT w FROM db.a")

	// A table the block creates is created in the same commit.
	single, multi = cat.single.Load(), cat.multi.Load()
	for _, q := range []string{"BEGIN", "CREATE TABLE db.n AS SELECT id FROM db.b", "INSERT INTO db.a VALUES (9, 'z')", "COMMIT"} {
		run(t, s, q)
	}
	if got := cat.multi.Load() - multi; got != 1 || cat.single.Load() != single {
		t.Fatalf("COMMIT of a created and a written table made %d multi-table and %d single-table commits; want 1 and 0",
			got, cat.single.Load()-single)
	}
	if got := queryRows(t, other, "SELECT count(*) FROM db.n"); !slices.Equal(got, []string{"4"}) {
		t.Fatalf("the created table has %v rows", got)
	}
	run(t, s, "DELETE FROM db.a WHERE id = 9")

	// The block deletes b's row 1, which another session deletes first:
	// COMMIT fails with 40001 and a keeps none of the block's rows.
	for _, q := range []string{"BEGIN", "INSERT INTO db.a VALUES (2, 'y')", "CREATE TABLE db.m (x int)", "INSERT INTO db.m VALUES (1)", "DELETE FROM db.b WHERE id = 1"} {
		run(t, s, q)
	}
	run(t, other, "DELETE FROM db.b WHERE id = 1")
	err := runAll(s, "COMMIT")
	if pgerr.Code(err) != pgerr.SerializationFailure {
		t.Fatalf("COMMIT after a conflicting delete: %v; want 40001", err)
	}
	if got := queryRows(t, other, "SELECT id FROM db.a ORDER BY id"); !slices.Equal(got, []string{"1"}) {
		t.Fatalf("a holds %v after a COMMIT that failed on b; want only 1", got)
	}
	if got := queryRows(t, other, "SELECT id FROM db.b ORDER BY id"); strings.Join(got, ",") != "2,3,4" {
		t.Fatalf("b holds %v", got)
	}
	if err := runAll(other, "SELECT * FROM db.m"); pgerr.Code(err) != pgerr.UndefinedTable {
		t.Fatalf("the table a failed COMMIT created: %v; want 42P01", err)
	}
	run(t, other, "CREATE TABLE db.m (x int)") // the name is free again
}
