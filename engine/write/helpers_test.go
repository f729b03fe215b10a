package write

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

// loadFixture loads a fixture table and plans its current snapshot.
func loadFixture(t testing.TB, name string) (*catalog.Table, []catalog.FileScanTask) {
	t.Helper()
	cat, err := catalog.NewFilesystem("fixtures", fixtures.Dir(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tbl, err := cat.LoadTable(ctx, catalog.Identifier{Name: name})
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatalf("plan %s: %v", name, err)
	}
	return tbl, tasks
}

func fieldIDs(s *catalog.Schema) []int {
	ids := make([]int, len(s.Fields))
	for i, f := range s.Fields {
		ids[i] = f.ID
	}
	return ids
}

// scanRecords reads tasks with engine/scan and returns the batches
// (retained; release with releaseAll).
func scanRecords(t testing.TB, tbl *catalog.Table, schema *catalog.Schema, tasks []catalog.FileScanTask) []arrow.RecordBatch {
	t.Helper()
	op := scan.New(engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: fieldIDs(schema)},
		scan.Options{Parallelism: 1, BatchSize: 4096})
	defer op.Close()
	if err := op.Open(context.Background()); err != nil {
		t.Fatalf("open scan: %v", err)
	}
	var out []arrow.RecordBatch
	for {
		rec, err := op.Next()
		if err != nil {
			t.Fatalf("scan: %v", err)
		}
		if rec == nil {
			return out
		}
		rec.Retain()
		out = append(out, rec)
	}
}

func releaseAll(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// rowStrings renders every row of the batches as one string (values as
// arrow prints them for JSON), for comparing row sets.
func rowStrings(recs ...arrow.RecordBatch) []string {
	var rows []string
	for _, r := range recs {
		for i := 0; i < int(r.NumRows()); i++ {
			var b strings.Builder
			for c := 0; c < int(r.NumCols()); c++ {
				if c > 0 {
					b.WriteString(" | ")
				}
				v := r.Column(c).GetOneForMarshal(i)
				if raw, ok := v.(json.RawMessage); ok {
					v = string(raw)
				}
				fmt.Fprintf(&b, "%v", v)
			}
			rows = append(rows, b.String())
		}
	}
	return rows
}

func sortedRows(recs ...arrow.RecordBatch) []string {
	rows := rowStrings(recs...)
	sort.Strings(rows)
	return rows
}

// tableFor is a table to scan written files with: local IO rooted at dir.
func tableFor(dir string, s *catalog.Schema) *catalog.Table {
	return &catalog.Table{
		Ident: catalog.Identifier{Name: "written"},
		IO:    catalog.NewLocalIO(dir, dir, nil),
		Metadata: &catalog.TableMetadata{FormatVersion: 2, Schemas: []*catalog.Schema{s},
			CurrentSchemaID: s.ID, Properties: map[string]string{}},
	}
}

// tasksFor builds scan tasks for written data files.
func tasksFor(files []*catalog.DataFile, spec *catalog.PartitionSpec) []catalog.FileScanTask {
	if spec == nil {
		spec = &catalog.PartitionSpec{}
	}
	tasks := make([]catalog.FileScanTask, len(files))
	for i, f := range files {
		tasks[i] = catalog.FileScanTask{File: f, Spec: spec}
	}
	return tasks
}

// arrowSchema is the Arrow schema of batches for an Iceberg schema.
func arrowSchema(s *catalog.Schema) *arrow.Schema {
	fields := make([]arrow.Field, len(s.Fields))
	for i, f := range s.Fields {
		fields[i] = engine.ArrowField(f)
	}
	return arrow.NewSchema(fields, nil)
}

// recordFromJSON builds a batch of an Iceberg schema from JSON rows.
func recordFromJSON(t testing.TB, s *catalog.Schema, rows string) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, arrowSchema(s), strings.NewReader(rows))
	if err != nil {
		t.Fatalf("record from JSON: %v", err)
	}
	return rec
}

// writeAll writes batches with a new Writer and closes it.
func writeAll(t testing.TB, spec WriterSpec, recs ...arrow.RecordBatch) []*catalog.DataFile {
	t.Helper()
	w, err := NewWriter(context.Background(), spec)
	if err != nil {
		t.Fatalf("new writer: %v", err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	files, err := w.Close()
	if err != nil {
		t.Fatalf("close: %v", err)
	}
	return files
}

// wantCode fails unless err is a *pgerr.Error with SQLSTATE code.
func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	pe := pgerr.As(err)
	if pe == nil || pe.Code != code {
		t.Fatalf("error = %v, want SQLSTATE %s", err, code)
	}
}

func prim(id catalog.TypeID) *catalog.PrimitiveType { return &catalog.PrimitiveType{ID: id} }

// listFiles returns every regular file under dir.
func listFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func bigInt(v int64) *big.Int { return big.NewInt(v) }

func structField(a arrow.Array, k int) arrow.Array { return a.(*array.Struct).Field(k) }
