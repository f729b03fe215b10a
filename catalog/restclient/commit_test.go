package restclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/catalog/restserver"
	"github.com/icegate/icegate/internal/audit"
	"github.com/icegate/icegate/internal/pgerr"
)

var tableID = catalog.Identifier{Namespace: []string{"db"}, Name: "t"}

// isCommit reports whether r commits to table db.t.
func isCommit(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/namespaces/db/tables/t")
}

// dropConnection closes the client's connection without an answer.
func dropConnection(t *testing.T, w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	conn.Close()
}

// setup creates namespace db and table db.t through a client of srv.
func setup(t testing.TB, c *Catalog) {
	t.Helper()
	ctx := context.Background()
	if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTable2(ctx, t, []string{"db"}, "t"); err != nil {
		t.Fatal(err)
	}
}

// TestCommitOutcomeUnknown: a commit whose answer is lost is resolved by
// reloading the table, never by resending blindly.
func TestCommitOutcomeUnknown(t *testing.T) {
	cases := []struct {
		name string
		// fault handles the n-th commit request (1-based); false lets the
		// server answer it.
		fault       func(t *testing.T, n int64, h http.Handler, w http.ResponseWriter, r *http.Request) bool
		wantCommits int64
		wantCode    string // "": the commit succeeds with one snapshot
	}{
		{"applied, then the connection breaks", func(t *testing.T, n int64, h http.Handler, w http.ResponseWriter, r *http.Request) bool {
			h.ServeHTTP(httptest.NewRecorder(), r)
			dropConnection(t, w)
			return true
		}, 1, ""},
		{"applied, then 502", func(t *testing.T, n int64, h http.Handler, w http.ResponseWriter, r *http.Request) bool {
			h.ServeHTTP(httptest.NewRecorder(), r)
			w.WriteHeader(http.StatusBadGateway)
			return true
		}, 1, ""},
		{"not applied, connection breaks once", func(t *testing.T, n int64, h http.Handler, w http.ResponseWriter, r *http.Request) bool {
			if n > 1 {
				return false
			}
			dropConnection(t, w)
			return true
		}, 2, ""},
		{"not applied, 503 every time", func(t *testing.T, n int64, h http.Handler, w http.ResponseWriter, r *http.Request) bool {
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}, 2, pgerr.StatementCompletionUnknown},
		{"not applied, connection breaks every time", func(t *testing.T, n int64, h http.Handler, w http.ResponseWriter, r *http.Request) bool {
			dropConnection(t, w)
			return true
		}, 2, pgerr.StatementCompletionUnknown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			var commits atomic.Int64
			var armed atomic.Bool
			srv := serve(t, sqliteBackend(t), restserver.Options{}, func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if armed.Load() && isCommit(r) {
						if tc.fault(t, commits.Add(1), h, w, r) {
							return
						}
					}
					h.ServeHTTP(w, r)
				})
			})
			c := open(t, srv, nil, fastOptions())
			setup(t, c)
			tbl, err := c.LoadTable(ctx, tableID)
			if err != nil {
				t.Fatal(err)
			}
			df := dataFile(t, c, tbl, "f.parquet", 1)
			armed.Store(true)
			out, err := catalog.CommitChange(ctx, c, tableID, &catalog.Change{AddedDataFiles: []*catalog.DataFile{df}})
			armed.Store(false)
			if got := commits.Load(); got != tc.wantCommits {
				t.Errorf("%d commit requests, want %d", got, tc.wantCommits)
			}
			if tc.wantCode != "" {
				wantCode(t, err, tc.wantCode)
				if !errors.Is(err, catalog.ErrCommitStateUnknown) || errors.Is(err, catalog.ErrCommitConflict) {
					t.Fatalf("error %v: want ErrCommitStateUnknown and no conflict", err)
				}
				if !strings.Contains(err.Error(), "db.t") {
					t.Fatalf("error %q does not name the table", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("commit: %v", err)
			}
			loaded, err := c.LoadTable(ctx, tableID)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(loaded.Metadata.Snapshots); n != 1 || out.Metadata.CurrentSnapshot() == nil ||
				loaded.Metadata.CurrentSnapshot().SnapshotID != out.Metadata.CurrentSnapshot().SnapshotID {
				t.Fatalf("table has %d snapshots after one commit", n)
			}
		})
	}
}

