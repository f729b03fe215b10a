package catalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestStagedTable: a staged table is no table, namespace or listing entry
// for anyone until published; its name is taken meanwhile; publishing
// makes it the table with the metadata given; discarding removes it.
func TestStagedTable(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "staged"}
	st, err := cat.StageTable(ctx, id, eventsSpec(2))
	if err != nil {
		t.Fatal(err)
	}
	hidden := func(when string) {
		t.Helper()
		if _, err := cat.LoadTable(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: LoadTable: %v, want ErrNotFound", when, err)
		}
		ids, err := cat.ListTables(ctx, id.Namespace)
		if err != nil || slices.ContainsFunc(ids, func(x Identifier) bool { return x.Name == id.Name }) {
			t.Errorf("%s: ListTables %v %v", when, ids, err)
		}
		nss, err := cat.ListNamespaces(ctx)
		if err != nil || len(nss) != 1 {
			t.Errorf("%s: ListNamespaces %v %v, want [db]", when, nss, err)
		}
	}
	hidden("staged")
	if _, err := cat.CreateTable(ctx, id, eventsSpec(2)); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("CreateTable of a staged name: %v", err)
	}
	b := NewMetadataBuilderFrom(st.Metadata, "")
	if err := b.Apply(SetProperties{Updates: map[string]string{"k": "v"}}); err != nil {
		t.Fatal(err)
	}
	meta, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	pub, err := cat.PublishTable(ctx, id, meta)
	if err != nil {
		t.Fatal(err)
	}
	if pub.Metadata.Properties["k"] != "v" || pub.Metadata.TableUUID != st.Metadata.TableUUID {
		t.Errorf("published metadata: %+v", pub.Metadata.Properties)
	}
	if _, err := cat.PublishTable(ctx, id, meta); !errors.Is(err, ErrNotFound) {
		t.Errorf("second publish: %v", err)
	}

	gone := Identifier{Namespace: []string{"db"}, Name: "gone"}
	if _, err := cat.StageTable(ctx, gone, eventsSpec(2)); err != nil {
		t.Fatal(err)
	}
	if err := cat.DiscardTable(ctx, gone); err != nil {
		t.Fatal(err)
	}
	dir, _ := cat.tableDir(gone)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("discarded table's directory: %v", err)
	}
	if err := cat.DiscardTable(ctx, id); err != nil {
		t.Errorf("DiscardTable of a published table: %v", err)
	}
	if _, err := cat.LoadTable(ctx, id); err != nil {
		t.Errorf("DiscardTable removed a published table: %v", err)
	}
}

// TestStagedTableOfDeadProcess: a staged table whose marker nobody holds
// locked (its process died) gives its name back to CREATE TABLE; one this
// process holds does not.
func TestStagedTableOfDeadProcess(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "left"}
	dir, _ := cat.tableDir(id)
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, stagedMarker), []byte(recordHeader()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "x.parquet"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.CreateTable(ctx, id, eventsSpec(2)); err != nil {
		t.Fatalf("CreateTable over a dead process's staged table: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "x.parquet")); !os.IsNotExist(err) {
		t.Errorf("the dead process's file is still there: %v", err)
	}

	live := Identifier{Namespace: []string{"db"}, Name: "live"}
	if _, err := cat.StageTable(ctx, live, eventsSpec(2)); err != nil {
		t.Fatal(err)
	}
	other, err := NewFilesystem("wh", cat.Root(), nil) // another catalog of this process
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.CreateTable(ctx, live, eventsSpec(2)); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("CreateTable over a live staged table: %v", err)
	}
}

// TestStagedTableInExistingDirectory: a REST client writes a staged
// table's files at its location before the commit that creates it, so the
// table may be staged in a directory holding only data/ and metadata/
// files. Discarding it then removes only the marker (the files are the
// client's); a directory holding anything else is no place for a table;
// a dead process's marker there goes, the files stay.
func TestStagedTableInExistingDirectory(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	write := func(path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(path string) bool {
		_, err := os.Stat(path)
		return err == nil
	}

	id := Identifier{Namespace: []string{"db"}, Name: "client"}
	dir, _ := cat.tableDir(id)
	file := filepath.Join(dir, "data", "part=1", "a.parquet")
	write(file)
	write(filepath.Join(dir, "metadata", "snap-1.avro"))
	st, err := cat.StageTable(ctx, id, eventsSpec(2))
	if err != nil {
		t.Fatalf("stage in a directory of table files: %v", err)
	}
	if _, err := cat.StageTable(ctx, id, eventsSpec(2)); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("stage the name twice: %v", err)
	}
	if err := cat.DiscardTable(ctx, id); err != nil {
		t.Fatal(err)
	}
	if !exists(file) || isStagedDir(dir) {
		t.Fatalf("discard of an adopted directory: file kept %v, marker left %v", exists(file), isStagedDir(dir))
	}
	if st, err = cat.StageTable(ctx, id, eventsSpec(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.PublishTable(ctx, id, st.Metadata); err != nil {
		t.Fatalf("publish in an adopted directory: %v", err)
	}
	if _, err := cat.LoadTable(ctx, id); err != nil || !exists(file) {
		t.Fatalf("after publishing: %v, file kept %v", err, exists(file))
	}

	// Not table files: another file at the top, a namespace's table.
	write(filepath.Join(cat.Root(), "db", "other", "notes.txt"))
	if _, err := cat.StageTable(ctx, Identifier{Namespace: []string{"db"}, Name: "other"}, eventsSpec(2)); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("stage over a directory with other files: %v", err)
	}
	if _, err := cat.StageTable(ctx, Identifier{Namespace: []string{"db"}, Name: "client"}, eventsSpec(2)); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("stage over a table: %v", err)
	}

	// A dead process adopted a directory: its marker goes, the files stay.
	left := Identifier{Namespace: []string{"db"}, Name: "left"}
	leftDir, _ := cat.tableDir(left)
	leftFile := filepath.Join(leftDir, "data", "b.parquet")
	write(leftFile)
	if err := os.WriteFile(filepath.Join(leftDir, stagedMarker), []byte(recordHeader()+"\n"+adoptedLine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.StageTable(ctx, left, eventsSpec(2)); err != nil {
		t.Fatalf("stage over a dead process's adopted directory: %v", err)
	}
	if !exists(leftFile) {
		t.Fatal("the client's file in a dead process's adopted directory was removed")
	}
}
