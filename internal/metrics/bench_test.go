package metrics

import (
	"io"
	"testing"
)

// BenchmarkStatementCounting is what wire does per statement: one
// labelled counter, one histogram observation, one rows counter.
func BenchmarkStatementCounting(b *testing.B) {
	r := NewRegistry()
	stmts := r.Counter("s_total", "", "kind", "outcome", "sqlstate_class")
	lat := r.Histogram("l_seconds", "", LatencyBuckets, "kind")
	rows := r.Counter("r_total", "", "kind")
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			stmts.With("select", "ok", "00").Inc()
			lat.With("select").Observe(0.004)
			rows.With("select").Add(10)
		}
	})
}

// BenchmarkScrape writes a registry shaped like the server's: runtime
// families and the statement families with every kind.
func BenchmarkScrape(b *testing.B) {
	r := NewRegistry()
	RegisterRuntime(r)
	stmts := r.Counter("s_total", "", "kind", "outcome", "sqlstate_class")
	lat := r.Histogram("l_seconds", "", LatencyBuckets, "kind")
	for _, k := range []string{"select", "insert", "update", "delete", "merge", "ddl", "call", "copy", "other"} {
		stmts.With(k, "ok", "00").Inc()
		stmts.With(k, "error", "42").Inc()
		lat.With(k).Observe(0.01)
	}
	for b.Loop() {
		if err := r.WriteText(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
