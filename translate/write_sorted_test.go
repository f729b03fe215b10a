package translate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan"
)

// mustRun runs statements and fails on any error.
func mustRun(t *testing.T, s *session, sqls ...string) {
	t.Helper()
	for _, sql := range sqls {
		if out := statementOutput(s, sql); strings.HasPrefix(out, "error") {
			t.Fatalf("%s: %s", sql, out)
		}
	}
}

// dataFiles plans the current snapshot of public.name.
func dataFiles(t *testing.T, cat *catalog.Filesystem, name string) (*catalog.Table, []catalog.FileScanTask) {
	t.Helper()
	ctx := context.Background()
	tbl, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"public"}, Name: name})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	return tbl, tasks
}

// fileColumn reads column col (an int or bigint) of one data file in file
// order; NULL reads as nil.
func fileColumn(t *testing.T, tbl *catalog.Table, task catalog.FileScanTask, col string) []*int64 {
	t.Helper()
	schema := tbl.Metadata.CurrentSchema()
	var f *catalog.NestedField
	for i := range schema.Fields {
		if schema.Fields[i].Name == col {
			f = &schema.Fields[i]
		}
	}
	if f == nil {
		t.Fatalf("no column %s", col)
	}
	proj := &catalog.Schema{Fields: []catalog.NestedField{*f}}
	op := scan.New(engine.ScanSpec{Table: tbl, Tasks: []catalog.FileScanTask{task}, Schema: proj, FieldIDs: []int{f.ID}},
		scan.Options{Parallelism: 1})
	defer op.Close()
	if err := op.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	var out []*int64
	for {
		b, err := op.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return out
		}
		for i := 0; i < int(b.NumRows()); i++ {
			c := b.Column(0)
			if c.IsNull(i) {
				out = append(out, nil)
				continue
			}
			var v int64
			switch a := c.(type) {
			case *array.Int64:
				v = a.Value(i)
			case *array.Int32:
				v = int64(a.Value(i))
			}
			out = append(out, &v)
		}
	}
}

func render(vals []*int64) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = "NULL"
		if v != nil {
			parts[i] = fmt.Sprint(*v)
		}
	}
	return strings.Join(parts, ",")
}

