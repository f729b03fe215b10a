package bench

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/bench/tpch"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/sqldb"
	"github.com/icegate/icegate/internal/s3test"
	"github.com/icegate/icegate/objstore"
)

// The modes of BenchmarkTPCHObjectStore, in the order each query runs them.
const (
	modeLocal  = "local"
	modeS3Warm = "s3-warm"
	modeS3Cold = "s3-cold"
)

// objectCacheBytes bounds the warm mode's disk cache: the server's default
// bound, far above the TPC-H files at scale factor 1.
const objectCacheBytes = 4 << 30

// BenchmarkTPCHObjectStore runs the 22 TPC-H queries over a warehouse on
// an S3-compatible object store beside the same queries over a local
// warehouse. The tables at ICEGATE_BENCH_SF (default 0.1) are loaded once
// per run of the benchmark, as BenchmarkTPCH loads them (CREATE TABLE and
// COPY FROM STDIN through an in-process icegate), into a SQL catalog on
// SQLite whose warehouse is a bucket of a versitygw server on loopback
// (internal/s3test); the local warehouse is BenchmarkTPCH's (loaded once
// per process). Each query runs as BenchmarkTPCHObjectStore/qNN/<mode>:
//
//   - local: BenchmarkTPCH's filesystem catalog, one server and connection
//     for every query; the query runs once untimed, then timed.
//   - s3-warm: the SQL catalog on the object store read through a disk
//     cache of the objects (objstore.Cache), one catalog, server and
//     connection for every query; the query runs once untimed (filling the
//     cache), then timed.
//   - s3-cold: every iteration opens, untimed, a new catalog (its cache of
//     parsed metadata empty) over a new store client without a disk cache,
//     a new server and a new connection, then times the query: every
//     metadata file, manifest and data file comes from the store.
//
// After its timed runs each object-store sub-benchmark runs the query once
// more, untimed, through a proxy that counts requests (a second warm
// catalog over the same disk cache, its own caches filled by one more
// run; or a new cold catalog) and reports the GETs, HEADs and MB-read
// (bytes of the GET answers) of that run.
//
// Each sub-benchmark reports rows and median-ms (the median of its
// iterations: run with -benchtime 3x for three). The tables are loaded
// once whatever -count: it repeats each sub-benchmark. At the end the
// benchmark logs a table of the medians of all the timed runs of each
// query and mode and the geometric means over the queries of
// s3-warm/local and s3-cold/local. Queries answered 0A000 are skipped;
// ICEGATE_BENCH_TIMEOUT bounds each query as in BenchmarkTPCH.
func BenchmarkTPCHObjectStore(b *testing.B) {
	sf := scaleFactor(b)
	ctx := context.Background()
	queries, err := tpch.QueriesAt(sf)
	if err != nil {
		b.Fatal(err)
	}
	timeout := queryTimeout(b)

	localCat, err := tpchCatalog(b, os.Getenv("ICEGATE_BENCH_KEEP"), sf)
	if err != nil {
		b.Fatal(err)
	}
	local := &tpchClient{dsn: icegateDSN(startServer(b, localCat)), timeout: timeout}
	defer local.close(ctx)

	wh, err := loadObjectTPCH(b, sf)
	if err != nil {
		b.Fatal(err)
	}
	blobs, err := objstore.NewCache(filepath.Join(b.TempDir(), "cache"), objectCacheBytes)
	if err != nil {
		b.Fatal(err)
	}
	warmCat, err := wh.open(ctx, blobs)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { warmCat.Close(ctx) })
	warm := &tpchClient{dsn: icegateDSN(startServer(b, warmCat)), timeout: timeout}
	defer warm.close(ctx)

	// The requests a query makes of the store are counted on untimed runs
	// through a proxy, so that it costs the timed runs nothing: a warm
	// catalog of its own over the same disk cache, and cold catalogs.
	proxy := newCountingProxy(b, wh.srv.Endpoint)
	countedCat, err := wh.openVia(ctx, proxy.URL, blobs)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { countedCat.Close(ctx) })
	counted := &tpchClient{dsn: icegateDSN(startServer(b, countedCat)), timeout: timeout}
	defer counted.close(ctx)
	requests := map[string]map[string]storeCounts{} // query, mode
	count := func(b *testing.B, q tpch.Query, mode string, c *tpchClient) {
		c.connect(b, ctx)
		before := proxy.counts()
		c.run(b, ctx, q)
		d := proxy.counts().minus(before)
		b.ReportMetric(float64(d.requests[http.MethodGet]), "GETs")
		b.ReportMetric(float64(d.requests[http.MethodHead]), "HEADs")
		b.ReportMetric(float64(d.getBytes)/1e6, "MB-read")
		if requests[q.Name] == nil {
			requests[q.Name] = map[string]storeCounts{}
		}
		requests[q.Name][mode] = d
	}

	// Every timed run, by query and mode: -count repeats each
	// sub-benchmark, and the summary takes the median of all its runs.
	samples := map[string]map[string][]time.Duration{}
	rowCounts := map[string]int{}
	record := func(b *testing.B, q tpch.Query, mode string, rows int, times []time.Duration) {
		b.ReportMetric(float64(rows), "rows")
		b.ReportMetric(medianMs(times), "median-ms")
		if samples[q.Name] == nil {
			samples[q.Name] = map[string][]time.Duration{}
		}
		samples[q.Name][mode] = append(samples[q.Name][mode], times...)
		if n, ok := rowCounts[q.Name]; ok && n != rows {
			b.Errorf("%s: %s answered %d rows, another mode %d", q.Name, mode, rows, n)
		}
		rowCounts[q.Name] = rows
	}
	// timed runs q over c, once untimed, then once an iteration.
	timed := func(b *testing.B, c *tpchClient, q tpch.Query, mode string) {
		c.connect(b, ctx)
		rows := c.run(b, ctx, q)
		var times []time.Duration
		for b.Loop() {
			start := time.Now()
			rows = c.run(b, ctx, q)
			times = append(times, time.Since(start))
		}
		record(b, q, mode, rows, times)
	}
	for _, q := range queries {
		b.Run(q.Name+"/"+modeLocal, func(b *testing.B) { timed(b, local, q, modeLocal) })
		b.Run(q.Name+"/"+modeS3Warm, func(b *testing.B) {
			timed(b, warm, q, modeS3Warm)
			counted.run(b, ctx, q) // fills the counted catalog's own caches
			count(b, q, modeS3Warm, counted)
		})
		b.Run(q.Name+"/"+modeS3Cold, func(b *testing.B) {
			var (
				rows  int
				times []time.Duration
			)
			for b.Loop() {
				b.StopTimer()
				cat, err := wh.open(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				addr, stop := serveCatalog(b, cat)
				cold := &tpchClient{dsn: icegateDSN(addr), timeout: timeout}
				cold.connect(b, ctx)
				b.StartTimer()
				start := time.Now()
				rows = cold.run(b, ctx, q)
				times = append(times, time.Since(start))
				b.StopTimer()
				cold.close(ctx)
				stop()
				if err := cat.Close(ctx); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			record(b, q, modeS3Cold, rows, times)

			cat, err := wh.openVia(ctx, proxy.URL, nil)
			if err != nil {
				b.Fatal(err)
			}
			addr, stop := serveCatalog(b, cat)
			cold := &tpchClient{dsn: icegateDSN(addr), timeout: timeout}
			count(b, q, modeS3Cold, cold)
			cold.close(ctx)
			stop()
			if err := cat.Close(ctx); err != nil {
				b.Fatal(err)
			}
		})
	}
	st := blobs.Stats()
	b.Logf("s3-warm disk cache: %d hits, %d misses, %d entries of %.1f MB", st.Hits, st.Misses, st.Entries, float64(st.Bytes)/1e6)
	b.Log(objectStoreSummary(sf, queries, samples, requests))
}

// icegateDSN is the URL of database icegate of the server at addr.
func icegateDSN(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	return "postgres://icegate@" + host + ":" + port + "/icegate?sslmode=disable"
}

// medianMs is the median of times in milliseconds.
func medianMs(times []time.Duration) float64 {
	if len(times) == 0 {
		return math.NaN()
	}
	s := slices.Clone(times)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return float64(m.Microseconds()) / 1000
}

// objectStoreSummary is a Markdown table of the medians with each
// object-store mode's ratio to local, and the geometric means of the
// ratios over the queries that ran in both.
func objectStoreSummary(sf float64, queries []tpch.Query, samples map[string]map[string][]time.Duration, requests map[string]map[string]storeCounts) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "TPC-H scale factor %v, median ms of every timed run:\n\n", sf)
	sb.WriteString("| query | local ms | s3-warm ms | s3-cold ms | s3-warm/local | s3-cold/local | s3-warm GET+HEAD | s3-cold GET+HEAD | s3-cold MB read |\n" +
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	logSum := map[string]float64{}
	count := map[string]int{}
	cell := func(ms float64, ok bool) string {
		if !ok {
			return "-"
		}
		return fmt.Sprintf("%.1f", ms)
	}
	for _, q := range queries {
		m := samples[q.Name]
		if m == nil {
			continue
		}
		median := func(mode string) (float64, bool) {
			t, ok := m[mode]
			return medianMs(t), ok && len(t) > 0
		}
		l, lok := median(modeLocal)
		w, wok := median(modeS3Warm)
		c, cok := median(modeS3Cold)
		ratio := func(mode string, v float64, ok bool) string {
			if !ok || !lok || l <= 0 || v <= 0 {
				return "-"
			}
			logSum[mode] += math.Log(v / l)
			count[mode]++
			return fmt.Sprintf("%.2f", v/l)
		}
		reqs := func(mode string) string {
			r, ok := requests[q.Name][mode]
			if !ok {
				return "-"
			}
			return fmt.Sprintf("%d+%d", r.requests[http.MethodGet], r.requests[http.MethodHead])
		}
		mb := "-"
		if r, ok := requests[q.Name][modeS3Cold]; ok {
			mb = fmt.Sprintf("%.1f", float64(r.getBytes)/1e6)
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", q.Name, cell(l, lok), cell(w, wok), cell(c, cok),
			ratio(modeS3Warm, w, wok), ratio(modeS3Cold, c, cok), reqs(modeS3Warm), reqs(modeS3Cold), mb)
	}
	sb.WriteString("\n")
	for _, mode := range []string{modeS3Warm, modeS3Cold} {
		if count[mode] > 0 {
			fmt.Fprintf(&sb, "Geometric mean of %s/local over %d queries: %.2f\n", mode, count[mode], math.Exp(logSum[mode]/float64(count[mode])))
		}
	}
	return sb.String()
}

