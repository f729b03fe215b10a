package restclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/catalog/restserver"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestNamespaces: nested namespaces are listed recursively across pages;
// properties are read and changed where the catalog keeps them.
func TestNamespaces(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			srv := serve(t, be.open(t), restserver.Options{}, nil)
			c := open(t, srv, map[string]string{PropPageSize: "1"}, fastOptions())
			for _, ns := range [][]string{{"a"}, {"b"}, {"a", "x"}, {"a", "y"}, {"a", "x", "deep"}} {
				var props map[string]string
				if be.props {
					props = map[string]string{"owner": "me"}
				}
				if err := c.CreateNamespace(ctx, ns, props); err != nil {
					t.Fatalf("create %v: %v", ns, err)
				}
			}
			if err := c.CreateNamespace(ctx, []string{"a"}, nil); !errors.Is(err, catalog.ErrAlreadyExists) {
				t.Fatalf("create a twice: %v, want ErrAlreadyExists", err)
			}
			got, err := c.ListNamespaces(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var joined []string
			for _, ns := range got {
				joined = append(joined, strings.Join(ns, "."))
			}
			slices.Sort(joined)
			if want := []string{"a", "a.x", "a.x.deep", "a.y", "b"}; !slices.Equal(joined, want) {
				t.Fatalf("namespaces %v, want %v", joined, want)
			}
			if be.props {
				props, err := c.NamespaceProperties(ctx, []string{"a"})
				if err != nil || props["owner"] != "me" {
					t.Fatalf("properties %v, %v", props, err)
				}
				removed, missing, err := c.UpdateNamespaceProperties(ctx, []string{"a"}, []string{"owner", "nope"}, map[string]string{"k": "v"})
				if err != nil || !slices.Equal(removed, []string{"owner"}) || !slices.Equal(missing, []string{"nope"}) {
					t.Fatalf("update: removed %v missing %v err %v", removed, missing, err)
				}
				props, _ = c.NamespaceProperties(ctx, []string{"a"})
				if props["k"] != "v" || props["owner"] != "" {
					t.Fatalf("properties after update %v", props)
				}
			} else {
				_, _, err := c.UpdateNamespaceProperties(ctx, []string{"a"}, nil, map[string]string{"k": "v"})
				if !errors.Is(err, catalog.ErrUnsupported) {
					t.Fatalf("update properties where none are kept: %v, want ErrUnsupported", err)
				}
			}
			if err := c.CreateTable2(ctx, t, []string{"b"}, "t"); err != nil {
				t.Fatal(err)
			}
			if err := c.DropNamespace(ctx, []string{"b"}); !errors.Is(err, catalog.ErrNotEmpty) {
				t.Fatalf("drop a namespace with a table: %v, want ErrNotEmpty", err)
			}
			if err := c.DropNamespace(ctx, []string{"a", "y"}); err != nil {
				t.Fatal(err)
			}
			if err := c.DropNamespace(ctx, []string{"a", "y"}); !errors.Is(err, catalog.ErrNotFound) {
				t.Fatalf("drop a missing namespace: %v, want ErrNotFound", err)
			}
		})
	}
}

// CreateTable2 creates a table of the test schema.
func (c *Catalog) CreateTable2(ctx context.Context, t testing.TB, ns []string, name string) error {
	_, err := c.CreateTable(ctx, catalog.Identifier{Namespace: ns, Name: name}, catalog.TableSpec{Schema: testSchema()})
	return err
}

