package translate

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// newWriteSession is a session over an empty warehouse in a temp dir.
func newWriteSession(t testing.TB) (*session, *catalog.Filesystem, string) {
	t.Helper()
	dir := t.TempDir()
	cat, err := catalog.NewFilesystem("icegate", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*session), cat, dir
}

// TestWrite runs testdata/write/*.txt, each file over a fresh warehouse:
// "statement" runs SQL and prints ok (with the tags and notices) or the
// error; "query" prints rows as TestExec does; "copy" runs the COPY FROM
// STDIN of the input's first line with the remaining lines as its data.
// With the argument "other" a directive runs in a second session.
func TestWrite(t *testing.T) {
	files, err := filepath.Glob("testdata/write/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			first, _, _ := newWriteSession(t)
			var second *session
			datadriven.Run(t, f, *rewrite, func(t *testing.T, c *datadriven.Case) string {
				s := first
				if slices.Contains(c.Args, "other") {
					// A second session of the same warehouse.
					if second == nil {
						o, err := first.backend.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
						if err != nil {
							t.Fatal(err)
						}
						second = o.(*session)
					}
					s = second
				}
				switch c.Directive {
				case "query":
					return queryOutput(t, s, c)
				case "statement":
					return statementOutput(s, c.Input)
				case "copy":
					return copyOutput(t, s, c.Input)
				}
				t.Fatalf("%s: unknown directive %q", c.Pos, c.Directive)
				return ""
			})
		})
	}
}

// statementOutput runs every statement of sql and prints each tag and
// notice, or the first error.
func statementOutput(s *session, sql string) string {
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, sql, nil)
	if err != nil {
		s.StatementFailed(err) // as wire does for every error it sends
		return errorText(err)
	}
	var out []string
	for _, st := range stmts {
		rows, err := st.Execute(ctx, nil)
		if err != nil {
			s.StatementFailed(err)
			out = append(out, errorText(err))
			break
		}
		for {
			b, err := rows.Next(ctx)
			if err != nil {
				s.StatementFailed(err)
				out = append(out, errorText(err))
				break
			}
			if b == nil {
				break
			}
		}
		for _, n := range rows.Notices() {
			out = append(out, n.Severity+": "+n.Message)
		}
		out = append(out, rows.Tag(0))
		rows.Close()
	}
	return strings.Join(out, "\n")
}

// copyOutput runs COPY ... FROM STDIN with the lines after the first as
// data (split on the delimiter; the NULL string is NULL; no quoting).
func copyOutput(t *testing.T, s *session, input string) string {
	ctx := context.Background()
	lines := strings.Split(input, "\n")
	stmts, err := s.Prepare(ctx, lines[0], nil)
	if err != nil {
		return errorText(err)
	}
	cf, ok := stmts[0].(CopyFromStatement)
	if !ok {
		t.Fatalf("%s: not a COPY FROM statement", lines[0])
	}
	src := newLineSource(lines[1:], cf.Options(), 2)
	tag, err := cf.CopyIn(ctx, src)
	if err != nil {
		s := errorText(err)
		if pe := pgerrAs(err); pe != nil && pe.Detail != "" {
			s += "\nDETAIL: " + pe.Detail
		}
		return s
	}
	return tag
}

// lineSource is a CopySource over text lines, chunkSize rows per chunk.
type lineSource struct {
	rows      [][]*string
	lineNos   []int
	chunk     int
	pos, last int
}

func newLineSource(lines []string, o CopyOptions, chunk int) *lineSource {
	src := &lineSource{chunk: chunk}
	for i, l := range lines {
		if i == 0 && o.Header {
			continue
		}
		var row []*string
		for _, f := range strings.Split(l, string(o.Delimiter)) {
			if f == o.Null {
				row = append(row, nil)
				continue
			}
			v := f
			row = append(row, &v)
		}
		src.rows = append(src.rows, row)
		src.lineNos = append(src.lineNos, i+1)
	}
	return src
}

