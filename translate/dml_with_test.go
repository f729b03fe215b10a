package translate

import (
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/datadriven"
)

// dmlWithSession is newDMLSessionWith plus an empty table archive (id,
// name). t's rows 1 and 2 share a data file; row 3 has its own.
func dmlWithSession(t *testing.T, props string) *session {
	s, _ := dmlWithSessionDir(t, props)
	return s
}

// dmlWithSessionDir is dmlWithSession and its warehouse directory.
func dmlWithSessionDir(t *testing.T, props string) (*session, string) {
	t.Helper()
	s, _, dir := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, name text, v numeric(10,2), d date) USING iceberg TBLPROPERTIES ("+props+")")
	run(t, s, "INSERT INTO t VALUES (1, 'a', 1.5, '2020-01-01'), (2, 'b', 2.5, NULL)")
	run(t, s, "INSERT INTO t VALUES (3, 'c', NULL, '2021-02-02')")
	run(t, s, "CREATE TABLE archive (id int, name text)")
	return s, dir
}

// TestDMLWithEndToEnd runs data-modifying WITH queries under SELECT,
// INSERT, DELETE, UPDATE and MERGE in each write mode and format version;
// the outputs are PostgreSQL 15's for the same statements on the same
// data (MERGE ... RETURNING in WITH, PostgreSQL 17, excepted).
func TestDMLWithEndToEnd(t *testing.T) {
	for _, cfg := range dmlConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := dmlWithSession(t, cfg.props)
			dmlScript(t, s, []struct{ sql, want string }{
				{"WITH d AS (DELETE FROM t WHERE id = 2 RETURNING *) SELECT id, name, v FROM d",
					"id:integer\tname:text\tv:numeric(10,2)|2\tb\t2.50|SELECT 1"},
				// Plain INSERT under WITH.
				{"WITH m AS (DELETE FROM t WHERE id = 3 RETURNING id, name) INSERT INTO archive SELECT id, name FROM m",
					"INSERT 0 1"},
				// The outer query reads the snapshot before the UPDATE.
				{"WITH u2 AS (UPDATE t SET name = 'A' WHERE id = 1 RETURNING id, name) SELECT t.name AS old, u2.name AS new FROM t JOIN u2 USING (id)",
					"old:text\tnew:text|a\tA|SELECT 1"},
				// A data-modifying query nobody reads still runs.
				{"WITH d AS (DELETE FROM archive RETURNING id) SELECT 1 AS one", "one:integer|1|SELECT 1"},
				{"SELECT count(*) FROM archive", "count:bigint|0|SELECT 1"},
				// One data-modifying query reads another's rows.
				{"WITH i AS (INSERT INTO archive VALUES (7, 'g'), (8, 'h') RETURNING *), j AS (INSERT INTO t SELECT id, name, NULL, NULL FROM i RETURNING id) SELECT count(*) AS n, (SELECT count(*) FROM t) AS before FROM j",
					"n:bigint\tbefore:bigint|2\t1|SELECT 1"},
				// Without RETURNING, under DELETE.
				{"WITH i AS (INSERT INTO archive VALUES (9, 'z')) DELETE FROM t WHERE id = 7 RETURNING id", "id:integer|7|DELETE 1"},
				{"WITH d AS (DELETE FROM archive WHERE id = 8 RETURNING id) UPDATE t SET v = 10 FROM d WHERE t.id = d.id RETURNING t.id, t.v",
					"id:integer\tv:numeric(10,2)|8\t10.00|UPDATE 1"},
				{"WITH d AS (DELETE FROM archive WHERE id = 7 RETURNING id, name) MERGE INTO t USING d ON t.id = d.id WHEN NOT MATCHED THEN INSERT VALUES (d.id, d.name, NULL, NULL)",
					"MERGE 1"},
				// Column aliases, a plain WITH query before it, references twice.
				{"WITH x AS (SELECT 1 AS k), d (k, label) AS (UPDATE archive SET name = name || '!' WHERE id > (SELECT k FROM x) RETURNING id, name) SELECT d.k, label, (SELECT count(*) FROM d) AS c FROM d, x WHERE d.k > x.k",
					"k:integer\tlabel:text\tc:bigint|9\tz!\t1|SELECT 1"},
				{"SELECT * FROM t ORDER BY id",
					"id:integer\tname:text\tv:numeric(10,2)\td:date|1\tA\t1.50\t2020-01-01|7\tg\tNULL\tNULL|8\th\t10.00\tNULL|SELECT 3"},
				{"SELECT * FROM archive", "id:integer\tname:text|9\tz!|SELECT 1"},
				// MERGE ... RETURNING in WITH (PostgreSQL 17).
				{"WITH m AS (MERGE INTO archive a USING (SELECT 100 AS id) s ON a.id = s.id WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'm') RETURNING a.id, a.name) SELECT * FROM m",
					"id:integer\tname:text|100\tm|SELECT 1"},
			})
		})
	}
}

