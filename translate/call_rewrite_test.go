package translate

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// count runs a query of one integer.
func count(t *testing.T, s *session, sql string) int {
	t.Helper()
	rows := queryRows(t, s, sql)
	if len(rows) != 1 {
		t.Fatalf("%s: %v", sql, rows)
	}
	n, err := strconv.Atoi(rows[0])
	if err != nil {
		t.Fatalf("%s: %v", sql, rows)
	}
	return n
}

// TestRewriteDataFilesSeed follows seed 004: small files of two partition
// specs (months, then years) become one file per partition of the current
// spec, the rows unchanged.
func TestRewriteDataFilesSeed(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, `CREATE TABLE orders (order_id bigint, amount double precision, order_time timestamp, status text)
		USING iceberg PARTITIONED BY (months(order_time))`)
	for i := range 11 {
		run(t, s, fmt.Sprintf("INSERT INTO orders VALUES (%d, %d.5, TIMESTAMP '2024-0%d-15 10:00:00', 'completed')", 1000+i, i, i%6+1))
	}
	run(t, s, "ALTER TABLE orders REPLACE PARTITION FIELD months(order_time) WITH years(order_time)")
	for i := range 10 {
		run(t, s, fmt.Sprintf("INSERT INTO orders VALUES (%d, %d.9, TIMESTAMP '2024-07-0%d 10:00:00', 'completed')", 1060+i, i, i%9+1))
	}
	before := queryRows(t, s, "SELECT * FROM orders ORDER BY order_id")
	if n := count(t, s, `SELECT count(*) FROM "orders$files"`); n != 21 {
		t.Fatalf("%d files before, want 21", n)
	}
	got := callOutput(t, s, "CALL system.rewrite_data_files(table => 'orders', options => map('target-file-size-bytes', '134217728'))")
	want := "rewritten_data_files_count:integer\tadded_data_files_count:integer\trewritten_bytes_count:bigint\tfailed_data_files_count:integer\tremoved_delete_files_count:integer\n21\t2\t"
	if !strings.HasPrefix(got, want) {
		t.Fatalf("got:\n%s\nwant prefix:\n%s", got, want)
	}
	if n := count(t, s, `SELECT count(*) FROM "orders$files"`); n != 2 {
		t.Fatalf("%d files after, want 2", n)
	}
	if n := count(t, s, `SELECT count(DISTINCT spec_id) FROM "orders$files"`); n != 1 {
		t.Fatalf("files of %d specs after, want 1", n)
	}
	if after := queryRows(t, s, "SELECT * FROM orders ORDER BY order_id"); !slices.Equal(after, before) {
		t.Fatalf("rows changed:\n%v\n%v", after, before)
	}
	if op := queryRows(t, s, `SELECT operation FROM "orders$snapshots" ORDER BY committed_at DESC LIMIT 1`); op[0] != "replace" {
		t.Fatalf("operation %v", op)
	}
}

// TestRewriteDataFilesDeletes: rows deleted merge-on-read stay deleted and
// their delete files go.
func TestRewriteDataFilesDeletes(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, `CREATE TABLE t (id int, name text) TBLPROPERTIES ('write.delete.mode' = 'merge-on-read', 'format-version' = '2')`)
	for i := range 6 {
		run(t, s, fmt.Sprintf("INSERT INTO t SELECT g, 'n' || g FROM generate_series(%d, %d) g", i*10, i*10+9))
	}
	run(t, s, "DELETE FROM t WHERE id % 7 = 0")
	before := queryRows(t, s, "SELECT * FROM t ORDER BY id")
	if n := count(t, s, `SELECT count(*) FROM "t$delete_files"`); n == 0 {
		t.Fatal("no delete files")
	}
	got := callOutput(t, s, "CALL system.rewrite_data_files('t')")
	if !strings.Contains(got, "\n6\t1\t") {
		t.Fatalf("got:\n%s", got)
	}
	if n := count(t, s, `SELECT count(*) FROM "t$delete_files"`); n != 0 {
		t.Fatalf("%d delete files after", n)
	}
	if after := queryRows(t, s, "SELECT * FROM t ORDER BY id"); !slices.Equal(after, before) {
		t.Fatal("rows changed")
	}
}

