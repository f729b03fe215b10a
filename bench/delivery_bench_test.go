package bench

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/catalog"
)

// deliveryColumns are the columns of the result-delivery table: one of each
// type clients read most.
const deliveryColumns = "id bigint, n integer, f double precision, amount numeric(12,2), name text, d date, " +
	"ts timestamp with time zone, flag boolean"

const deliveryQuery = "SELECT id, n, f, amount, name, d, ts, flag FROM delivery"

// deliveryWarehouse holds the icegate copy of the table, loaded once per
// process; main_test.go removes it after the run.
var deliveryWarehouse struct {
	once sync.Once
	dir  string
	err  error
}

// BenchmarkResultDelivery measures how fast a server delivers a large
// result to a pgx client: SELECT of every row of an 8-column table
// (bigint, integer, double precision, numeric(12,2), text of 20 bytes, date,
// timestamptz, boolean), ICEGATE_BENCH_ROWS rows (default 1,000,000), read
// with rows.RawValues (values arrive but are not decoded, so the client
// costs little). "text" runs the query with text results (pgx's
// QueryExecModeExec), "binary" with binary results (QueryExecModeCacheStatement:
// every column but text in binary). It reports rows/s and MB/s (bytes read
// from the socket, 10^6 a second).
//
// The same rows are loaded into icegate (in-process, a temporary warehouse,
// CREATE TABLE and COPY FROM STDIN over the wire) and, when ICEGATE_BENCH_PG
// is a connection string, into that PostgreSQL (table delivery, recreated
// unless it already holds the rows); loading is not timed.
func BenchmarkResultDelivery(b *testing.B) {
	rows := deliveryRowCount(b)
	modes := []struct {
		name string
		mode pgx.QueryExecMode
	}{
		{"text", pgx.QueryExecModeExec},
		{"binary", pgx.QueryExecModeCacheStatement},
	}
	cat, err := deliveryCatalog(b, rows)
	if err != nil {
		b.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(startServer(b, cat))
	targets := []struct{ name, dsn string }{
		{"icegate", "postgres://icegate@" + host + ":" + port + "/icegate?sslmode=disable"},
	}
	if dsn := os.Getenv("ICEGATE_BENCH_PG"); dsn != "" {
		if err := loadDelivery(b, dsn, rows, true); err != nil {
			b.Fatalf("load PostgreSQL: %v", err)
		}
		targets = append(targets, struct{ name, dsn string }{"postgres", dsn})
	}
	// The warm-up read's checksum of every value: both servers must send
	// the same bytes in each format.
	sums := map[string]map[string]uint64{}
	for _, target := range targets {
		for _, m := range modes {
			b.Run(target.name+"/"+m.name, func(b *testing.B) {
				sum := benchDelivery(b, target.dsn, m.mode, rows)
				if sums[m.name] == nil {
					sums[m.name] = map[string]uint64{}
				}
				sums[m.name][target.name] = sum
			})
		}
	}
	for format, by := range sums {
		if pg, ok := by["postgres"]; ok && by["icegate"] != pg {
			b.Errorf("%s results differ: icegate sent other values than PostgreSQL", format)
		}
	}
}

// deliveryRowCount is ICEGATE_BENCH_ROWS, 1,000,000 when unset.
func deliveryRowCount(b *testing.B) int {
	b.Helper()
	s := os.Getenv("ICEGATE_BENCH_ROWS")
	if s == "" {
		return 1_000_000
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		b.Fatalf("ICEGATE_BENCH_ROWS=%q: want a positive integer", s)
	}
	return n
}

// deliveryCatalog returns the catalog of the process's delivery warehouse,
// creating and loading it on first use.
func deliveryCatalog(b *testing.B, rows int) (catalog.Catalog, error) {
	w := &deliveryWarehouse
	w.once.Do(func() {
		if w.dir, w.err = os.MkdirTemp("", "icegate-delivery-"); w.err != nil {
			return
		}
		cat, err := catalog.NewFilesystem("icegate", w.dir, nil)
		if err != nil {
			w.err = err
			return
		}
		host, port, _ := net.SplitHostPort(startServer(b, cat))
		w.err = loadDelivery(b, "postgres://icegate@"+host+":"+port+"/icegate?sslmode=disable", rows, false)
	})
	if w.err != nil {
		return nil, fmt.Errorf("delivery warehouse %s: %w", w.dir, w.err)
	}
	return catalog.NewFilesystem("icegate", w.dir, nil)
}

// loadDelivery creates table delivery at dsn and loads rows rows with COPY
// FROM STDIN. With reuse, a table that already holds rows rows is kept.
func loadDelivery(b *testing.B, dsn string, rows int, reuse bool) error {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(ctx)
	if reuse {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM delivery").Scan(&n); err == nil && n == rows {
			b.Logf("delivery at PostgreSQL holds %d rows: not loaded again", n)
			return nil
		}
	}
	for _, sql := range []string{"DROP TABLE IF EXISTS delivery", "CREATE TABLE delivery (" + deliveryColumns + ")"} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return fmt.Errorf("%s: %w", sql, err)
		}
	}
	start := time.Now()
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeDelivery(pw, rows)) }()
	tag, err := conn.PgConn().CopyFrom(ctx, pr, "COPY delivery FROM STDIN")
	pr.CloseWithError(io.ErrClosedPipe)
	if err != nil {
		return fmt.Errorf("COPY delivery: %w", err)
	}
	if reuse {
		if _, err := conn.Exec(ctx, "VACUUM ANALYZE delivery"); err != nil {
			return fmt.Errorf("vacuum: %w", err)
		}
	}
	b.Logf("loaded delivery (%d rows) in %v", tag.RowsAffected(), time.Since(start).Round(time.Millisecond))
	return nil
}

