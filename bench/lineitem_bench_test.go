package bench

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"os"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/spill"
	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/metrics"
	"github.com/icegate/icegate/translate"
	"github.com/icegate/icegate/wire"
)

// lineitemRows is the row count of the benchmark table.
const lineitemRows = 111968

const lineitemTable = "iceberg.duckdb__lineitem_iceberg_gz"

// queries are the benchmarked statements, each reading the whole table.
var queries = []struct{ name, sql string }{
	{"pricing_summary", `SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), avg(l_extendedprice)
		FROM ` + lineitemTable + `
		WHERE l_shipdate <= date '1998-09-02'
		GROUP BY 1, 2`},
	{"count", "SELECT count(*) FROM " + lineitemTable},
	{"scan_all", "SELECT * FROM " + lineitemTable},
}

// BenchmarkTranslate runs the statements in-process through a translate
// Session, draining the Arrow batches.
func BenchmarkTranslate(b *testing.B) {
	backend := translate.NewBackend(openCatalog(b), translate.Options{Logger: quietLogger()})
	ctx := context.Background()
	sess, err := backend.NewSession(ctx, translate.StartupInfo{User: "icegate", Database: "icegate", Params: map[string]string{}})
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	for _, q := range queries {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				stmts, err := sess.Prepare(ctx, q.sql, nil)
				if err != nil {
					b.Fatal(err)
				}
				if len(stmts) != 1 {
					b.Fatalf("Prepare returned %d statements, want 1", len(stmts))
				}
				rows, err := stmts[0].Execute(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				for {
					rec, err := rows.Next(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if rec == nil {
						break
					}
				}
				if err := rows.Close(); err != nil {
					b.Fatal(err)
				}
			}
			reportRows(b)
		})
	}
}

// BenchmarkWire runs the statements over the protocol with pgx (extended
// protocol, binary results where pgx asks for them), reading every row.
func BenchmarkWire(b *testing.B) {
	conn := connect(b, startServer(b, openCatalog(b)))
	ctx := context.Background()
	for _, q := range queries {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				rows, err := conn.Query(ctx, q.sql)
				if err != nil {
					b.Fatal(err)
				}
				for rows.Next() {
					_ = rows.RawValues()
				}
				if err := rows.Err(); err != nil {
					b.Fatal(err)
				}
			}
			reportRows(b)
		})
	}
}

// reportRows reports table rows read per second.
func reportRows(b *testing.B) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(lineitemRows)*float64(b.N)/s, "rows/s")
	}
}

// openCatalog opens the fixture warehouse (testdata under the module root) as a
// filesystem catalog named icegate.
func openCatalog(b *testing.B) catalog.Catalog {
	b.Helper()
	warehouse := fixtures.Warehouse(b)
	cat, err := catalog.NewFilesystem("icegate", warehouse, nil)
	if err != nil {
		b.Fatalf("open %s: %v", warehouse, err)
	}
	return cat
}

// connect connects to the server at addr as icegate until the benchmark
// ends.
func connect(b *testing.B, addr string) *pgx.Conn {
	b.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+addr+"/icegate?sslmode=disable")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close(ctx) })
	return conn
}

// startServer serves cat on a loopback port until the benchmark ends.
func startServer(b *testing.B, cat catalog.Catalog) string {
	b.Helper()
	addr, stop := serveCatalog(b, cat)
	b.Cleanup(stop)
	return addr
}

// serveCatalog serves cat on a loopback port until stop is called.
func serveCatalog(b *testing.B, cat catalog.Catalog) (addr string, stop func()) {
	b.Helper()
	return serveCounting(b, cat, nil)
}

// serveCounting is serveCatalog with the server counting into reg (none
// when nil), as icegate serve does into its /metrics registry.
func serveCounting(b *testing.B, cat catalog.Catalog, reg *metrics.Registry) (addr string, stop func()) {
	b.Helper()
	logger := quietLogger()
	authn, err := auth.New(nil, "", logger)
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	// Statements spill past statement_mem as under icegate serve.
	tmp, err := spill.Open(b.TempDir(), logger)
	if err != nil {
		b.Fatal(err)
	}
	srv := wire.NewServer(wire.Config{
		Backend: translate.NewBackend(cat, translate.Options{Logger: logger, TempDir: tmp}),
		Auth:    authn,
		Logger:  logger,
		Metrics: reg,
	})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := srv.Serve(ctx, ln); err != nil && !errors.Is(err, context.Canceled) {
			b.Errorf("Serve: %v", err)
		}
	}()
	return ln.Addr().String(), func() { cancel(); wg.Wait(); tmp.Close() }
}

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
}
