package scan

import (
	"strings"
	"testing"

	"github.com/icegate/icegate/engine"
)

// TestColumnCacheSameRows scans tables with and without a column cache,
// twice with it (the second time from the cache), in batches smaller and
// larger than the row groups, and checks the rows are the same.
func TestColumnCacheSameRows(t *testing.T) {
	cases := []struct {
		table     string
		batchSize int
		// cached: the table has row groups small enough to cache.
		cached bool
	}{
		{"lithium__gperov_test", 333, true},
		{"lithium__gperov_test", 100000, true},
		{"lithium__refdeletes3", 3, true},
		{"impala__iceberg_v2_delete_positional", 1, true},
		{"lithium__all_trino_types", 8192, true},
		{"duckdb__lineitem_iceberg_gz", 7777, false}, // row groups over 65,536 rows
	}
	for _, c := range cases {
		t.Run(c.table, func(t *testing.T) {
			tbl, tasks := loadTable(t, c.table)
			schema := tbl.Metadata.CurrentSchema()
			spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)}
			read := func(opts Options) string {
				t.Helper()
				opts.BatchSize, opts.Parallelism = c.batchSize, 1
				recs, err := scanAll(t, spec, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer releaseRecs(recs)
				return strings.Join(formatRows(recs), "\n")
			}
			want := read(Options{})
			cache := NewColumnCache(64 << 20)
			for i := range 2 {
				if got := read(Options{Columns: cache}); got != want {
					t.Fatalf("read %d with the cache:\n%s\nwant\n%s", i+1, got, want)
				}
			}
			if got := cache.Len() > 0; got != c.cached {
				t.Errorf("%d columns cached, want some: %v", cache.Len(), c.cached)
			}
		})
	}
}

// TestColumnCacheBound checks the cache evicts beyond its byte bound and
// keeps nothing larger than an eighth of it.
func TestColumnCacheBound(t *testing.T) {
	tbl, tasks := loadTable(t, "lithium__gperov_test")
	schema := tbl.Metadata.CurrentSchema()
	spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)}
	for _, limit := range []int64{0, 1 << 10, 64 << 20} {
		cache := NewColumnCache(limit)
		recs, err := scanAll(t, spec, Options{Columns: cache, Parallelism: 1})
		if err != nil {
			t.Fatal(err)
		}
		releaseRecs(recs)
		cache.mu.Lock()
		used := cache.used
		cache.mu.Unlock()
		if used > limit {
			t.Errorf("limit %d: %d bytes cached", limit, used)
		}
		if limit >= 64<<20 && cache.Len() == 0 {
			t.Errorf("limit %d: nothing cached", limit)
		}
	}
}
