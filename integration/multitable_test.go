package integration

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// restCatalogServer is an icegate serving a SQL catalog (on SQLite, its
// warehouse in dir) called lake over the REST catalog protocol at restAddr.
type restCatalogServer struct {
	bin, config, restAddr string
	gw                    *crashServer
}

func startRESTCatalogServer(t *testing.T, bin, dir string) *restCatalogServer {
	t.Helper()
	config := filepath.Join(dir, "rest-server.yaml")
	body := fmt.Sprintf("catalogs:\n  lake:\n    type: sql\n    uri: %q\n    warehouse: %s\n",
		"jdbc:sqlite:"+filepath.Join(dir, "catalog.db"), filepath.Join(dir, "lake"))
	if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &restCatalogServer{bin: bin, config: config, restAddr: freeAddr(t)}
	s.start(t)
	t.Cleanup(func() { s.gw.kill(t) })
	return s
}

// start runs the server and waits until its REST port accepts.
func (s *restCatalogServer) start(t *testing.T) {
	t.Helper()
	s.gw = startServing(t, s.bin, []string{"--config", s.config, "--rest-listen", s.restAddr})
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", s.restAddr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the REST catalog port %s does not accept: %v\n%s", s.restAddr, err, s.gw.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// clientConfig is the configuration of a gateway whose catalog lake is
// the REST catalog s serves.
func (s *restCatalogServer) clientConfig() string {
	return fmt.Sprintf("catalogs:\n  lake:\n    type: rest\n    uri: http://%s\n    warehouse: lake\n", s.restAddr)
}

// TestMultiTableCommitSurvivesKill: writers run blocks that insert the
// same key into two tables (BEGIN; INSERT INTO a; INSERT INTO b; COMMIT)
// through a gateway that is killed with SIGKILL again and again, over the
// SQL catalog and over a REST catalog (whose server is killed too). Each
// key is in both tables or in neither; every acknowledged COMMIT is in
// both.
func TestMultiTableCommitSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("the kill test builds and kills icegate; -short skips it")
	}
	bin := os.Getenv("ICEGATE_BIN")
	if bin == "" {
		bin = buildBinary(t)
	}
	for _, kind := range []string{"sql", "rest"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			var rest *restCatalogServer
			var body string
			switch kind {
			case "sql":
				body = fmt.Sprintf("catalogs:\n  lake:\n    type: sql\n    uri: %q\n    warehouse: %s\n",
					"jdbc:sqlite:"+filepath.Join(dir, "catalog.db"), filepath.Join(dir, "lake"))
			case "rest":
				rest = startRESTCatalogServer(t, bin, dir)
				body = rest.clientConfig()
			}
			config := filepath.Join(dir, "icegate.yaml")
			if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			runMultiTableKills(t, bin, []string{"--config", config}, rest)
		})
	}
}

func runMultiTableKills(t *testing.T, bin string, args []string, rest *restCatalogServer) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var mu sync.Mutex // guards gw
	gw := startServing(t, bin, args)
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		gw.kill(t)
	})
	connectLake := func(ctx context.Context) (*pgx.Conn, error) {
		mu.Lock()
		addr := gw.addr
		mu.Unlock()
		return pgx.Connect(ctx, strings.Replace(connString(addr, "icegate", ""), "/icegate?", "/lake?", 1))
	}
	setup, err := connectLake(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE SCHEMA db", "CREATE TABLE db.a (k text)", "CREATE TABLE db.b (k text)"} {
		if _, err := setup.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	setup.Close(ctx)

	const writers = 4
	const runFor = 10 * time.Second
	stop := time.Now().Add(runFor)
	acked := make([][]string, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var conn *pgx.Conn
			for seq := 1; time.Now().Before(stop); seq++ {
				if conn == nil {
					c, err := connectLake(ctx)
					if err != nil {
						time.Sleep(100 * time.Millisecond)
						continue
					}
					conn = c
				}
				key := fmt.Sprintf("%d-%d", w, seq)
				err := func() error {
					for _, q := range []string{"BEGIN", "INSERT INTO db.a VALUES ($1)", "INSERT INTO db.b VALUES ($1)", "COMMIT"} {
						var err error
						if strings.Contains(q, "$1") {
							_, err = conn.Exec(ctx, q, key)
						} else {
							_, err = conn.Exec(ctx, q)
						}
						if err != nil {
							return err
						}
					}
					return nil
				}()
				var pe *pgconn.PgError
				switch {
				case err == nil:
					acked[w] = append(acked[w], key)
				case errors.As(err, &pe) && !conn.IsClosed():
					conn.Exec(ctx, "ROLLBACK")
				default:
					conn.Close(ctx)
					conn = nil
				}
			}
			if conn != nil {
				conn.Close(ctx)
			}
		}()
	}
	// Kill the gateway four times at random moments; over REST, kill the
	// catalog's server once as well.
	for i := range 4 {
		time.Sleep(runFor/5 + time.Duration(rand.IntN(400))*time.Millisecond - 200*time.Millisecond)
		if rest != nil && i == 2 {
			rest.gw.kill(t)
			rest.start(t)
			continue
		}
		mu.Lock()
		old := gw
		mu.Unlock()
		old.kill(t)
		next := startServing(t, bin, args)
		mu.Lock()
		gw = next
		mu.Unlock()
	}
	wg.Wait()

	conn, err := connectLake(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	keys := func(table string) map[string]int {
		rows, err := conn.Query(ctx, "SELECT k FROM db."+table)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				t.Fatal(err)
			}
			out[k]++
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := keys("a"), keys("b")
	for k, n := range a {
		if n != 1 || b[k] != 1 {
			t.Errorf("key %s is %d times in a and %d times in b", k, n, b[k])
		}
	}
	for k, n := range b {
		if a[k] == 0 {
			t.Errorf("key %s is %d times in b and not in a", k, n)
		}
	}
	total := 0
	for _, l := range acked {
		for _, k := range l {
			total++
			if a[k] != 1 || b[k] != 1 {
				t.Errorf("acknowledged COMMIT of key %s: %d rows in a, %d in b", k, a[k], b[k])
			}
		}
	}
	t.Logf("%d COMMITs acknowledged; %d keys in both tables", total, len(a))
	if total == 0 {
		t.Fatal("no COMMIT was acknowledged: the test checks nothing")
	}
}