// objectTPCH is a SQL catalog on SQLite whose warehouse is on a versitygw
// server, loaded with the TPC-H tables.
type objectTPCH struct {
	srv       *s3test.Server
	db        *sql.DB
	dialect   catalog.SQLDialect
	warehouse string
}

// loadObjectTPCH starts a versitygw server (stopped when b ends), creates
// the SQL catalog on SQLite with its warehouse in the server's bucket and
// loads the TPC-H tables at sf into it.
func loadObjectTPCH(b *testing.B, sf float64) (*objectTPCH, error) {
	b.Helper()
	ctx := context.Background()
	w := &objectTPCH{srv: s3test.Start(b)}
	w.warehouse = w.srv.URI("tpch")
	var err error
	w.db, w.dialect, err = sqldb.Open(ctx, "jdbc:sqlite:"+filepath.Join(b.TempDir(), "catalog.db"), nil)
	if err != nil {
		return nil, fmt.Errorf("open the catalog database: %w", err)
	}
	b.Cleanup(func() { w.db.Close() })
	cat, err := w.open(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer cat.Close(ctx)
	start := time.Now()
	if err := loadTPCH(b, cat, sf); err != nil {
		return nil, fmt.Errorf("TPC-H warehouse %s: %w", w.warehouse, err)
	}
	b.Logf("scale factor %v: loaded into %s in %v", sf, w.warehouse, time.Since(start).Round(time.Millisecond))
	return w, nil
}

// open opens a new catalog over the loaded warehouse, with a new store
// client, reading through blobs (nil: no disk cache).
func (w *objectTPCH) open(ctx context.Context, blobs *objstore.Cache) (*catalog.SQL, error) {
	return w.openVia(ctx, w.srv.Endpoint, blobs)
}

// openVia is open with the store reached at endpoint.
func (w *objectTPCH) openVia(ctx context.Context, endpoint string, blobs *objstore.Cache) (*catalog.SQL, error) {
	props := w.srv.Props()
	props["s3.endpoint"] = endpoint
	cfg, err := objstore.S3ConfigFromProperties(props)
	if err != nil {
		return nil, err
	}
	store, err := objstore.NewS3(ctx, cfg)
	if err != nil {
		return nil, err
	}
	cat, err := catalog.NewSQLObjects(ctx, "icegate", w.db, w.dialect, store, blobs, w.warehouse)
	if err != nil {
		return nil, fmt.Errorf("open the catalog of %s: %w", w.warehouse, err)
	}
	return cat, nil
}
