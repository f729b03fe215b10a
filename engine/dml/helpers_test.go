package dml

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

// env is one table of a filesystem catalog under a test's temp dir.
type env struct {
	ctx context.Context
	cat *catalog.Filesystem
	id  catalog.Identifier
	dir string // the table's directory
}

// testSchema is the schema of the tables the tests create.
func testSchema() *catalog.Schema {
	return &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		{ID: 2, Name: "part", Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: 3, Name: "name", Type: &catalog.PrimitiveType{ID: catalog.TString}},
	}}
}

// newTable creates db.t (identity-partitioned by part when partitioned) of
// the given format version and properties.
func newTable(t *testing.T, version int, partitioned bool, props map[string]string) *env {
	t.Helper()
	ctx := context.Background()
	root := t.TempDir()
	cat, err := catalog.NewFilesystem("dml", root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	spec := catalog.TableSpec{Schema: testSchema(), FormatVersion: version, Properties: props}
	if partitioned {
		spec.Spec = &catalog.PartitionSpec{Fields: []catalog.PartitionField{
			{SourceID: 2, FieldID: 1000, Name: "part", Transform: catalog.Transform{Name: "identity"}},
		}}
	}
	id := catalog.Identifier{Namespace: []string{"db"}, Name: "t"}
	if _, err := cat.CreateTable(ctx, id, spec); err != nil {
		t.Fatal(err)
	}
	return &env{ctx: ctx, cat: cat, id: id, dir: filepath.Join(root, "db", "t")}
}

// fixtureEnv copies a fixture table into a temp warehouse (namespace
// "ice") and opens it with the filesystem catalog.
func fixtureEnv(t *testing.T, name string) *env {
	t.Helper()
	root := t.TempDir()
	dst := filepath.Join(root, "ice", name)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-r", filepath.Join(fixtures.Dir(t), name), dst).CombinedOutput(); err != nil {
		t.Fatalf("copy fixture %s: %v: %s", name, err, out)
	}
	cat, err := catalog.NewFilesystem("dml", root, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &env{ctx: context.Background(), cat: cat, id: catalog.Identifier{Namespace: []string{"ice"}, Name: name}, dir: dst}
}

func (e *env) load(t *testing.T) *catalog.Table {
	t.Helper()
	tbl, err := e.cat.LoadTable(e.ctx, e.id)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// row is one row of the test schema.
type row struct {
	id   int64
	part int32
	name string
}

func (r row) String() string { return fmt.Sprintf("%d|%d|%s", r.id, r.part, r.name) }

// rowsOf makes rows id in ids, part id%3, name "r<id>".
func rowsOf(ids ...int64) []row {
	out := make([]row, len(ids))
	for i, id := range ids {
		out[i] = row{id: id, part: int32(id % 3), name: "r" + strconv.FormatInt(id, 10)}
	}
	return out
}

func span(from, to int64) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// batchOf makes a batch of the test schema's columns.
func batchOf(rows []row) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	ids := array.NewInt64Builder(mem)
	parts := array.NewInt32Builder(mem)
	names := array.NewStringBuilder(mem)
	defer ids.Release()
	defer parts.Release()
	defer names.Release()
	for _, r := range rows {
		ids.Append(r.id)
		parts.Append(r.part)
		names.Append(r.name)
	}
	var fields []arrow.Field
	for _, f := range testSchema().Fields {
		fields = append(fields, engine.ArrowField(f))
	}
	cols := []arrow.Array{ids.NewArray(), parts.NewArray(), names.NewArray()}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(len(rows)))
}

// appendRows writes rows in one append (one data file per partition).
func (e *env) appendRows(t *testing.T, rows []row) {
	t.Helper()
	tbl := e.load(t)
	m := tbl.Metadata
	out, err := e.cat.NewOutput(tbl)
	if err != nil {
		t.Fatal(err)
	}
	w, err := write.NewWriter(e.ctx, write.WriterSpec{IO: write.TableOutput(e.ctx, out), DataDir: write.DataDir(m),
		Schema: m.CurrentSchema(), Spec: m.SpecByID(m.DefaultSpecID), Properties: m.Properties, FormatVersion: m.FormatVersion})
	if err != nil {
		t.Fatal(err)
	}
	b := batchOf(rows)
	defer b.Release()
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	files, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.Append(e.ctx, e.cat, e.id, files, nil); err != nil {
		t.Fatal(err)
	}
}

// scanned is a live row of a table with its metadata columns; vals are the
// table's top-level columns as text.
type scanned struct {
	file string
	pos  int64
	vals []string
}

// scanTable reads the current snapshot with _file and _pos.
func scanTable(t *testing.T, tbl *catalog.Table) []scanned {
	t.Helper()
	ctx := context.Background()
	tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	return scanTasks(t, tbl, tasks)
}