// TestTables: create, list (paged), load with ETags, append and read
// through CommitChange, rename, register, drop.
func TestTables(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			var loads, notModified atomic.Int64
			cat := be.open(t)
			srv := serve(t, cat, restserver.Options{}, func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/tables/") {
						loads.Add(1)
						if r.URL.Query().Get("snapshots") != "all" {
							t.Errorf("load without snapshots=all: %s", r.URL)
						}
						if r.Header.Get("If-None-Match") != "" {
							notModified.Add(1)
						}
					}
					h.ServeHTTP(w, r)
				})
			})
			// The warehouse directory lets reads reach files of other tables'
			// directories (a registered table's manifests).
			root := cat.(interface{ Root() string }).Root()
			c := open(t, srv, map[string]string{PropPageSize: "2", PropWarehouse: root}, fastOptions())
			if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			for _, n := range []string{"t1", "t2", "t3"} {
				if err := c.CreateTable2(ctx, t, []string{"db"}, n); err != nil {
					t.Fatalf("create %s: %v", n, err)
				}
			}
			if err := c.CreateTable2(ctx, t, []string{"db"}, "t1"); !errors.Is(err, catalog.ErrAlreadyExists) {
				t.Fatalf("create t1 twice: %v", err)
			}
			ids, err := c.ListTables(ctx, []string{"db"})
			if err != nil || len(ids) != 3 {
				t.Fatalf("tables %v, %v", ids, err)
			}
			id := catalog.Identifier{Namespace: []string{"db"}, Name: "t1"}
			first, err := c.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			again, err := c.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if again != first || notModified.Load() == 0 {
				t.Fatalf("an unchanged table was not reused from its ETag (%d conditional loads)", notModified.Load())
			}

			appendFile(t, c, id, "a.parquet")
			tbl := appendFile(t, c, id, "b.parquet")
			if got := livePaths(t, tbl); !slices.Equal(sorted(got), []string{"a.parquet", "b.parquet"}) {
				t.Fatalf("files after two appends: %v", got)
			}
			loaded, err := c.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(loaded.Metadata.Snapshots) != 2 || loaded.MetadataLocation != tbl.MetadataLocation {
				t.Fatalf("reloaded table has %d snapshots at %s, want 2 at %s", len(loaded.Metadata.Snapshots), loaded.MetadataLocation, tbl.MetadataLocation)
			}

			// The current metadata file registers as another table.
			reg := catalog.Identifier{Namespace: []string{"db"}, Name: "registered"}
			back, err := c.RegisterTable(ctx, reg, tbl.MetadataLocation)
			if err != nil {
				t.Fatalf("register: %v", err)
			}
			if got := livePaths(t, back); len(got) != 2 {
				t.Fatalf("registered table lists %v", got)
			}
			to := catalog.Identifier{Namespace: []string{"db"}, Name: "renamed"}
			if err := c.RenameTable(ctx, id, to); err != nil {
				t.Fatal(err)
			}
			if _, err := c.LoadTable(ctx, id); !errors.Is(err, catalog.ErrNotFound) {
				t.Fatalf("load the old name: %v, want ErrNotFound", err)
			}
			moved, err := c.LoadTable(ctx, to)
			if err != nil || len(livePaths(t, moved)) != 2 {
				t.Fatalf("renamed table: %v", err)
			}

			if err := c.DropTable(ctx, reg, false); err != nil {
				t.Fatal(err)
			}
			if err := c.DropTable(ctx, to, true); err != nil {
				t.Fatal(err)
			}
			if err := c.DropTable(ctx, reg, true); !errors.Is(err, catalog.ErrNotFound) {
				t.Fatalf("drop twice: %v, want ErrNotFound", err)
			}
		})
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

// TestStagedCreate: a staged table is invisible until published, its files
// written meanwhile; a discarded one leaves no file behind. Over the
// filesystem catalog the files written before publishing make the table's
// directory: the server stages the table in it.
func TestStagedCreate(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			srv := serve(t, be.open(t), restserver.Options{}, nil)
			c := open(t, srv, nil, fastOptions())
			if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			id := catalog.Identifier{Namespace: []string{"db"}, Name: "staged"}
			st, err := c.StageTable(ctx, id, catalog.TableSpec{Schema: testSchema(), Properties: map[string]string{"p": "1"}})
			if err != nil {
				t.Fatalf("stage: %v", err)
			}
			if _, err := c.LoadTable(ctx, id); !errors.Is(err, catalog.ErrNotFound) {
				t.Fatalf("load a staged table: %v, want ErrNotFound", err)
			}
			if _, err := c.CreateTable(ctx, id, catalog.TableSpec{Schema: testSchema()}); !errors.Is(err, catalog.ErrAlreadyExists) {
				t.Fatalf("create a staged name: %v, want ErrAlreadyExists", err)
			}
			// The statements of the transaction write a file and stage a
			// change on top of the staged table.
			df := dataFile(t, c, st, "first.parquet", 3)
			out, err := c.NewOutput(st)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := catalog.StageChange(ctx, out, st, &catalog.Change{AddedDataFiles: []*catalog.DataFile{df}})
			if err != nil {
				t.Fatalf("stage change: %v", err)
			}
			pub, err := c.PublishTable(ctx, id, sc.Table.Metadata)
			if err != nil {
				t.Fatalf("publish: %v", err)
			}
			if pub.Metadata.TableUUID != st.Metadata.TableUUID || pub.Metadata.Properties["p"] != "1" {
				t.Fatalf("published table uuid %s props %v, staged %s", pub.Metadata.TableUUID, pub.Metadata.Properties, st.Metadata.TableUUID)
			}
			loaded, err := c.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if got := livePaths(t, loaded); !slices.Equal(got, []string{"first.parquet"}) {
				t.Fatalf("published table lists %v", got)
			}

			gone := catalog.Identifier{Namespace: []string{"db"}, Name: "discarded"}
			st2, err := c.StageTable(ctx, gone, catalog.TableSpec{Schema: testSchema()})
			if err != nil {
				t.Fatal(err)
			}
			df2 := dataFile(t, c, st2, "lost.parquet", 1)
			if err := c.DiscardTable(ctx, gone); err != nil {
				t.Fatalf("discard: %v", err)
			}
			if _, err := st2.IO.Open(ctx, df2.Path); err == nil {
				t.Fatalf("a discarded table's file %s is still there", df2.Path)
			}
			if _, err := c.LoadTable(ctx, gone); !errors.Is(err, catalog.ErrNotFound) {
				t.Fatalf("load a discarded table: %v", err)
			}
		})
	}
}

