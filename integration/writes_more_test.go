package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/twmb/avro/ocf"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan"
)

// execAll runs statements over conn and fails on the first error.
func execAll(t *testing.T, conn *pgx.Conn, sqls ...string) {
	t.Helper()
	for _, sql := range sqls {
		if _, err := conn.Exec(testCtx(t), sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
}

// wantSQLState runs sql and fails unless it fails with code.
func wantSQLState(t *testing.T, conn *pgx.Conn, sql, code, msg string) {
	t.Helper()
	_, err := conn.Exec(testCtx(t), sql)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != code || !strings.Contains(pe.Message, msg) {
		t.Errorf("%s: error %v, want SQLSTATE %s with %q", sql, err, code, msg)
	}
}

// textRows runs a query and returns its rows as text (NULL as "NULL"),
// sorted unless ordered.
func textRows(t *testing.T, conn *pgx.Conn, sql string, ordered bool) []string {
	t.Helper()
	res, err := queryText(testCtx(t), conn, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	var out []string
	for _, r := range res.rows {
		cells := make([]string, len(r))
		for i, v := range r {
			cells[i] = v
			if v == nullValue {
				cells[i] = "NULL"
			}
		}
		out = append(out, strings.Join(cells, "|"))
	}
	if !ordered {
		slices.Sort(out)
	}
	return out
}

// tableFiles plans the current snapshot of ns.name in warehouse.
func tableFiles(t *testing.T, warehouse, ns, name string) (*catalog.Table, []catalog.FileScanTask) {
	t.Helper()
	cat, err := catalog.NewFilesystem("icegate", warehouse, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tbl, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{ns}, Name: name})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := catalog.PlanFiles(ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	return tbl, tasks
}

// fileInts reads an integer column of one data file in file order.
func fileInts(t *testing.T, tbl *catalog.Table, task catalog.FileScanTask, col string) []string {
	t.Helper()
	schema := tbl.Metadata.CurrentSchema()
	var f catalog.NestedField
	for _, c := range schema.Fields {
		if c.Name == col {
			f = c
		}
	}
	op := scan.New(engine.ScanSpec{Table: tbl, Tasks: []catalog.FileScanTask{task},
		Schema: &catalog.Schema{Fields: []catalog.NestedField{f}}, FieldIDs: []int{f.ID}}, scan.Options{Parallelism: 1})
	defer op.Close()
	if err := op.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		b, err := op.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return out
		}
		c := b.Column(0)
		for i := 0; i < c.Len(); i++ {
			switch a := c.(type) {
			case *array.Int64:
				out = append(out, a.ValueStr(i))
			case *array.Int32:
				out = append(out, a.ValueStr(i))
			}
		}
	}
}

// TestAvroWritesOverTheWire creates Avro tables in both dialects, fills
// them by INSERT, COPY and CREATE TABLE AS, and reads them back; the data
// files are Avro object container files whose schema carries the Iceberg
// field ids. ORC is refused with 0A000 and nothing is written.
func TestAvroWritesOverTheWire(t *testing.T) {
	warehouse := t.TempDir()
	addr := startServer(t, warehouse, serverOpts{})
	conn := connect(t, addr)
	ctx := testCtx(t)
	execAll(t, conn,
		"CREATE TABLE av (id bigint NOT NULL, name string, price decimal(10,2), at timestamp, d date, ok boolean, f double) USING iceberg PARTITIONED BY (months(at)) TBLPROPERTIES ('write.format.default' = 'avro', 'write.avro.compression-codec' = 'snappy')",
		"INSERT INTO av VALUES (1, 'one', 1.25, '2024-01-15 10:00:00+00', '2024-01-15', true, 1.5), (2, NULL, NULL, NULL, NULL, NULL, 'NaN')",
		"INSERT INTO av SELECT id + 10, upper(name), price * 2, CASE WHEN at IS NULL THEN NULL ELSE TIMESTAMPTZ '2024-02-24 10:00:00+00' END, CASE WHEN d IS NULL THEN NULL ELSE DATE '2024-02-24' END, NOT ok, f FROM av",
	)
	if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader("3,\"th,ree\",3.00,2024-03-01 00:00:00+00,2024-03-01,false,-0\n"),
		"COPY av FROM STDIN (FORMAT csv)"); err != nil {
		t.Fatalf("COPY: %v", err)
	}
	execAll(t, conn, `CREATE TABLE av2 WITH ("write.format.default" = 'avro', partitioning = 'bucket(3, id)') AS SELECT id, name FROM av`)
	got := textRows(t, conn, "SELECT * FROM av", false)
	want := []string{
		"1|one|1.25|2024-01-15 10:00:00+00|2024-01-15|t|1.5",
		"11|ONE|2.50|2024-02-24 10:00:00+00|2024-02-24|f|1.5",
		"12|NULL|NULL|NULL|NULL|NULL|NaN",
		"2|NULL|NULL|NULL|NULL|NULL|NaN",
		"3|th,ree|3.00|2024-03-01 00:00:00+00|2024-03-01|f|-0",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("av rows:\n got %q\nwant %q", got, want)
	}
	if got := textRows(t, conn, "SELECT count(*), min(id), max(id) FROM av2", false); !slices.Equal(got, []string{"5|1|12"}) {
		t.Errorf("av2: %q", got)
	}
	for _, name := range []string{"av", "av2"} {
		tbl, tasks := tableFiles(t, warehouse, "public", name)
		if len(tasks) < 3 {
			t.Errorf("%s: %d data files, want one per partition (at least 3)", name, len(tasks))
		}
		for _, task := range tasks {
			checkAvroFile(t, tbl, task)
		}
	}
	// pruning by the Avro files' bounds and partitions still answers right
	if got := textRows(t, conn, "SELECT id FROM av WHERE at >= '2024-02-01' AND price > 2", false); !slices.Equal(got, []string{"11", "3"}) {
		t.Errorf("filtered: %q", got)
	}

	// ORC, which icegate reads but does not write, is refused where it is
	// set, not at each write after.
	wantSQLState(t, conn, "CREATE TABLE o (id int) WITH (\"write.format.default\" = 'orc')", "0A000", "writing ORC data files")
	wantSQLState(t, conn, "SELECT count(*) FROM o", "42P01", "does not exist")
	wantSQLState(t, conn, "ALTER TABLE av SET TBLPROPERTIES ('write.format.default' = 'orc')", "0A000", "writing ORC data files")
	wantSQLState(t, conn, "INSERT INTO av /*+ OPTIONS('write-format' = 'orc') */ SELECT * FROM av", "0A000", "writing ORC data files")
}

