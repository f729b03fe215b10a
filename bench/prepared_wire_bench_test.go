package bench

import (
	"context"
	"net"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/catalog"
)

// BenchmarkPreparedPointWire is the prepared point query over the wire,
// in one process with the server: SELECT id, v FROM ns.t WHERE id = $1
// over a fresh 10,000-row table, one client running it again and again
// (pgx prepares it once, then sends Bind, Describe, Execute and Sync with
// a binary parameter each time). Its allocations per op are the client's
// and the server's together.
func BenchmarkPreparedPointWire(b *testing.B) {
	cat, err := catalog.NewFilesystem("icegate", b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(startServer(b, cat))
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+host+":"+port+"/icegate?sslmode=disable")
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{"CREATE SCHEMA ns", "CREATE TABLE ns.t (id bigint, v text)",
		"INSERT INTO ns.t SELECT g, 'v' || g FROM generate_series(1, 10000) g"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	const sql = "SELECT id, v FROM ns.t WHERE id = $1"
	var id int64
	var v string
	if err := conn.QueryRow(ctx, sql, int64(1)).Scan(&id, &v); err != nil || v != "v1" {
		b.Fatalf("warm-up: %q, %v", v, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		want := int64(i%10000 + 1)
		if err := conn.QueryRow(ctx, sql, want).Scan(&id, &v); err != nil || id != want {
			b.Fatalf("id %d: got %d, %v", want, id, err)
		}
	}
}
