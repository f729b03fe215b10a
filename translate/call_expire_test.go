package translate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
)

// expireColumns is the header of expire_snapshots' result.
const expireColumns = "deleted_data_files_count:bigint\tdeleted_position_delete_files_count:bigint\t" +
	"deleted_equality_delete_files_count:bigint\tdeleted_manifest_files_count:bigint\t" +
	"deleted_manifest_lists_count:bigint\tdeleted_statistics_files_count:bigint"

// filesUnder lists the files under a table's directory (relative paths),
// write records left out.
func filesUnder(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".icegate-writes-") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCallExpireSnapshots: the seed's expire_snapshots with retain_last 3
// leaves three snapshots; the files only the expired ones reached are gone
// from disk, the rows are the same, and time travel to an expired one is
// 22023 naming the oldest left.
func TestCallExpireSnapshots(t *testing.T) {
	s, _, dir := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int) TBLPROPERTIES ('write.delete.mode' = 'copy-on-write')")
	for i := 1; i <= 5; i++ {
		run(t, s, fmt.Sprintf("INSERT INTO t VALUES (%d), (%d)", i, i+10))
	}
	run(t, s, "DELETE FROM t WHERE id = 1") // rewrites the first file
	ids := snapshotIDs(t, s, "t")
	tdir := filepath.Join(dir, "public", "t")
	before := filesUnder(t, tdir)
	got := callOutput(t, s, "CALL system.expire_snapshots(table => 't', older_than => now(), retain_last => 3)")
	// Expired: the first three snapshots. Their files are all in the
	// three left (the DELETE's rewrite of the first file is the last), so
	// only their manifest lists go.
	if want := expireColumns + "\n0\t0\t0\t0\t3\t0\nCALL"; got != want {
		t.Errorf("expire_snapshots:\n%s\nwant\n%s", got, want)
	}
	for _, q := range []string{`SELECT count(*) FROM "t$snapshots"`, "SELECT count(*) FROM public.t.snapshots", "SELECT count(*) FROM t.history"} {
		if got := strings.Join(queryRows(t, s, q), ","); got != "3" {
			t.Errorf("%s: %s, want 3", q, got)
		}
	}
	if got := strings.Join(queryRows(t, s, "SELECT id FROM t ORDER BY id"), ","); got != "2,3,4,5,11,12,13,14,15" {
		t.Errorf("rows %s", got)
	}
	wantGone := func(what string, n int, before map[string]bool) map[string]bool {
		t.Helper()
		after := filesUnder(t, tdir)
		var gone []string
		for f := range before {
			if !after[f] && !strings.HasSuffix(f, ".metadata.json") {
				gone = append(gone, f)
			}
		}
		if len(gone) != n {
			t.Errorf("%s: files gone: %v, want %d besides metadata files", what, gone, n)
		}
		return after
	}
	before = wantGone("retain_last 3", 3, before)
	got = statementOutput(s, "SELECT count(*) FROM t VERSION AS OF "+ids[0])
	if !strings.HasPrefix(got, "error (22023)") || !strings.Contains(got, "the oldest snapshot left is "+ids[3]) {
		t.Errorf("time travel to an expired snapshot: %s", got)
	}
	if got := strings.Join(queryRows(t, s, "SELECT count(*) FROM t VERSION AS OF "+ids[3]), ","); got != "8" {
		t.Errorf("oldest snapshot left: %s rows, want 8", got)
	}
	// By id, inside retain_last.
	got = callOutput(t, s, "CALL system.expire_snapshots(table => 't', snapshot_ids => array("+ids[3]+"), retain_last => 10)")
	if want := expireColumns + "\n0\t0\t0\t0\t1\t0\nCALL"; got != want {
		t.Errorf("by id:\n%s\nwant\n%s", got, want)
	}
	before = wantGone("by id", 1, before)
	// Down to the head: the first file, which the DELETE rewrote, and the
	// manifest that listed it go now.
	got = callOutput(t, s, "CALL system.expire_snapshots('t', now(), 1)")
	if want := expireColumns + "\n1\t0\t0\t1\t1\t0\nCALL"; got != want {
		t.Errorf("retain_last 1:\n%s\nwant\n%s", got, want)
	}
	wantGone("retain_last 1", 3, before)
	if got := strings.Join(queryRows(t, s, "SELECT id FROM t ORDER BY id"), ","); got != "2,3,4,5,11,12,13,14,15" {
		t.Errorf("rows %s", got)
	}
	// Again: nothing left to expire.
	if got := callOutput(t, s, "CALL system.expire_snapshots('t', now(), 3)"); got != expireColumns+"\n0\t0\t0\t0\t0\t0\nCALL" {
		t.Errorf("second expiration:\n%s", got)
	}
	// By id (positional snapshot_ids through array()), and refusals.
	for q, want := range map[string]string{
		"CALL system.expire_snapshots(table => 't', snapshot_ids => array(" + ids[5] + "))":                  "error (22023): cannot expire snapshot " + ids[5] + `: it is the head of branch "main"`,
		"CALL system.expire_snapshots(table => 't', retain_last => 0)":                                       "error (22023): retain_last must be at least 1, not 0",
		"CALL system.expire_snapshots(table => 't', max_concurrent_deletes => 0)":                            "error (22023): max_concurrent_deletes must be above 0, not 0",
		"CALL system.expire_snapshots(table => 'nope')":                                                      `error (42P01): relation "nope" does not exist`,
		"CALL system.expire_snapshots(table => 't', snapshot_ids => array(42))":                              "error (22023): table has no snapshot 42 to expire",
		"CALL system.expire_snapshots(table => 't', stream_results => true, clean_expired_metadata => true)": expireColumns + "\n0\t0\t0\t0\t0\t0\nCALL",
	} {
		if got := callOutput(t, s, q); !strings.HasPrefix(got, want) {
			t.Errorf("%s:\n%s\nwant\n%s", q, got, want)
		}
	}
	// Trino's form.
	run(t, s, "INSERT INTO t VALUES (99)")
	if got := statementOutput(s, "ALTER TABLE t EXECUTE expire_snapshots(retention_threshold => '0s')"); got != "ALTER TABLE" {
		t.Errorf("Trino's expire_snapshots: %s", got)
	}
	if got := strings.Join(queryRows(t, s, `SELECT count(*) FROM "t$snapshots"`), ","); got != "1" {
		t.Errorf("after Trino's expire_snapshots: %s snapshots", got)
	}
}