// checkAvroFile checks one Avro data file: the manifest says AVRO, the
// file is an object container with the table's codec, its schema names
// every column's field id, its record count is the manifest's, and there
// are counts but no column sizes.
func checkAvroFile(t *testing.T, tbl *catalog.Table, task catalog.FileScanTask) {
	t.Helper()
	df := task.File
	if df.Format != catalog.FormatAvro || !strings.HasSuffix(df.Path, ".avro") {
		t.Errorf("%s: format %s", df.Path, df.Format)
		return
	}
	if len(df.ColumnSizes) != 0 || len(df.ValueCounts) == 0 {
		t.Errorf("%s: column sizes %v, value counts %v", df.Path, df.ColumnSizes, df.ValueCounts)
	}
	f, err := os.Open(strings.TrimPrefix(df.Path, "file:"))
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	rd, err := ocf.NewReader(f)
	if err != nil {
		t.Errorf("%s: not an Avro container: %v", df.Path, err)
		return
	}
	defer rd.Close()
	schema := string(rd.Metadata()["avro.schema"])
	for _, c := range tbl.Metadata.CurrentSchema().Fields {
		if !strings.Contains(schema, fmt.Sprintf(`"field-id":%d,`, c.ID)) {
			t.Errorf("%s: Avro schema lacks field-id %d (%s): %s", df.Path, c.ID, c.Name, schema)
		}
	}
	n := int64(0)
	for {
		var rec any
		if err := rd.Decode(&rec); err != nil {
			break
		}
		n++
	}
	if n != df.RecordCount {
		t.Errorf("%s: %d records decoded, manifest says %d", df.Path, n, df.RecordCount)
	}
}

// TestSortedWritesOverTheWire: after WRITE ORDERED BY, every data file an
// INSERT or COPY writes is in the sort order and records the order's id.
func TestSortedWritesOverTheWire(t *testing.T) {
	warehouse := t.TempDir()
	addr := startServer(t, warehouse, serverOpts{})
	conn := connect(t, addr)
	ctx := testCtx(t)
	var values []string
	for g := 1; g <= 500; g++ {
		values = append(values, fmt.Sprintf("(%d, %d, %d)", g, g%5, (g*7919)%101))
	}
	execAll(t, conn,
		"CREATE TABLE s (id bigint, grp int, v int) USING iceberg PARTITIONED BY (bucket(2, grp))",
		"ALTER TABLE s WRITE ORDERED BY v DESC NULLS LAST, id",
		"INSERT INTO s VALUES "+strings.Join(values, ", "),
	)
	var data strings.Builder
	for i := 0; i < 300; i++ {
		v := fmt.Sprint((i * 31) % 17)
		if i%23 == 0 {
			v = `\N`
		}
		fmt.Fprintf(&data, "%d\t%d\t%s\n", 1000+i, i%3, v)
	}
	if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(data.String()), "COPY s FROM STDIN"); err != nil {
		t.Fatalf("COPY: %v", err)
	}
	tbl, tasks := tableFiles(t, warehouse, "public", "s")
	if len(tasks) < 3 {
		t.Fatalf("%d data files, want one per partition per statement", len(tasks))
	}
	var order *catalog.SortOrder
	for _, o := range tbl.Metadata.SortOrders {
		if o.ID == tbl.Metadata.DefaultSortOrderID {
			order = o
		}
	}
	total := 0
	for _, task := range tasks {
		if task.File.SortOrderID == nil || order == nil || *task.File.SortOrderID != order.ID {
			t.Errorf("%s: sort_order_id %v, table's order %+v", task.File.Path, task.File.SortOrderID, order)
		}
		vs := fileIntsNull(t, tbl, task, "v")
		ids := fileInts(t, tbl, task, "id")
		total += len(ids)
		for i := 1; i < len(vs); i++ {
			a, b := vs[i-1], vs[i]
			ok := b == nil || (a != nil && (*a > *b || *a == *b && mustInt(ids[i-1]) < mustInt(ids[i])))
			if !ok {
				t.Fatalf("%s: row %d (v %v, id %s) follows (v %v, id %s)", task.File.Path, i, deref64(b), ids[i], deref64(a), ids[i-1])
			}
		}
	}
	if total != 800 {
		t.Errorf("rows in files: %d, want 800", total)
	}
	if got := textRows(t, conn, "SELECT count(*), count(v), sum(id) FROM s", false); !slices.Equal(got, []string{"800|786|470100"}) {
		t.Errorf("aggregates: %q", got)
	}
}