// scanChanged reads the table's current snapshot as ch would leave it,
// without committing ch: the removed files left out, the added ones in
// (delete files applied to the data file they name, or to all).
func scanChanged(t *testing.T, tbl *catalog.Table, ch *catalog.Change) []scanned {
	t.Helper()
	tasks, err := catalog.PlanFiles(context.Background(), tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	key := func(d *catalog.DataFile) string {
		if d.ContentOffset != nil {
			return d.Path + "@" + strconv.FormatInt(*d.ContentOffset, 10)
		}
		return d.Path
	}
	gone := map[string]bool{}
	for _, f := range ch.RemovedDataFiles {
		gone[f.Path] = true
	}
	for _, f := range ch.RemovedDeleteFiles {
		gone[key(f)] = true
	}
	var out []catalog.FileScanTask
	for _, task := range tasks {
		if gone[task.File.Path] {
			continue
		}
		var dels []*catalog.DataFile
		for _, d := range task.Deletes {
			if !gone[key(d)] {
				dels = append(dels, d)
			}
		}
		for _, d := range ch.AddedDeleteFiles {
			if ref, ok := referencedFile(d); !ok || ref == task.File.Path {
				dels = append(dels, d)
			}
		}
		out = append(out, catalog.FileScanTask{File: task.File, Spec: task.Spec, Deletes: dels})
	}
	for _, f := range ch.AddedDataFiles {
		out = append(out, catalog.FileScanTask{File: f, Spec: tbl.Metadata.SpecByID(f.SpecID)})
	}
	return scanTasks(t, tbl, out)
}

// scanTasks reads tasks with _file and _pos.
func scanTasks(t *testing.T, tbl *catalog.Table, tasks []catalog.FileScanTask) []scanned {
	t.Helper()
	ctx := context.Background()
	schema := tbl.Metadata.CurrentSchema()
	ids := []int{scan.FieldIDFile, scan.FieldIDPos}
	for _, f := range schema.Fields {
		ids = append(ids, f.ID)
	}
	op := scan.New(engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: ids}, scan.Options{Parallelism: 1})
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		t.Fatal(err)
	}
	var out []scanned
	for {
		b, err := op.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return out
		}
		files := b.Column(0).(*array.String)
		poss := b.Column(1).(*array.Int64)
		for i := 0; i < int(b.NumRows()); i++ {
			s := scanned{file: files.Value(i), pos: poss.Value(i)}
			for c := 2; c < int(b.NumCols()); c++ {
				s.vals = append(s.vals, b.Column(c).ValueStr(i))
			}
			out = append(out, s)
		}
	}
}

// rowStrings renders the test schema's rows of a scan, sorted.
func rowStrings(rows []scanned) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%s|%s|%s", r.vals[0], r.vals[1], r.vals[2])
	}
	sort.Strings(out)
	return out
}

func wantStrings(rows []row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.String()
	}
	sort.Strings(out)
	return out
}

// idOf is the id column of a scanned row of the test schema.
func idOf(t *testing.T, s scanned) int64 {
	t.Helper()
	id, err := strconv.ParseInt(s.vals[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// newWriter starts a change of the table's current snapshot.
func (e *env) newWriter(t *testing.T, tbl *catalog.Table, mode Mode) *Writer {
	t.Helper()
	out, err := e.cat.NewOutput(tbl)
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(e.ctx, Spec{Table: tbl, Snapshot: tbl.Metadata.CurrentSnapshot(), Schema: tbl.Metadata.CurrentSchema(),
		Out: out, Mode: mode, Scan: scan.Options{Parallelism: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// change runs one row-level change: rows for which del says so are
// removed, and those upd maps to a new row are replaced by it.
func (e *env) change(t *testing.T, mode Mode, del func(scanned) bool, upd func(scanned) *row) (*Writer, *catalog.Change) {
	t.Helper()
	tbl := e.load(t)
	w := e.newWriter(t, tbl, mode)
	var inserts []row
	for _, s := range scanTable(t, tbl) {
		var nr *row
		if upd != nil {
			nr = upd(s)
		}
		if (del == nil || !del(s)) && nr == nil {
			continue
		}
		ok, err := w.Delete(s.file, s.pos)
		if err != nil || !ok {
			t.Fatalf("delete %s@%d: %v, %v", s.file, s.pos, ok, err)
		}
		if nr != nil {
			inserts = append(inserts, *nr)
		}
	}
	if len(inserts) > 0 {
		b := batchOf(inserts)
		defer b.Release()
		if err := w.Insert(b); err != nil {
			t.Fatal(err)
		}
	}
	ch, err := w.Finish(e.ctx)
	if err != nil {
		t.Fatalf("finish: %v", err)
	}
	return w, ch
}

// commit commits a change; on error it aborts the writer.
func (e *env) commit(t *testing.T, w *Writer, ch *catalog.Change) *catalog.Table {
	t.Helper()
	tbl, err := catalog.CommitChange(e.ctx, e.cat, e.id, ch)
	if err != nil {
		w.Abort()
		t.Fatalf("commit: %v", err)
	}
	return tbl
}

// filesUnder lists the files under dir, relative to it.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// wantCode fails t unless err carries SQLSTATE code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != code {
		t.Fatalf("error %v, want SQLSTATE %s", err, code)
	}
}
