package translate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// syncRecorder is a catalog.Syncer that syncs for real and records each
// call: "file <path>" or "dir <path>".
type syncRecorder struct {
	mu     sync.Mutex
	events []string
}

func (r *syncRecorder) SyncFile(f *os.File) error {
	r.mu.Lock()
	r.events = append(r.events, "file "+f.Name())
	r.mu.Unlock()
	return f.Sync()
}

func (r *syncRecorder) SyncDir(dir string) error {
	r.mu.Lock()
	r.events = append(r.events, "dir "+dir)
	r.mu.Unlock()
	return catalog.OSSyncer{}.SyncDir(dir)
}

func (r *syncRecorder) index(event string) int {
	for i, e := range r.events {
		if e == event {
			return i
		}
	}
	return -1
}

// TestCommitDurability: every file a statement's commit references (data
// files, delete files, Puffin deletion vectors, manifests, the manifest
// list) is synced, and its directory, before the metadata file that
// commits it is written; the metadata file's directory is synced once it
// is linked and the version hint replaced, before the statement returns.
// New partition directories are synced into their parents.
func TestCommitDurability(t *testing.T) {
	for _, format := range []string{"2", "3"} {
		t.Run("v"+format, func(t *testing.T) {
			dir := t.TempDir()
			cat, err := catalog.NewFilesystem("icegate", dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &syncRecorder{}
			cat.SetSyncer(rec)
			be, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
			if err != nil {
				t.Fatal(err)
			}
			s := be.(*session)
			for _, q := range []string{"CREATE SCHEMA ns", "CREATE TABLE ns.t (a int, b text) PARTITIONED BY (b)",
				`ALTER TABLE ns.t SET ("format-version" = '` + format + `', "write.delete.mode" = 'merge-on-read')`} {
				if err := runAll(s, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			table := filepath.Join(dir, "ns", "t")
			metaDir := filepath.Join(table, "metadata")
			for _, d := range []string{"dir " + dir, "dir " + filepath.Join(dir, "ns"), "dir " + table, "dir " + metaDir} {
				if rec.index(d) < 0 {
					t.Errorf("CREATE SCHEMA / TABLE did not sync %s: %v", d, rec.events)
				}
			}
			for _, q := range []string{"INSERT INTO ns.t VALUES (1, 'x'), (2, 'y'), (3, 'y')", "DELETE FROM ns.t WHERE a = 3"} {
				rec.events = nil
				if err := runAll(s, q); err != nil {
					t.Fatal(err)
				}
				checkCommitSynced(t, cat, rec, metaDir, q)
			}
		})
	}
}

// checkCommitSynced checks the syncs of the commit of statement q, the
// table's current snapshot.
func checkCommitSynced(t *testing.T, cat *catalog.Filesystem, rec *syncRecorder, metaDir, q string) {
	t.Helper()
	ctx := context.Background()
	tbl, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"ns"}, Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	snap := tbl.Metadata.CurrentSnapshot()
	referenced := []string{snap.ManifestList}
	manifests, err := catalog.ReadManifestList(ctx, tbl.IO, snap)
	if err != nil {
		t.Fatal(err)
	}
	deletes := 0
	for i := range manifests {
		if manifests[i].AddedSnapshotID != snap.SnapshotID {
			continue // carried over from an earlier commit
		}
		referenced = append(referenced, manifests[i].Path)
		m, err := catalog.ReadManifest(ctx, tbl.IO, &manifests[i])
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range m.Entries {
			if e.Status == catalog.StatusAdded {
				referenced = append(referenced, e.File.Path)
				if e.File.Content != catalog.ContentData {
					deletes++
				}
			}
		}
	}
	if strings.HasPrefix(q, "DELETE") && deletes == 0 {
		t.Fatalf("%s wrote no delete file", q)
	}
	// The INSERT creates the partition directories: synced into data/.
	if data := filepath.Join(filepath.Dir(metaDir), "data"); strings.HasPrefix(q, "INSERT") && rec.index("dir "+data) < 0 {
		t.Errorf("%s: data/ (holding the new partition directories) not synced: %v", q, rec.events)
	}
	// The metadata file is written to a temporary file (synced), linked,
	// then its directory is synced.
	metaTmp := -1
	for i, e := range rec.events {
		if strings.HasPrefix(e, "file "+metaDir+"/.") && strings.HasSuffix(e, ".tmp") {
			metaTmp = i
			break
		}
	}
	if metaTmp < 0 {
		t.Fatalf("%s: the metadata file was not synced: %v", q, rec.events)
	}
	for _, p := range referenced {
		local, err := tbl.IO.Resolve(p)
		if err != nil {
			t.Fatal(err)
		}
		fi, di := rec.index("file "+local), -1
		for i := fi + 1; fi >= 0 && i < len(rec.events); i++ {
			if rec.events[i] == "dir "+filepath.Dir(local) {
				di = i
				break
			}
		}
		if fi < 0 || di < 0 || di > metaTmp {
			t.Errorf("%s: %s: synced at %d, its directory at %d, the metadata file at %d: %v", q, local, fi, di, metaTmp, rec.events)
		}
	}
	// After the metadata file: the version hint's temporary file, then one
	// sync of the metadata directory for the link and the hint's rename.
	hintTmp, dirAfter := -1, -1
	for i := metaTmp + 1; i < len(rec.events); i++ {
		e := rec.events[i]
		if hintTmp < 0 && strings.HasPrefix(e, "file "+metaDir+"/.") && strings.HasSuffix(e, ".tmp") {
			hintTmp = i
		}
		if hintTmp >= 0 && e == "dir "+metaDir {
			dirAfter = i
		}
	}
	if hintTmp < 0 || dirAfter < 0 {
		t.Errorf("%s: version hint synced at %d, metadata directory after it at %d: %v", q, hintTmp, dirAfter, rec.events)
	}
}

// lateFailSyncer fails every directory sync once a temporary metadata file
// has been synced: the commit is then visible.
type lateFailSyncer struct {
	metaDir string
	failing bool
}

func (l *lateFailSyncer) SyncFile(f *os.File) error {
	if strings.HasPrefix(f.Name(), l.metaDir+"/.") && strings.HasSuffix(f.Name(), ".tmp") {
		l.failing = true
	}
	return nil
}

func (l *lateFailSyncer) SyncDir(string) error {
	if l.failing {
		return syscall.EIO
	}
	return nil
}

// TestCommitSyncFailures: a sync that fails before the metadata file is
// linked fails the statement and leaves the table as it was; one that fails
// after (the commit is visible) is logged, and the statement's files stay:
// removing them would break the visible commit.
func TestCommitSyncFailures(t *testing.T) {
	for _, late := range []bool{false, true} {
		dir := t.TempDir()
		cat, err := catalog.NewFilesystem("icegate", dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		be, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
		if err != nil {
			t.Fatal(err)
		}
		s := be.(*session)
		for _, q := range []string{"CREATE SCHEMA ns", "CREATE TABLE ns.t (a int)"} {
			if err := runAll(s, q); err != nil {
				t.Fatal(err)
			}
		}
		if late {
			cat.SetSyncer(&lateFailSyncer{metaDir: filepath.Join(dir, "ns", "t", "metadata")})
		} else {
			cat.SetSyncer(failingSyncer{syscall.EIO})
		}
		err = runAll(s, "INSERT INTO ns.t VALUES (1)")
		if late != (err == nil) {
			t.Errorf("late %v: INSERT: %v", late, err)
		}
		cat.SetSyncer(catalog.OSSyncer{})
		n, err := runCount(context.Background(), t, s, "SELECT count(*) FROM ns.t")
		if want := map[bool]int64{false: 0, true: 1}[late]; err != nil || n != want {
			t.Errorf("late %v: %d rows, %v; want %d", late, n, err, want)
		}
	}
}
