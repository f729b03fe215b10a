package duckdbgo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
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
//
// ICEGATE_BENCH_STATEMENT_MEM (for example 4GB) sets icegate's
// statement_mem as a startup parameter, and ICEGATE_BENCH_DUCKDB_MEMORY
// DuckDB's memory_limit; both spill to temporary directories of the run
// past their limits.
//
// ICEGATE_BENCH_DUCKDB_FILES chooses the Parquet files DuckDB reads: "own"
// (the default) has DuckDB write each table once, untimed, into a file of
// its own with its default settings (OwnFiles), kept in
// ICEGATE_BENCH_DUCKDB_DIR (default: the kept warehouse's path with
// "-duckdb" appended, beside it, so that a shared warehouse is never
// written into; a temporary directory for a temporary warehouse)
// and reused while icegate's files stay the same; "icegate" reads
// icegate's data files directly.
//
// ICEGATE_BENCH_PG, a PostgreSQL connection string, adds PostgreSQL as a
// third engine: setup loads the same rows into that database unless it
// already holds them (Postgres.Load: COPY, keys, indexes, VACUUM ANALYZE),
// each round runs the query on the three engines in a rotating order,
// PostgreSQL's answer is compared with icegate's, and each query reports
// pg-ms and pg-ratio (PostgreSQL over DuckDB). ICEGATE_BENCH_PG_TIMEOUT
// (default 5m) bounds each PostgreSQL execution; a query past it is
// reported as a timeout and not run on PostgreSQL again.
func BenchmarkTPCHInterleaved(b *testing.B) {
	sf := envFloat(b, "ICEGATE_BENCH_SF", 0.1)
	threads := int(envFloat(b, "ICEGATE_BENCH_THREADS", 2))
	timeout := envDuration(b, "ICEGATE_BENCH_TIMEOUT", 2*time.Minute)
	pgTimeout := envDuration(b, "ICEGATE_BENCH_PG_TIMEOUT", 5*time.Minute)
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
	srv, err := Serve(cat, logger, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := srv.Stop(); err != nil {
			b.Error(err)
		}
	})
	var params []string
	if m := os.Getenv("ICEGATE_BENCH_STATEMENT_MEM"); m != "" {
		params = append(params, "statement_mem="+url.QueryEscape(m))
	}
	dsn := srv.DSN(params...)
	conn, err := pgx.Connect(ctx, dsn)
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
	filesMode, err := ParseFilesMode(os.Getenv("ICEGATE_BENCH_DUCKDB_FILES"))
	if err != nil {
		b.Fatal(err)
	}
	if filesMode == FilesOwn {
		ownDir := os.Getenv("ICEGATE_BENCH_DUCKDB_DIR")
		switch {
		case ownDir != "":
		case os.Getenv("ICEGATE_BENCH_KEEP") == "":
			ownDir = b.TempDir() // a temporary warehouse: temporary files
		default:
			ownDir = filepath.Clean(dir) + "-duckdb"
		}
		start := time.Now()
		if files, err = OwnFiles(ctx, files, ownDir, threads, b.Logf); err != nil {
			b.Fatal(err)
		}
		b.Logf("DuckDB's own Parquet files in %s (%.1f s, untimed)", ownDir, time.Since(start).Seconds())
	}
	duck, err := OpenDuckDB(ctx, files, threads)
	if err != nil {
		b.Fatal(err)
	}
	defer duck.Close()
	if m := os.Getenv("ICEGATE_BENCH_DUCKDB_MEMORY"); m != "" {
		if err := duck.LimitMemory(ctx, m, b.TempDir()); err != nil {
			b.Fatal(err)
		}
		b.Logf("DuckDB memory_limit %s", m)
	}
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
	b.Logf("scale factor %v, warehouse %s, DuckDB %s at %d threads on %s Parquet files", sf, dir, version, got, filesOwner(filesMode))

	var pg *Postgres
	pgVersion := ""
	if dsn := os.Getenv("ICEGATE_BENCH_PG"); dsn != "" {
		pg, pgVersion = openPostgres(b, conn, dsn, sf, threads, pgTimeout)
		defer pg.Close(ctx)
	}

	queries, err := tpch.QueriesAt(sf)
	if err != nil {
		b.Fatal(err)
	}
	var results []QueryResult
	for _, q := range queries {
		res := QueryResult{Name: q.Name}
		b.Run(q.Name, func(b *testing.B) {
			// A query that timed out leaves its connection closed.
			if conn.IsClosed() {
				if conn, err = pgx.Connect(ctx, dsn); err != nil {
					res.Check = "no connection"
					b.Fatalf("connect to icegate: %v", err)
				}
			}
			interleave(b, conn, duck, pg, q, timeout, &res)
		})
		results = append(results, res)
	}
	engines := fmt.Sprintf("DuckDB %s (on %s Parquet files)", version, filesOwner(filesMode))
	if pg != nil {
		engines += fmt.Sprintf(" and PostgreSQL %s", pgVersion)
	}
	fmt.Printf("\nTPC-H at scale factor %v, icegate beside %s at %d threads, interleaved:\n\n", sf, engines, threads)
	if err := WriteTable(os.Stdout, results, pg != nil); err != nil {
		b.Fatal(err)
	}
}

