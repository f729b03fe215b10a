package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestNamespacesAndTables covers the catalog operations other than commits
// and the error kind of each failure.
func TestNamespacesAndTables(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	db := []string{"db"}
	events := Identifier{Namespace: db, Name: "events"}
	steps := []struct {
		name string
		run  func() error
		want error
	}{
		{"create existing namespace", func() error { return cat.CreateNamespace(ctx, db, nil) }, ErrAlreadyExists},
		{"create nested namespace", func() error { return cat.CreateNamespace(ctx, []string{"db", "sub"}, nil) }, nil},
		{"create namespace under missing parent", func() error { return cat.CreateNamespace(ctx, []string{"nope", "sub"}, nil) }, ErrNotFound},
		{"create namespace with properties", func() error { return cat.CreateNamespace(ctx, []string{"p"}, map[string]string{"k": "v"}) }, ErrUnsupported},
		{"create namespace with a bad name", func() error { return cat.CreateNamespace(ctx, []string{".."}, nil) }, ErrDataInvalid},
		{"create table", func() error { _, err := cat.CreateTable(ctx, events, eventsSpec(0)); return err }, nil},
		{"create table again", func() error { _, err := cat.CreateTable(ctx, events, eventsSpec(2)); return err }, ErrAlreadyExists},
		{"create table in missing namespace", func() error {
			_, err := cat.CreateTable(ctx, Identifier{Namespace: []string{"nope"}, Name: "t"}, eventsSpec(2))
			return err
		}, ErrNotFound},
		{"create table elsewhere", func() error {
			spec := eventsSpec(2)
			spec.Location = "s3://bucket/x"
			_, err := cat.CreateTable(ctx, Identifier{Namespace: db, Name: "far"}, spec)
			return err
		}, ErrUnsupported},
		{"create table outside the warehouse", func() error {
			for _, loc := range []string{"/etc/x", "file:/tmp/x", cat.Root() + "/db/../../x"} {
				spec := eventsSpec(2)
				spec.Location = loc
				_, err := cat.CreateTable(ctx, Identifier{Namespace: db, Name: "far"}, spec)
				if pgerr.Code(err) != pgerr.InsufficientPrivilege {
					return fmt.Errorf("location %s: %v, want 42501", loc, err)
				}
				if !errors.Is(err, ErrOutsideWarehouse) {
					return err
				}
			}
			return ErrOutsideWarehouse
		}, ErrOutsideWarehouse},
		{"create table without schema", func() error {
			_, err := cat.CreateTable(ctx, Identifier{Namespace: db, Name: "noschema"}, TableSpec{})
			return err
		}, ErrDataInvalid},
		{"drop non-empty namespace", func() error { return cat.DropNamespace(ctx, db) }, ErrNotEmpty},
		{"drop table as namespace", func() error { return cat.DropNamespace(ctx, []string{"db", "events"}) }, ErrNotFound},
		{"drop nested namespace", func() error { return cat.DropNamespace(ctx, []string{"db", "sub"}) }, nil},
		{"drop missing namespace", func() error { return cat.DropNamespace(ctx, []string{"db", "sub"}) }, ErrNotFound},
		{"commit to missing table", func() error {
			_, err := cat.CommitTable(ctx, Identifier{Namespace: db, Name: "ghost"}, nil, nil)
			return err
		}, ErrNotFound},
		{"create second namespace", func() error { return cat.CreateNamespace(ctx, []string{"other"}, nil) }, nil},
		{"rename table", func() error {
			return cat.RenameTable(ctx, events, Identifier{Namespace: []string{"other"}, Name: "moved"})
		}, nil},
		{"rename missing table", func() error { return cat.RenameTable(ctx, events, Identifier{Namespace: db, Name: "x"}) }, ErrNotFound},
		{"rename into missing namespace", func() error {
			return cat.RenameTable(ctx, Identifier{Namespace: []string{"other"}, Name: "moved"}, Identifier{Namespace: []string{"gone"}, Name: "x"})
		}, ErrNotFound},
		{"drop missing table", func() error { return cat.DropTable(ctx, events, false) }, ErrNotFound},
	}
	for _, s := range steps {
		err := s.run()
		if (s.want == nil) != (err == nil) || (s.want != nil && !errors.Is(err, s.want)) {
			t.Fatalf("%s: error %v, want %v", s.name, err, s.want)
		}
	}
	ns, err := cat.ListNamespaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(ns, [][]string{{"db"}, {"other"}}, slices.Equal) {
		t.Errorf("namespaces %v", ns)
	}
	moved := Identifier{Namespace: []string{"other"}, Name: "moved"}
	tbl, err := cat.LoadTable(ctx, moved)
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Metadata.FormatVersion != DefaultFormatVersion {
		t.Errorf("default format version %d", tbl.Metadata.FormatVersion)
	}
	// The moved table still takes appends: its location names the old
	// directory and output goes to the new one.
	f := writeEvents(t, &Table{Metadata: &TableMetadata{Location: filepath.Join(cat.Root(), "other", "moved")}}, "m", "red", 1)
	f.Path = tbl.Metadata.Location + "/data/category=red/m.parquet"
	if tbl, err = Append(ctx, cat, moved, []*DataFile{f}, nil); err != nil {
		t.Fatal(err)
	}
	if got := livePaths(t, tbl); len(got) != 1 {
		t.Errorf("live files %v", got)
	}
	if err := cat.DropTable(ctx, moved, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(cat.Root(), "other", "moved")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("table directory left after drop: %v", err)
	}
	if _, err := cat.LoadTable(ctx, moved); !errors.Is(err, ErrNotFound) {
		t.Errorf("load dropped table: %v", err)
	}
	if err := cat.DropNamespace(ctx, []string{"other"}); err != nil {
		t.Fatal(err)
	}

	// A table dropped and created again under its name is the new table,
	// not what the catalog cached of the old one.
	again := Identifier{Namespace: db, Name: "again"}
	first, err := cat.CreateTable(ctx, again, eventsSpec(2))
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.DropTable(ctx, again, false); err != nil {
		t.Fatal(err)
	}
	second, err := cat.CreateTable(ctx, again, eventsSpec(1))
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := cat.LoadTable(ctx, again)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Metadata.TableUUID != second.Metadata.TableUUID || loaded.Metadata.TableUUID == first.Metadata.TableUUID || loaded.Metadata.FormatVersion != 1 {
		t.Errorf("re-created table loads as %s v%d (first %s, second %s)", loaded.Metadata.TableUUID, loaded.Metadata.FormatVersion, first.Metadata.TableUUID, second.Metadata.TableUUID)
	}
}

// TestCommitCannotMoveHadoopTable: a table of a hadoop catalog lives in
// its directory; a commit that sets another location (a REST client can
// send one) is refused and the table is unchanged.
func TestCommitCannotMoveHadoopTable(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "moved"}
	tbl, err := cat.CreateTable(ctx, id, eventsSpec(2))
	if err != nil {
		t.Fatal(err)
	}
	for _, loc := range []string{"/etc", tbl.Metadata.Location + "/../other"} {
		_, err := cat.CommitTable(ctx, id, nil, []Update{SetLocation{Location: loc}})
		if !errors.Is(err, ErrUnsupported) {
			t.Errorf("set-location %s: %v, want ErrUnsupported", loc, err)
		}
	}
	// The same location is no move.
	if _, err := cat.CommitTable(ctx, id, nil, []Update{SetLocation{Location: tbl.Metadata.Location}}); err != nil {
		t.Errorf("set-location to where it is: %v", err)
	}
	now, err := cat.LoadTable(ctx, id)
	if err != nil || now.Metadata.Location != tbl.Metadata.Location {
		t.Fatalf("after refused moves: %v, location %s", err, now.Metadata.Location)
	}
}
