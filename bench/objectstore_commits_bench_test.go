package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/s3test"
)

// defaultCommitWriters is how many clients insert at once unless
// ICEGATE_BENCH_COMMIT_WRITERS says otherwise.
const defaultCommitWriters = 8

// BenchmarkCommitsObjectStore measures commits a second on one table
// through real icegate processes whose catalog's warehouse is on an
// S3-compatible server (versitygw on loopback, internal/s3test):
// `sqlite-s3` is the SQL catalog on SQLite, `hadoop-s3` the hadoop
// catalog (commits arbitrated by the store's If-None-Match), and, when
// ICEGATE_BENCH_PG is a PostgreSQL connection string, `postgres-s3` the
// SQL catalog on a fresh database of that server. Each runs with 1 and
// with 3 gateways over the same configuration (a fresh server, bucket
// and catalog database for each sub-benchmark), and eight writers, spread
// over the gateways, each insert one row at a time with
// `INSERT INTO db.t VALUES ($1, $2)` for ICEGATE_BENCH_COMMIT_SECONDS
// (default 10) into a table created untimed; every INSERT is its own
// commit. ICEGATE_BENCH_COMMIT_WRITERS changes the number of writers (1
// gives the latency of an uncontended commit).
//
// The gateways reach the store through a proxy in the benchmark process
// that counts requests: every commit attempt writes one manifest list
// (metadata/snap-*.avro), so the attempts that lost the race to another
// writer are the manifest lists written less the rows the table ends with
// (one a committed INSERT). Reported: commits/s (acknowledged INSERTs over
// the window), lost-races (attempts that lost a race, retried or not),
// refused (INSERTs answered with an error), in-doubt (a connection that
// failed), p50-ms and p99-ms (an INSERT's latency at the client) and
// store-412 (conditional writes the store refused: the hadoop catalog's
// lost races). The benchmark fails when an acknowledged INSERT is missing
// or a refused one is in the table.
//
// ICEGATE_BIN names a built icegate; otherwise the benchmark builds
// ./cmd/icegate once per process.
func BenchmarkCommitsObjectStore(b *testing.B) {
	bin := icegateBinary(b)
	window := commitWindow(b)
	writers := defaultCommitWriters
	if s := os.Getenv("ICEGATE_BENCH_COMMIT_WRITERS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("ICEGATE_BENCH_COMMIT_WRITERS=%q: want a positive number", s)
		}
		writers = n
	}
	type kind struct {
		name    string
		catalog func(b *testing.B) string // the catalog's type and uri lines
	}
	kinds := []kind{
		{"sqlite-s3", func(b *testing.B) string {
			return fmt.Sprintf("    type: sql\n    uri: %q\n", "jdbc:sqlite:"+filepath.Join(b.TempDir(), "catalog.db"))
		}},
		{"hadoop-s3", func(*testing.B) string { return "    type: hadoop\n" }},
	}
	if pg := os.Getenv("ICEGATE_BENCH_PG"); pg != "" {
		kinds = append(kinds, kind{"postgres-s3", func(b *testing.B) string {
			return fmt.Sprintf("    type: sql\n    uri: %q\n", freshPGDatabase(b, pg))
		}})
	}
	for _, k := range kinds {
		for _, n := range []int{1, 3} {
			b.Run(fmt.Sprintf("%s/gateways=%d", k.name, n), func(b *testing.B) {
				runCommits(b, bin, k.catalog(b), n, writers, window)
			})
		}
	}
}

