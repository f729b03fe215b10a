package integration

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/s3test"
)

// objectCatalogYAML is the configuration of a sql catalog called name on
// SQLite whose warehouse is s3://<bucket>/<name> on the store at endpoint,
// with extra properties.
func objectCatalogYAML(t *testing.T, srv *s3test.Server, name, endpoint string, extra map[string]string) string {
	props := srv.Props()
	props["s3.endpoint"] = endpoint
	props["type"] = "sql"
	props["uri"] = "jdbc:sqlite:" + filepath.Join(t.TempDir(), name+".db")
	props["warehouse"] = "s3://" + srv.Bucket + "/" + name
	maps.Copy(props, extra)
	body := "  " + name + ":\n"
	for _, k := range slices.Sorted(maps.Keys(props)) {
		body += fmt.Sprintf("    %s: %q\n", k, props[k])
	}
	return body
}

// TestObjectStoreFaults runs icegate over a SQL catalog whose warehouse is
// on a real S3-compatible server reached through a proxy that injects
// faults: throttling storms and connections cut mid-read are retried and
// the answers stay right; an object a manifest names but the store lacks,
// and a storm longer than the retries, are clear errors naming the object
// or the store, and the server and its other tables keep answering.
func TestObjectStoreFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds icegate and starts an S3-compatible server; -short skips it")
	}
	bin := os.Getenv("ICEGATE_BIN")
	if bin == "" {
		bin = buildBinary(t)
	}
	srv := s3test.Start(t)
	proxy := s3test.NewFaultProxy(t, srv.Endpoint)
	noCache := map[string]string{"s3.cache.max-bytes": "0"}
	config := filepath.Join(t.TempDir(), "icegate.yaml")
	body := "catalogs:\n" + objectCatalogYAML(t, srv, "lake", proxy.URL, noCache) +
		objectCatalogYAML(t, srv, "thin", proxy.URL, map[string]string{"s3.cache.max-bytes": "0", "s3.retry.max-attempts": "2"}) +
		objectCatalogYAML(t, srv, "cached", proxy.URL, map[string]string{"s3.cache.max-bytes": "64MB", "s3.cache.directory": t.TempDir()})
	if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	gw := startServing(t, bin, []string{"--config", config})
	t.Cleanup(func() {
		gw.kill(t)
		if t.Failed() {
			t.Logf("icegate's output:\n%s", gw.logs)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	connectTo := func(db string) *pgx.Conn {
		conn, err := pgx.Connect(ctx, strings.Replace(connString(gw.addr, "icegate", ""), "/icegate?", "/"+db+"?", 1))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close(context.Background()) })
		return conn
	}
	lake, thin, cached := connectTo("lake"), connectTo("thin"), connectTo("cached")
	exec := func(conn *pgx.Conn, sqls ...string) {
		t.Helper()
		for _, q := range sqls {
			if _, err := conn.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	exec(lake, "CREATE SCHEMA db", "CREATE TABLE db.t (id bigint, v text)",
		"INSERT INTO db.t SELECT g, 'v' || g FROM generate_series(1, 1000) g",
		"INSERT INTO db.t SELECT g, 'w' || g FROM generate_series(1001, 2000) g",
		"CREATE TABLE db.other (id int)", "INSERT INTO db.other VALUES (1), (2)")
	exec(thin, "CREATE SCHEMA db", "CREATE TABLE db.t (id int)", "INSERT INTO db.t VALUES (1), (2), (3)")
	sum := func(conn *pgx.Conn, q string) (int64, error) {
		var n int64
		err := conn.QueryRow(ctx, q).Scan(&n)
		return n, err
	}
	wantSum := func(conn *pgx.Conn, q string, want int64) {
		t.Helper()
		got, err := sum(conn, q)
		if err != nil || got != want {
			t.Fatalf("%s = %d, %v; want %d", q, got, err, want)
		}
	}
	const total = 2000 * 2001 / 2

	t.Run("throttling storm", func(t *testing.T) {
		proxy.FailNext(6)
		wantSum(lake, "SELECT sum(id) FROM db.t", total)
		if proxy.Faults() == 0 {
			t.Fatal("the proxy injected no fault: the test checks nothing")
		}
	})
	t.Run("connections cut mid-read", func(t *testing.T) {
		before := proxy.Faults()
		proxy.CutNext(3)
		wantSum(lake, "SELECT sum(id) FROM db.t", total)
		if proxy.Faults() == before {
			t.Fatal("no GET was cut: the test checks nothing")
		}
		proxy.Reset()
	})
	t.Run("write through a storm", func(t *testing.T) {
		proxy.FailNext(3)
		exec(lake, "INSERT INTO db.t VALUES (2001, 'x')")
		wantSum(lake, "SELECT count(*) FROM db.t", 2001)
		exec(lake, "DELETE FROM db.t WHERE id = 2001")
		proxy.Reset()
	})
	t.Run("storm longer than the retries", func(t *testing.T) {
		proxy.FailNext(1000)
		_, err := thin.Exec(ctx, "INSERT INTO db.t VALUES (4)")
		proxy.Reset()
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "58030" || !strings.Contains(pe.Message, "127.0.0.1") {
			t.Fatalf("INSERT during an endless storm: %v; want 58030 naming the store", err)
		}
		// Nothing half-done: the table is as it was.
		wantSum(thin, "SELECT sum(id) FROM db.t", 6)
		exec(thin, "INSERT INTO db.t VALUES (4)")
		wantSum(thin, "SELECT sum(id) FROM db.t", 10)
	})
	t.Run("a commit that cannot be written leaves nothing", func(t *testing.T) {
		// Every PUT of a metadata file is throttled past the retries:
		// the INSERT writes its data file, manifest and manifest list,
		// then cannot commit. It fails, and what it wrote is removed.
		objects := func() []string {
			var keys []string
			out, err := srv.Client().ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &srv.Bucket, Prefix: aws.String("thin/db/t/")})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range out.Contents {
				keys = append(keys, aws.ToString(o.Key))
			}
			return keys
		}
		before := objects()
		proxy.FailMatching(1000, func(r *http.Request) bool {
			return r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, ".metadata.json")
		})
		_, err := thin.Exec(ctx, "INSERT INTO db.t VALUES (100)")
		faults := proxy.Faults()
		proxy.Reset()
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "58030" {
			t.Fatalf("INSERT whose commit cannot be written: %v; want 58030", err)
		}
		if faults == 0 {
			t.Fatal("no metadata PUT was refused: the test checks nothing")
		}
		if after := objects(); !slices.Equal(after, before) {
			t.Fatalf("objects of the table before the failed INSERT:\n%v\nafter:\n%v", before, after)
		}
		wantSum(thin, "SELECT sum(id) FROM db.t", 10)
	})
	t.Run("a repeated scan reads the cache", func(t *testing.T) {
		exec(cached, "CREATE SCHEMA db", "CREATE TABLE db.t (id bigint, v text)",
			"INSERT INTO db.t SELECT g, repeat('v', 100) FROM generate_series(1, 20000) g")
		// A new connection plans afresh: only the bytes come from the cache.
		// The data files never change, so the second scan asks the store
		// nothing: no GET (the bytes are cached) and no HEAD (their sizes
		// are in the manifests).
		scan := func() int {
			conn := connectTo("cached")
			before := proxy.Requests("GET") + proxy.Requests("HEAD")
			wantSum(conn, "SELECT sum(length(v)) FROM db.t", 2000000)
			conn.Close(ctx)
			return proxy.Requests("GET") + proxy.Requests("HEAD") - before
		}
		first := scan()
		second := scan()
		if first == 0 || second != 0 {
			t.Fatalf("requests of the first scan %d, of the second %d: want none the second time", first, second)
		}
		t.Logf("GETs and HEADs: first scan %d, second %d", first, second)
	})
	t.Run("object missing from the store", func(t *testing.T) {
		var path string
		if err := lake.QueryRow(ctx, `SELECT file_path FROM db."t$files" ORDER BY file_path LIMIT 1`).Scan(&path); err != nil {
			t.Fatal(err)
		}
		key := strings.TrimPrefix(path, "s3://"+srv.Bucket+"/")
		if _, err := srv.Client().DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &srv.Bucket, Key: &key}); err != nil {
			t.Fatal(err)
		}
		_, err := sum(lake, "SELECT sum(id) FROM db.t")
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "58P01" || !strings.Contains(pe.Message, path) {
			t.Fatalf("scan of a table missing an object: %v; want 58P01 naming %s", err, path)
		}
		wantSum(lake, "SELECT sum(id) FROM db.other", 3)
	})
}