// TestDMLWithAtomic: an error anywhere in the statement (the outer query,
// a later data-modifying query) leaves every table as it was, outside and
// inside a transaction block.
func TestDMLWithAtomic(t *testing.T) {
	for _, cfg := range dmlConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s, dir := dmlWithSessionDir(t, cfg.props)
			before := tableFiles(t, dir)
			dmlScript(t, s, []struct{ sql, want string }{
				{"WITH d AS (DELETE FROM t WHERE id = 1 RETURNING id) SELECT 1 / (id - id) FROM d", "error (22012): division by zero"},
				{"WITH a AS (INSERT INTO archive VALUES (50, 'x') RETURNING id) UPDATE t SET v = 1 / (t.id - t.id) FROM a", "error (22012): division by zero"},
				{"WITH a AS (INSERT INTO archive VALUES (50, 'x') RETURNING id), d AS (DELETE FROM t WHERE id = 1 / (SELECT id - 50 FROM a) RETURNING id) SELECT * FROM d",
					"error (22012): division by zero"},
				{"SELECT count(*) FROM t", "count:bigint|3|SELECT 1"},
				{"SELECT count(*) FROM archive", "count:bigint|0|SELECT 1"},
			})
			if after := tableFiles(t, dir); strings.Join(after, ",") != strings.Join(before, ",") {
				t.Errorf("files after failed statements:\n%v\nwant\n%v", after, before)
			}
			dmlScript(t, s, []struct{ sql, want string }{
				{"BEGIN", "BEGIN"},
				{"WITH d AS (DELETE FROM t WHERE id = 1 RETURNING id) INSERT INTO archive SELECT id, 'moved' FROM d RETURNING *", "id:integer\tname:text|1\tmoved|INSERT 0 1"},
				{"SELECT id FROM t ORDER BY id", "id:integer|2|3|SELECT 2"},
				{"ROLLBACK", "ROLLBACK"},
				{"SELECT count(*) FROM t", "count:bigint|3|SELECT 1"},
				{"SELECT count(*) FROM archive", "count:bigint|0|SELECT 1"},
				// In a block, a failed statement's writes go and the
				// block's earlier ones stay.
				{"BEGIN", "BEGIN"},
				{"DELETE FROM t WHERE id = 3", "DELETE 1"},
				{"SAVEPOINT s", "SAVEPOINT"},
				{"WITH d AS (DELETE FROM t WHERE id = 1 RETURNING id), a AS (INSERT INTO archive SELECT id, 'x' FROM d RETURNING id) SELECT 1 / (id - id) FROM a",
					"error (22012): division by zero"},
				{"ROLLBACK TO SAVEPOINT s", "ROLLBACK"},
				{"WITH d AS (DELETE FROM t WHERE id = 2 RETURNING id, name) INSERT INTO archive SELECT * FROM d", "INSERT 0 1"},
				{"COMMIT", "COMMIT"},
				{"SELECT id FROM t", "id:integer|1|SELECT 1"},
				{"SELECT * FROM archive", "id:integer\tname:text|2\tb|SELECT 1"},
			})
		})
	}
}

// TestDMLWithSameTable: two statements of one WITH may change different
// rows of one table; the same row twice is an error, and so are two
// changes to one data file where a file takes only one (copy-on-write,
// deletion vectors).
func TestDMLWithSameTable(t *testing.T) {
	for _, cfg := range dmlConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := dmlWithSession(t, cfg.props)
			perFile := !strings.Contains(cfg.name, "v2 merge-on-read")
			// Rows 1 and 3 live in different files.
			dmlScript(t, s, []struct{ sql, want string }{
				{"WITH d AS (DELETE FROM t WHERE id = 1 RETURNING id) UPDATE t SET name = 'x' WHERE id = 3 RETURNING id, name", "id:integer\tname:text|3\tx|UPDATE 1"},
				{"WITH d AS (DELETE FROM t WHERE id = 3 RETURNING id) INSERT INTO t SELECT id + 10, 'again', NULL, NULL FROM d", "INSERT 0 1"},
				{"SELECT id, name FROM t ORDER BY id", "id:integer\tname:text|13\tagain|2\tb|SELECT 2"},
			})
			s = dmlWithSession(t, cfg.props)
			same := "WITH d AS (DELETE FROM t WHERE id = 1 RETURNING id) UPDATE t SET name = 'x' WHERE id = 1"
			got := strings.ReplaceAll(queryOutput(t, s, &datadriven.Case{Input: same}), "\n", "|")
			if !strings.HasPrefix(got, "error (0A000)") {
				t.Errorf("%s: %s, want 0A000", same, got)
			}
			// Rows 1 and 2 share a file.
			sameFile := "WITH d AS (DELETE FROM t WHERE id = 1 RETURNING id) UPDATE t SET name = 'x' WHERE id = 2"
			got = strings.ReplaceAll(queryOutput(t, s, &datadriven.Case{Input: sameFile}), "\n", "|")
			if want := "UPDATE 1"; perFile && !strings.HasPrefix(got, "error (0A000)") || !perFile && got != want {
				t.Errorf("%s: %s (one change per file: %v)", sameFile, got, perFile)
			}
			wantRows := "id:integer\tname:text|1\ta|2\tb|3\tc|SELECT 3"
			if !perFile {
				wantRows = "id:integer\tname:text|2\tx|3\tc|SELECT 2"
			}
			dmlScript(t, s, []struct{ sql, want string }{{"SELECT id, name FROM t ORDER BY id", wantRows}})
		})
	}
}

