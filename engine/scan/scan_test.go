package scan

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestBatchesRespectBatchSize checks that batches are never empty, never
// larger than BatchSize, and add up to the table's rows.
func TestBatchesRespectBatchSize(t *testing.T) {
	cases := []struct {
		table     string
		batchSize int
		want      int64
	}{
		{"duckdb__lineitem_iceberg_gz", 7777, 111968},
		{"lithium__refdeletes3", 1, 10},
		{"impala__iceberg_v2_delete_positional", 2, 2},
		{"lithium__gperov_test", 333, 10001},
	}
	for _, c := range cases {
		t.Run(c.table, func(t *testing.T) {
			tbl, tasks := loadTable(t, c.table)
			schema := tbl.Metadata.CurrentSchema()
			mem := newChecked(t)
			recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)},
				Options{Alloc: mem, BatchSize: c.batchSize, Parallelism: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range recs {
				if r.NumRows() == 0 || r.NumRows() > int64(c.batchSize) {
					t.Errorf("batch of %d rows, batch size %d", r.NumRows(), c.batchSize)
				}
			}
			if got := countRows(recs); got != c.want {
				t.Errorf("rows = %d, want %d", got, c.want)
			}
			releaseRecs(recs)
			mem.AssertSize(t, 0)
		})
	}
}

// TestProjectionOrderAndSubset reads a subset of columns in a different
// order than the schema's and checks names, ids and values.
func TestProjectionOrderAndSubset(t *testing.T) {
	tbl, tasks := loadTable(t, "lithium__all_trino_types")
	schema := tbl.Metadata.CurrentSchema()
	mem := newChecked(t)
	ids := []int{13, 1, 12} // uuid_col, id, string_col
	op := New(engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: ids}, Options{Alloc: mem})
	wantNames := []string{"uuid_col", "id", "string_col"}
	for i, f := range op.Schema().Fields() {
		if f.Name != wantNames[i] {
			t.Errorf("column %d = %s, want %s", i, f.Name, wantNames[i])
		}
		if v, _ := f.Metadata.GetValue(engine.FieldIDKey); v != strconv.Itoa(ids[i]) {
			t.Errorf("column %d field id %q, want %d", i, v, ids[i])
		}
	}
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: ids}, Options{Alloc: mem})
	op.Close()
	if err != nil {
		t.Fatal(err)
	}
	got := formatRows(recs)
	releaseRecs(recs)
	mem.AssertSize(t, 0)
	want := "550e8400-e29b-41d4-a716-446655440000|1|Hello Iceberg"
	if len(got) != 1 || got[0] != want {
		t.Errorf("rows = %q, want [%q]", got, want)
	}
}

// TestDuplicateProjection projects one column twice.
func TestDuplicateProjection(t *testing.T) {
	tbl, tasks := loadTable(t, "lithium__refdeletes3")
	schema := tbl.Metadata.CurrentSchema()
	mem := newChecked(t)
	id := schema.Fields[0].ID
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: []int{id, id}}, Options{Alloc: mem})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range formatRows(recs) {
		if a, b, _ := strings.Cut(row, "|"); a != b {
			t.Errorf("row %q: columns differ", row)
		}
	}
	if got := countRows(recs); got != 10 {
		t.Errorf("rows = %d, want 10", got)
	}
	releaseRecs(recs)
	mem.AssertSize(t, 0)
}

// TestCountOnlyScan reads no columns: batches carry only row counts.
func TestCountOnlyScan(t *testing.T) {
	tbl, tasks := loadTable(t, "lithium__deletion_vectors")
	mem := newChecked(t)
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: tbl.Metadata.CurrentSchema()},
		Options{Alloc: mem})
	if err != nil {
		t.Fatal(err)
	}
	if got := countRows(recs); got != 8 {
		t.Errorf("rows = %d, want 8", got)
	}
	for _, r := range recs {
		if r.NumCols() != 0 {
			t.Errorf("batch has %d columns, want 0", r.NumCols())
		}
	}
	releaseRecs(recs)
	mem.AssertSize(t, 0)
}

// TestErrorsBySQLSTATE checks the errors a caller sees.
func TestErrorsBySQLSTATE(t *testing.T) {
	cases := []struct {
		name  string
		table string
		ids   func(s *catalog.Schema) []int
		code  string
	}{
		{"unknown field id", "lithium__no_partitioning", func(*catalog.Schema) []int { return []int{1, 999} }, pgerr.UndefinedColumn},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tbl, tasks := loadTable(t, c.table)
			schema := tbl.Metadata.CurrentSchema()
			mem := newChecked(t)
			_, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: c.ids(schema)},
				Options{Alloc: mem})
			pe := pgerr.As(err)
			if pe == nil || pe.Code != c.code {
				t.Fatalf("err = %v, want SQLSTATE %s", err, c.code)
			}
			mem.AssertSize(t, 0)
		})
	}
}

// TestStreamsBeforeScanEnds checks that the first batch reaches the
// consumer while the file is still being read, that Close stops the
// worker, and that nothing leaks.
func TestStreamsBeforeScanEnds(t *testing.T) {
	tbl, tasks := loadTable(t, "duckdb__lineitem_iceberg_gz")
	schema := tbl.Metadata.CurrentSchema()
	mem := newChecked(t)
	op := New(engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)},
		Options{Alloc: mem, BatchSize: 100, Parallelism: 1}).(*Scan)
	if err := op.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	rec, err := op.Next()
	if err != nil || rec == nil {
		t.Fatalf("first batch: %v, %v", rec, err)
	}
	select {
	case <-op.done:
		t.Error("the scan finished before the consumer read its first batch")
	default:
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-op.done:
	default:
		t.Error("Close returned before the workers stopped")
	}
	mem.AssertSize(t, 0)
}

// TestCancelStopsScan cancels the context mid-scan: Next returns the
// context's error promptly and Close leaves nothing allocated.
func TestCancelStopsScan(t *testing.T) {
	tbl, tasks := loadTable(t, "duckdb__lineitem_iceberg_gz")
	schema := tbl.Metadata.CurrentSchema()
	mem := newChecked(t)
	op := New(engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)},
		Options{Alloc: mem, BatchSize: 100, Parallelism: 2})
	ctx, cancel := context.WithCancel(context.Background())
	if err := op.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if rec, err := op.Next(); err != nil || rec == nil {
		t.Fatalf("first batch: %v, %v", rec, err)
	}
	cancel()
	start := time.Now()
	var err error
	var rec arrow.RecordBatch
	for range 10 { // batches already buffered may still come out
		if rec, err = op.Next(); err != nil || rec == nil {
			break
		}
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Next after cancel = %v, %v; want context.Canceled", rec, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancel took %v", d)
	}
	op.Close()
	mem.AssertSize(t, 0)
}