// TestViews: create, list, load, replace, drop.
func TestViews(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			srv := serve(t, be.open(t), restserver.Options{}, nil)
			c := open(t, srv, nil, fastOptions())
			if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			id := catalog.Identifier{Namespace: []string{"db"}, Name: "v"}
			meta := func(sql string) *catalog.ViewMetadata {
				schema := &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "one", Type: &catalog.PrimitiveType{ID: catalog.TInt}}}}
				m, err := catalog.NewViewMetadata(catalog.ViewSpec{Schema: schema, SQL: sql}, "", "", time.Now().UnixMilli())
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			v, err := c.CreateView(ctx, id, meta("SELECT 1 AS one"), false)
			if err != nil {
				t.Fatalf("create view: %v", err)
			}
			if _, err := c.CreateView(ctx, id, meta("SELECT 1 AS one"), false); !errors.Is(err, catalog.ErrAlreadyExists) {
				t.Fatalf("create view twice: %v", err)
			}
			ids, err := c.ListViews(ctx, []string{"db"})
			if err != nil || len(ids) != 1 || ids[0].Name != "v" {
				t.Fatalf("views %v, %v", ids, err)
			}
			replaced, err := c.CreateView(ctx, id, meta("SELECT 2 AS one"), true)
			if err != nil {
				t.Fatalf("replace view: %v", err)
			}
			if replaced.Metadata.ViewUUID != v.Metadata.ViewUUID {
				t.Fatal("replace changed the view's uuid")
			}
			got, err := c.LoadView(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if sql := got.Metadata.CurrentVersion().Representations[0].SQL; sql != "SELECT 2 AS one" {
				t.Fatalf("current SQL %q after replace", sql)
			}
			if err := c.DropView(ctx, id); err != nil {
				t.Fatal(err)
			}
			if _, err := c.LoadView(ctx, id); !errors.Is(err, catalog.ErrNotFound) {
				t.Fatalf("load a dropped view: %v", err)
			}
		})
	}
}

// TestUnreachable: a server that does not answer is 58030 naming its URI;
// a refused credential 42501.
func TestErrors(t *testing.T) {
	srv := serve(t, sqliteBackend(t), restserver.Options{}, nil)
	uri := srv.URL
	srv.Close()
	_, err := Open(context.Background(), "rest", map[string]string{PropURI: uri, PropRetryMaxAttempts: "2"}, fastOptions())
	wantCode(t, err, pgerr.IOError)
	if !strings.Contains(err.Error(), uri) {
		t.Fatalf("error %q does not name %s", err, uri)
	}

	_, err = Open(context.Background(), "rest", map[string]string{}, fastOptions())
	wantCode(t, err, pgerr.InvalidParameterValue)

	locked := serve(t, sqliteBackend(t), restserver.Options{Authorize: func(r *http.Request) error {
		if r.Header.Get("Authorization") != "Bearer right" {
			return errors.New("wrong token")
		}
		return nil
	}}, nil)
	_, err = Open(context.Background(), "rest", map[string]string{PropURI: locked.URL, PropToken: "wrong"}, fastOptions())
	wantCode(t, err, pgerr.InsufficientPrivilege)
	if !strings.Contains(err.Error(), "rest") {
		t.Fatalf("error %q does not name the catalog", err)
	}
	c := open(t, locked, map[string]string{PropToken: "right"}, fastOptions())
	if _, err := c.ListNamespaces(context.Background()); err != nil {
		t.Fatalf("with the right bearer token: %v", err)
	}
}

// TestServerWithoutViews: a server whose endpoints leave out views has none:
// listing them is empty, loading one is not found, creating one is 0A000.
func TestServerWithoutViews(t *testing.T) {
	ctx := context.Background()
	srv := serve(t, sqliteBackend(t), restserver.Options{}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/v1/config" {
				h.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(restmsg.CatalogConfig{Endpoints: []string{
				"GET /v1/{prefix}/namespaces", "POST /v1/{prefix}/namespaces",
				"GET /v1/{prefix}/namespaces/{namespace}/tables", "POST /v1/{prefix}/namespaces/{namespace}/tables"}})
		})
	})
	c := open(t, srv, nil, fastOptions())
	if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	views, err := c.ListViews(ctx, []string{"db"})
	if err != nil || len(views) != 0 {
		t.Fatalf("views %v, %v", views, err)
	}
	id := catalog.Identifier{Namespace: []string{"db"}, Name: "v"}
	if _, err := c.LoadView(ctx, id); !errors.Is(err, catalog.ErrNotFound) || pgerr.As(err) != nil {
		t.Fatalf("load a view: %v (SQLSTATE %q), want ErrNotFound without a SQLSTATE", err, pgerr.Code(err))
	}
	schema := &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "one", Type: &catalog.PrimitiveType{ID: catalog.TInt}}}}
	meta, err := catalog.NewViewMetadata(catalog.ViewSpec{Schema: schema, SQL: "SELECT 1 AS one"}, "", "", time.Now().UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateView(ctx, id, meta, false)
	wantCode(t, err, pgerr.FeatureNotSupported)
	// Tables are listed; loading one is not offered.
	if _, err := c.ListTables(ctx, []string{"db"}); err != nil {
		t.Fatal(err)
	}
	_, err = c.LoadTable(ctx, tableID)
	wantCode(t, err, pgerr.FeatureNotSupported)
}
