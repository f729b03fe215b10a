package duckdbgo

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/bench/tpch"
	"github.com/icegate/icegate/catalog"
)

// layoutVariants are the Parquet layouts BenchmarkLayout compares: table
// properties of a copy of lineitem.
var layoutVariants = []struct{ name, props string }{
	{"zstd", ""}, // the writer's defaults
	{"zstd1", "'write.parquet.compression-level'='1'"},
	{"snappy", "'write.parquet.compression-codec'='snappy'"},
	{"zstd_rg32m", "'write.parquet.row-group-size-bytes'='33554432'"},
	{"snappy_rg32m", "'write.parquet.compression-codec'='snappy', 'write.parquet.row-group-size-bytes'='33554432'"},
}

// layoutScan reads five columns of every row; layoutPoint looks one order
// up by key.
const (
	layoutScan  = "SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice), avg(l_discount), count(*) FROM %s GROUP BY 1, 2 ORDER BY 1, 2"
	layoutPoint = "SELECT l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag FROM %s WHERE l_orderkey = %d"
)

// BenchmarkLayout measures how fast icegate and DuckDB read lineitem
// written by icegate with different Parquet layouts. The warehouse
// ICEGATE_BENCH_LAYOUT (required; it must hold TPC-H lineitem, as
// BenchmarkTPCHInterleaved or bench's BenchmarkTPCH leave it with
// ICEGATE_BENCH_KEEP) gets a copy per variant, layout_<name>, written by
// INSERT ... SELECT through an in-process icegate when missing. Then each
// iteration is a round: every variant, in an order rotating between rounds,
// runs the scan query and a point lookup on icegate and on DuckDB (2
// threads), and DuckDB runs both on a file it wrote itself from the same
// rows with its defaults (duckdb-own-lineitem.parquet in the warehouse
// directory, written once). It logs the median of each.
func BenchmarkLayout(b *testing.B) {
	dir := os.Getenv("ICEGATE_BENCH_LAYOUT")
	if dir == "" {
		b.Skip("ICEGATE_BENCH_LAYOUT names no warehouse holding TPC-H lineitem")
	}
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	cat, err := catalog.NewFilesystem("icegate", dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	srv, err := Serve(cat, logger, "")
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Stop()
	conn, err := pgx.Connect(ctx, srv.DSN())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	existing, err := TableNames(ctx, cat)
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range layoutVariants {
		name := "layout_" + v.name
		if existing[name] {
			continue
		}
		create := "CREATE TABLE " + name + " (" + tpch.Columns + ")"
		if v.props != "" {
			create += " TBLPROPERTIES (" + v.props + ")"
		}
		start := time.Now()
		if _, err := conn.Exec(ctx, create); err != nil {
			b.Fatalf("%s: %v", create, err)
		}
		if _, err := conn.Exec(ctx, "INSERT INTO "+name+" SELECT * FROM lineitem"); err != nil {
			b.Fatalf("copy into %s: %v", name, err)
		}
		b.Logf("wrote %s in %v", name, time.Since(start).Round(time.Millisecond))
	}
	var maxKey int64
	if err := conn.QueryRow(ctx, "SELECT max(l_orderkey) FROM lineitem").Scan(&maxKey); err != nil {
		b.Fatal(err)
	}
	files, err := DataFiles(ctx, cat)
	if err != nil {
		b.Fatal(err)
	}
	duck, err := OpenDuckDB(ctx, files, 2)
	if err != nil {
		b.Fatal(err)
	}
	defer duck.Close()
	// DuckDB's own file of the same rows, written with its defaults.
	own := dir + "/duckdb-own-lineitem.parquet"
	if _, err := os.Stat(own); err != nil {
		if _, err := duck.conn.ExecContext(ctx, "COPY (SELECT * FROM layout_zstd) TO '"+own+"' (FORMAT parquet)"); err != nil {
			b.Fatalf("DuckDB COPY TO: %v", err)
		}
	}
	if _, err := duck.conn.ExecContext(ctx, "CREATE VIEW duckdb_own AS SELECT * FROM read_parquet('"+own+"')"); err != nil {
		b.Fatal(err)
	}

	times := map[string][]time.Duration{} // "<variant>/<engine>/<query>"
	timeIt := func(key string, run func() (int, error)) {
		start := time.Now()
		if _, err := run(); err != nil {
			b.Fatalf("%s: %v", key, err)
		}
		times[key] = append(times[key], time.Since(start))
	}
	round := 0
	for b.Loop() {
		for i := range layoutVariants {
			v := layoutVariants[(i+round)%len(layoutVariants)]
			table := "layout_" + v.name
			key := 1 + maxKey*int64(2*round+1)/64%maxKey
			scan, point := fmt.Sprintf(layoutScan, table), fmt.Sprintf(layoutPoint, table, key)
			timeIt(v.name+"/icegate/scan", func() (int, error) { return drainPG(ctx, conn, scan) })
			timeIt(v.name+"/duckdb/scan", func() (int, error) { return duck.Drain(ctx, scan) })
			timeIt(v.name+"/icegate/point", func() (int, error) { return drainPG(ctx, conn, point) })
			timeIt(v.name+"/duckdb/point", func() (int, error) { return duck.Drain(ctx, point) })
		}
		key := 1 + maxKey*int64(2*round+1)/64%maxKey
		timeIt("duckdb_own/duckdb/scan", func() (int, error) { return duck.Drain(ctx, fmt.Sprintf(layoutScan, "duckdb_own")) })
		timeIt("duckdb_own/duckdb/point", func() (int, error) { return duck.Drain(ctx, fmt.Sprintf(layoutPoint, "duckdb_own", key)) })
		round++
	}
	var out strings.Builder
	fmt.Fprintf(&out, "\n| layout | icegate scan ms | DuckDB scan ms | icegate point ms | DuckDB point ms | file MB | row groups |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, v := range layoutVariants {
		mb, groups := layoutFileStats(ctx, cat, "layout_"+v.name)
		fmt.Fprintf(&out, "| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %d |\n", v.name,
			medianMs(times[v.name+"/icegate/scan"]), medianMs(times[v.name+"/duckdb/scan"]),
			medianMs(times[v.name+"/icegate/point"]), medianMs(times[v.name+"/duckdb/point"]), mb, groups)
	}
	if st, err := os.Stat(own); err == nil {
		fmt.Fprintf(&out, "| DuckDB's own file (its defaults) | - | %.1f | - | %.1f | %.1f | - |\n",
			medianMs(times["duckdb_own/duckdb/scan"]), medianMs(times["duckdb_own/duckdb/point"]), float64(st.Size())/1e6)
	}
	b.Log(out.String())
}

// drainPG runs sql on icegate and reads every row.
func drainPG(ctx context.Context, conn *pgx.Conn, sql string) (int, error) {
	rows, err := conn.Query(ctx, sql)
	if err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		n++
	}
	rows.Close()
	return n, rows.Err()
}

func medianMs(d []time.Duration) float64 { return float64(Median(d).Microseconds()) / 1000 }

// layoutFileStats returns the size in MB (10^6) of table's data files and
// their row groups (split offsets).
func layoutFileStats(ctx context.Context, cat catalog.Catalog, table string) (float64, int) {
	t, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"public"}, Name: table})
	if err != nil {
		return 0, 0
	}
	tasks, err := catalog.PlanFiles(ctx, t, t.Metadata.CurrentSnapshot())
	if err != nil {
		return 0, 0
	}
	var size int64
	groups := 0
	for _, task := range tasks {
		size += task.File.FileSizeInBytes
		groups += len(task.File.SplitOffsets)
	}
	return float64(size) / 1e6, groups
}
