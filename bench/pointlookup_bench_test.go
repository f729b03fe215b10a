package bench

import (
	"context"
	"net"
	"os"
	"testing"
)

// pointColumns are the nine columns the point lookup reads.
const pointColumns = "l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag"

// BenchmarkPointLookup times the lookup of one order's line items in TPC-H
// lineitem by its key, over the wire: `nine` reads nine columns, `star`
// every column. It uses the warehouse of BenchmarkTPCH (ICEGATE_BENCH_SF,
// ICEGATE_BENCH_KEEP to reuse one). Each iteration looks up the next of
// sixteen keys spread over the key range, so no answer comes from a cache
// of the previous statement; every lookup must find between one and seven
// rows. It reports ms/op.
func BenchmarkPointLookup(b *testing.B) {
	sf := scaleFactor(b)
	cat, err := tpchCatalog(b, os.Getenv("ICEGATE_BENCH_KEEP"), sf)
	if err != nil {
		b.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(startServer(b, cat))
	ctx := context.Background()
	client := &tpchClient{dsn: "postgres://icegate@" + host + ":" + port + "/icegate?sslmode=disable", timeout: queryTimeout(b)}
	defer client.close(ctx)
	client.connect(b, ctx)
	var maxKey int64
	if err := client.conn.QueryRow(ctx, "SELECT max(l_orderkey) FROM lineitem").Scan(&maxKey); err != nil {
		b.Fatal(err)
	}
	keys := make([]int64, 16)
	for i := range keys {
		keys[i] = 1 + maxKey*int64(2*i+1)/int64(2*len(keys))
	}
	for _, c := range []struct{ name, cols string }{{"nine", pointColumns}, {"star", "*"}} {
		b.Run(c.name, func(b *testing.B) {
			sql := "SELECT " + c.cols + " FROM lineitem WHERE l_orderkey = $1"
			lookup := func(key int64) {
				rows, err := client.conn.Query(ctx, sql, key)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for rows.Next() {
					_ = rows.RawValues()
					n++
				}
				rows.Close()
				if err := rows.Err(); err != nil {
					b.Fatal(err)
				}
				if n < 1 || n > 7 {
					b.Fatalf("l_orderkey = %d: %d rows, want 1 to 7", key, n)
				}
			}
			lookup(keys[0]) // warm: the table's metadata and the file's footer
			i := 0
			for b.Loop() {
				lookup(keys[i%len(keys)])
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}