// TestObjectStoreBadConfiguration: wrong credentials and a missing bucket
// stop `icegate serve` at start with a message naming the bucket and the
// cause.
func TestObjectStoreBadConfiguration(t *testing.T) {
	if testing.Short() {
		t.Skip("builds icegate and starts an S3-compatible server; -short skips it")
	}
	bin := os.Getenv("ICEGATE_BIN")
	if bin == "" {
		bin = buildBinary(t)
	}
	srv := s3test.Start(t)
	cases := []struct {
		name  string
		props map[string]string
		want  []string
	}{
		{"wrong secret", map[string]string{"s3.secret-access-key": "not-the-secret"}, []string{srv.Bucket, "credentials"}},
		{"unknown access key", map[string]string{"s3.access-key-id": "nobody"}, []string{srv.Bucket, "credentials"}},
		{"missing bucket", map[string]string{"warehouse": "s3://no-such-bucket/lake"}, []string{"no-such-bucket", "does not exist"}},
		// No keys, and none in the AWS chain (no environment, no shared
		// files in an empty HOME, no instance metadata).
		{"no credentials", map[string]string{"s3.access-key-id": "", "s3.secret-access-key": ""}, []string{srv.Bucket, "found no credentials"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := "catalogs:\n" + objectCatalogYAML(t, srv, "lake", srv.Endpoint, c.props)
			config := filepath.Join(t.TempDir(), "icegate.yaml")
			if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "serve", "--config", config, "--listen", "127.0.0.1:0")
			cmd.Env = append(cleanEnv(), "HOME="+t.TempDir(), "AWS_EC2_METADATA_DISABLED=true")
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("icegate serve started with %v:\n%s", c.props, out)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("icegate serve with %v said:\n%s\nwant it to mention %q", c.props, out, w)
				}
			}
		})
	}
}

