package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/icegate/icegate/bench/tpch"
	"github.com/icegate/icegate/catalog"
)

// tpchWarehouse is the warehouse the TPC-H tables are loaded into, once per
// process: -count 5 runs the queries five times over one load. main_test.go
// removes it after the run unless ICEGATE_BENCH_KEEP names it.
var tpchWarehouse struct {
	once sync.Once
	dir  string
	temp bool // created here: remove after the run
	err  error
}

// BenchmarkTPCH loads the eight TPC-H tables at ICEGATE_BENCH_SF (default
// 0.1) into a warehouse through an in-process icegate (CREATE TABLE and
// COPY FROM STDIN over the wire) and runs each of the 22 queries over the
// wire as a sub-benchmark, reading every row. It reports rows (result rows)
// and ms/op. A query icegate answers 0A000 (not supported) is skipped with
// the message; any other error fails it.
//
// A query still running after ICEGATE_BENCH_TIMEOUT (default 2m) fails.
// ICEGATE_BENCH_KEEP=/path puts the warehouse there (loading it only when
// it holds no tables yet) and keeps it, and writes each query's answer to
// /path/icegate-results/qNN.json for bench/duckdb/tpch.mjs to check.
// ICEGATE_BENCH_STATEMENT_MEM (for example 64MB) sets the session's
// statement_mem, to run the queries with their sorts and aggregations
// spilling to temporary files.
func BenchmarkTPCH(b *testing.B) {
	sf := scaleFactor(b)
	keep := os.Getenv("ICEGATE_BENCH_KEEP")
	cat, err := tpchCatalog(b, keep, sf)
	if err != nil {
		b.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(startServer(b, cat))
	ctx := context.Background()
	dsn := "postgres://icegate@" + host + ":" + port + "/icegate?sslmode=disable"
	if m := os.Getenv("ICEGATE_BENCH_STATEMENT_MEM"); m != "" {
		dsn += "&statement_mem=" + url.QueryEscape(m) // a startup parameter
	}
	client := &tpchClient{dsn: dsn, timeout: queryTimeout(b)}
	defer client.close(ctx)

	queries, err := tpch.QueriesAt(sf)
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range queries {
		b.Run(q.Name, func(b *testing.B) {
			client.connect(b, ctx)
			var rows int
			cpu0 := cpuTime()
			for b.Loop() {
				rows = client.run(b, ctx, q)
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(float64(rows), "rows")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
			// The server runs in this process: CPU over wall time shows how
			// much of the two cores a query keeps busy.
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			if keep != "" {
				if err := saveAnswer(ctx, client.conn, q, filepath.Join(keep, "icegate-results")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// tpchClient runs TPC-H queries over one connection to dsn, opening a new
// one when a query that timed out left it closed.
type tpchClient struct {
	dsn     string
	timeout time.Duration
	conn    *pgx.Conn
}

// connect opens the connection unless it is open.
func (c *tpchClient) connect(b *testing.B, ctx context.Context) {
	b.Helper()
	if c.conn != nil && !c.conn.IsClosed() {
		return
	}
	var err error
	if c.conn, err = pgx.Connect(ctx, c.dsn); err != nil {
		b.Fatalf("connect: %v", err)
	}
}

// run runs q, reading every row, and returns how many there were. A query
// answered 0A000 skips the benchmark; any other error, or no answer within
// the timeout, fails it.
func (c *tpchClient) run(b *testing.B, ctx context.Context, q tpch.Query) int {
	b.Helper()
	c.connect(b, ctx)
	qctx, cancel := context.WithTimeout(ctx, c.timeout)
	rows, err := drain(qctx, c.conn, q.SQL)
	cancel()
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "0A000" {
			b.Skipf("%s: %s", pe.Code, pe.Message)
		}
		if qctx.Err() != nil {
			b.Fatalf("%s: no answer within %v (ICEGATE_BENCH_TIMEOUT): %v", q.Name, c.timeout, err)
		}
		b.Fatalf("%s: %v", q.Name, err)
	}
	return rows
}

func (c *tpchClient) close(ctx context.Context) {
	if c.conn != nil {
		c.conn.Close(ctx)
	}
}

// queryTimeout is ICEGATE_BENCH_TIMEOUT, a Go duration; 2m when unset.
func queryTimeout(b *testing.B) time.Duration {
	b.Helper()
	s := os.Getenv("ICEGATE_BENCH_TIMEOUT")
	if s == "" {
		return 2 * time.Minute
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		b.Fatalf("ICEGATE_BENCH_TIMEOUT=%q: want a positive duration such as 90s", s)
	}
	return d
}

// drain runs sql and reads every row, returning how many there were.
func drain(ctx context.Context, conn *pgx.Conn, sql string) (int, error) {
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		_ = rows.RawValues()
		n++
	}
	rows.Close()
	return n, rows.Err()
}

// tpchCatalog returns the catalog of the process's TPC-H warehouse,
// creating and loading it on first use.
func tpchCatalog(b *testing.B, keep string, sf float64) (catalog.Catalog, error) {
	w := &tpchWarehouse
	w.once.Do(func() {
		w.dir = keep
		if keep == "" {
			if w.dir, w.err = os.MkdirTemp("", "icegate-tpch-"); w.err != nil {
				return
			}
			w.temp = true
		} else if w.err = os.MkdirAll(keep, 0o755); w.err != nil {
			return
		}
		cat, err := catalog.NewFilesystem("icegate", w.dir, nil)
		if err != nil {
			w.err = err
			return
		}
		w.err = loadTPCH(b, cat, sf)
	})
	if w.err != nil {
		return nil, fmt.Errorf("TPC-H warehouse %s: %w", w.dir, w.err)
	}
	return catalog.NewFilesystem("icegate", w.dir, nil)
}

// loadTPCH creates the TPC-H tables in cat and loads them with COPY FROM
// STDIN, streaming the generator's output. A table that exists already (a
// kept warehouse) is left as it is.
func loadTPCH(b *testing.B, cat catalog.Catalog, sf float64) error {
	host, port, _ := net.SplitHostPort(startServer(b, cat))
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+host+":"+port+"/icegate?sslmode=disable")
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(ctx)
	existing, err := tableNames(ctx, cat)
	if err != nil {
		return err
	}
	for _, t := range tpch.Tables {
		if existing[t.Name] {
			b.Logf("%s exists: not loaded again", t.Name)
			continue
		}
		if _, err := conn.Exec(ctx, "CREATE TABLE "+t.Name+" ("+t.Columns+")"); err != nil {
			return fmt.Errorf("create %s: %w", t.Name, err)
		}
		start := time.Now()
		pr, pw := io.Pipe()
		go func() {
			_, _, err := tpch.WriteTable(pw, t, sf, tpch.Text)
			pw.CloseWithError(err)
		}()
		tag, err := conn.PgConn().CopyFrom(ctx, pr, "COPY "+t.Name+" FROM STDIN")
		pr.CloseWithError(io.ErrClosedPipe) // unblocks the generator after a failed COPY
		if err != nil {
			return fmt.Errorf("COPY %s: %w", t.Name, err)
		}
		b.Logf("scale factor %v: loaded %s (%d rows) in %v", sf, t.Name, tag.RowsAffected(), time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// tableNames returns the names of the tables of every namespace of cat.
func tableNames(ctx context.Context, cat catalog.Catalog) (map[string]bool, error) {
	names := map[string]bool{}
	nss, err := cat.ListNamespaces(ctx)
	if err != nil {
		return nil, fmt.Errorf("list namespaces: %w", err)
	}
	for _, ns := range nss {
		ids, err := cat.ListTables(ctx, ns)
		if err != nil {
			return nil, fmt.Errorf("list tables of %v: %w", ns, err)
		}
		for _, id := range ids {
			names[id.Name] = true
		}
	}
	return names, nil
}

// answer is a query's result as bench/duckdb/tpch.mjs reads it: numbers
// (numeric as float64), dates as YYYY-MM-DD, text as strings.
type answer struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// saveAnswer runs q once more and writes its rows to dir/<name>.json.
func saveAnswer(ctx context.Context, conn *pgx.Conn, q tpch.Query, dir string) error {
	rows, err := conn.Query(ctx, q.SQL)
	if err != nil {
		return fmt.Errorf("%s: %w", q.Name, err)
	}
	var a answer
	for _, f := range rows.FieldDescriptions() {
		a.Columns = append(a.Columns, f.Name)
	}
	a.Rows = [][]any{}
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			rows.Close()
			return fmt.Errorf("%s: %w", q.Name, err)
		}
		for i, v := range vals {
			vals[i] = jsonValue(v)
		}
		a.Rows = append(a.Rows, vals)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", q.Name, err)
	}
	data, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("%s: %w", q.Name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, q.Name+".json"), data, 0o644)
}

// jsonValue converts a pgx value to what answer holds.
func jsonValue(v any) any {
	switch v := v.(type) {
	case pgtype.Numeric:
		f, err := v.Float64Value()
		if err != nil || !f.Valid {
			return nil
		}
		return f.Float64
	case time.Time:
		return v.Format(time.DateOnly)
	}
	return v
}