func (l *lineSource) Next(ctx context.Context) ([][]*string, error) {
	if l.pos >= len(l.rows) {
		return nil, nil
	}
	end := min(l.pos+l.chunk, len(l.rows))
	out := l.rows[l.pos:end]
	l.last = l.pos
	l.pos = end
	return out, nil
}

func (l *lineSource) LineOf(i int) int { return l.lineNos[l.last+i] }

func pgerrAs(err error) *pgerr.Error { return pgerr.As(err) }

// run executes sql (one statement) and fails the test on error.
func run(t *testing.T, s *session, sql string) {
	t.Helper()
	if out := statementOutput(s, sql); strings.HasPrefix(out, "error") {
		t.Fatalf("%s: %s", sql, out)
	}
}

// queryRows returns the rows of a query, one tab-separated line each.
func queryRows(t *testing.T, s *session, sql string) []string {
	t.Helper()
	out := queryOutput(t, s, &datadriven.Case{Input: sql})
	lines := strings.Split(out, "\n")
	if strings.HasPrefix(lines[0], "error") {
		t.Fatalf("%s: %s", sql, out)
	}
	return lines[1 : len(lines)-1]
}

// TestConcurrentInserts runs 8 sessions inserting into one table at once:
// every row lands exactly once and the snapshots form one chain.
func TestConcurrentInserts(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	run(t, s, `CREATE TABLE t (id int NOT NULL, w int)`)
	const workers, perWorker = 8, 5
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func(w int) {
			sess, err := s.backend.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
			if err != nil {
				errs <- err
				return
			}
			for k := 0; k < perWorker; k++ {
				id := w*100 + k
				sql := fmt.Sprintf("INSERT INTO t VALUES (%d, %d), (%d, %d)", id, w, id+50, w)
				if out := statementOutput(sess.(*session), sql); out != "INSERT 0 2" {
					errs <- fmt.Errorf("%s: %s", sql, out)
					return
				}
			}
			errs <- nil
		}(w)
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	got := queryRows(t, s, "SELECT count(*), count(DISTINCT id) FROM t")
	if want := fmt.Sprintf("%d\t%d", workers*perWorker*2, workers*perWorker*2); len(got) != 1 || got[0] != want {
		t.Errorf("count, distinct ids = %v, want %s", got, want)
	}
	tbl, err := cat.LoadTable(context.Background(), catalog.Identifier{Namespace: []string{"public"}, Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	// The chain from the current snapshot back holds every insert.
	n := 0
	for snap := tbl.Metadata.CurrentSnapshot(); snap != nil; n++ {
		if snap.ParentSnapshotID == nil {
			snap = nil
			continue
		}
		snap = tbl.Metadata.SnapshotByID(*snap.ParentSnapshotID)
	}
	if n != workers*perWorker {
		t.Errorf("snapshot chain has %d snapshots, want %d", n, workers*perWorker)
	}
}

// TestInsertParameters prepares an INSERT with parameters as the extended
// protocol does: their types come from the target columns.
func TestInsertParameters(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id bigint, amount numeric(6,2), s text)")
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, "INSERT INTO t (id, amount, s) VALUES ($1, $2, $3)", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := stmts[0]
	if got, want := fmt.Sprint(st.ParamTypes()), fmt.Sprint([]uint32{pgtypes.Int8, pgtypes.Numeric, pgtypes.Text}); got != want {
		t.Errorf("parameter types %s, want %s", got, want)
	}
	str := func(v string) *string { return &v }
	for _, p := range [][]*string{{str("1"), str("2.345"), str("x")}, {str("2"), nil, nil}} {
		rows, err := st.Execute(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if tag := rows.Tag(0); tag != "INSERT 0 1" {
			t.Errorf("tag %q", tag)
		}
	}
	_, err = st.Execute(ctx, []*string{str("nope"), nil, nil})
	if code := pgerr.Code(err); code != pgerr.InvalidTextRepresentation {
		t.Errorf("bad parameter: %v (%s), want 22P02", err, code)
	}
	got := strings.Join(queryRows(t, s, "SELECT * FROM t ORDER BY id"), "|")
	if want := "1\t2.35\tx|2\tNULL\tNULL"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
}

// TestFailedWritesLeaveNothing checks that an INSERT or COPY that fails
// after writing data files removes them and leaves the table unchanged.
func TestFailedWritesLeaveNothing(t *testing.T) {
	s, cat, dir := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int NOT NULL, v text) WITH (partitioning = 'bucket(4, id)')")
	run(t, s, "INSERT INTO t VALUES (1, 'a')")
	id := catalog.Identifier{Namespace: []string{"public"}, Name: "t"}
	before, err := cat.LoadTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	files := func() []string {
		var out []string
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				out = append(out, p)
			}
			return nil
		})
		return out
	}
	want := files()
	cases := []struct {
		name, copySQL string
		data          []string
		code          string
	}{
		{"bad value in the third chunk", "COPY t FROM STDIN", []string{"2\tb", "3\tc", "4\td", "5\te", "x\tf"}, pgerr.InvalidTextRepresentation},
		{"NULL in a NOT NULL column after two chunks", "COPY t FROM STDIN", []string{"2\tb", "3\tc", "4\td", "5\te", `\N` + "\tf"}, pgerr.NotNullViolation},
		{"missing field", "COPY t FROM STDIN", []string{"2\tb", "3\tc", "4"}, pgerr.BadCopyFileFormat},
	}
	ctx := context.Background()
	for _, c := range cases {
		stmts, err := s.Prepare(ctx, c.copySQL, nil)
		if err != nil {
			t.Fatal(err)
		}
		cf := stmts[0].(CopyFromStatement)
		_, err = cf.CopyIn(ctx, newLineSource(c.data, cf.Options(), 2))
		if code := pgerr.Code(err); code != c.code {
			t.Errorf("%s: %v (%s), want %s", c.name, err, code, c.code)
		}
	}
	if out := statementOutput(s, "INSERT INTO t SELECT CASE WHEN id = 1 THEN NULL ELSE id END, v FROM t"); !strings.Contains(out, "23502") {
		t.Errorf("INSERT of a NULL id: %s", out)
	}
	after, err := cat.LoadTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Metadata.CurrentSnapshot().SnapshotID != before.Metadata.CurrentSnapshot().SnapshotID {
		t.Errorf("a failed write committed a snapshot")
	}
	if got := files(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files after failed writes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// readOnly hides the write methods of a catalog.
type readOnly struct{ catalog.Catalog }

// TestReadOnlyCatalog: DDL and writes against a catalog that cannot write
// fail with 25006.
func TestReadOnlyCatalog(t *testing.T) {
	_, cat, _ := newWriteSession(t)
	sess, err := NewBackend(readOnly{cat}, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{"CREATE SCHEMA x", "CREATE TABLE x (a int)", "DROP SCHEMA x", "DROP TABLE x"} {
		if out := statementOutput(sess.(*session), sql); !strings.HasPrefix(out, "error (25006)") {
			t.Errorf("%s: %s", sql, out)
		}
	}
}

// TestCreateTableMetadata checks what the Spark form writes into the
// table's metadata: column comments, nested ids, partition spec,
// properties and format version.
func TestCreateTableMetadata(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	run(t, s, "CREATE SCHEMA db")
	run(t, s, `CREATE TABLE db.e (id LONG NOT NULL COMMENT 'the key', ts TIMESTAMP, tags ARRAY<STRING>, m MAP<STRING, STRUCT<a: INT, b: DOUBLE>>) USING iceberg PARTITIONED BY (bucket(16, id), days(ts)) TBLPROPERTIES ('format-version' = '1', 'k' = 'v') COMMENT 'events'`)
	tbl, err := cat.LoadTable(context.Background(), catalog.Identifier{Namespace: []string{"db"}, Name: "e"})
	if err != nil {
		t.Fatal(err)
	}
	m := tbl.Metadata
	sch := m.CurrentSchema()
	if f := sch.Fields[0]; f.Doc != "the key" || !f.Required || f.Type.String() != "long" {
		t.Errorf("id field: %+v", f)
	}
	if got := sch.Fields[1].Type.String(); got != "timestamptz" {
		t.Errorf("Spark TIMESTAMP is %s, want timestamptz", got)
	}
	if got := sch.Fields[3].Type.String(); got != "map<string, struct<a: int, b: double>>" {
		t.Errorf("map column: %s", got)
	}
	if m.FormatVersion != 1 || m.Properties["k"] != "v" || m.Properties["comment"] != "events" {
		t.Errorf("format version %d, properties %v", m.FormatVersion, m.Properties)
	}
	spec := m.SpecByID(m.DefaultSpecID)
	var got []string
	for _, f := range spec.Fields {
		got = append(got, f.Name+"="+f.Transform.String())
	}
	if g := strings.Join(got, ","); g != "id_bucket=bucket[16],ts_day=day" {
		t.Errorf("partition spec %s", g)
	}
}

// TestCreateTableLocation: LOCATION is accepted only where the catalog
// puts the table anyway.
func TestCreateTableLocation(t *testing.T) {
	s, _, dir := newWriteSession(t)
	run(t, s, "CREATE SCHEMA db")
	run(t, s, "CREATE TABLE db.here (a int) USING iceberg LOCATION '"+filepath.Join(dir, "db", "here")+"'")
	run(t, s, "INSERT INTO db.here VALUES (1)")
	if got := queryRows(t, s, "SELECT a FROM db.here"); len(got) != 1 || got[0] != "1" {
		t.Errorf("rows %v", got)
	}
	out := statementOutput(s, "CREATE TABLE db.there (a int) USING iceberg LOCATION '"+filepath.Join(dir, "elsewhere")+"'")
	if !strings.HasPrefix(out, "error (0A000)") {
		t.Errorf("LOCATION elsewhere: %s", out)
	}
}

// TestWritesInTransactionBlock: data changes in a block wait for COMMIT
// and ROLLBACK undoes them without a word; so does CREATE TABLE (staged);
// CREATE SCHEMA commits at once, is announced by a NOTICE, and ROLLBACK
// warns that it stays.
func TestWritesInTransactionBlock(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE tx (a int)")
	for _, tc := range []struct{ sql, want string }{
		{"BEGIN", "BEGIN"},
		{"INSERT INTO tx VALUES (1)", "INSERT 0 1"},
		{"INSERT INTO tx VALUES (2)", "INSERT 0 1"},
		{"ROLLBACK", "ROLLBACK"},
		{"INSERT INTO tx VALUES (3)", "INSERT 0 1"},
		{"BEGIN", "BEGIN"},
		{"CREATE TABLE tx2 (a int)", "CREATE TABLE"},
		{"ROLLBACK", "ROLLBACK"},
		{"SELECT * FROM tx2", "error (42P01): relation \"tx2\" does not exist [position 15]"},
		{"BEGIN", "BEGIN"},
		{"CREATE SCHEMA tx3", "NOTICE: this schema change is committed now, not at COMMIT\nCREATE SCHEMA"},
		{"ROLLBACK", "WARNING: ROLLBACK did not undo 1 schema change(s) of this transaction block\nROLLBACK"},
	} {
		if got := statementOutput(s, tc.sql); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.sql, got, tc.want)
		}
	}
	if got := queryRows(t, s, "SELECT a FROM tx ORDER BY a"); strings.Join(got, ",") != "3" {
		t.Errorf("rows after ROLLBACK = %v, want 3 (the block's inserts undone)", got)
	}
}