// TestRewriteDataFilesArguments: strategies, sort orders, where and options,
// and their errors.
func TestRewriteDataFilesArguments(t *testing.T) {
	cases := []struct {
		name, call string
		want       string // a prefix of the output
		files      int    // data files after
	}{
		{"defaults", "CALL system.rewrite_data_files('t')", "rewritten_data_files_count:integer", 1},
		{"min-input-files", "CALL system.rewrite_data_files('t', options => map('min-input-files', '7'))", "rewritten_data_files_count:integer\tadded_data_files_count:integer\trewritten_bytes_count:bigint\tfailed_data_files_count:integer\tremoved_delete_files_count:integer\n0\t0\t0\t0\t0", 6},
		{"sort", "CALL system.rewrite_data_files(table => 't', strategy => 'sort', sort_order => 'id DESC NULLS LAST')", "rewritten", 1},
		{"zorder", "CALL system.rewrite_data_files(table => 't', sort_order => 'zorder(id, name)')", "rewritten", 1},
		{"where", "CALL system.rewrite_data_files(table => 't', \"where\" => 'id < 20 AND name IS NOT NULL', options => map('rewrite-all', 'true'))", "rewritten_data_files_count:integer\tadded_data_files_count:integer\trewritten_bytes_count:bigint\tfailed_data_files_count:integer\tremoved_delete_files_count:integer\n2\t1\t", 5},
		{"where, keyword name", "CALL system.rewrite_data_files(table => 't', where => 'id >= 50', options => map('rewrite-all', 'true'))", "rewritten_data_files_count:integer\tadded_data_files_count:integer\trewritten_bytes_count:bigint\tfailed_data_files_count:integer\tremoved_delete_files_count:integer\n1\t1\t", 6},
		{"where matches nothing", "CALL system.rewrite_data_files(table => 't', where => 'id > 1000')", "rewritten_data_files_count:integer\tadded_data_files_count:integer\trewritten_bytes_count:bigint\tfailed_data_files_count:integer\tremoved_delete_files_count:integer\n0\t", 6},
		{"where, expression", "CALL system.rewrite_data_files(table => 't', where => 'id + 1 < 20')", "error (0A000)", 6},
		{"where, unknown column", "CALL system.rewrite_data_files(table => 't', where => 'nope < 20')", "error (42703)", 6},
		{"where, two statements", "CALL system.rewrite_data_files(table => 't', where => 'true; DROP TABLE t')", "error (42601)", 6},
		{"unknown strategy", "CALL system.rewrite_data_files(table => 't', strategy => 'magic')", "error (22023): rewrite_data_files: unsupported strategy", 6},
		{"binpack with an order", "CALL system.rewrite_data_files(table => 't', strategy => 'binpack', sort_order => 'id')", "error (22023)", 6},
		{"sort without an order", "CALL system.rewrite_data_files(table => 't', strategy => 'sort')", "error (22023): rewrite_data_files: cannot sort table t, which has no sort order", 6},
		{"bad sort order", "CALL system.rewrite_data_files(table => 't', sort_order => 'nope')", "error (42703)", 6},
		{"unknown option", "CALL system.rewrite_data_files(table => 't', options => map('nope', '1'))", `error (22023): unknown option for rewrite_data_files: "nope"`, 6},
		{"bad option", "CALL system.rewrite_data_files(table => 't', options => map('min-input-files', 'x'))", "error (22023): invalid value for option min-input-files", 6},
		{"missing table", "CALL system.rewrite_data_files('nope')", `error (42P01)`, 6},
		{"trino optimize", "ALTER TABLE t EXECUTE optimize", "NOTICE: rewrite_data_files: rewriting group 1 of 1 (6 files", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _, _ := newWriteSession(t)
			run(t, s, "CREATE TABLE t (id int, name text)")
			for i := range 6 {
				run(t, s, fmt.Sprintf("INSERT INTO t SELECT g, 'n' || g FROM generate_series(%d, %d) g", i*10, i*10+9))
			}
			before := queryRows(t, s, "SELECT * FROM t ORDER BY id")
			if got := statementOrCall(t, s, c.call); !strings.HasPrefix(got, c.want) {
				t.Fatalf("got:\n%s\nwant prefix:\n%s", got, c.want)
			}
			if n := count(t, s, `SELECT count(*) FROM "t$files"`); n != c.files {
				t.Fatalf("%d files after, want %d", n, c.files)
			}
			if after := queryRows(t, s, "SELECT * FROM t ORDER BY id"); !slices.Equal(after, before) {
				t.Fatal("rows changed")
			}
		})
	}
}