// TestDMLWithErrors: PostgreSQL's errors for data-modifying WITH queries
// where they may not be, and the tables are left as they were.
func TestDMLWithErrors(t *testing.T) {
	s := dmlWithSession(t, "'format-version'='2'")
	for _, c := range []struct{ sql, want string }{
		{"WITH d AS (DELETE FROM t WHERE id = 1) SELECT * FROM d",
			"error (0A000): WITH query \"d\" does not have a RETURNING clause [position 54]"},
		{"SELECT * FROM (WITH d AS (DELETE FROM t WHERE id = 1 RETURNING *) SELECT * FROM d) x",
			"error (0A000): WITH clause containing a data-modifying statement must be at the top level [position 21]"},
		{"WITH a AS (WITH d AS (DELETE FROM t WHERE id = 1 RETURNING *) DELETE FROM t WHERE id = 2 RETURNING *) SELECT * FROM a",
			"error (0A000): WITH clause containing a data-modifying statement must be at the top level [position 17]"},
		{"WITH RECURSIVE d AS (DELETE FROM t WHERE id IN (SELECT id FROM d) RETURNING *) SELECT * FROM d",
			"error (42P19): recursive query \"d\" must not contain data-modifying statements [position 16]"},
		{"WITH d AS (DELETE FROM nosuch RETURNING *) SELECT * FROM d",
			"error (42P01): relation \"nosuch\" does not exist [position 24]"},
	} {
		if got := queryOutput(t, s, &datadriven.Case{Input: c.sql}); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.sql, got, c.want)
		}
	}
	dmlScript(t, s, []struct{ sql, want string }{
		{"SELECT count(*) FROM t", "count:bigint|3|SELECT 1"},
		// WITH RECURSIVE is fine when the query does not refer to itself.
		{"WITH RECURSIVE d AS (DELETE FROM t WHERE id = 1 RETURNING id, name) SELECT * FROM d", "id:integer\tname:text|1\ta|SELECT 1"},
		// Nested WITH of a plain query inside a data-modifying one.
		{"WITH a AS (WITH k AS (SELECT 2 AS x) DELETE FROM t WHERE id = (SELECT x FROM k) RETURNING id) SELECT * FROM a", "id:integer|2|SELECT 1"},
		{"SELECT id FROM t", "id:integer|3|SELECT 1"},
	})
}

// TestDMLWithRewrittenFile: on merge-on-read format 2, a statement that
// removes most of a data file's rows rewrites the file instead of writing
// a delete file; another statement of the same WITH changing rows of that
// file is refused, before or after the rewrite, and nothing changes.
func TestDMLWithRewrittenFile(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, v int) USING iceberg TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')")
	run(t, s, "INSERT INTO t VALUES (1, 1), (2, 2), (3, 3), (4, 4)")
	for _, sql := range []string{
		// The WITH query rewrites the file, the outer UPDATE deletes from it.
		"WITH d AS (DELETE FROM t WHERE id <= 3 RETURNING id) UPDATE t SET v = 0 WHERE id = 4",
		// The WITH query deletes from the file, the outer DELETE rewrites it.
		"WITH d AS (DELETE FROM t WHERE id = 1 RETURNING id) DELETE FROM t WHERE id >= 2",
	} {
		got := queryOutput(t, s, &datadriven.Case{Input: sql})
		if !strings.HasPrefix(got, "error (0A000): changing rows of one data file") {
			t.Errorf("%s: %s, want 0A000", sql, got)
		}
	}
	dmlScript(t, s, []struct{ sql, want string }{
		{"SELECT id, v FROM t", "id:integer\tv:integer|1\t1|2\t2|3\t3|4\t4|SELECT 4"},
		// One change alone may rewrite the file.
		{"WITH d AS (DELETE FROM t WHERE id <= 3 RETURNING id) SELECT count(*) FROM d", "count:bigint|3|SELECT 1"},
		{"SELECT id, v FROM t", "id:integer\tv:integer|4\t4|SELECT 1"},
	})
}
