package catalog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// crash drops this catalog's write records as a killed process does: the
// files stay, the locks go.
func (c *Filesystem) crash() {
	c.writes.mu.Lock()
	defer c.writes.mu.Unlock()
	for _, r := range c.writes.byTable {
		r.f.Close()
	}
	for _, f := range c.writes.held {
		f.Close()
	}
	c.writes.byTable = nil
}

// TestCrashLeftovers: the files a process wrote for a commit that never
// happened are removed when a later process first loads the table, once
// the writer is dead; a live writer's files, committed files and files no
// record lists stay.
func TestCrashLeftovers(t *testing.T) {
	ctx := context.Background()
	writer := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "events"}
	tbl, err := writer.CreateTable(ctx, id, eventsSpec(2))
	if err != nil {
		t.Fatal(err)
	}
	tableDir := filepath.Join(writer.Root(), "db", "events")
	committed := writeEvents(t, tbl, "committed", "a", 3)
	if tbl, err = Append(ctx, writer, id, []*DataFile{committed}, nil); err != nil {
		t.Fatal(err)
	}
	out, err := writer.NewOutput(tbl)
	if err != nil {
		t.Fatal(err)
	}
	orphan := tbl.Metadata.Location + "/data/category=b/orphan.parquet"
	w, err := out.Create(ctx, orphan)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("PAR1 never committed")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	orphanLocal := filepath.Join(tableDir, "data", "category=b", "orphan.parquet")
	stranger := filepath.Join(tableDir, "data", "category=b", "other-engine.parquet")
	if err := os.WriteFile(stranger, []byte("PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	metaDir := filepath.Join(tableDir, "metadata")
	oldTemp := filepath.Join(metaDir, "."+newUUID()+".tmp")
	newTemp := filepath.Join(metaDir, "."+newUUID()+".tmp")
	for _, p := range []string{oldTemp, newTemp} {
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * staleTempAge)
	if err := os.Chtimes(oldTemp, past, past); err != nil {
		t.Fatal(err)
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	load := func() *Table {
		t.Helper()
		other, err := NewFilesystem("wh", writer.Root(), nil)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := other.LoadTable(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return tbl
	}

	// The writer lives: another process loading the table leaves its
	// uncommitted file alone, however old.
	if err := os.Chtimes(orphanLocal, past, past); err != nil {
		t.Fatal(err)
	}
	load()
	if !exists(orphanLocal) {
		t.Fatal("a live writer's file was removed")
	}
	if exists(oldTemp) {
		t.Error("a temporary metadata file of two hours ago was kept")
	}
	if !exists(newTemp) {
		t.Error("a fresh temporary metadata file (a commit in flight) was removed")
	}

	// The writer dies: its uncommitted file goes, with its record; what
	// the table references and what no record lists stay.
	writer.crash()
	tbl = load()
	if exists(orphanLocal) {
		t.Error("the file of the interrupted commit is still there")
	}
	if !exists(stranger) {
		t.Error("a file no record lists was removed")
	}
	records, _ := filepath.Glob(filepath.Join(metaDir, writeRecordPrefix+"*"))
	if len(records) != 0 {
		t.Errorf("dead write records left: %v", records)
	}
	tasks, err := PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil || len(tasks) != 1 || tasks[0].File.Path != committed.Path {
		t.Fatalf("the committed snapshot no longer plans: %v, %v", tasks, err)
	}
	for _, p := range []string{tbl.Metadata.CurrentSnapshot().ManifestList, committed.Path} {
		if local, err := tbl.IO.Resolve(p); err != nil || !exists(local) {
			t.Errorf("committed file %s: %v", p, err)
		}
	}
	entries, _ := os.ReadDir(metaDir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "-m0.avro") {
			return // the manifest stays
		}
	}
	t.Error("the committed manifest was removed")
}

// TestCrashLeftoversKept: records the sweep must not act on: another
// machine's (its lock is not this kernel's), and a live process's record of
// a table it renamed (another session may still commit what it staged).
func TestCrashLeftoversKept(t *testing.T) {
	ctx := context.Background()
	writer := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "events"}
	tbl, err := writer.CreateTable(ctx, id, eventsSpec(2))
	if err != nil {
		t.Fatal(err)
	}
	out, err := writer.NewOutput(tbl)
	if err != nil {
		t.Fatal(err)
	}
	w, err := out.Create(ctx, tbl.Metadata.Location+"/data/staged.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	foreignFile := filepath.Join(writer.Root(), "db", "events", "data", "foreign.parquet")
	if err := os.WriteFile(foreignFile, []byte("PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	record := "# icegate write record; host another-machine\ndata/foreign.parquet\n"
	if err := os.WriteFile(filepath.Join(writer.Root(), "db", "events", "metadata", writeRecordPrefix+newUUID()), []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	moved := Identifier{Namespace: []string{"db"}, Name: "moved"}
	if err := writer.RenameTable(ctx, id, moved); err != nil {
		t.Fatal(err)
	}
	other, err := NewFilesystem("wh", writer.Root(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.LoadTable(ctx, moved); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"staged.parquet", "foreign.parquet"} {
		if _, err := os.Stat(filepath.Join(writer.Root(), "db", "moved", "data", f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestCloseReleasesWriteRecords: a clean stop removes what its uncommitted
// statements wrote and its write records, and keeps every committed file.
func TestCloseReleasesWriteRecords(t *testing.T) {
	ctx := context.Background()
	writer := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "events"}
	tbl, err := writer.CreateTable(ctx, id, eventsSpec(2))
	if err != nil {
		t.Fatal(err)
	}
	tableDir := filepath.Join(writer.Root(), "db", "events")
	committed := writeEvents(t, tbl, "committed", "a", 3)
	if tbl, err = Append(ctx, writer, id, []*DataFile{committed}, nil); err != nil {
		t.Fatal(err)
	}
	out, err := writer.NewOutput(tbl)
	if err != nil {
		t.Fatal(err)
	}
	w, err := out.Create(ctx, tbl.Metadata.Location+"/data/uncommitted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	records := func() []string {
		t.Helper()
		m, err := filepath.Glob(filepath.Join(tableDir, "metadata", writeRecordPrefix+"*"))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if len(records()) == 0 {
		t.Fatal("no write record while writing")
	}
	if err := writer.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if r := records(); len(r) != 0 {
		t.Errorf("write records left after Close: %v", r)
	}
	if _, err := os.Stat(filepath.Join(tableDir, "data", "uncommitted.parquet")); !os.IsNotExist(err) {
		t.Errorf("the uncommitted file is still there after Close (stat: %v)", err)
	}
	reader, err := NewFilesystem("wh", writer.Root(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := reader.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := PlanFiles(ctx, got, got.Metadata.CurrentSnapshot())
	if err != nil || len(tasks) != 1 || tasks[0].File.Path != committed.Path {
		t.Fatalf("the committed snapshot no longer plans: %v, %v", tasks, err)
	}
	for _, p := range []string{got.Metadata.CurrentSnapshot().ManifestList, committed.Path} {
		if local, err := got.IO.Resolve(p); err != nil {
			t.Errorf("committed file %s: %v", p, err)
		} else if _, err := os.Stat(local); err != nil {
			t.Errorf("committed file gone after Close: %v", err)
		}
	}
}