// openPostgres opens the PostgreSQL engine at dsn and loads it with the
// rows of icegate's tables (untimed), logging the load's time.
func openPostgres(b *testing.B, ice *pgx.Conn, dsn string, sf float64, threads int, timeout time.Duration) (*Postgres, string) {
	ctx := context.Background()
	want := map[string]int64{}
	for _, t := range tpch.Tables {
		var n int64
		if err := ice.QueryRow(ctx, "SELECT count(*) FROM "+t.Name).Scan(&n); err != nil {
			b.Fatalf("count icegate table %s: %v", t.Name, err)
		}
		want[t.Name] = n
	}
	pg, err := OpenPostgres(ctx, dsn, threads, timeout)
	if err != nil {
		b.Fatal(err)
	}
	version, err := pg.Version(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := pg.Load(ctx, sf, want, b.Logf); err != nil {
		b.Fatalf("load TPC-H into PostgreSQL: %v", err)
	}
	b.Logf("PostgreSQL %s, max_parallel_workers_per_gather %d, statement_timeout %v", version, max(threads-1, 0), timeout)
	return pg, version
}

// interleave runs q untimed on every engine and compares DuckDB's and
// PostgreSQL's answers with icegate's, then runs one interleaved round per
// iteration of b.Loop, the engine that goes first rotating between rounds.
// It fills res as it goes, so that a query that fails or is skipped still
// has its row. pg is nil without PostgreSQL; a PostgreSQL timeout or error
// is recorded in res.PGCheck and leaves the other engines' rounds running.
func interleave(b *testing.B, conn *pgx.Conn, duck *DuckDB, pg *Postgres, q tpch.Query, timeout time.Duration, res *QueryResult) {
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
	pgLive := false
	if pg != nil {
		pa, err := pg.Answer(ctx, q.SQL)
		switch {
		case err != nil:
			pgFailed(b, q, err, res)
		default:
			pgLive = true
			res.PGCheck = CompareWith(ice, pa, "PostgreSQL")
			if res.PGCheck != "ok" {
				b.Errorf("%s: PostgreSQL's answer differs: %s", q.Name, res.PGCheck)
			}
		}
	}

	timed := func(run func(context.Context) error) time.Duration {
		settle()
		start := time.Now()
		if err := run(ctx); err != nil {
			return -1
		}
		return time.Since(start)
	}
	var iceTimes, duckTimes, pgTimes []time.Duration
	engines := []func(){
		func() {
			iceTimes = append(iceTimes, timed(func(ctx context.Context) error {
				qctx, cancel := context.WithTimeout(ctx, timeout)
				defer cancel()
				if _, err := DrainPg(qctx, conn, q.SQL); err != nil {
					b.Fatalf("icegate %s: %v", q.Name, err)
				}
				return nil
			}))
		},
		func() {
			duckTimes = append(duckTimes, timed(func(ctx context.Context) error {
				qctx, cancel := context.WithTimeout(ctx, timeout)
				defer cancel()
				if _, err := duck.Drain(qctx, q.SQL); err != nil {
					b.Fatalf("DuckDB %s: %v", q.Name, err)
				}
				return nil
			}))
		},
	}
	if pgLive {
		engines = append(engines, func() {
			if !pgLive {
				return
			}
			d := timed(func(ctx context.Context) error {
				_, err := pg.Drain(ctx, q.SQL)
				if err != nil {
					pgFailed(b, q, err, res)
					pgLive = false
				}
				return err
			})
			if d > 0 {
				pgTimes = append(pgTimes, d)
			}
		})
	}
	for round := 0; b.Loop(); round++ {
		for i := range engines {
			engines[(round+i)%len(engines)]()
		}
	}
	res.Rounds = len(iceTimes)
	res.Icegate = Median(iceTimes)
	res.DuckDB = Median(duckTimes)
	b.ReportMetric(float64(res.Rows), "rows")
	b.ReportMetric(float64(res.Icegate.Microseconds())/1000, "icegate-ms")
	b.ReportMetric(float64(res.DuckDB.Microseconds())/1000, "duckdb-ms")
	b.ReportMetric(res.Ratio(), "ratio")
	if pgLive && len(pgTimes) > 0 {
		res.Postgres = Median(pgTimes)
		b.ReportMetric(float64(res.Postgres.Microseconds())/1000, "pg-ms")
		b.ReportMetric(res.PGRatio(), "pg-ratio")
	}
}

// pgFailed records PostgreSQL's failure on q: a timeout is logged, any
// other error fails the sub-benchmark without stopping it.
func pgFailed(b *testing.B, q tpch.Query, err error, res *QueryResult) {
	if errors.Is(err, ErrTimeout) {
		res.PGCheck = "PostgreSQL timeout"
		b.Logf("PostgreSQL %s: %v", q.Name, err)
		return
	}
	res.PGCheck = "PostgreSQL failed"
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		res.PGCheck = "PostgreSQL: " + pe.Code
	}
	b.Errorf("PostgreSQL %s: %v", q.Name, err)
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

// filesOwner names whose Parquet files DuckDB reads in mode m.
func filesOwner(m string) string {
	if m == FilesOwn {
		return "its own"
	}
	return "icegate's"
}
