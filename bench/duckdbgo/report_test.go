package duckdbgo

import (
	"strings"
	"testing"
	"time"
)

func TestWriteTable(t *testing.T) {
	ms := time.Millisecond
	results := []QueryResult{
		{Name: "q01", Icegate: 200 * ms, DuckDB: 100 * ms, Check: "ok", Postgres: 400 * ms, PGCheck: "ok"},
		{Name: "q02", Icegate: 50 * ms, DuckDB: 100 * ms, Check: "ok", Postgres: 800 * ms, PGCheck: "ok"},
		{Name: "q03", Icegate: 100 * ms, DuckDB: 100 * ms, Check: "ok", PGCheck: "PostgreSQL timeout"},
	}
	tests := []struct {
		name   string
		withPG bool
		want   []string
		absent []string
	}{
		{"without PostgreSQL", false, []string{
			"| query | icegate ms | DuckDB ms | ratio | answers |",
			"| q01 | 200.0 | 100.0 | 2.00 | ok |",
			"Geometric mean of the ratios over 3 queries: 1.00 (largest: q01, 2.00)",
		}, []string{"PostgreSQL"}},
		{"with PostgreSQL", true, []string{
			"| query | icegate ms | DuckDB ms | ratio | PostgreSQL ms | PG ratio | answers | PostgreSQL answers |",
			"| q01 | 200.0 | 100.0 | 2.00 | 400.0 | 4.00 | ok | ok |",
			"| q03 | 100.0 | 100.0 | 1.00 | - | - | ok | PostgreSQL timeout |",
			"Geometric mean of the ratios over 3 queries: 1.00 (largest: q01, 2.00)",
			"Geometric mean of PostgreSQL / DuckDB over 2 queries: 5.66 (largest: q02, 8.00)",
			"Geometric mean of icegate / PostgreSQL over 2 queries: 0.18 (largest: q01, 0.50)",
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteTable(&b, results, tt.withPG); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("table lacks %q:\n%s", w, b.String())
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(b.String(), a) {
					t.Errorf("table has %q:\n%s", a, b.String())
				}
			}
		})
	}
}