// TestRacingCommits: two clients commit to one table; the one that loses
// the race gets 409 and CommitChange retries it on the new state.
func TestRacingCommits(t *testing.T) {
	var conflicts atomic.Int64
	var other *Catalog
	var raced atomic.Bool
	srv := serve(t, sqliteBackend(t), restserver.Options{}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if isCommit(r) && r.Header.Get("X-Client") == "a" && raced.CompareAndSwap(false, true) {
				// The other client commits first, after a's request was made
				// on the state it read.
				appendFile(t, other, tableID, "b.parquet")
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if isCommit(r) && rec.Code == http.StatusConflict {
				conflicts.Add(1)
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
		})
	})
	a := open(t, srv, map[string]string{"header.X-Client": "a"}, fastOptions())
	other = open(t, srv, map[string]string{"header.X-Client": "b"}, fastOptions())
	setup(t, a)
	tbl := appendFile(t, a, tableID, "a.parquet")
	if conflicts.Load() != 1 {
		t.Fatalf("%d conflicts, want 1", conflicts.Load())
	}
	if got := sorted(livePaths(t, tbl)); len(got) != 2 || got[0] != "a.parquet" || got[1] != "b.parquet" {
		t.Fatalf("files after the race: %v", got)
	}
}

// TestRetries: idempotent requests ride out 503 storms and 429 with
// Retry-After, up to rest.retry.max-attempts.
func TestRetries(t *testing.T) {
	ctx := context.Background()
	var gets, failing atomic.Int64
	srv := serve(t, sqliteBackend(t), restserver.Options{}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/v1/namespaces" {
				gets.Add(1)
				if failing.Add(-1) >= 0 {
					if gets.Load()%2 == 0 {
						w.Header().Set("Retry-After", "0")
						w.WriteHeader(http.StatusTooManyRequests)
						return
					}
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
			}
			h.ServeHTTP(w, r)
		})
	})
	c := open(t, srv, map[string]string{PropRetryMaxAttempts: "4"}, fastOptions())
	failing.Store(3)
	if _, err := c.ListNamespaces(ctx); err != nil {
		t.Fatalf("after 3 failures: %v", err)
	}
	if gets.Load() != 4 {
		t.Fatalf("%d requests, want 4", gets.Load())
	}
	gets.Store(0)
	failing.Store(100)
	_, err := c.ListNamespaces(ctx)
	wantCode(t, err, pgerr.IOError)
	if gets.Load() != 4 {
		t.Fatalf("%d requests, want 4 (the bound)", gets.Load())
	}
}

// nextSnapshotID gives the test commits distinct snapshot ids.
var nextSnapshotID atomic.Int64

// transactionsEndpoint is the multi-table commit route as the
// configuration lists it.
const transactionsEndpoint = "POST /v1/{prefix}/transactions/commit"

