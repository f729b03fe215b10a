package restclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/catalog/restserver"
	"github.com/icegate/icegate/catalog/sqldb"
	"github.com/icegate/icegate/internal/s3test"
	"github.com/icegate/icegate/objstore"
)

// TestVendedCredentialsS3: the client knows nothing of the object store;
// the server vends its endpoint and credentials with each loaded table,
// and the client writes data and manifests and reads them back with them.
func TestVendedCredentialsS3(t *testing.T) {
	s3 := s3test.Start(t)
	ctx := context.Background()
	cfg, err := objstore.S3ConfigFromProperties(s3.Props())
	if err != nil {
		t.Fatal(err)
	}
	store, err := objstore.NewS3(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	db, dialect, err := sqldb.Open(ctx, "jdbc:sqlite:"+filepath.Join(t.TempDir(), "catalog.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	backend, err := catalog.NewSQLObjects(ctx, "wh", db, dialect, store, nil, s3.URI("wh"))
	if err != nil {
		t.Fatal(err)
	}
	var vended atomic.Int64
	srv := serve(t, backend, restserver.Options{}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			loadOrCreate := strings.Contains(r.URL.Path, "/tables") && (r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/tables/") ||
				r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/tables"))
			if !loadOrCreate {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			body := rec.Body.Bytes()
			if rec.Code == http.StatusOK {
				var res map[string]any
				if err := json.Unmarshal(body, &res); err != nil {
					t.Errorf("load result: %v", err)
				}
				res["storage-credentials"] = []restmsg.StorageCredential{
					{Prefix: "s3://" + s3.Bucket + "/", Config: s3.Props()},
					{Prefix: "s3://elsewhere/", Config: map[string]string{objstore.PropAccessKeyID: "wrong", objstore.PropSecretAccessKey: "wrong"}},
				}
				body, _ = json.Marshal(res)
				vended.Add(1)
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(body)
		})
	})
	c := open(t, srv, nil, fastOptions())
	setup(t, c)
	appendFile(t, c, tableID, "a.parquet")
	tbl := appendFile(t, c, tableID, "b.parquet")
	if !strings.HasPrefix(tbl.Metadata.Location, "s3://") {
		t.Fatalf("table location %s is not in the store", tbl.Metadata.Location)
	}
	if got := sorted(livePaths(t, tbl)); !slices.Equal(got, []string{"a.parquet", "b.parquet"}) {
		t.Fatalf("files %v", got)
	}
	// The server's own catalog reads what the client wrote.
	direct, err := backend.LoadTable(ctx, tableID)
	if err != nil {
		t.Fatal(err)
	}
	if got := sorted(livePaths(t, direct)); !slices.Equal(got, []string{"a.parquet", "b.parquet"}) {
		t.Fatalf("the server's catalog lists %v", got)
	}
	if vended.Load() == 0 {
		t.Fatal("no credentials were vended")
	}
}