// TestCallRemoveOrphanFiles: an old file no snapshot reaches is listed by
// a dry run and removed by a real one; a young one and the table's own
// files stay; a location outside the table is 22023.
func TestCallRemoveOrphanFiles(t *testing.T) {
	s, _, dir := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int)")
	run(t, s, "INSERT INTO t VALUES (1), (2)")
	tdir := filepath.Join(dir, "public", "t")
	old := filepath.Join(tdir, "data", "lost.parquet")
	young := filepath.Join(tdir, "data", "young.parquet")
	for _, p := range []string{old, young} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-96 * time.Hour)
	os.Chtimes(old, long, long)
	loc := strings.Join(queryRows(t, s, `SELECT value FROM "t$properties" WHERE key = 'location'`), "")
	_ = loc
	got := callOutput(t, s, "CALL system.remove_orphan_files(table => 't', dry_run => true)")
	if !strings.HasPrefix(got, "orphan_file_location:text\n") || !strings.Contains(got, "/data/lost.parquet\nCALL") || strings.Contains(got, "young") {
		t.Errorf("dry run:\n%s", got)
	}
	if _, err := os.Stat(old); err != nil {
		t.Errorf("dry run removed the file: %v", err)
	}
	got = callOutput(t, s, "CALL system.remove_orphan_files('t')")
	if !strings.Contains(got, "/data/lost.parquet\nCALL") {
		t.Errorf("remove:\n%s", got)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("old orphan kept: %v", err)
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("young orphan removed: %v", err)
	}
	got = callOutput(t, s, "CALL system.remove_orphan_files(table => 't', older_than => now() + interval '1 minute', location => '"+filepath.Join(tdir, "data")+"')")
	if !strings.Contains(got, "/data/young.parquet\nCALL") {
		t.Errorf("with location:\n%s", got)
	}
	if got := strings.Join(queryRows(t, s, "SELECT id FROM t ORDER BY id"), ","); got != "1,2" {
		t.Errorf("rows %s", got)
	}
	for q, want := range map[string]string{
		"CALL system.remove_orphan_files(table => 't', location => '" + dir + "')":                                           "error (22023): location",
		"CALL system.remove_orphan_files(table => 't', location => '/etc')":                                                  "error (22023): location",
		"CALL system.remove_orphan_files(table => 't', file_list_view => 'v')":                                               "error (0A000)",
		"CALL system.remove_orphan_files(table => 't', prefix_mismatch_mode => 'x')":                                         "error (22023)",
		"CALL system.remove_orphan_files(table => 't', max_concurrent_deletes => -1)":                                        "error (22023)",
		"CALL system.remove_orphan_files(table => 't', prefix_mismatch_mode => 'IGNORE', equal_schemes => map('s3a', 's3'))": "orphan_file_location:text\nCALL",
	} {
		if got := callOutput(t, s, q); !strings.HasPrefix(got, want) {
			t.Errorf("%s:\n%s\nwant %s", q, got, want)
		}
	}
}

// newSessions opens n sessions of one backend over a fresh warehouse.
func newSessions(t *testing.T, n int) ([]*session, *catalog.Filesystem) {
	t.Helper()
	cat, err := catalog.NewFilesystem("icegate", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBackend(cat, Options{})
	var out []*session
	for range n {
		s, err := b.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s.(*session))
	}
	return out, cat
}