// TestMultiTableCommit: a server without multi-table commits is 0A000,
// whether it does not list the endpoint or answers 501; a server that
// lists it commits both tables.
func TestMultiTableCommit(t *testing.T) {
	ctx := context.Background()
	commits := func(t *testing.T, c *Catalog) []catalog.TableCommit {
		var out []catalog.TableCommit
		for _, n := range []string{"t", "u"} {
			id := catalog.Identifier{Namespace: []string{"db"}, Name: n}
			tbl, err := c.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			// A metadata-only snapshot: its manifest list need not exist.
			snapID := nextSnapshotID.Add(1)
			snap := &catalog.Snapshot{SnapshotID: snapID, SequenceNumber: tbl.Metadata.LastSequenceNumber + 1,
				TimestampMs: tbl.Metadata.LastUpdatedMs + 1, ManifestList: tbl.Metadata.Location + "/metadata/snap.avro",
				Summary: map[string]string{"operation": "append"}}
			out = append(out, catalog.TableCommit{ID: id,
				Requirements: []catalog.Requirement{catalog.AssertTableUUID{UUID: tbl.Metadata.TableUUID},
					catalog.AssertRefSnapshotID{Ref: "main"}},
				Updates: []catalog.Update{catalog.SetProperties{Updates: map[string]string{"k": "v"}},
					catalog.AddSnapshot{Snapshot: snap},
					catalog.SetSnapshotRef{Name: "main", Ref: catalog.SnapshotRef{SnapshotID: snapID, Type: "branch"}}}})
		}
		return out
	}
	prepare := func(t *testing.T, c *Catalog) {
		setup(t, c)
		if err := c.CreateTable2(ctx, t, []string{"db"}, "u"); err != nil {
			t.Fatal(err)
		}
	}

	// A catalog that commits one table at a time (the filesystem
	// catalog): the server neither lists nor serves the route.
	filesystem := backends[0].open
	t.Run("not listed", func(t *testing.T) {
		srv := serve(t, filesystem(t), restserver.Options{}, nil)
		if serverCommitsTables(t, srv) {
			t.Fatal("the server lists multi-table commits over the filesystem catalog")
		}
		c := open(t, srv, nil, fastOptions())
		prepare(t, c)
		err := c.CommitTables(ctx, commits(t, c))
		wantCode(t, err, pgerr.FeatureNotSupported)
		if !errors.Is(err, catalog.ErrUnsupported) {
			t.Fatalf("error %v does not wrap ErrUnsupported", err)
		}
	})
	t.Run("no endpoints listed, answered 404", func(t *testing.T) {
		srv := serve(t, sqliteBackend(t), restserver.Options{}, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/v1/config":
					json.NewEncoder(w).Encode(restmsg.CatalogConfig{})
				case "/v1/transactions/commit":
					w.WriteHeader(http.StatusNotFound)
					json.NewEncoder(w).Encode(restmsg.ErrorResponse{Error: restmsg.ErrorModel{
						Message: "no route", Type: restmsg.BadRequest, Code: http.StatusNotFound}})
				default:
					h.ServeHTTP(w, r)
				}
			})
		})
		c := open(t, srv, nil, fastOptions())
		prepare(t, c)
		err := c.CommitTables(ctx, commits(t, c))
		wantCode(t, err, pgerr.FeatureNotSupported)
		if !errors.Is(err, catalog.ErrUnsupported) {
			t.Fatalf("error %v does not wrap ErrUnsupported", err)
		}
	})
	t.Run("listed, answered 501", func(t *testing.T) {
		srv := serve(t, filesystem(t), restserver.Options{}, listTransactions)
		c := open(t, srv, nil, fastOptions())
		prepare(t, c)
		err := c.CommitTables(ctx, commits(t, c))
		wantCode(t, err, pgerr.FeatureNotSupported)
		if !errors.Is(err, catalog.ErrUnsupported) || !strings.Contains(err.Error(), "multi-table") {
			t.Fatalf("error %q does not say what is unsupported", err)
		}
	})
	// The real server's multi-table commit (the SQL catalog's), answered
	// or with its answer lost after it applied the changes.
	for _, drop := range []bool{false, true} {
		t.Run(fmt.Sprintf("served, answer lost %v", drop), func(t *testing.T) {
			var posts atomic.Int64
			srv := serve(t, sqliteBackend(t), restserver.Options{}, func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.Method != http.MethodPost || r.URL.Path != "/v1/transactions/commit" {
						h.ServeHTTP(w, r)
						return
					}
					posts.Add(1)
					if !drop {
						h.ServeHTTP(w, r)
						return
					}
					h.ServeHTTP(httptest.NewRecorder(), r)
					dropConnection(t, w)
				})
			})
			if !serverCommitsTables(t, srv) {
				t.Fatal("the server does not list " + transactionsEndpoint + " over the SQL catalog")
			}
			c := open(t, srv, nil, fastOptions())
			prepare(t, c)
			stale := commits(t, c)
			// The audit log hears of each table's commit once, with the
			// snapshot it added, whether or not the answer came back.
			var audited audit.Commits
			actx := audit.WithCommits(ctx, &audited)
			fresh := commits(t, c)
			if err := c.CommitTables(actx, fresh); err != nil {
				t.Fatalf("commit two tables: %v", err)
			}
			if posts.Load() != 1 {
				t.Fatalf("%d commit requests, want 1", posts.Load())
			}
			var want []audit.Commit
			for _, tc := range fresh {
				want = append(want, audit.Commit{Table: "db." + tc.ID.Name, SnapshotID: tc.Updates[1].(catalog.AddSnapshot).Snapshot.SnapshotID})
			}
			if got := audited.Take(); !reflect.DeepEqual(got, want) {
				t.Errorf("audited commits %+v, want %+v", got, want)
			}
			for _, n := range []string{"t", "u"} {
				tbl, err := c.LoadTable(ctx, catalog.Identifier{Namespace: []string{"db"}, Name: n})
				if err != nil || tbl.Metadata.Properties["k"] != "v" || len(tbl.Metadata.Snapshots) != 1 {
					t.Fatalf("table %s after the commit: %v", n, err)
				}
			}
			// Commits on the state before: their requirements fail, a
			// conflict that changes neither table. With its answer lost,
			// the reload finds neither its snapshots nor its requirements
			// met: the outcome cannot be known.
			err := c.CommitTables(actx, stale)
			if got := audited.Take(); len(got) > 0 {
				t.Errorf("a failed commit was audited: %+v", got)
			}
			if drop {
				wantCode(t, err, pgerr.StatementCompletionUnknown)
				if !errors.Is(err, catalog.ErrCommitStateUnknown) || !strings.Contains(err.Error(), "db.t, db.u") {
					t.Fatalf("a stale commit whose answer is lost: %v", err)
				}
			} else if !errors.Is(err, catalog.ErrCommitConflict) {
				t.Fatalf("a stale multi-table commit: %v, want ErrCommitConflict", err)
			}
			for _, n := range []string{"t", "u"} {
				tbl, err := c.LoadTable(ctx, catalog.Identifier{Namespace: []string{"db"}, Name: n})
				if err != nil || len(tbl.Metadata.Snapshots) != 1 {
					t.Fatalf("table %s after a stale commit: %v", n, err)
				}
			}
		})
	}
}

