package restclient

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restserver"
	"github.com/icegate/icegate/catalog/sqldb"
	"github.com/icegate/icegate/internal/pgerr"
)

// backends are the real catalogs the REST server runs over in the tests.
var backends = []struct {
	name  string
	props bool // keeps namespace properties
	open  func(t testing.TB) catalog.MutableCatalog
}{
	{"filesystem", false, func(t testing.TB) catalog.MutableCatalog {
		c, err := catalog.NewFilesystem("wh", t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}},
	{"sqlite", true, func(t testing.TB) catalog.MutableCatalog {
		dir := t.TempDir()
		ctx := context.Background()
		db, dialect, err := sqldb.Open(ctx, "jdbc:sqlite:"+filepath.Join(dir, "catalog.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		c, err := catalog.NewSQL(ctx, "wh", db, dialect, filepath.Join(dir, "warehouse"), nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}},
}

// sqliteBackend opens the SQL catalog backend.
func sqliteBackend(t testing.TB) catalog.MutableCatalog { return backends[1].open(t) }

// serve runs the REST server over cat, behind wrap when given.
func serve(t testing.TB, cat catalog.MutableCatalog, opts restserver.Options, wrap func(http.Handler) http.Handler) *httptest.Server {
	t.Helper()
	var h http.Handler = restserver.New(cat, opts)
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// fastOptions retry quickly.
func fastOptions() Options {
	return Options{RetryBaseDelay: time.Millisecond, MaxRetryDelay: 5 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler)}
}

// open opens a client of srv.
func open(t testing.TB, srv *httptest.Server, props map[string]string, opts Options) *Catalog {
	t.Helper()
	p := map[string]string{PropURI: srv.URL}
	for k, v := range props {
		p[k] = v
	}
	c, err := Open(context.Background(), "rest", p, opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func testSchema() *catalog.Schema {
	return &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		{ID: 2, Name: "name", Type: &catalog.PrimitiveType{ID: catalog.TString}},
	}}
}

// dataFile writes a (fake) data file through the table's output and
// returns its entry.
func dataFile(t testing.TB, cat catalog.MutableCatalog, tbl *catalog.Table, name string, rows int64) *catalog.DataFile {
	t.Helper()
	out, err := cat.NewOutput(tbl)
	if err != nil {
		t.Fatalf("output: %v", err)
	}
	path := catalog.DataLocation(tbl.Metadata) + "/" + name
	w, err := out.Create(context.Background(), path)
	if err != nil {
		t.Fatalf("create %s: %v", path, err)
	}
	data := []byte(fmt.Sprintf("rows of %s", name))
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &catalog.DataFile{Content: catalog.ContentData, Path: path, Format: catalog.FormatParquet,
		Partition: []any{}, RecordCount: rows, FileSizeInBytes: int64(len(data))}
}

// appendFile commits one new data file to id through CommitChange.
func appendFile(t testing.TB, cat catalog.MutableCatalog, id catalog.Identifier, name string) *catalog.Table {
	t.Helper()
	ctx := context.Background()
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatalf("load %v: %v", id, err)
	}
	df := dataFile(t, cat, tbl, name, 1)
	out, err := catalog.CommitChange(ctx, cat, id, &catalog.Change{AddedDataFiles: []*catalog.DataFile{df}})
	if err != nil {
		t.Fatalf("commit %s: %v", name, err)
	}
	return out
}

// livePaths are the data files of the table's current snapshot.
func livePaths(t *testing.T, tbl *catalog.Table) []string {
	t.Helper()
	snap := tbl.Metadata.CurrentSnapshot()
	if snap == nil {
		return nil
	}
	tasks, err := catalog.PlanFiles(context.Background(), tbl, snap)
	if err != nil {
		t.Fatalf("plan %v: %v", tbl.Ident, err)
	}
	var out []string
	for _, task := range tasks {
		out = append(out, filepath.Base(task.File.Path))
	}
	return out
}

// wantCode fails unless err has SQLSTATE code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want SQLSTATE %s", code)
	}
	if got := pgerr.Code(err); got != code {
		t.Fatalf("error %q has SQLSTATE %q, want %s", err, got, code)
	}
}
