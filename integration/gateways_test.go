package integration

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/s3test"
)

// TestGatewaysShareSQLCatalog runs three icegate processes over one
// catalog (SQL on SQLite, and on PostgreSQL when ICEGATE_TEST_PG is set,
// each with its warehouse in a directory and on an S3-compatible server;
// the hadoop catalog on that server) and one warehouse, with eight writers spread over them inserting into one table,
// and kills one gateway with SIGKILL three times mid-commit, restarting it.
// Every INSERT a gateway acknowledged is in the table exactly once, every
// INSERT it refused with an error is not, one whose connection died is in
// at most once, and each gateway sees the others' commits at its next
// statement.
func TestGatewaysShareSQLCatalog(t *testing.T) {
	if testing.Short() {
		t.Skip("the gateways test builds and kills icegate; -short skips it")
	}
	bin := os.Getenv("ICEGATE_BIN")
	if bin == "" {
		bin = buildBinary(t)
	}
	sqlCatalog := func(uri string) func(t *testing.T, dir string) string {
		return func(t *testing.T, dir string) string {
			return fmt.Sprintf("catalogs:\n  lake:\n    type: sql\n    uri: %q\n    warehouse: %s\n", uri, filepath.Join(dir, "lake"))
		}
	}
	// A catalog of kind on the S3-compatible server of the test.
	onS3 := func(kind, uri string) func(t *testing.T, dir string) string {
		return func(t *testing.T, dir string) string {
			srv := s3test.Start(t)
			body := fmt.Sprintf("catalogs:\n  lake:\n    type: %s\n    warehouse: s3://%s/lake\n", kind, srv.Bucket)
			if uri != "" {
				body += fmt.Sprintf("    uri: %q\n", uri)
			}
			for _, k := range slices.Sorted(maps.Keys(srv.Props())) {
				body += fmt.Sprintf("    %s: %q\n", k, srv.Props()[k])
			}
			return body
		}
	}
	cases := []struct {
		name    string
		catalog func(t *testing.T, dir string) string
	}{
		{"sqlite", sqlCatalog("jdbc:sqlite:" + filepath.Join(t.TempDir(), "catalog.db"))},
		{"sqlite-s3", onS3("sql", "jdbc:sqlite:"+filepath.Join(t.TempDir(), "catalog.db"))},
		{"hadoop-s3", onS3("hadoop", "")},
		// Three gateways whose catalog is the REST catalog a fourth
		// icegate serves over SQL on SQLite.
		{"rest", func(t *testing.T, dir string) string {
			return startRESTCatalogServer(t, bin, dir).clientConfig()
		}},
	}
	if pg := os.Getenv("ICEGATE_TEST_PG"); pg != "" {
		cases = append(cases, struct {
			name    string
			catalog func(t *testing.T, dir string) string
		}{"postgres", sqlCatalog(freshDatabase(t, pg))}, struct {
			name    string
			catalog func(t *testing.T, dir string) string
		}{"postgres-s3", onS3("sql", freshDatabase(t, pg))})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runGateways(t, bin, c.catalog) })
	}
}