// serverCommitsTables reports whether srv's configuration lists the
// multi-table commit.
func serverCommitsTables(t *testing.T, srv *httptest.Server) bool {
	resp, err := srv.Client().Get(srv.URL + "/v1/config")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var cfg restmsg.CatalogConfig
	if err := json.NewDecoder(resp.Body).Decode(&cfg); err != nil {
		t.Fatal(err)
	}
	for _, e := range cfg.Endpoints {
		if e == transactionsEndpoint {
			return true
		}
	}
	return false
}

// listTransactions makes the configuration list the multi-table commit,
// whether the server serves it or not.
func listTransactions(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/config" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var cfg restmsg.CatalogConfig
		if err := json.Unmarshal(rec.Body.Bytes(), &cfg); err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		cfg.Endpoints = append(cfg.Endpoints, transactionsEndpoint)
		body, _ := json.Marshal(cfg)
		w.Header().Set("Content-Type", "application/json")
		io.Copy(w, bytes.NewReader(body))
	})
}

// TestMultiTableCommitCreates: a staged table is created in the same
// transactions/commit as another table's change, with the snapshot its
// transaction wrote; a failed commit creates it not, and leaves it staged.
func TestMultiTableCommitCreates(t *testing.T) {
	ctx := context.Background()
	srv := serve(t, sqliteBackend(t), restserver.Options{}, nil)
	c := open(t, srv, nil, fastOptions())
	setup(t, c)
	tid := catalog.Identifier{Namespace: []string{"db"}, Name: "t"}
	nid := catalog.Identifier{Namespace: []string{"db"}, Name: "n"}
	st, err := c.StageTable(ctx, nid, catalog.TableSpec{Schema: testSchema()})
	if err != nil {
		t.Fatal(err)
	}
	df := dataFile(t, c, st, "n1.parquet", 2)
	out, err := c.NewOutput(st)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := catalog.StageChange(ctx, out, st, &catalog.Change{AddedDataFiles: []*catalog.DataFile{df}})
	if err != nil {
		t.Fatal(err)
	}
	base, err := c.LoadTable(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	stale := catalog.TableCommit{ID: tid, Requirements: []catalog.Requirement{catalog.AssertTableUUID{UUID: "00000000-0000-0000-0000-000000000000"}}}
	err = c.CommitTables(ctx, []catalog.TableCommit{stale, {ID: nid, Create: sc.Table.Metadata}})
	if !errors.Is(err, catalog.ErrCommitConflict) {
		t.Fatalf("a commit whose other table's requirement fails: %v", err)
	}
	if _, err := c.LoadTable(ctx, nid); !errors.Is(err, catalog.ErrNotFound) {
		t.Fatalf("a failed commit created the table: %v", err)
	}
	ok := catalog.TableCommit{ID: tid, Requirements: []catalog.Requirement{catalog.AssertTableUUID{UUID: base.Metadata.TableUUID}},
		Updates: []catalog.Update{catalog.SetProperties{Updates: map[string]string{"with": "n"}}}}
	if err := c.CommitTables(ctx, []catalog.TableCommit{ok, {ID: nid, Create: sc.Table.Metadata}}); err != nil {
		t.Fatal(err)
	}
	n, err := c.LoadTable(ctx, nid)
	if err != nil {
		t.Fatal(err)
	}
	if got := livePaths(t, n); !slices.Equal(got, []string{"n1.parquet"}) || n.Metadata.TableUUID != st.Metadata.TableUUID {
		t.Fatalf("created table lists %v, uuid %s", got, n.Metadata.TableUUID)
	}
	if c.isStaged(nid) {
		t.Fatal("a created table is still staged in the client")
	}
	if tt, _ := c.LoadTable(ctx, tid); tt.Metadata.Properties["with"] != "n" {
		t.Fatalf("t after the commit: %v", tt.Metadata.Properties)
	}
}