func statementOrCall(t *testing.T, s *session, sql string) string {
	t.Helper()
	if strings.HasPrefix(sql, "ALTER") {
		return statementOutput(s, sql)
	}
	return callOutput(t, s, sql)
}

// TestRewriteDataFilesSortedOrder: the sort strategy writes the rows in
// the order asked.
func TestRewriteDataFilesSortedOrder(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, name text)")
	for i := range 5 {
		run(t, s, fmt.Sprintf("INSERT INTO t SELECT g, 'n' || g FROM generate_series(%d, %d) g", i*10, i*10+9))
	}
	run(t, s, "CALL system.rewrite_data_files(table => 't', sort_order => 'id DESC')")
	got := queryRows(t, s, "SELECT id FROM t LIMIT 3")
	if strings.Join(got, ",") != "49,48,47" {
		t.Fatalf("first rows %v, want 49,48,47", got)
	}
}

// TestRewriteWherePartitions: a where condition on the source column of a
// partition transform selects the files of the matching partitions.
func TestRewriteWherePartitions(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, ts timestamp) USING iceberg PARTITIONED BY (months(ts))")
	for i := range 12 {
		run(t, s, fmt.Sprintf("INSERT INTO t VALUES (%d, TIMESTAMP '2024-0%d-10 08:00:00')", i, i%3+1))
	}
	before := queryRows(t, s, "SELECT * FROM t ORDER BY id")
	got := callOutput(t, s, `CALL system.rewrite_data_files(table => 't', where => 'ts >= TIMESTAMP ''2024-02-01 00:00:00''', options => map('min-input-files', '2'))`)
	if !strings.Contains(got, "\n8\t2\t") {
		t.Fatalf("got:\n%s\nwant the 8 files of February and March into 2", got)
	}
	if n := count(t, s, `SELECT count(*) FROM "t$files"`); n != 6 {
		t.Fatalf("%d files after, want January's 4 and 2", n)
	}
	if after := queryRows(t, s, "SELECT * FROM t ORDER BY id"); !slices.Equal(after, before) {
		t.Fatal("rows changed")
	}
}

// TestRewriteSortByTableOrder: strategy sort without sort_order sorts by
// the table's write order.
func TestRewriteSortByTableOrder(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, name text)")
	for i := range 5 {
		run(t, s, fmt.Sprintf("INSERT INTO t SELECT g, 'n' || g FROM generate_series(%d, %d) g", i*10, i*10+9))
	}
	run(t, s, "ALTER TABLE t WRITE ORDERED BY id DESC")
	run(t, s, "CALL system.rewrite_data_files(table => 't', strategy => 'sort')")
	if got := queryRows(t, s, "SELECT id FROM t LIMIT 3"); strings.Join(got, ",") != "49,48,47" {
		t.Fatalf("first rows %v, want 49,48,47", got)
	}
}

func TestRewriteZOrderIdentityPartition(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, part int) USING iceberg PARTITIONED BY (part)")
	got := callOutput(t, s, "CALL system.rewrite_data_files(table => 't', sort_order => 'zorder(id, part)')")
	if want := "error (22023): rewrite_data_files: cannot z-order by part, an identity partition column"; !strings.HasPrefix(got, want) {
		t.Fatalf("got:\n%s", got)
	}
}

func TestRewriteManifestsProcedure(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, part int) USING iceberg PARTITIONED BY (part)")
	for i := range 5 {
		run(t, s, fmt.Sprintf("INSERT INTO t VALUES (%d, %d)", i, i%2))
	}
	before := queryRows(t, s, "SELECT * FROM t ORDER BY id")
	if n := count(t, s, `SELECT count(*) FROM "t$manifests"`); n != 5 {
		t.Fatalf("%d manifests before", n)
	}
	got := callOutput(t, s, "CALL system.rewrite_manifests('t')")
	if want := "rewritten_manifests_count:integer\tadded_manifests_count:integer\n5\t1\nCALL"; !strings.HasPrefix(got, want) {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if n := count(t, s, `SELECT count(*) FROM "t$manifests"`); n != 1 {
		t.Fatalf("%d manifests after", n)
	}
	if after := queryRows(t, s, "SELECT * FROM t ORDER BY id"); !slices.Equal(after, before) {
		t.Fatal("rows changed")
	}
	if got := callOutput(t, s, "CALL system.rewrite_manifests(table => 't', use_caching => false)"); !strings.Contains(got, "\n0\t0\n") {
		t.Fatalf("second run:\n%s", got)
	}
	if got := callOutput(t, s, "CALL system.rewrite_manifests(table => 't', spec_id => 9)"); !strings.HasPrefix(got, "error (22023)") {
		t.Fatalf("unknown spec:\n%s", got)
	}
}