// freshDatabase creates a database on the PostgreSQL at admin, dropped
// when the test ends, and returns its URI.
func freshDatabase(t *testing.T, admin string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	db := fmt.Sprintf("gateways_%d", time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, err := pgx.Connect(ctx, admin); err == nil {
			c.Exec(ctx, "DROP DATABASE "+db+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	cfg, err := pgx.ParseConfig(admin)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("postgresql://%s@%s/%s?sslmode=disable", cfg.User, net.JoinHostPort(cfg.Host, fmt.Sprint(cfg.Port)), db)
}

// ledgerEntry is one INSERT of a writer and what its gateway answered.
type ledgerEntry struct {
	writer, seq int
	outcome     string // "ok", "refused" (an error response), "in doubt" (the connection failed)
}

// runGateways runs the test on the catalog whose configuration catalog
// returns (given a directory of the test's own).
func runGateways(t *testing.T, bin string, catalog func(t *testing.T, dir string) string) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := t.TempDir()
	config := filepath.Join(dir, "icegate.yaml")
	body := catalog(t, dir)
	if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--config", config}
	gateways := make([]*crashServer, 3)
	var mu sync.Mutex // guards gateways
	for i := range gateways {
		gateways[i] = startServing(t, bin, args)
	}
	t.Cleanup(func() {
		for _, g := range gateways {
			g.kill(t)
		}
	})
	addr := func(i int) string {
		mu.Lock()
		defer mu.Unlock()
		return gateways[i].addr
	}
	connectLake := func(ctx context.Context, a string) (*pgx.Conn, error) {
		return pgx.Connect(ctx, strings.Replace(connString(a, "icegate", ""), "/icegate?", "/lake?", 1))
	}
	setup, err := connectLake(ctx, addr(0))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE SCHEMA db", "CREATE TABLE db.ledger (writer int, seq int)"} {
		if _, err := setup.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	setup.Close(ctx)

	const writers = 8
	const runFor = 12 * time.Second
	stop := time.Now().Add(runFor)
	ledgers := make([][]ledgerEntry, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var conn *pgx.Conn
			for seq := 1; time.Now().Before(stop); seq++ {
				if conn == nil {
					c, err := connectLake(ctx, addr(w%len(gateways)))
					if err != nil {
						time.Sleep(100 * time.Millisecond) // the gateway is restarting
						seq--
						continue
					}
					conn = c
				}
				_, err := conn.Exec(ctx, "INSERT INTO db.ledger VALUES ($1, $2)", w, seq)
				var pe *pgconn.PgError
				switch {
				case err == nil:
					ledgers[w] = append(ledgers[w], ledgerEntry{w, seq, "ok"})
				case errors.As(err, &pe) && !conn.IsClosed():
					ledgers[w] = append(ledgers[w], ledgerEntry{w, seq, "refused"})
				default:
					ledgers[w] = append(ledgers[w], ledgerEntry{w, seq, "in doubt"})
					conn.Close(ctx)
					conn = nil
				}
			}
			if conn != nil {
				conn.Close(ctx)
			}
		}()
	}
	// Kill gateway 1 three times while the writers commit.
	for range 3 {
		time.Sleep(runFor / 4)
		mu.Lock()
		g := gateways[1]
		mu.Unlock()
		g.kill(t)
		next := startServing(t, bin, args)
		mu.Lock()
		gateways[1] = next
		mu.Unlock()
	}
	wg.Wait()

	// Every gateway sees the same rows.
	counts := map[[2]int]int{}
	for i := range gateways {
		conn, err := connectLake(ctx, addr(i))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := conn.Query(ctx, "SELECT writer, seq FROM db.ledger")
		if err != nil {
			t.Fatal(err)
		}
		seen := map[[2]int]int{}
		for rows.Next() {
			var w, s int
			if err := rows.Scan(&w, &s); err != nil {
				t.Fatal(err)
			}
			seen[[2]int{w, s}]++
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		conn.Close(ctx)
		if i == 0 {
			counts = seen
			continue
		}
		if len(seen) != len(counts) {
			t.Errorf("gateway %d sees %d rows, gateway 0 %d", i, len(seen), len(counts))
		}
	}
	var ok, refused, doubt int
	for _, l := range ledgers {
		for _, e := range l {
			n := counts[[2]int{e.writer, e.seq}]
			switch e.outcome {
			case "ok":
				ok++
				if n != 1 {
					t.Errorf("acknowledged insert (%d, %d) is in the table %d times", e.writer, e.seq, n)
				}
			case "refused":
				refused++
				if n != 0 {
					t.Errorf("refused insert (%d, %d) is in the table %d times", e.writer, e.seq, n)
				}
			default:
				doubt++
				if n > 1 {
					t.Errorf("insert in doubt (%d, %d) is in the table %d times", e.writer, e.seq, n)
				}
			}
		}
	}
	for k, n := range counts {
		if n > 1 {
			t.Errorf("row %v is in the table %d times", k, n)
		}
	}
	t.Logf("%d inserts acknowledged, %d refused, %d in doubt; %d rows", ok, refused, doubt, len(counts))
	if ok == 0 {
		t.Fatal("no insert was acknowledged: the test checks nothing")
	}
}

// TestAdvisoryLocksAcrossGateways: two gateways over one SQL catalog on
// PostgreSQL share advisory locks, as two clients of one PostgreSQL do
// (golang-migrate and other migration tools lock this way): a lock held
// through one gateway is refused through the other, released by unlock,
// by the end of its transaction for the _xact_ forms, and by the death of
// the gateway that held it.
func TestAdvisoryLocksAcrossGateways(t *testing.T) {
	if testing.Short() {
		t.Skip("the gateways test builds and kills icegate; -short skips it")
	}
	pg := os.Getenv("ICEGATE_TEST_PG")
	if pg == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL: the SQL catalog's database holds the locks")
	}
	bin := os.Getenv("ICEGATE_BIN")
	if bin == "" {
		bin = buildBinary(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	config := filepath.Join(dir, "icegate.yaml")
	body := fmt.Sprintf("catalogs:\n  lake:\n    type: sql\n    uri: %q\n    warehouse: %s\n", freshDatabase(t, pg), filepath.Join(dir, "lake"))
	if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	g1 := startServing(t, bin, []string{"--config", config})
	g2 := startServing(t, bin, []string{"--config", config})
	t.Cleanup(func() { g2.kill(t) })
	lake := func(addr string) *pgx.Conn {
		c, err := pgx.Connect(ctx, strings.Replace(connString(addr, "icegate", ""), "/icegate?", "/lake?", 1))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
	a, b := lake(g1.addr), lake(g2.addr)
	try := func(c *pgx.Conn, q string) bool {
		t.Helper()
		var ok bool
		if err := c.QueryRow(ctx, q).Scan(&ok); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return ok
	}
	steps := []struct {
		conn *pgx.Conn
		sql  string
		want bool
	}{
		{a, "SELECT pg_try_advisory_lock(42)", true},
		{b, "SELECT pg_try_advisory_lock(42)", false},
		{b, "SELECT pg_try_advisory_lock(7, 42)", true}, // the two-key space is another
		{a, "SELECT pg_try_advisory_lock_shared(7, 42)", false},
		{a, "SELECT pg_advisory_unlock(42)", true},
		{b, "SELECT pg_try_advisory_lock(42)", true},
		{b, "SELECT pg_advisory_unlock(42)", true},
		{a, "SELECT pg_try_advisory_lock_shared(43)", true},
		{b, "SELECT pg_try_advisory_lock_shared(43)", true},
		{b, "SELECT pg_try_advisory_lock(43)", false},
	}
	for i, s := range steps {
		if got := try(s.conn, s.sql); got != s.want {
			t.Fatalf("step %d: %s = %v; want %v", i, s.sql, got, s.want)
		}
	}
	// A transaction-level lock ends with its transaction.
	tx, err := a.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ok bool
	if err := tx.QueryRow(ctx, "SELECT pg_try_advisory_xact_lock(44)").Scan(&ok); err != nil || !ok {
		t.Fatalf("xact lock: %v, %v", ok, err)
	}
	if try(b, "SELECT pg_try_advisory_lock(44)") {
		t.Fatal("a transaction's lock is free through the other gateway")
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if !try(b, "SELECT pg_try_advisory_lock(44)") {
		t.Fatal("a committed transaction's lock is still held")
	}
	// A lock dies with the gateway that held it; a waiter gets it.
	if !try(a, "SELECT pg_try_advisory_lock(45)") {
		t.Fatal("lock 45")
	}
	got := make(chan error, 1)
	go func() {
		_, err := b.Exec(ctx, "SELECT pg_advisory_lock(45)")
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("pg_advisory_lock(45) returned while the other gateway holds it: %v", err)
	case <-time.After(500 * time.Millisecond):
	}
	g1.kill(t)
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the lock of a killed gateway is still held")
	}
}