// TestObjectCacheOfKilledServer: the cache of an object-store catalog
// without a cache directory of its own lives in the server's temporary
// directory, so the next server to start removes what a killed one left
// (before, each SIGKILL left an icegate-cache-* directory for good).
func TestObjectCacheOfKilledServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds icegate and starts an S3-compatible server; -short skips it")
	}
	bin := os.Getenv("ICEGATE_BIN")
	if bin == "" {
		bin = buildBinary(t)
	}
	srv := s3test.Start(t)
	tmp := t.TempDir()
	config := filepath.Join(t.TempDir(), "icegate.yaml")
	body := "catalogs:\n" + objectCatalogYAML(t, srv, "lake", srv.Endpoint, map[string]string{"s3.cache.max-bytes": "64MB"})
	if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	caches := func() []string {
		t.Helper()
		got, err := filepath.Glob(filepath.Join(tmp, "icegate-temp", "icegate-*", "icegate-cache-lake-*"))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	first := startServing(t, bin, []string{"--config", config}, "TMPDIR="+tmp)
	killed := caches()
	if len(killed) != 1 {
		t.Fatalf("cache directories of the running server: %v, want one under %s\n%s", killed, tmp, first.logs)
	}
	first.kill(t)
	second := startServing(t, bin, []string{"--config", config}, "TMPDIR="+tmp)
	defer second.kill(t)
	now := caches()
	if len(now) != 1 || now[0] == killed[0] {
		t.Errorf("cache directories after a restart: %v; the killed server's was %s", now, killed[0])
	}
	if _, err := os.Stat(killed[0]); !os.IsNotExist(err) {
		t.Errorf("the killed server's cache %s is still there (%v)", killed[0], err)
	}
}
