package duckdbgo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/bench/tpch"
	"github.com/icegate/icegate/catalog"
)

// BenchmarkTPCHInterleaved loads the eight TPC-H tables at ICEGATE_BENCH_SF
// (default 0.1) into a warehouse through an in-process icegate, exactly as
// bench's BenchmarkTPCH does, opens DuckDB in the same process over the
// Parquet files of those tables (ICEGATE_BENCH_THREADS threads, default
// 2), and runs each of the 22 queries as BenchmarkTPCHInterleaved/qNN:
// once on each engine untimed, comparing DuckDB's answer with icegate's,
// then one round per benchmark iteration (-benchtime 5x: five rounds), each
// round running the query on icegate and on DuckDB back to back, the first
// engine alternating between rounds. It reports the median milliseconds of
// each engine and their ratio, and prints the table of every query with the
// geometric mean of the ratios.
//
// ICEGATE_BENCH_KEEP=/path puts the warehouse there and keeps it (a second
// run reuses its tables); ICEGATE_BENCH_TIMEOUT (default 2m) bounds each
// execution.
func BenchmarkTPCHInterleaved(b *testing.B) {
	sf := envFloat(b, "ICEGATE_BENCH_SF", 0.1)
	threads := int(envFloat(b, "ICEGATE_BENCH_THREADS", 2))
	timeout := envDuration(b, "ICEGATE_BENCH_TIMEOUT", 2*time.Minute)
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))

	dir := os.Getenv("ICEGATE_BENCH_KEEP")
	if dir == "" {
		dir = b.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	cat, err := catalog.NewFilesystem("icegate", dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	srv, err := Serve(cat, logger)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := srv.Stop(); err != nil {
			b.Error(err)
		}
	})
	conn, err := pgx.Connect(ctx, srv.DSN())
	if err != nil {
		b.Fatalf("connect to icegate: %v", err)
	}
	defer func() { conn.Close(ctx) }()
	existing, err := TableNames(ctx, cat)
	if err != nil {
		b.Fatal(err)
	}
	if err := LoadTPCH(ctx, conn, sf, existing, b.Logf); err != nil {
		b.Fatalf("load TPC-H into %s: %v", dir, err)
	}
	files, err := DataFiles(ctx, cat)
	if err != nil {
		b.Fatal(err)
	}
	duck, err := OpenDuckDB(ctx, files, threads)
	if err != nil {
		b.Fatal(err)
	}
	defer duck.Close()
	version, err := duck.Version(ctx)
	if err != nil {
		b.Fatal(err)
	}
	got, err := duck.Threads(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if got != threads {
		b.Fatalf("DuckDB runs %d threads, want %d", got, threads)
	}
	b.Logf("scale factor %v, warehouse %s, DuckDB %s at %d threads", sf, dir, version, got)

	queries, err := tpch.Queries()
	if err != nil {
		b.Fatal(err)
	}
	var results []QueryResult
	for _, q := range queries {
		res := QueryResult{Name: q.Name}
		b.Run(q.Name, func(b *testing.B) {
			// A query that timed out leaves its connection closed.
			if conn.IsClosed() {
				if conn, err = pgx.Connect(ctx, srv.DSN()); err != nil {
					res.Check = "no connection"
					b.Fatalf("connect to icegate: %v", err)
				}
			}
			interleave(b, conn, duck, q, timeout, &res)
		})
		results = append(results, res)
	}
	fmt.Printf("\nTPC-H at scale factor %v, icegate beside DuckDB %s at %d threads, interleaved:\n\n", sf, version, threads)
	if err := WriteTable(os.Stdout, results); err != nil {
		b.Fatal(err)
	}
}

// interleave runs q untimed on both engines and compares the answers, then
// runs one interleaved round per iteration of b.Loop. It fills res as it
// goes, so that a query that fails or is skipped still has its row.
func interleave(b *testing.B, conn *pgx.Conn, duck *DuckDB, q tpch.Query, timeout time.Duration, res *QueryResult) {
	ctx := context.Background()
	qctx, cancel := context.WithTimeout(ctx, timeout)
	ice, err := AnswerPg(qctx, conn, q.SQL)
	cancel()
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "0A000" {
			res.Check = "icegate: 0A000 " + pe.Message
			b.Skipf("%s: %s", pe.Code, pe.Message)
		}
		res.Check = "icegate failed"
		if pe != nil {
			res.Check = "icegate: " + pe.Code
		}
		b.Fatalf("icegate %s: %v", q.Name, err)
	}
	qctx, cancel = context.WithTimeout(ctx, timeout)
	dk, err := duck.Answer(qctx, q.SQL)
	cancel()
	if err != nil {
		res.Check = "DuckDB failed"
		b.Fatalf("DuckDB %s: %v", q.Name, err)
	}
	res.Rows = len(ice.Rows)
	res.Check = Compare(ice, dk)
	if res.Check != "ok" {
		b.Errorf("%s: answers differ: %s", q.Name, res.Check)
	}

	runIcegate := func() time.Duration {
		qctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		settle()
		start := time.Now()
		if _, err := DrainPg(qctx, conn, q.SQL); err != nil {
			b.Fatalf("icegate %s: %v", q.Name, err)
		}
		return time.Since(start)
	}
	runDuckDB := func() time.Duration {
		qctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		settle()
		start := time.Now()
		if _, err := duck.Drain(qctx, q.SQL); err != nil {
			b.Fatalf("DuckDB %s: %v", q.Name, err)
		}
		return time.Since(start)
	}
	var iceTimes, duckTimes []time.Duration
	for b.Loop() {
		if len(iceTimes)%2 == 0 {
			iceTimes = append(iceTimes, runIcegate())
			duckTimes = append(duckTimes, runDuckDB())
		} else {
			duckTimes = append(duckTimes, runDuckDB())
			iceTimes = append(iceTimes, runIcegate())
		}
	}
	res.Rounds = len(iceTimes)
	res.Icegate = Median(iceTimes)
	res.DuckDB = Median(duckTimes)
	b.ReportMetric(float64(res.Rows), "rows")
	b.ReportMetric(float64(res.Icegate.Microseconds())/1000, "icegate-ms")
	b.ReportMetric(float64(res.DuckDB.Microseconds())/1000, "duckdb-ms")
	b.ReportMetric(res.Ratio(), "ratio")
}

// settle collects the Go heap before a timed execution (outside the
// measured span), so that neither engine's run pays for garbage the
// previous run left: DuckDB's threads would otherwise share the cores with
// the Go collector's workers finishing icegate's cycle.
func settle() {
	runtime.GC()
}

// envFloat reads a positive number from the environment, def when unset.
func envFloat(b *testing.B, name string, def float64) float64 {
	b.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 {
		b.Fatalf("%s=%q: want a positive number", name, s)
	}
	return v
}

// envDuration reads a positive Go duration from the environment, def when
// unset.
func envDuration(b *testing.B, name string, def time.Duration) time.Duration {
	b.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		b.Fatalf("%s=%q: want a positive duration such as 90s", name, s)
	}
	return d
}
