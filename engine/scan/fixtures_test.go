package scan

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/fixtures"
)

// fixtureFacts is the part of tables.json the tests use.
type fixtureFacts struct {
	ExpectedRowsCurrent *int64 `json:"expected_rows_current"`
	FormatVersion       int    `json:"format_version"`
}

func loadFacts(t testing.TB) map[string]fixtureFacts {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]fixtureFacts
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// nestedFixtures are fixture folders whose table sits in a subfolder
// (README "Layout and how to open a table").
var nestedFixtures = map[string]string{
	"impala__iceberg_multiple_storage_locations": "iceberg_multiple_storage_locations",
}

// loadTable loads a fixture table through the filesystem catalog and plans
// its current snapshot.
func loadTable(t testing.TB, name string) (*catalog.Table, []catalog.FileScanTask) {
	t.Helper()
	cat, err := catalog.NewFilesystem("fixtures", fixtures.Dir(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id := catalog.Identifier{Name: name}
	if sub, ok := nestedFixtures[name]; ok {
		id = catalog.Identifier{Namespace: []string{name}, Name: sub}
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatalf("plan %s: %v", name, err)
	}
	return tbl, tasks
}

func allFieldIDs(s *catalog.Schema) []int {
	ids := make([]int, len(s.Fields))
	for i, f := range s.Fields {
		ids[i] = f.ID
	}
	return ids
}

// scanAll runs a scan to the end and returns the batches (retained; the
// caller releases them) or the error.
func scanAll(t testing.TB, spec engine.ScanSpec, opts Options) ([]arrow.RecordBatch, error) {
	t.Helper()
	op := New(spec, opts)
	defer op.Close()
	if err := op.Open(context.Background()); err != nil {
		return nil, err
	}
	var out []arrow.RecordBatch
	for {
		rec, err := op.Next()
		if err != nil {
			for _, r := range out {
				r.Release()
			}
			return nil, err
		}
		if rec == nil {
			return out, nil
		}
		if rec.NumRows() == 0 {
			t.Errorf("empty batch")
		}
		rec.Retain()
		out = append(out, rec)
	}
}

// scanRendered is renderRows of what the scan returns, each batch
// rendered and released before the next is asked for: with
// Options.RecycleBuffers a batch's buffers then serve the later ones,
// so anything a batch reads that its producer did not write shows up as
// stale rows.
func scanRendered(t testing.TB, spec engine.ScanSpec, opts Options) ([]string, error) {
	t.Helper()
	op := New(spec, opts)
	defer op.Close()
	if err := op.Open(context.Background()); err != nil {
		return nil, err
	}
	var out []string
	for {
		rec, err := op.Next()
		if err != nil || rec == nil {
			slices.Sort(out)
			return out, err
		}
		out = append(out, renderRows([]arrow.RecordBatch{rec})...)
		rec.Release()
	}
}

func countRows(recs []arrow.RecordBatch) int64 {
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	return n
}

func releaseRecs(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

func newChecked(t testing.TB) *memory.CheckedAllocator {
	return memory.NewCheckedAllocator(memory.NewGoAllocator())
}

type (
	arrowRecordBatch = arrow.RecordBatch
	arrayList        = array.List
)

// forEachFixture runs run, as a subtest named after each fixture table in
// order, with a scan of every column of the table's current snapshot.
func forEachFixture(t *testing.T, run func(t *testing.T, spec engine.ScanSpec)) {
	facts := loadFacts(t)
	names := make([]string, 0, len(facts))
	for name := range facts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			tbl, tasks := loadTable(t, name)
			schema := tbl.Metadata.CurrentSchema()
			run(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)})
		})
	}
}