// TestRemoveOrphanFilesDuringWriters: remove_orphan_files with
// older_than => now(), run again and again while four sessions INSERT,
// removes nothing they commit (nor anything they are about to commit):
// every row committed reads back.
func TestRemoveOrphanFilesDuringWriters(t *testing.T) {
	const writers, inserts = 4, 12
	ss, _ := newSessions(t, writers+1)
	run(t, ss[0], "CREATE TABLE t (w int, i int)")
	var wg sync.WaitGroup
	errs := make(chan string, writers*inserts+1000)
	done := make(chan struct{})
	committed := make([]int, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range inserts {
				out := statementOutput(ss[w+1], fmt.Sprintf("INSERT INTO t VALUES (%d, %d), (%d, %d)", w, i, w, i+100))
				switch {
				case out == "INSERT 0 2":
					committed[w]++
				case strings.HasPrefix(out, "error (40001)"):
					// a lost race the writer gave up on: nothing committed
				default:
					errs <- fmt.Sprintf("writer %d: %s", w, out)
				}
			}
		}()
	}
	runs := 0
	go func() {
		defer close(done)
		for {
			out := statementOutput(ss[0], "CALL system.remove_orphan_files(table => 't', older_than => now())")
			runs++
			if strings.HasPrefix(out, "error") {
				errs <- "remove_orphan_files: " + out
				<-stop(&wg)
				return
			} else if strings.Contains(out, "/data/") || strings.Contains(out, ".avro") {
				errs <- "remove_orphan_files removed a writer's file: " + out
				<-stop(&wg)
				return
			}
			select {
			case <-stop(&wg):
				return
			default:
			}
		}
	}()
	wg.Wait()
	<-done
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	total := 0
	for _, n := range committed {
		total += n
	}
	if total == 0 {
		t.Fatal("no insert committed")
	}
	want := fmt.Sprint(2 * total)
	if got := strings.Join(queryRows(t, ss[0], "SELECT count(*) FROM t"), ","); got != want {
		t.Errorf("%s rows read back, want %s", got, want)
	}
	t.Logf("%d inserts committed during %d runs of remove_orphan_files", total, runs)
}

// stop is a channel closed once wg's goroutines are done.
func stop(wg *sync.WaitGroup) <-chan struct{} {
	c := make(chan struct{})
	go func() { wg.Wait(); close(c) }()
	return c
}

// TestExpireDuringReaders: readers of old snapshots (by id and the head of
// the moment) while expire_snapshots removes them and their files either
// finish or get a clear error: 22023 (the snapshot is gone) or 58P01 (a
// file of it is), never an internal error.
func TestExpireDuringReaders(t *testing.T) {
	const readers = 4
	ss, _ := newSessions(t, readers+1)
	w := ss[0]
	run(t, w, "CREATE TABLE t (id int) TBLPROPERTIES ('write.delete.mode' = 'copy-on-write', 'write.update.mode' = 'copy-on-write')")
	for i := range 8 {
		run(t, w, fmt.Sprintf("INSERT INTO t VALUES (%d), (%d)", i, i+100))
	}
	for i := range 6 {
		run(t, w, fmt.Sprintf("UPDATE t SET id = id + 1000 WHERE id = %d", i))
	}
	ids := snapshotIDs(t, w, "t")
	var wg sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[string]int{}
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r == 0 {
				return // ss[1] holds the cursor below
			}
			for i := range 30 {
				q := "SELECT count(*), sum(id) FROM t VERSION AS OF " + ids[(r*7+i)%len(ids)]
				if i%3 == 0 {
					q = "SELECT count(*) FROM t"
				}
				out := statementOutput(ss[r+1], q)
				kind := "ok"
				if strings.HasPrefix(out, "error") {
					kind = out[:len("error (XXXXX)")]
					if kind != "error (22023)" && kind != "error (58P01)" {
						t.Errorf("%s: %s", q, out)
					}
				}
				mu.Lock()
				outcomes[kind]++
				mu.Unlock()
			}
		}()
	}
	// A cursor over the oldest snapshot, opened before the expiration and
	// read after it.
	cur := ss[1]
	run(t, cur, "BEGIN")
	run(t, cur, "DECLARE c CURSOR FOR SELECT id FROM t VERSION AS OF "+ids[0])
	if got := callOutput(t, cur, "FETCH 1 FROM c"); !strings.HasSuffix(got, "FETCH 1") {
		t.Fatalf("FETCH before: %s", got)
	}
	time.Sleep(5 * time.Millisecond)
	got := callOutput(t, w, "CALL system.expire_snapshots(table => 't', older_than => now(), retain_last => 1)")
	wg.Wait()
	after := callOutput(t, cur, "FETCH ALL FROM c")
	if strings.HasPrefix(after, "error") && !strings.HasPrefix(after, "error (58P01)") {
		t.Errorf("cursor read after the expiration: %s", after)
	}
	t.Logf("cursor after the expiration: %.80s", after)
	statementOutput(cur, "ROLLBACK")
	if !strings.HasPrefix(got, expireColumns) {
		t.Errorf("expire_snapshots: %s", got)
	}
	if got := strings.Join(queryRows(t, w, "SELECT count(*) FROM t"), ","); got != "16" {
		t.Errorf("%s rows after, want 16", got)
	}
	t.Logf("reader outcomes: %v", outcomes)
}
