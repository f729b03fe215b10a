package bench

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/bench/tpch"
	"github.com/icegate/icegate/catalog"
)

// BenchmarkCopyLineitem loads TPC-H lineitem with COPY FROM STDIN (text
// format) through pgx's CopyFrom, reading a file generated once. It runs
// against icegate in-process on a temporary warehouse and, when
// ICEGATE_BENCH_PG holds a PostgreSQL connection string, against that
// PostgreSQL with the same code. ICEGATE_BENCH_SF sets the scale factor
// (default 0.1; 1 is about 6M rows and 0.7 GB). Each iteration loads into
// a freshly created table; creating it is not timed.
//
// With ICEGATE_BENCH_COPY_SORT a column list (l_shipdate), icegate also
// loads into a table with that sort order, written in distribution mode
// none (WRITE LOCALLY ORDERED BY: each target file's rows sorted on their
// own) and range (WRITE ORDERED BY: the statement's rows sorted as one
// run), at ICEGATE_BENCH_FILE_BYTES' write.target-file-size-bytes when
// set; -count interleaves the three. Each reports the data files written.
func BenchmarkCopyLineitem(b *testing.B) {
	sf := scaleFactor(b)
	path := filepath.Join(b.TempDir(), "lineitem.tbl")
	rows, size := writeLineitem(b, path, sf)
	b.Logf("scale factor %v: %d rows, %d bytes in %s", sf, rows, size, path)

	b.Run("icegate", func(b *testing.B) {
		cat, err := catalog.NewFilesystem("icegate", b.TempDir(), nil)
		if err != nil {
			b.Fatal(err)
		}
		host, port, _ := net.SplitHostPort(startServer(b, cat))
		benchCopy(b, "postgres://icegate@"+host+":"+port+"/icegate?sslmode=disable", path, rows, size)
	})
	if cols := os.Getenv("ICEGATE_BENCH_COPY_SORT"); cols != "" {
		var props []string
		if v := os.Getenv("ICEGATE_BENCH_FILE_BYTES"); v != "" {
			props = append(props, "ALTER TABLE lineitem SET TBLPROPERTIES ('write.target-file-size-bytes' = '"+v+"')")
		}
		for _, mode := range []struct{ name, clause string }{
			{"unsorted", ""}, {"sorted-none", "WRITE LOCALLY ORDERED BY"}, {"sorted-range", "WRITE ORDERED BY"},
		} {
			b.Run("icegate/"+mode.name, func(b *testing.B) {
				cat, err := catalog.NewFilesystem("icegate", b.TempDir(), nil)
				if err != nil {
					b.Fatal(err)
				}
				host, port, _ := net.SplitHostPort(startServer(b, cat))
				ddl := props
				if mode.clause != "" {
					ddl = append(slices.Clone(props), "ALTER TABLE lineitem "+mode.clause+" "+cols)
				}
				benchCopy(b, "postgres://icegate@"+host+":"+port+"/icegate?sslmode=disable", path, rows, size, ddl...)
			})
		}
	}
	if dsn := os.Getenv("ICEGATE_BENCH_PG"); dsn != "" {
		b.Run("postgres", func(b *testing.B) {
			benchCopy(b, dsn, path, rows, size)
		})
	}
}

// scaleFactor is ICEGATE_BENCH_SF, 0.1 when unset.
func scaleFactor(b *testing.B) float64 {
	b.Helper()
	s := os.Getenv("ICEGATE_BENCH_SF")
	if s == "" {
		return 0.1
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 {
		b.Fatalf("ICEGATE_BENCH_SF=%q: want a positive number", s)
	}
	return v
}

// writeLineitem generates the rows of sf into path in COPY text format.
func writeLineitem(b *testing.B, path string, sf float64) (rows, size int64) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	rows, size, err = tpch.Write(f, sf, tpch.Text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatalf("generate %s: %v", path, err)
	}
	return rows, size
}

// benchCopy connects to dsn and, per iteration, recreates table lineitem
// (untimed) and times COPY lineitem FROM STDIN of the file at path. It
// reports rows/s and, through SetBytes, MB/s of input.
// Statements ddl run after the table is created, untimed.
func benchCopy(b *testing.B, dsn, path string, rows, size int64, ddl ...string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		b.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	b.SetBytes(size)
	want := fmt.Sprintf("COPY %d", rows)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		for _, sql := range append([]string{"DROP TABLE IF EXISTS lineitem", "CREATE TABLE lineitem (" + tpch.Columns + ")"}, ddl...) {
			if _, err := conn.Exec(ctx, sql); err != nil {
				b.Fatalf("%s: %v", sql, err)
			}
		}
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		tag, err := conn.PgConn().CopyFrom(ctx, f, "COPY lineitem FROM STDIN")
		b.StopTimer()
		f.Close()
		if err != nil {
			b.Fatalf("COPY: %v", err)
		}
		if tag.String() != want {
			b.Fatalf("COPY returned %q, want %q", tag, want)
		}
		b.StartTimer()
	}
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/s, "rows/s")
	}
	var got int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM lineitem").Scan(&got); err != nil {
		b.Fatalf("count loaded rows: %v", err)
	}
	if got != rows {
		b.Fatalf("table holds %d rows after COPY, want %d", got, rows)
	}
	if len(ddl) > 0 {
		var files int64
		if err := conn.QueryRow(ctx, "SELECT count(DISTINCT _file) FROM lineitem").Scan(&files); err != nil {
			b.Fatalf("count data files: %v", err)
		}
		b.ReportMetric(float64(files), "files")
	}
}