func TestRewritePositionDeleteFilesProcedure(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, `CREATE TABLE t (id int, name text) TBLPROPERTIES ('write.delete.mode' = 'merge-on-read', 'format-version' = '2')`)
	run(t, s, "INSERT INTO t SELECT g, 'n' || g FROM generate_series(1, 100) g")
	for i := range 5 {
		run(t, s, fmt.Sprintf("DELETE FROM t WHERE id = %d", i*10+1))
	}
	before := queryRows(t, s, "SELECT * FROM t ORDER BY id")
	got := callOutput(t, s, "CALL system.rewrite_position_delete_files('t')")
	if want := "rewritten_delete_files_count:integer\tadded_delete_files_count:integer\trewritten_bytes_count:bigint\tadded_bytes_count:bigint\n5\t1\t"; !strings.HasPrefix(got, want) {
		t.Fatalf("got:\n%s\nwant prefix:\n%s", got, want)
	}
	if n := count(t, s, `SELECT count(*) FROM "t$delete_files"`); n != 1 {
		t.Fatalf("%d delete files after", n)
	}
	if after := queryRows(t, s, "SELECT * FROM t ORDER BY id"); !slices.Equal(after, before) {
		t.Fatal("rows changed")
	}
}

// TestRewriteRacingDelete runs rewrite_data_files and DELETEs at once from
// two sessions. Each statement either commits or fails with 40001; a row a
// committed DELETE removed never comes back, and no other row is lost.
func TestRewriteRacingDelete(t *testing.T) {
	for _, mode := range []string{"copy-on-write", "merge-on-read"} {
		t.Run(mode, func(t *testing.T) {
			s, _, _ := newWriteSession(t)
			run(t, s, fmt.Sprintf(`CREATE TABLE t (id int, name text) TBLPROPERTIES ('write.delete.mode' = '%s', 'format-version' = '2')`, mode))
			const n = 200
			for i := range 8 {
				run(t, s, fmt.Sprintf("INSERT INTO t SELECT g, 'n' || g FROM generate_series(%d, %d) g", i*n/8, (i+1)*n/8-1))
			}
			other, err := s.backend.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
			if err != nil {
				t.Fatal(err)
			}
			deleter := other.(*session)
			var wg sync.WaitGroup
			var deleted []int
			var deleteErr error
			wg.Add(1)
			go func() {
				defer wg.Done()
				for id := 0; id < n; id += 9 {
					for {
						out := statementOutput(deleter, fmt.Sprintf("DELETE FROM t WHERE id = %d", id))
						if out == "DELETE 1" {
							deleted = append(deleted, id)
							break
						}
						if !strings.HasPrefix(out, "error (40001)") {
							deleteErr = fmt.Errorf("DELETE id %d: %s", id, out)
							return
						}
					}
				}
			}()
			rewrites, conflicts := 0, 0
			for i := range 12 {
				out := callOutput(t, s, "CALL system.rewrite_data_files(table => 't', options => map('rewrite-all', 'true'))")
				switch {
				case strings.HasPrefix(out, "rewritten"):
					rewrites++
				case strings.HasPrefix(out, "error (40001)"):
					conflicts++
				default:
					t.Errorf("rewrite: %s", out)
				}
				// Appends keep giving the rewrite something to do.
				run(t, s, fmt.Sprintf("INSERT INTO t VALUES (%d, 'x')", n+i))
			}
			wg.Wait()
			if deleteErr != nil {
				t.Fatal(deleteErr)
			}
			gone := map[int]bool{}
			for _, id := range deleted {
				gone[id] = true
			}
			var want []string
			for id := range n + 12 {
				if !gone[id] {
					want = append(want, strconv.Itoa(id))
				}
			}
			if got := queryRows(t, s, "SELECT id FROM t ORDER BY id"); !slices.Equal(got, want) {
				t.Fatalf("rows after %d rewrites (%d conflicts) and %d deletes:\n%v\nwant\n%v", rewrites, conflicts, len(deleted), got, want)
			}
			t.Logf("%d rewrites committed, %d failed with 40001; %d deletes", rewrites, conflicts, len(deleted))
		})
	}
}