// writeDelivery writes rows rows of the delivery table in COPY text format.
// Values are a function of the row number, so both servers get the same.
func writeDelivery(w io.Writer, rows int) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	var line []byte
	for i := range rows {
		line = line[:0]
		line = strconv.AppendInt(line, int64(i), 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, int64(int32(uint32(i)*2654435761)), 10)
		line = append(line, '\t')
		line = strconv.AppendFloat(line, float64(i)/7+0.5, 'g', -1, 64)
		line = append(line, '\t')
		cents := (int64(i) * 7919) % 10_000_000_000
		line = strconv.AppendInt(line, cents/100, 10)
		line = append(line, '.', byte('0'+cents%100/10), byte('0'+cents%10), '\t')
		line = fmt.Appendf(line, "customer#%011d", (i*48271)%1_000_000_007)
		line = append(line, '\t')
		line = base.AddDate(0, 0, i%20000-10000).AppendFormat(line, "2006-01-02")
		line = append(line, '\t')
		line = base.Add(time.Duration(i)*37*time.Second+time.Duration(i%1000)*time.Millisecond).AppendFormat(line, "2006-01-02 15:04:05.000-07")
		line = append(line, '\t')
		if i%3 == 0 {
			line = append(line, 't')
		} else {
			line = append(line, 'f')
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// countingConn counts the bytes read from a connection.
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	k, err := c.Conn.Read(p)
	c.n.Add(int64(k))
	return k, err
}

// benchDelivery runs the delivery query b.N times at dsn in mode, reading
// every row, and reports rows/s and MB/s. It returns a checksum of the
// values of its untimed warm-up read.
func benchDelivery(b *testing.B, dsn string, mode pgx.QueryExecMode, rows int) uint64 {
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		b.Fatal(err)
	}
	var read atomic.Int64
	cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		nc, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return countingConn{Conn: nc, n: &read}, nil
	}
	cfg.DefaultQueryExecMode = mode
	cfg.RuntimeParams["TimeZone"] = "UTC"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		b.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	// One untimed run prepares the statement (binary mode), warms caches
	// and sums the values.
	sum := fnv.New64a()
	if n, err := readAll(ctx, conn, sum); err != nil || n != rows {
		b.Fatalf("warm-up read %d rows, %v; want %d", n, err, rows)
	}
	read.Store(0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n, err := readAll(ctx, conn, nil)
		if err != nil {
			b.Fatal(err)
		}
		if n != rows {
			b.Fatalf("read %d rows, want %d", n, rows)
		}
	}
	b.StopTimer()
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/s, "rows/s")
		b.ReportMetric(float64(read.Load())/1e6/s, "MB/s")
	}
	return sum.Sum64()
}

// readAll runs the delivery query and counts its rows, touching every raw
// value; a non-nil sum gets every value, NULLs as a marker.
func readAll(ctx context.Context, conn *pgx.Conn, sum hash.Hash) (int, error) {
	rs, err := conn.Query(ctx, deliveryQuery)
	if err != nil {
		return 0, err
	}
	n, size := 0, 0
	for rs.Next() {
		for _, v := range rs.RawValues() {
			size += len(v)
			if sum != nil {
				if v == nil {
					sum.Write([]byte{0xff, 0xff, 0xff, 0xff})
				} else {
					sum.Write(binary.BigEndian.AppendUint32(nil, uint32(len(v))))
					sum.Write(v)
				}
			}
		}
		n++
	}
	rs.Close()
	if size == 0 && n > 0 {
		return n, fmt.Errorf("rows without values")
	}
	return n, rs.Err()
}
