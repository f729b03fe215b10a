package compact

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/dml"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/engine/write"
)

// env is one table db.t of a filesystem catalog in a temp dir.
type env struct {
	ctx context.Context
	cat *catalog.Filesystem
	id  catalog.Identifier
	dir string
}

func testSchema() *catalog.Schema {
	return &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		{ID: 2, Name: "part", Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: 3, Name: "name", Type: &catalog.PrimitiveType{ID: catalog.TString}},
	}}
}

// newTable creates db.t, identity-partitioned by part when partitioned.
func newTable(t testing.TB, version int, partitioned bool, props map[string]string) *env {
	t.Helper()
	ctx := context.Background()
	root := t.TempDir()
	cat, err := catalog.NewFilesystem("compact", root, nil)
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

func (e *env) load(t testing.TB) *catalog.Table {
	t.Helper()
	tbl, err := e.cat.LoadTable(e.ctx, e.id)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// row is one row of the test schema; part is id%3.
type row struct {
	id   int64
	part int32
	name string
}

func rowsOf(from, to int64) []row {
	var out []row
	for i := from; i < to; i++ {
		out = append(out, row{id: i, part: int32(i % 3), name: "r" + strconv.FormatInt(i, 10)})
	}
	return out
}

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
func (e *env) appendRows(t testing.TB, rows []row) {
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

// deleteWhere removes the rows del picks with a row-level change of the
// given mode, committed.
func (e *env) deleteWhere(t testing.TB, mode dml.Mode, del func(id int64) bool) {
	t.Helper()
	tbl := e.load(t)
	ch, w := e.deleteChange(t, tbl, mode, del)
	if _, err := catalog.CommitChange(e.ctx, e.cat, e.id, ch); err != nil {
		w.Abort()
		t.Fatalf("commit delete: %v", err)
	}
}

// deleteChange computes (without committing) a change of tbl deleting the
// rows del picks.
func (e *env) deleteChange(t testing.TB, tbl *catalog.Table, mode dml.Mode, del func(id int64) bool) (*catalog.Change, *dml.Writer) {
	t.Helper()
	out, err := e.cat.NewOutput(tbl)
	if err != nil {
		t.Fatal(err)
	}
	w, err := dml.New(e.ctx, dml.Spec{Table: tbl, Snapshot: tbl.Metadata.CurrentSnapshot(), Schema: tbl.Metadata.CurrentSchema(),
		Out: out, Mode: mode, Scan: scan.Options{Parallelism: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range e.scanRows(t, tbl, true) {
		if del(r.id) {
			if _, err := w.Delete(r.file, r.pos); err != nil {
				t.Fatal(err)
			}
		}
	}
	ch, err := w.Finish(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	ch.Isolation = catalog.SnapshotIsolation
	return ch, w
}

type scanned struct {
	file string
	pos  int64
	id   int64
	text string
}

// scanRows reads the table's current snapshot.
func (e *env) scanRows(t testing.TB, tbl *catalog.Table, meta bool) []scanned {
	t.Helper()
	tasks, err := catalog.PlanFiles(e.ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	schema := tbl.Metadata.CurrentSchema()
	ids := []int{scan.FieldIDFile, scan.FieldIDPos}
	for _, f := range schema.Fields {
		ids = append(ids, f.ID)
	}
	op := scan.New(engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: ids}, scan.Options{Parallelism: 1})
	defer op.Close()
	if err := op.Open(e.ctx); err != nil {
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
		idc := b.Column(2).(*array.Int64)
		for i := 0; i < int(b.NumRows()); i++ {
			var vals []string
			for c := 2; c < int(b.NumCols()); c++ {
				vals = append(vals, b.Column(c).ValueStr(i))
			}
			out = append(out, scanned{file: files.Value(i), pos: poss.Value(i), id: idc.Value(i), text: strings.Join(vals, "|")})
		}
	}
}

// rows renders the live rows of the current snapshot, sorted.
func (e *env) rows(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, r := range e.scanRows(t, e.load(t), false) {
		out = append(out, r.text)
	}
	sort.Strings(out)
	return out
}

func wantRows(rows []row, keep func(id int64) bool) []string {
	var out []string
	for _, r := range rows {
		if keep == nil || keep(r.id) {
			out = append(out, fmt.Sprintf("%d|%d|%s", r.id, r.part, r.name))
		}
	}
	sort.Strings(out)
	return out
}

// fileCounts counts the live data files and delete files of the current
// snapshot.
func (e *env) fileCounts(t testing.TB) (data, deletes int) {
	t.Helper()
	tbl := e.load(t)
	tasks, err := catalog.PlanFiles(e.ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	dels := map[string]bool{}
	for _, task := range tasks {
		for _, d := range task.Deletes {
			dels[deleteKey(d)] = true
		}
	}
	live, err := liveDeleteFiles(e.ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range live {
		dels[deleteKey(d)] = true
	}
	return len(tasks), len(dels)
}

// dataFilesOnDisk lists the files under the table's data directory.
func (e *env) dataFilesOnDisk(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(e.dir, "data"), func(p string, d fs.DirEntry, err error) error {
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
	slices.Sort(out)
	return out
}

// rewrite runs RewriteDataFiles over the current table with opts.
func (e *env) rewrite(t testing.TB, spec Spec, opts map[string]string) (Result, error) {
	t.Helper()
	tbl := e.load(t)
	return e.rewriteOf(t, tbl, spec, opts)
}

func (e *env) rewriteOf(t testing.TB, tbl *catalog.Table, spec Spec, opts map[string]string) (Result, error) {
	t.Helper()
	o, err := ParseOptions(tbl.Metadata.Properties, opts)
	if err != nil {
		t.Fatal(err)
	}
	spec.Catalog, spec.Table, spec.Options = e.cat, tbl, o
	return RewriteDataFiles(e.ctx, spec)
}
