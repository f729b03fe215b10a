package scan

import (
	"sort"
	"testing"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestFixtureRowCounts scans every fixture table's current snapshot with
// all columns and compares the row count with tables.json.
func TestFixtureRowCounts(t *testing.T) {
	facts := loadFacts(t)
	names := make([]string, 0, len(facts))
	for n := range facts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		f := facts[name]
		t.Run(name, func(t *testing.T) {
			if f.ExpectedRowsCurrent == nil {
				t.Skip("tables.json has no expected row count for this table")
			}
			tbl, tasks := loadTable(t, name)
			mem := newChecked(t)
			schema := tbl.Metadata.CurrentSchema()
			recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)},
				Options{Alloc: mem, BatchSize: 1000, Parallelism: 2})
			if err != nil {
				if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.FeatureNotSupported {
					t.Logf("unsupported: %v (%s)", err, pe.Detail)
					mem.AssertSize(t, 0)
					return
				}
				t.Fatalf("scan: %v", err)
			}
			got := countRows(recs)
			releaseRecs(recs)
			mem.AssertSize(t, 0)
			if got != *f.ExpectedRowsCurrent {
				t.Errorf("rows = %d, want %d", got, *f.ExpectedRowsCurrent)
			}
			// Each column alone (readers and deletes must not depend on
			// the other columns being read); small tables only, to keep
			// the test quick.
			for _, id := range allFieldIDs(schema) {
				if *f.ExpectedRowsCurrent > 20000 {
					break
				}
				recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: []int{id}},
					Options{Alloc: mem, BatchSize: 500, Parallelism: 2})
				if err != nil {
					t.Fatalf("column %d: %v", id, err)
				}
				if got := countRows(recs); got != *f.ExpectedRowsCurrent {
					t.Errorf("column %d: rows = %d, want %d", id, got, *f.ExpectedRowsCurrent)
				}
				releaseRecs(recs)
			}
			mem.AssertSize(t, 0)
		})
	}
}
