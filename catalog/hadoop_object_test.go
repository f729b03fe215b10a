package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/s3test"
	"github.com/icegate/icegate/objstore"
)

// newObjectStore is a store of the S3-compatible server srv, reached at
// endpoint (the server's own, or a proxy's).
func newObjectStore(t *testing.T, srv *s3test.Server, endpoint string) objstore.Store {
	t.Helper()
	props := srv.Props()
	props["s3.endpoint"] = endpoint
	cfg, err := objstore.S3ConfigFromProperties(props)
	if err != nil {
		t.Fatal(err)
	}
	s, err := objstore.NewS3(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestObjectHadoopConcurrentCommits: writers that commit to one table at
// once, each retrying when it loses, lose no commit: the store's
// conditional write lets one writer of each version win. A version hint
// left behind (a writer that stopped between its commit and the hint) is
// followed to the newest version.
func TestObjectHadoopConcurrentCommits(t *testing.T) {
	srv := s3test.Start(t)
	ctx := t.Context()
	cat, err := NewObjectHadoop(ctx, "lake", newObjectStore(t, srv, srv.Endpoint), nil, srv.URI("wh"))
	if err != nil {
		t.Fatal(err)
	}
	if cat.ReadOnly() != nil {
		t.Fatalf("read-only on a store with conditional writes: %v", cat.ReadOnly())
	}
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	id := Identifier{Namespace: []string{"db"}, Name: "t"}
	if _, err := cat.CreateTable(ctx, id, eventsSpec(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.CreateTable(ctx, id, eventsSpec(2)); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("second CREATE of one table: %v, want ErrAlreadyExists", err)
	}
	const writers, each = 4, 5
	var wg sync.WaitGroup
	var mu sync.Mutex
	conflicts := 0
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each writer has its own catalog, as another gateway would.
			mine, err := NewObjectHadoop(ctx, "lake", newObjectStore(t, srv, srv.Endpoint), nil, srv.URI("wh"))
			if err != nil {
				t.Error(err)
				return
			}
			for i := range each {
				key := fmt.Sprintf("w%d.%d", w, i)
				for {
					_, err := mine.CommitTable(ctx, id, nil, []Update{SetProperties{Updates: map[string]string{key: "x"}}})
					if errors.Is(err, ErrCommitConflict) {
						mu.Lock()
						conflicts++
						mu.Unlock()
						continue
					}
					if err != nil {
						t.Error(err)
					}
					break
				}
			}
		}()
	}
	wg.Wait()
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		for i := range each {
			if tbl.Metadata.Properties[fmt.Sprintf("w%d.%d", w, i)] != "x" {
				t.Errorf("commit w%d.%d lost", w, i)
			}
		}
	}
	want := fmt.Sprintf("v%d.metadata.json", writers*each+1)
	if !strings.HasSuffix(tbl.MetadataLocation, "/"+want) {
		t.Fatalf("current metadata %s, want %s", tbl.MetadataLocation, want)
	}
	t.Logf("%d commits, %d lost races retried", writers*each, conflicts)

	// A hint left behind.
	store := newObjectStore(t, srv, srv.Endpoint)
	if err := store.Put(ctx, srv.URI("wh/db/t/metadata/version-hint.text"), []byte("2"), false); err != nil {
		t.Fatal(err)
	}
	fresh, err := NewObjectHadoop(ctx, "lake", store, nil, srv.URI("wh"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := fresh.LoadTable(ctx, id)
	if err != nil || again.MetadataLocation != tbl.MetadataLocation {
		t.Fatalf("load with a stale hint: %v, %v; want %s", again, err, tbl.MetadataLocation)
	}
	tables, err := fresh.ListTables(ctx, []string{"db"})
	if err != nil || len(tables) != 1 || tables[0].Name != "t" {
		t.Fatalf("ListTables = %v, %v", tables, err)
	}
	if err := fresh.DropNamespace(ctx, []string{"db"}); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("drop of a namespace with a table: %v", err)
	}
	if err := fresh.DropTable(ctx, id, false); err != nil {
		t.Fatal(err)
	}
	if err := fresh.DropNamespace(ctx, []string{"db"}); err != nil {
		t.Fatal(err)
	}
	if ns, err := fresh.ListNamespaces(ctx); err != nil || len(ns) != 0 {
		t.Fatalf("namespaces after the drops: %v, %v", ns, err)
	}
}

// TestObjectHadoopWithoutConditionalWrites: on a store that ignores
// If-None-Match two writers could both commit a version, so the catalog
// reads but refuses to write, saying why (0A000).
func TestObjectHadoopWithoutConditionalWrites(t *testing.T) {
	srv := s3test.Start(t)
	ctx := t.Context()
	good, err := NewObjectHadoop(ctx, "lake", newObjectStore(t, srv, srv.Endpoint), nil, srv.URI("wh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := good.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	id := Identifier{Namespace: []string{"db"}, Name: "t"}
	if _, err := good.CreateTable(ctx, id, eventsSpec(2)); err != nil {
		t.Fatal(err)
	}
	proxy := s3test.NewFaultProxy(t, srv.Endpoint)
	proxy.IgnoreConditionalWrites(true)
	cat, err := NewObjectHadoop(ctx, "lake", newObjectStore(t, srv, proxy.URL), nil, srv.URI("wh"))
	if err != nil {
		t.Fatal(err)
	}
	if cat.ReadOnly() == nil {
		t.Fatal("the catalog writes on a store that ignores conditional writes")
	}
	if _, err := cat.LoadTable(ctx, id); err != nil {
		t.Fatalf("a read-only catalog still reads: %v", err)
	}
	_, err = cat.CommitTable(ctx, id, nil, []Update{SetProperties{Updates: map[string]string{"k": "v"}}})
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.FeatureNotSupported || !strings.Contains(pe.Message, "conditional writes") {
		t.Fatalf("commit on a store without conditional writes: %v, want 0A000 saying why", err)
	}
}

// TestSQLObjectsOutsideWarehouse: a table's location must be in the
// catalog's warehouse (42501), and a scan of an object the store lacks
// names it (58P01).
func TestSQLObjectsPlacement(t *testing.T) {
	srv := s3test.Start(t)
	w, err := newObjectWarehouse("lake", newObjectStore(t, srv, srv.Endpoint), nil, srv.URI("wh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, loc := range []string{"s3://other/wh/t", srv.URI("elsewhere/t"), "/tmp/t", srv.URI("wh/../x")} {
		if _, err := w.place(loc); !errors.Is(err, ErrOutsideWarehouse) {
			t.Errorf("place(%s) = %v, want ErrOutsideWarehouse", loc, err)
		}
	}
	for in, want := range map[string]string{srv.URI("wh/db/t"): srv.URI("wh/db/t"), "s3a://" + srv.Bucket + "/wh/db/t": srv.URI("wh/db/t")} {
		if got, err := w.place(in); err != nil || got != want {
			t.Errorf("place(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	fio := w.tableIO(context.Background(), srv.URI("wh/db/t/metadata/v1.metadata.json"))
	_, err = fio.Open(t.Context(), srv.URI("wh/db/t/data/missing.parquet"))
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.UndefinedFile || !strings.Contains(pe.Message, "missing.parquet") {
		t.Fatalf("open of a missing object: %v, want 58P01 naming it", err)
	}
}

// TestObjectHadoopStaging: a table staged by a transaction block is
// invisible until published; discarding it removes what the block wrote;
// publishing a name another writer took meanwhile is ErrAlreadyExists.
func TestObjectHadoopStaging(t *testing.T) {
	srv := s3test.Start(t)
	ctx := t.Context()
	store := newObjectStore(t, srv, srv.Endpoint)
	cat, err := NewObjectHadoop(ctx, "lake", store, nil, srv.URI("wh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	id := Identifier{Namespace: []string{"db"}, Name: "s"}
	tbl, err := cat.StageTable(ctx, id, eventsSpec(2))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.CreateTable(ctx, id, eventsSpec(2)); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("CREATE of a staged name: %v", err)
	}
	if _, err := cat.LoadTable(ctx, id); !errors.Is(err, ErrNotFound) {
		t.Fatalf("load of a staged table: %v, want ErrNotFound", err)
	}
	out, err := cat.NewOutput(tbl)
	if err != nil {
		t.Fatal(err)
	}
	w, err := out.Create(ctx, tbl.Metadata.Location+"/data/f.parquet")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("data"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cat.DiscardTable(ctx, id); err != nil {
		t.Fatal(err)
	}
	left := 0
	store.List(ctx, srv.URI("wh/db/s/"), func(objstore.Info) error { left++; return nil })
	if left != 0 {
		t.Fatalf("%d objects left by a discarded table", left)
	}

	tbl, err = cat.StageTable(ctx, id, eventsSpec(2))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.PublishTable(ctx, id, tbl.Metadata); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.LoadTable(ctx, id); err != nil {
		t.Fatalf("load of a published table: %v", err)
	}
	other := Identifier{Namespace: []string{"db"}, Name: "raced"}
	tbl, err = cat.StageTable(ctx, other, eventsSpec(2))
	if err != nil {
		t.Fatal(err)
	}
	rival, err := NewObjectHadoop(ctx, "lake", store, nil, srv.URI("wh"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rival.CreateTable(ctx, other, eventsSpec(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.PublishTable(ctx, other, tbl.Metadata); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("publish of a name taken meanwhile: %v, want ErrAlreadyExists", err)
	}
}

// TestObjectHadoopStagingOverClientFiles: a REST client writes a staged
// table's data and manifests at its location before the commit that
// creates it, so the folder already holds objects then: a table may be
// staged over data/ and metadata/ objects (discarding it leaves them:
// they are the client's), never over a folder CREATE SCHEMA made.
func TestObjectHadoopStagingOverClientFiles(t *testing.T) {
	srv := s3test.Start(t)
	ctx := t.Context()
	store := newObjectStore(t, srv, srv.Endpoint)
	cat, err := NewObjectHadoop(ctx, "lake", store, nil, srv.URI("wh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	put := func(key string) {
		t.Helper()
		if err := store.Put(ctx, srv.URI(key), []byte("x"), false); err != nil {
			t.Fatal(err)
		}
	}
	count := func(prefix string) int {
		n := 0
		store.List(ctx, srv.URI(prefix), func(objstore.Info) error { n++; return nil })
		return n
	}
	put("wh/db/c/data/part=1/a.parquet")
	put("wh/db/c/metadata/snap-1.avro")
	id := Identifier{Namespace: []string{"db"}, Name: "c"}
	tbl, err := cat.StageTable(ctx, id, eventsSpec(2))
	if err != nil {
		t.Fatalf("stage over a client's files: %v", err)
	}
	if err := cat.DiscardTable(ctx, id); err != nil {
		t.Fatal(err)
	}
	if n := count("wh/db/c/"); n != 2 {
		t.Fatalf("discard removed the client's files: %d objects left, want 2", n)
	}
	if tbl, err = cat.StageTable(ctx, id, eventsSpec(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.PublishTable(ctx, id, tbl.Metadata); err != nil {
		t.Fatalf("publish over a client's files: %v", err)
	}

	// A namespace: its marker, or other objects, make it no place for a
	// table.
	if err := cat.CreateNamespace(ctx, []string{"db", "ns"}, nil); err != nil {
		t.Fatal(err)
	}
	put("wh/db/ns/data/x.parquet")
	if _, err := cat.StageTable(ctx, Identifier{Namespace: []string{"db"}, Name: "ns"}, eventsSpec(2)); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("stage over a namespace: %v", err)
	}
	put("wh/db/other/notes.txt")
	put("wh/db/other/data/y.parquet")
	if _, err := cat.StageTable(ctx, Identifier{Namespace: []string{"db"}, Name: "other"}, eventsSpec(2)); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("stage over a folder with other objects: %v", err)
	}
}

// TestObjectHadoopCommitCannotMove: as on a directory, a commit cannot
// move a table of the hadoop catalog on S3.
func TestObjectHadoopCommitCannotMove(t *testing.T) {
	srv := s3test.Start(t)
	ctx := t.Context()
	cat, err := NewObjectHadoop(ctx, "lake", newObjectStore(t, srv, srv.Endpoint), nil, srv.URI("wh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	id := Identifier{Namespace: []string{"db"}, Name: "t"}
	if _, err := cat.CreateTable(ctx, id, eventsSpec(2)); err != nil {
		t.Fatal(err)
	}
	_, err = cat.CommitTable(ctx, id, nil, []Update{SetLocation{Location: srv.URI("elsewhere")}})
	if !errors.Is(err, ErrUnsupported) || pgerr.Code(err) != pgerr.FeatureNotSupported {
		t.Fatalf("set-location: %v, want 0A000", err)
	}
}