func mustInt(s string) int64 {
	var n int64
	fmt.Sscan(s, &n)
	return n
}

func deref64(p *int64) string {
	if p == nil {
		return "NULL"
	}
	return fmt.Sprint(*p)
}

// fileIntsNull is fileInts keeping NULLs.
func fileIntsNull(t *testing.T, tbl *catalog.Table, task catalog.FileScanTask, col string) []*int64 {
	t.Helper()
	schema := tbl.Metadata.CurrentSchema()
	var f catalog.NestedField
	for _, c := range schema.Fields {
		if c.Name == col {
			f = c
		}
	}
	op := scan.New(engine.ScanSpec{Table: tbl, Tasks: []catalog.FileScanTask{task},
		Schema: &catalog.Schema{Fields: []catalog.NestedField{f}}, FieldIDs: []int{f.ID}}, scan.Options{Parallelism: 1})
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
		a := b.Column(0).(*array.Int32)
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				out = append(out, nil)
				continue
			}
			v := int64(a.Value(i))
			out = append(out, &v)
		}
	}
}

// TestSparkDDLMoreOverTheWire: Spark's ADD COLUMNS with DEFAULT, DESCRIBE
// of a column, SHOW TABLES / SCHEMAS with patterns, through pgx.
func TestSparkDDLMoreOverTheWire(t *testing.T) {
	warehouse := t.TempDir()
	addr := startServer(t, warehouse, serverOpts{})
	conn := connect(t, addr)
	execAll(t, conn,
		"CREATE SCHEMA shop",
		"CREATE TABLE shop.items (id bigint) USING iceberg TBLPROPERTIES ('format-version' = '3')",
		"CREATE TABLE shop.item_tags (id bigint) USING iceberg",
		"INSERT INTO shop.items VALUES (1)",
		"ALTER TABLE shop.items ADD COLUMNS (qty int DEFAULT 7 COMMENT 'how many', label string DEFAULT 'none' AFTER id)",
		"INSERT INTO shop.items (id) VALUES (2)",
	)
	if got := textRows(t, conn, "SELECT * FROM shop.items", false); !slices.Equal(got, []string{"1|none|7", "2|none|7"}) {
		t.Errorf("defaults: %q", got)
	}
	if got := textRows(t, conn, "DESCRIBE shop.items qty", true); !slices.Equal(got, []string{"col_name|qty", "data_type|int", "comment|how many"}) {
		t.Errorf("DESCRIBE column: %q", got)
	}
	if got := textRows(t, conn, "SHOW TABLES IN shop LIKE 'item_*'", true); !slices.Equal(got, []string{"shop|item_tags|false"}) {
		t.Errorf("SHOW TABLES LIKE: %q", got)
	}
	if got := textRows(t, conn, "SHOW SCHEMAS LIKE 'sh*|x'", true); !slices.Equal(got, []string{"shop"}) {
		t.Errorf("SHOW SCHEMAS LIKE: %q", got)
	}
	// On format version 2 the default is the write default only: the rows
	// already there read NULL (v2 has no initial default), as in Spark.
	execAll(t, conn, "INSERT INTO shop.item_tags VALUES (1)", "ALTER TABLE shop.item_tags ADD COLUMNS (n int DEFAULT 1)",
		"INSERT INTO shop.item_tags (id) VALUES (2)")
	if got := textRows(t, conn, "SELECT * FROM shop.item_tags ORDER BY id", false); !slices.Equal(got, []string{"1|NULL", "2|1"}) {
		t.Errorf("v2 default: %q", got)
	}
	wantSQLState(t, conn, "ALTER TABLE shop.items ADD COLUMNS (n int DEFAULT 'x')", "22P02", "invalid input syntax for type integer")
	wantSQLState(t, conn, "DESCRIBE shop.items nosuch", "42703", `column "nosuch" does not exist`)
}