// TestSortedWrites: after WRITE ORDERED BY, INSERT, COPY and CREATE TABLE
// AS write every data file in the table's sort order and record its id;
// WRITE UNORDERED stops it.
func TestSortedWrites(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	mustRun(t, s,
		"CREATE TABLE src (id bigint, k int, p int) USING iceberg",
		"INSERT INTO src VALUES (1, 30, 0), (2, NULL, 1), (3, 10, 0), (4, 20, 1), (5, 10, 0), (6, NULL, 0), (7, 40, 1)",
		"CREATE TABLE t (id bigint, k int, p int) USING iceberg PARTITIONED BY (p)",
		"ALTER TABLE t WRITE ORDERED BY k DESC NULLS FIRST, id",
		"INSERT INTO t SELECT * FROM src",
	)
	tbl, tasks := dataFiles(t, cat, "t")
	order := defaultSortOrder(tbl.Metadata)
	if order == nil || len(order.Fields) != 2 {
		t.Fatalf("sort order = %+v", order)
	}
	want := map[string]string{"0": "NULL,30,10,10", "1": "NULL,40,20"}
	wantIDs := map[string]string{"0": "6,1,3,5", "1": "2,7,4"}
	if len(tasks) != 2 {
		t.Fatalf("files = %d, want 2", len(tasks))
	}
	for _, task := range tasks {
		p := fmt.Sprint(task.File.Partition[0])
		if task.File.SortOrderID == nil || *task.File.SortOrderID != order.ID {
			t.Errorf("partition %s: sort_order_id = %v, want %d", p, task.File.SortOrderID, order.ID)
		}
		if got := render(fileColumn(t, tbl, task, "k")); got != want[p] {
			t.Errorf("partition %s: k in file order = %s, want %s", p, got, want[p])
		}
		if got := render(fileColumn(t, tbl, task, "id")); got != wantIDs[p] {
			t.Errorf("partition %s: id in file order = %s, want %s", p, got, wantIDs[p])
		}
	}

	// COPY into a table ordered by a transform.
	mustRun(t, s, "CREATE TABLE c (id bigint, s string) USING iceberg",
		"ALTER TABLE c WRITE ORDERED BY truncate(1, s) ASC NULLS LAST, id DESC")
	st, err := s.Prepare(context.Background(), "COPY c FROM STDIN", nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{"1\tbanana", "2\tapple", "3\t\\N", "4\tavocado", "5\tcherry", "6\tblueberry"}
	if _, err := st[0].(CopyFromStatement).CopyIn(context.Background(), newLineSource(lines, st[0].(CopyFromStatement).Options(), 2)); err != nil {
		t.Fatal(err)
	}
	tbl, tasks = dataFiles(t, cat, "c")
	if len(tasks) != 1 {
		t.Fatalf("files = %d", len(tasks))
	}
	if got := render(fileColumn(t, tbl, tasks[0], "id")); got != "4,2,6,1,5,3" {
		t.Errorf("COPY: ids in file order = %s, want 4,2,6,1,5,3", got)
	}

	// CREATE TABLE AS has no sort order yet; later writes follow the new one.
	mustRun(t, s, "CREATE TABLE a AS SELECT id, k FROM src",
		"ALTER TABLE a WRITE LOCALLY ORDERED BY id DESC",
		"INSERT INTO a SELECT id + 10, k FROM src",
		"ALTER TABLE a WRITE UNORDERED",
		"INSERT INTO a SELECT id + 20, k FROM src WHERE id < 3")
	tbl, tasks = dataFiles(t, cat, "a")
	var sorted, unsorted []string
	for _, task := range tasks {
		ids := render(fileColumn(t, tbl, task, "id"))
		if task.File.SortOrderID != nil {
			sorted = append(sorted, ids)
		} else {
			unsorted = append(unsorted, ids)
		}
	}
	slices.Sort(unsorted)
	if !slices.Equal(sorted, []string{"17,16,15,14,13,12,11"}) || !slices.Equal(unsorted, []string{"1,2,3,4,5,6,7", "21,22"}) {
		t.Errorf("sorted files %q, unsorted files %q", sorted, unsorted)
	}
}

// TestWriteFormats: the files of an Avro table are Avro, a Parquet
// table's Parquet, and the format is what the table says at each write.
func TestWriteFormats(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	mustRun(t, s,
		"CREATE TABLE f (id bigint) USING iceberg TBLPROPERTIES ('write.format.default' = 'avro')",
		"INSERT INTO f VALUES (1), (2)",
		"ALTER TABLE f SET TBLPROPERTIES ('write.format.default' = 'parquet')",
		"INSERT INTO f VALUES (3)",
		"CREATE TABLE g WITH (\"write.format.default\" = 'avro') AS SELECT * FROM f",
	)
	for name, want := range map[string][]string{"f": {"AVRO:2", "PARQUET:1"}, "g": {"AVRO:3"}} {
		_, tasks := dataFiles(t, cat, name)
		var got []string
		for _, task := range tasks {
			got = append(got, fmt.Sprintf("%s:%d", task.File.Format, task.File.RecordCount))
			ext := ".parquet"
			if task.File.Format == catalog.FormatAvro {
				ext = ".avro"
				if len(task.File.ColumnSizes) != 0 || task.File.LowerBounds[1] == nil {
					t.Errorf("%s: Avro metrics: sizes %v, lower bounds %v", name, task.File.ColumnSizes, task.File.LowerBounds)
				}
			}
			if !strings.HasSuffix(task.File.Path, ext) {
				t.Errorf("%s: %s is %s", name, task.File.Path, task.File.Format)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: files %v, want %v", name, got, want)
		}
	}
}
