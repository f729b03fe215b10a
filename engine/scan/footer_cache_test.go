package scan

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// countingIO counts the data files opened through it.
type countingIO struct {
	catalog.FileIO
	data  map[string]bool
	opens atomic.Int64
}

func (c *countingIO) Open(ctx context.Context, path string) (catalog.File, error) {
	if c.data[path] {
		c.opens.Add(1)
	}
	return c.FileIO.Open(ctx, path)
}

// TestFooterCacheSameRows scans tables without caches, then several times
// with a column and a footer cache, and checks the rows are the same and,
// for tables whose row groups the column cache keeps, that the later scans
// open no data file.
func TestFooterCacheSameRows(t *testing.T) {
	cases := []struct {
		table string
		// noOpen: every data file's columns come from the column cache,
		// so later scans open none (delete files are read each time).
		noOpen bool
	}{
		{"lithium__gperov_test", true},
		{"lithium__all_trino_types", false}, // nested columns are decoded from the file each time
		{"lithium__refdeletes3", true},
		{"impala__iceberg_v2_delete_positional", true},
		{"duckdb__lineitem_iceberg_gz", false}, // groups too big for the column cache
	}
	for _, c := range cases {
		t.Run(c.table, func(t *testing.T) {
			tbl, tasks := loadTable(t, c.table)
			cio := &countingIO{FileIO: tbl.IO, data: map[string]bool{}}
			for _, task := range tasks {
				cio.data[task.File.Path] = true
			}
			cp := *tbl
			cp.IO = cio
			schema := tbl.Metadata.CurrentSchema()
			spec := engine.ScanSpec{Table: &cp, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)}
			read := func(opts Options) string {
				t.Helper()
				opts.Parallelism = 1
				recs, err := scanAll(t, spec, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer releaseRecs(recs)
				return strings.Join(formatRows(recs), "\n")
			}
			want := read(Options{})
			columns, footers := NewColumnCache(64<<20), NewFooterCache(32<<20)
			for i := range 3 {
				before := cio.opens.Load()
				if got := read(Options{Columns: columns, Footers: footers}); got != want {
					t.Fatalf("read %d with the caches:\n%s\nwant\n%s", i+1, got, want)
				}
				if opened := cio.opens.Load() - before; i > 0 && c.noOpen && opened != 0 {
					t.Errorf("read %d opened %d files, want none", i+1, opened)
				}
			}
			if footers.Len() == 0 {
				t.Errorf("no footer cached")
			}
		})
	}
}

// TestFooterCacheKey checks that the same data file read as another
// table's (a table dropped and created again has a new UUID) or with
// another size or row count in its manifest entry is not served the
// cached footer, and that the cache keeps within its bound.
func TestFooterCacheKey(t *testing.T) {
	tbl, tasks := loadTable(t, "lithium__gperov_test")
	schema := tbl.Metadata.CurrentSchema()
	footers := NewFooterCache(32 << 20)
	scan := func(tb *catalog.Table, tasks []catalog.FileScanTask) {
		t.Helper()
		spec := engine.ScanSpec{Table: tb, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)}
		recs, err := scanAll(t, spec, Options{Parallelism: 1, Footers: footers})
		if err != nil {
			t.Fatal(err)
		}
		releaseRecs(recs)
	}
	scan(tbl, tasks)
	n := footers.Len()
	if n == 0 {
		t.Fatal("no footer cached")
	}
	scan(tbl, tasks)
	if got := footers.Len(); got != n {
		t.Errorf("a second scan left %d footers, want the same %d", got, n)
	}

	other := *tbl
	meta := *tbl.Metadata
	meta.TableUUID = "00000000-0000-0000-0000-00000000beef"
	other.Metadata = &meta
	scan(&other, tasks)
	if got := footers.Len(); got != 2*n {
		t.Errorf("another table's scan left %d footers, want %d", got, 2*n)
	}

	recount := make([]catalog.FileScanTask, len(tasks))
	for i, task := range tasks {
		df := *task.File
		df.RecordCount++
		recount[i] = task
		recount[i].File = &df
	}
	scan(tbl, recount)
	if got := footers.Len(); got != 3*n {
		t.Errorf("a scan with other row counts left %d footers, want %d", got, 3*n)
	}

	for _, limit := range []int64{0, 1 << 10} {
		small := NewFooterCache(limit)
		spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)}
		recs, err := scanAll(t, spec, Options{Parallelism: 1, Footers: small})
		if err != nil {
			t.Fatal(err)
		}
		releaseRecs(recs)
		small.mu.Lock()
		used := small.used
		small.mu.Unlock()
		if used > limit {
			t.Errorf("limit %d: %d bytes cached", limit, used)
		}
	}
}
