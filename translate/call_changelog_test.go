package translate

import (
	"strings"
	"testing"
)

// TestCreateChangelogView: create_changelog_view makes a temporary view of
// the table's change log with Spark's columns; compute_updates pairs a
// DELETE and an INSERT of the same id in one snapshot into update images;
// net_changes cancels rows inserted and deleted again; the options bound
// the range. The table: s0 inserts (1,a),(2,b); s1 updates 2 to bb; s2
// deletes 1; s3 inserts (1,a) again.
func TestCreateChangelogView(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id bigint, v text)")
	run(t, s, "INSERT INTO t VALUES (1, 'a'), (2, 'b')")
	run(t, s, "UPDATE t SET v = 'bb' WHERE id = 2")
	run(t, s, "DELETE FROM t WHERE id = 1")
	run(t, s, "INSERT INTO t VALUES (1, 'a')")
	ids := snapshotIDs(t, s, "t")
	rows := func(view string) string {
		t.Helper()
		return strings.Join(queryRows(t, s, "SELECT _change_ordinal, _change_type, id, v FROM "+view+" ORDER BY _change_ordinal, _change_type, id, v"), " | ")
	}

	if got := callOutput(t, s, "CALL system.create_changelog_view('t')"); !strings.HasPrefix(got, "changelog_view:text\nt_changes\nCALL") {
		t.Fatalf("result: %s", got)
	}
	if got, want := rows("t_changes"), "0\tINSERT\t1\ta | 0\tINSERT\t2\tb | 1\tDELETE\t2\tb | 1\tINSERT\t2\tbb | 2\tDELETE\t1\ta | 3\tINSERT\t1\ta"; got != want {
		t.Errorf("changes:\n%s\nwant\n%s", got, want)
	}
	if got := queryRows(t, s, "SELECT DISTINCT _commit_snapshot_id FROM t_changes WHERE _change_ordinal = 1"); len(got) != 1 || got[0] != ids[1] {
		t.Errorf("ordinal 1 commit %v, want %s", got, ids[1])
	}

	// Update images, by the named identifier column (which turns them on).
	run(t, s, "CALL system.create_changelog_view(table => 't', changelog_view => 'upd', identifier_columns => array['id'])")
	if got, want := rows("upd"), "0\tINSERT\t1\ta | 0\tINSERT\t2\tb | 1\tUPDATE_AFTER\t2\tbb | 1\tUPDATE_BEFORE\t2\tb | 2\tDELETE\t1\ta | 3\tINSERT\t1\ta"; got != want {
		t.Errorf("update images:\n%s\nwant\n%s", got, want)
	}

	// Net changes.
	run(t, s, "CALL system.create_changelog_view(table => 't', changelog_view => 'net', net_changes => true)")
	if got, want := rows("net"), "1\tINSERT\t2\tbb | 3\tINSERT\t1\ta"; got != want {
		t.Errorf("net changes:\n%s\nwant\n%s", got, want)
	}

	// A range: after s1 up to s2; the view name is replaced.
	run(t, s, "CALL system.create_changelog_view(table => 't', options => map('start-snapshot-id', '"+ids[1]+"', 'end-snapshot-id', '"+ids[2]+"'))")
	if got, want := rows("t_changes"), "0\tDELETE\t1\ta"; got != want {
		t.Errorf("range:\n%s\nwant\n%s", got, want)
	}
	// By time: from the start to now, every change.
	run(t, s, "CALL system.create_changelog_view(table => 't', options => map('start-timestamp', '0', 'end-timestamp', '"+
		queryRows(t, s, "SELECT (extract(epoch FROM now()) * 1000)::bigint")[0]+"'))")
	if got := queryRows(t, s, "SELECT count(*) FROM t_changes"); got[0] != "6" {
		t.Errorf("by time: %v rows, want 6", got)
	}

	for _, c := range []struct{ sql, want string }{
		{"CALL system.create_changelog_view('t', options => map('branch', 'x'))", `error (22023): unknown option "branch"`},
		{"CALL system.create_changelog_view('t', options => map('start-snapshot-id', '1', 'start-timestamp', '1'))", "error (22023): cannot set both start-snapshot-id and start-timestamp"},
		{"CALL system.create_changelog_view('t', options => map('end-snapshot-id', '42'))", "error (22023): option end-snapshot-id: snapshot 42 does not exist"},
		{"CALL system.create_changelog_view('t', net_changes => true, compute_updates => true)", "error (22023): net_changes and compute_updates cannot both be set"},
		{"CALL system.create_changelog_view('t', compute_updates => true)", "error (22023): cannot compute the update images: the table has no identifier fields"},
		{"CALL system.create_changelog_view('t', identifier_columns => array['nope'])", `error (42703): identifier column "nope" does not exist`},
		{"CALL system.create_changelog_view('nope')", "error (42P01)"},
	} {
		if got := callOutput(t, s, c.sql); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s:\n%s\nwant %s", c.sql, got, c.want)
		}
	}

	// The table's identifier fields serve when none are named.
	run(t, s, "CREATE TABLE u (id bigint NOT NULL, v text)")
	run(t, s, "ALTER TABLE u SET IDENTIFIER FIELDS id")
	run(t, s, "INSERT INTO u VALUES (1, 'a'), (2, 'b')")
	run(t, s, "UPDATE u SET v = 'c' WHERE id = 1")
	run(t, s, "CALL system.create_changelog_view('u', compute_updates => true)")
	if got, want := rows("u_changes"), "0\tINSERT\t1\ta | 0\tINSERT\t2\tb | 1\tUPDATE_AFTER\t1\tc | 1\tUPDATE_BEFORE\t1\ta"; got != want {
		t.Errorf("identifier fields:\n%s\nwant\n%s", got, want)
	}
}