// runCommits serves the catalog (catalogLines: its type and uri) on a
// fresh versitygw through n gateways and runs the writers for window once
// an iteration, each iteration on a new table.
func runCommits(b *testing.B, bin, catalogLines string, n, writers int, window time.Duration) {
	srv := s3test.Start(b)
	proxy := newCountingProxy(b, srv.Endpoint)
	props := srv.Props()
	props["s3.endpoint"] = proxy.URL
	cfg := "catalogs:\n  lake:\n" + catalogLines + fmt.Sprintf("    warehouse: s3://%s/lake\n", srv.Bucket)
	for _, k := range slices.Sorted(maps.Keys(props)) {
		cfg += fmt.Sprintf("    %s: %q\n", k, props[k])
	}
	config := filepath.Join(b.TempDir(), "icegate.yaml")
	if err := os.WriteFile(config, []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	gateways := make([]string, n)
	for i := range gateways {
		gateways[i] = startGateway(b, bin, config)
	}
	ctx := context.Background()
	setup, err := pgx.Connect(ctx, lakeDSN(gateways[0]))
	if err != nil {
		b.Fatal(err)
	}
	defer setup.Close(ctx)
	if _, err := setup.Exec(ctx, "CREATE SCHEMA db"); err != nil {
		b.Fatal(err)
	}

	var total commitTotals
	table := 0
	for b.Loop() {
		b.StopTimer()
		table++
		name := fmt.Sprintf("db.t%d", table)
		if _, err := setup.Exec(ctx, "CREATE TABLE "+name+" (writer int, seq int)"); err != nil {
			b.Fatal(err)
		}
		before := proxy.counts()
		b.StartTimer()
		w := runWriters(ctx, gateways, name, writers, window)
		b.StopTimer()
		after := proxy.counts()
		var rows int
		if err := setup.QueryRow(ctx, "SELECT count(*) FROM "+name).Scan(&rows); err != nil {
			b.Fatal(err)
		}
		if rows < w.ok || rows > w.ok+w.doubt {
			b.Errorf("%s holds %d rows after %d acknowledged and %d in-doubt INSERTs", name, rows, w.ok, w.doubt)
		}
		if err := checkLedger(ctx, setup, name, w); err != nil {
			b.Error(err)
		}
		d := after.minus(before)
		total.add(w, rows, d)
		b.StartTimer()
	}
	total.report(b, n, writers)
}

// writerResults is what the writers of one window saw.
type writerResults struct {
	elapsed          time.Duration
	ok, refused      int
	doubt            int
	latencies        []time.Duration // of acknowledged INSERTs
	acked, rejected  [][2]int        // (writer, seq) of acknowledged and refused INSERTs
	refusedCodes     map[string]int  // SQLSTATE: count
	firstRefusedText string
}

// runWriters runs writers clients, writer w on gateway w % n, each
// inserting (w, seq) with seq counting up until window has passed; the
// INSERT in flight at the end finishes.
func runWriters(ctx context.Context, gateways []string, table string, writers int, window time.Duration) writerResults {
	var (
		mu  sync.Mutex
		res = writerResults{refusedCodes: map[string]int{}}
		wg  sync.WaitGroup
	)
	start := time.Now()
	stop := start.Add(window)
	for w := range writers {
		wg.Go(func() {
			var conn *pgx.Conn
			defer func() {
				if conn != nil {
					conn.Close(ctx)
				}
			}()
			for seq := 1; time.Now().Before(stop); seq++ {
				if conn == nil {
					c, err := pgx.Connect(ctx, lakeDSN(gateways[w%len(gateways)]))
					if err != nil {
						time.Sleep(100 * time.Millisecond)
						seq--
						continue
					}
					conn = c
				}
				t0 := time.Now()
				_, err := conn.Exec(ctx, "INSERT INTO "+table+" VALUES ($1, $2)", w, seq)
				lat := time.Since(t0)
				var pe *pgconn.PgError
				mu.Lock()
				switch {
				case err == nil:
					res.ok++
					res.latencies = append(res.latencies, lat)
					res.acked = append(res.acked, [2]int{w, seq})
				case errors.As(err, &pe) && !conn.IsClosed():
					res.refused++
					res.rejected = append(res.rejected, [2]int{w, seq})
					res.refusedCodes[pe.Code]++
					if res.firstRefusedText == "" {
						res.firstRefusedText = pe.Code + ": " + pe.Message
					}
				default:
					res.doubt++
					conn.Close(ctx)
					conn = nil
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}

// checkLedger checks that every acknowledged INSERT is in table once and
// no refused one is.
func checkLedger(ctx context.Context, conn *pgx.Conn, table string, w writerResults) error {
	rows, err := conn.Query(ctx, "SELECT writer, seq FROM "+table)
	if err != nil {
		return err
	}
	seen := map[[2]int]int{}
	for rows.Next() {
		var k [2]int
		if err := rows.Scan(&k[0], &k[1]); err != nil {
			rows.Close()
			return err
		}
		seen[k]++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var errs []error
	for _, k := range w.acked {
		if seen[k] != 1 {
			errs = append(errs, fmt.Errorf("acknowledged INSERT %v is in %s %d times", k, table, seen[k]))
		}
	}
	for _, k := range w.rejected {
		if seen[k] != 0 {
			errs = append(errs, fmt.Errorf("refused INSERT %v is in %s %d times", k, table, seen[k]))
		}
	}
	if len(errs) > 5 {
		errs = append(errs[:5], fmt.Errorf("and %d more", len(errs)-5))
	}
	return errors.Join(errs...)
}

// commitTotals adds up the windows of a sub-benchmark.
type commitTotals struct {
	windows                   int
	elapsed                   time.Duration
	ok, refused, doubt, rows  int
	latencies                 []time.Duration
	store                     storeCounts
	refusedCodes              map[string]int
	firstRefusedText          string
	manifestListsMinusCommits int
}

func (t *commitTotals) add(w writerResults, rows int, d storeCounts) {
	t.windows++
	t.elapsed += w.elapsed
	t.ok += w.ok
	t.refused += w.refused
	t.doubt += w.doubt
	t.rows += rows
	t.latencies = append(t.latencies, w.latencies...)
	t.store = t.store.plus(d)
	t.manifestListsMinusCommits += d.manifestLists - rows
	if t.refusedCodes == nil {
		t.refusedCodes = map[string]int{}
	}
	for k, v := range w.refusedCodes {
		t.refusedCodes[k] += v
	}
	if t.firstRefusedText == "" {
		t.firstRefusedText = w.firstRefusedText
	}
}

func (t *commitTotals) report(b *testing.B, gateways, writers int) {
	if t.windows == 0 || t.elapsed <= 0 {
		return
	}
	per := func(n int) float64 { return float64(n) / float64(t.windows) }
	b.ReportMetric(float64(t.ok)/t.elapsed.Seconds(), "commits/s")
	b.ReportMetric(per(t.manifestListsMinusCommits), "lost-races")
	b.ReportMetric(per(t.refused), "refused")
	b.ReportMetric(per(t.doubt), "in-doubt")
	b.ReportMetric(per(t.store.status412), "store-412")
	slices.Sort(t.latencies)
	b.ReportMetric(quantileMs(t.latencies, 0.5), "p50-ms")
	b.ReportMetric(quantileMs(t.latencies, 0.99), "p99-ms")
	var req []string
	for _, m := range slices.Sorted(maps.Keys(t.store.requests)) {
		req = append(req, fmt.Sprintf("%s %.1f", m, float64(t.store.requests[m])/max(float64(t.rows), 1)))
	}
	b.Logf("%d gateways, %d writers, %v: %d INSERTs acknowledged (%.1f/s), %d refused %v, %d in doubt; %d rows; "+
		"%d manifest lists written (%d attempts lost a race); store requests a committed row: %s",
		gateways, writers, t.elapsed.Round(time.Millisecond), t.ok, float64(t.ok)/t.elapsed.Seconds(),
		t.refused, t.refusedCodes, t.doubt, t.rows, t.store.manifestLists, t.manifestListsMinusCommits, strings.Join(req, ", "))
	if t.firstRefusedText != "" {
		b.Logf("first refusal: %s", t.firstRefusedText)
	}
}

// quantileMs is the q quantile of sorted, in milliseconds.
func quantileMs(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := min(int(q*float64(len(sorted))), len(sorted)-1)
	return float64(sorted[i].Microseconds()) / 1000
}

// lakeDSN is the URL of database lake of the gateway at addr.
func lakeDSN(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	return "postgres://icegate@" + host + ":" + port + "/lake?sslmode=disable"
}

// commitWindow is ICEGATE_BENCH_COMMIT_SECONDS; 10 s when unset.
func commitWindow(b *testing.B) time.Duration {
	b.Helper()
	s := os.Getenv("ICEGATE_BENCH_COMMIT_SECONDS")
	if s == "" {
		return 10 * time.Second
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 {
		b.Fatalf("ICEGATE_BENCH_COMMIT_SECONDS=%q: want a positive number of seconds", s)
	}
	return time.Duration(v * float64(time.Second))
}

// builtBinary is icegate built once per process; main_test.go removes
// its directory after the run.
var builtBinary struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// icegateBinary is $ICEGATE_BIN, or ./cmd/icegate built once per process.
func icegateBinary(b *testing.B) string {
	b.Helper()
	if p := os.Getenv("ICEGATE_BIN"); p != "" {
		return p
	}
	bb := &builtBinary
	bb.once.Do(func() {
		if bb.dir, bb.err = os.MkdirTemp("", "icegate-bench-bin-"); bb.err != nil {
			return
		}
		bb.path = filepath.Join(bb.dir, "icegate")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "go", "build", "-o", bb.path, "github.com/icegate/icegate/cmd/icegate").CombinedOutput()
		if err != nil {
			bb.err = fmt.Errorf("go build ./cmd/icegate: %w\n%s", err, out)
		}
	})
	if bb.err != nil {
		b.Fatal(bb.err)
	}
	return bb.path
}

// lockedBuffer collects a process's output.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<20 {
		return len(p), nil
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startGateway runs `bin serve --config config` on a free loopback port
// and waits until it accepts connections. It gets SIGTERM when the
// benchmark ends (SIGKILL after ten seconds); its output is logged when
// the benchmark failed.
func startGateway(b *testing.B, bin, config string) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "serve", "--config", config, "--listen", addr)
	cmd.Dir = b.TempDir()
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ICEGATE_") && !strings.HasPrefix(kv, "PG") && !strings.HasPrefix(kv, "AWS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var logs lockedBuffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	b.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			b.Errorf("icegate on %s still running 10s after SIGTERM", addr)
		}
		if b.Failed() {
			b.Logf("icegate on %s:\n%s", addr, logs.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return addr
		}
		select {
		case err := <-exited:
			b.Fatalf("icegate serve exited before accepting connections: %v\n%s", err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			b.Fatalf("icegate serve not accepting on %s after 30s\n%s", addr, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// freshPGDatabase creates a database on the PostgreSQL server at admin,
// dropped when the benchmark ends, and returns its URL.
func freshPGDatabase(b *testing.B, admin string) string {
	b.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		b.Fatalf("ICEGATE_BENCH_PG: %v", err)
	}
	defer conn.Close(ctx)
	db := fmt.Sprintf("icegate_bench_%d", time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if c, err := pgx.Connect(ctx, admin); err == nil {
			c.Exec(ctx, "DROP DATABASE "+db+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	cfg := conn.Config()
	u := url.URL{Scheme: "postgresql", User: url.User(cfg.User), Path: "/" + db, RawQuery: "sslmode=disable"}
	if cfg.Password != "" {
		u.User = url.UserPassword(cfg.User, cfg.Password)
	}
	if strings.HasPrefix(cfg.Host, "/") { // a Unix socket directory
		u.Host = ""
		u.RawQuery += "&host=" + url.QueryEscape(cfg.Host) + "&port=" + strconv.Itoa(int(cfg.Port))
	} else {
		u.Host = net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
	}
	return u.String()
}

// storeCounts are the requests a countingProxy passed on.
type storeCounts struct {
	requests      map[string]int // by method
	manifestLists int            // successful PUTs of metadata/snap-*.avro
	status412     int            // answers 412 Precondition Failed
	getBytes      int64          // Content-Length of successful GETs
}

func (s storeCounts) minus(o storeCounts) storeCounts {
	d := storeCounts{requests: map[string]int{}, manifestLists: s.manifestLists - o.manifestLists, status412: s.status412 - o.status412,
		getBytes: s.getBytes - o.getBytes}
	for k, v := range s.requests {
		if v -= o.requests[k]; v != 0 {
			d.requests[k] = v
		}
	}
	return d
}

func (s storeCounts) plus(o storeCounts) storeCounts {
	d := storeCounts{requests: map[string]int{}, manifestLists: s.manifestLists + o.manifestLists, status412: s.status412 + o.status412,
		getBytes: s.getBytes + o.getBytes}
	for k, v := range s.requests {
		d.requests[k] += v
	}
	for k, v := range o.requests {
		d.requests[k] += v
	}
	return d
}

// countingProxy is a reverse proxy in front of an S3-compatible server
// that counts what passes: requests by method, bytes read, manifest lists
// written and conditional writes refused.
type countingProxy struct {
	URL string

	mu sync.Mutex
	c  storeCounts
}

// newCountingProxy starts a proxy to target (http://host:port), stopped
// when b ends.
func newCountingProxy(b *testing.B, target string) *countingProxy {
	b.Helper()
	u, err := url.Parse(target)
	if err != nil {
		b.Fatal(err)
	}
	p := &countingProxy{c: storeCounts{requests: map[string]int{}}}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(u)
			r.Out.Host = r.In.Host // the client signed the Host it sent
		},
		ModifyResponse: func(resp *http.Response) error {
			req := resp.Request
			p.mu.Lock()
			defer p.mu.Unlock()
			p.c.requests[req.Method]++
			if resp.StatusCode == http.StatusPreconditionFailed {
				p.c.status412++
			}
			if req.Method == http.MethodPut && resp.StatusCode/100 == 2 && isManifestList(req.URL.Path) {
				p.c.manifestLists++
			}
			if req.Method == http.MethodGet && resp.StatusCode/100 == 2 && resp.ContentLength > 0 {
				p.c.getBytes += resp.ContentLength
			}
			return nil
		},
	}
	srv := httptest.NewServer(rp)
	b.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// isManifestList reports whether an object path names a manifest list,
// .../metadata/snap-<snapshot id>-<attempt>-<uuid>.avro.
func isManifestList(path string) bool {
	dir, file := filepath.Split(path)
	return strings.HasSuffix(dir, "/metadata/") && strings.HasPrefix(file, "snap-") && strings.HasSuffix(file, ".avro")
}

func (p *countingProxy) counts() storeCounts {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.c.plus(storeCounts{})
}
