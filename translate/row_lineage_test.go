package translate

import (
	"strconv"
	"strings"
	"testing"
)

// TestRowLineageKeptByRewrites: in a format 3 table, rows a statement
// moves to a new data file without changing them keep their _row_id and
// _last_updated_sequence_number (copy-on-write DELETE, UPDATE and MERGE,
// merge-on-read's rewrite past its threshold), as the spec's row lineage
// requires.
func TestRowLineageKeptByRewrites(t *testing.T) {
	cases := []struct {
		name, props, stmt string
		untouched         string // WHERE of the rows the statement leaves alone
		updated           string // the lineage of row 2 after it, when it is updated
	}{
		{"copy-on-write delete", "", "DELETE FROM t WHERE id = 2", "id <> 2", ""},
		{"copy-on-write update", "", "UPDATE t SET v = v + 1 WHERE id = 2", "id <> 2", "2\t1\t3"},
		{"copy-on-write merge", "", "MERGE INTO t USING (VALUES (2, 0), (9, 9)) s(id, v) ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)", "id <> 2 AND id <> 9", "2\t1\t3"},
		{"upsert", "", "INSERT INTO t VALUES (2, 0), (9, 9) ON CONFLICT (id) DO UPDATE SET v = excluded.v", "id <> 2 AND id <> 9", "2\t1\t3"},
		{"merge-on-read rewrite", ", 'write.delete.mode' = 'merge-on-read', 'write.merge-on-read.rewrite-threshold' = '0.1'", "DELETE FROM t WHERE id = 2", "id <> 2", ""},
		{"copy-on-write update, Avro files", ", 'write.format.default' = 'avro'", "UPDATE t SET v = v + 1 WHERE id = 2", "id <> 2", "2\t1\t3"},
		{"merge-on-read update", ", 'write.update.mode' = 'merge-on-read'", "UPDATE t SET v = 0 WHERE id = 2", "id <> 2", "2\t1\t3"},
		{"merge-on-read update past the threshold", ", 'write.update.mode' = 'merge-on-read', 'write.merge-on-read.rewrite-threshold' = '0.1'", "UPDATE t SET v = 0 WHERE id = 2", "id <> 2", "2\t1\t3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _, _ := newWriteSession(t)
			run(t, s, "CREATE TABLE t (id int, v int) TBLPROPERTIES ('format-version' = '3'"+c.props+")")
			run(t, s, "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
			run(t, s, "INSERT INTO t VALUES (4, 40)")
			lineage := func(where string) string {
				return strings.Join(queryRows(t, s, "SELECT id, _row_id, _last_updated_sequence_number FROM t WHERE "+where+" ORDER BY id"), ";")
			}
			before := lineage(c.untouched)
			if before != "1\t0\t1;3\t2\t1;4\t3\t2" {
				t.Fatalf("lineage after the inserts: %s", before)
			}
			run(t, s, c.stmt)
			if after := lineage(c.untouched); after != before {
				t.Errorf("untouched rows' lineage: %s, was %s", after, before)
			}
			if c.updated != "" {
				if got := lineage("id = 2"); got != c.updated {
					t.Errorf("updated row's lineage: %s, want %s (its row id, the new sequence number)", got, c.updated)
				}
			}
		})
	}
}

// TestRowLineageInBlock: a block's statements see row ids of rows its own
// earlier statements added, which are not final until COMMIT assigns
// them; rows moved from such files must not carry those ids, or two rows
// could share one. Rows of committed files keep theirs.
func TestRowLineageInBlock(t *testing.T) {
	seqs := [][]string{
		{"INSERT INTO t VALUES (4, 40)", "INSERT INTO t VALUES (5, 50), (6, 60)", "UPDATE t SET v = 0 WHERE id IN (2, 4)"},
		{"INSERT INTO t VALUES (4, 40)", "INSERT INTO t VALUES (5, 50), (6, 60)", "UPDATE t SET v = 0 WHERE id IN (2, 4)", "DELETE FROM t WHERE id = 5"},
		{"UPDATE t SET v = 1 WHERE id = 2", "INSERT INTO t VALUES (4, 40)", "UPDATE t SET v = 0 WHERE id IN (2, 4)"},
	}
	for _, mode := range []string{"copy-on-write", "merge-on-read"} {
		for k, seq := range seqs {
			t.Run(mode+"/"+strconv.Itoa(k), func(t *testing.T) {
				s, _, _ := newWriteSession(t)
				run(t, s, "CREATE TABLE t (id int, v int) TBLPROPERTIES ('format-version' = '3', 'write.update.mode' = '"+mode+"', 'write.delete.mode' = '"+mode+"')")
				run(t, s, "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
				run(t, s, "BEGIN")
				for _, q := range seq {
					run(t, s, q)
				}
				run(t, s, "COMMIT")
				if dup := queryRows(t, s, "SELECT _row_id FROM t GROUP BY _row_id HAVING count(*) > 1"); len(dup) > 0 {
					t.Errorf("row ids shared by rows: %v\n%v", dup, queryRows(t, s, "SELECT id, _row_id, _last_updated_sequence_number FROM t ORDER BY id"))
				}
				if got := strings.Join(queryRows(t, s, "SELECT id, _row_id, _last_updated_sequence_number FROM t WHERE id <= 3 ORDER BY id"), ";"); got != "1\t0\t1;2\t1\t2;3\t2\t1" {
					t.Errorf("lineage of the committed rows: %s", got)
				}
			})
		}
	}
}
