package translate

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/theta"
	"github.com/icegate/icegate/translate/procedure"
)

// readStats loads table t and parses the Puffin file of its current
// snapshot's statistics: the metadata entry and the blobs by field id.
func readStats(t *testing.T, cat *catalog.Filesystem) (*catalog.Table, *catalog.StatisticsFile, map[int]write.PuffinBlob) {
	t.Helper()
	ctx := context.Background()
	tbl, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"public"}, Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	sf := tbl.Metadata.StatisticsFor(*tbl.Metadata.CurrentSnapshotID)
	if sf == nil {
		t.Fatalf("no statistics for the current snapshot: %+v", tbl.Metadata.Statistics)
	}
	f, err := tbl.IO.Open(ctx, sf.StatisticsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.NewSectionReader(f, 0, f.Size()))
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) != sf.FileSizeBytes {
		t.Errorf("file has %d bytes, metadata says %d", len(data), sf.FileSizeBytes)
	}
	footer := sf.FileFooterSizeBytes
	if n := int64(binary.LittleEndian.Uint32(data[len(data)-12:])); footer != n+16 {
		t.Errorf("footer size %d in metadata, file's footer is %d", footer, n+16)
	}
	blobs, _, err := write.ParsePuffin(data)
	if err != nil {
		t.Fatal(err)
	}
	byField := map[int]write.PuffinBlob{}
	for _, b := range blobs {
		if b.Type != procedure.ThetaBlobType || len(b.Fields) != 1 || b.SnapshotID != sf.SnapshotID {
			t.Errorf("blob %+v", b)
		}
		byField[b.Fields[0]] = b
	}
	return tbl, sf, byField
}

// TestComputeTableStats: compute_table_stats writes a Puffin file with a
// theta sketch per column whose ndv is the column's number of distinct
// non-null values (exact below 4096), commits it as the current snapshot's
// statistics with the same blob metadata, and the sketch bytes are those
// of a sketch fed Iceberg's single-value serialization of the values.
func TestComputeTableStats(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id bigint, grp text, amount decimal(10,2), day date, flag boolean, nothing int, ratio double precision)")
	run(t, s, `INSERT INTO t SELECT g, 'g' || (g % 7), (g % 50) * 1.25 - 20, DATE '2024-01-01' + (g % 30), g % 2 = 0, NULL, (g % 13) / 4.0
		FROM generate_series(1, 3000) g`)
	run(t, s, "INSERT INTO t VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL)")

	got := queryRows(t, s, "CALL system.compute_table_stats('t')")
	if len(got) != 1 || !strings.HasSuffix(got[0], ".stats") || !strings.Contains(got[0], "/metadata/") {
		t.Fatalf("result %v, want one statistics file path", got)
	}
	tbl, sf, blobs := readStats(t, cat)
	if got[0] != sf.StatisticsPath {
		t.Errorf("result %s, metadata has %s", got[0], sf.StatisticsPath)
	}
	schema := tbl.Metadata.CurrentSchema()
	want := map[string]int64{"id": 3000, "grp": 7, "amount": 50, "day": 30, "flag": 2, "nothing": 0, "ratio": 13}
	metaBlobs, err := sf.Blobs()
	if err != nil || len(metaBlobs) != len(want) {
		t.Fatalf("metadata blobs %+v, %v", metaBlobs, err)
	}
	snap := tbl.Metadata.SnapshotByID(sf.SnapshotID)
	for i, f := range schema.Fields {
		b, ok := blobs[f.ID]
		if !ok {
			t.Errorf("no blob for %s", f.Name)
			continue
		}
		c, err := theta.Parse(b.Data)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if c.NDV() != want[f.Name] || b.Properties[procedure.NDVProperty] != strconv.FormatInt(want[f.Name], 10) {
			t.Errorf("%s: sketch ndv %d, property %q, want %d", f.Name, c.NDV(), b.Properties["ndv"], want[f.Name])
		}
		if b.SequenceNumber != snap.SequenceNumber {
			t.Errorf("%s: sequence number %d, want %d", f.Name, b.SequenceNumber, snap.SequenceNumber)
		}
		mb := metaBlobs[i]
		if mb.Type != b.Type || mb.Fields[0] != f.ID || mb.Properties["ndv"] != b.Properties["ndv"] || mb.SnapshotID != snap.SnapshotID || mb.SequenceNumber != snap.SequenceNumber {
			t.Errorf("%s: metadata blob %+v, file blob %+v", f.Name, mb, b)
		}
	}

	// The grp sketch is the one of the strings' UTF-8 bytes; the id sketch
	// the one of the longs' 8 little-endian bytes.
	grp, ids := theta.NewDefault(), theta.NewDefault()
	for g := int64(1); g <= 3000; g++ {
		grp.Update([]byte("g" + strconv.FormatInt(g%7, 10)))
		ids.Update(binary.LittleEndian.AppendUint64(nil, uint64(g)))
	}
	if string(blobs[schema.Fields[1].ID].Data) != string(grp.Compact().Bytes()) {
		t.Error("grp sketch differs from the sketch of the strings' bytes")
	}
	if string(blobs[schema.Fields[0].ID].Data) != string(ids.Compact().Bytes()) {
		t.Error("id sketch differs from the sketch of the longs' bytes")
	}

	// DESCRIBE EXTENDED of a column shows the NDV as distinct_count.
	if got := strings.Join(queryRows(t, s, "DESCRIBE EXTENDED t grp"), "|"); !strings.Contains(got, "distinct_count\t7|") {
		t.Errorf("DESCRIBE EXTENDED t grp: %s", got)
	}

	// Named columns; a second run replaces the snapshot's entry.
	got = queryRows(t, s, "CALL system.compute_table_stats(table => 't', columns => array['grp', 'day'])")
	tbl, sf, blobs = readStats(t, cat)
	if len(tbl.Metadata.Statistics) != 1 || len(blobs) != 2 || got[0] != sf.StatisticsPath {
		t.Errorf("after the second run: %d entries, %d blobs, result %v", len(tbl.Metadata.Statistics), len(blobs), got)
	}

	// An older snapshot by id gets its own entry.
	ids0 := snapshotIDs(t, s, "t")
	run(t, s, "CALL system.compute_table_stats('t', "+ids0[0]+")")
	tbl, _, _ = readStats(t, cat)
	old, _ := strconv.ParseInt(ids0[0], 10, 64)
	if len(tbl.Metadata.Statistics) != 2 || tbl.Metadata.StatisticsFor(old) == nil {
		t.Errorf("statistics %+v, want entries for both snapshots", tbl.Metadata.Statistics)
	}

	for _, c := range []struct{ sql, want string }{
		{"CALL system.compute_table_stats('t', 42)", "error (22023): snapshot 42 does not exist"},
		{"CALL system.compute_table_stats('t', columns => array['nope'])", `error (42703): column "nope" does not exist`},
		{"CALL system.compute_table_stats('missing')", `error (42P01)`},
	} {
		if got := callOutput(t, s, c.sql); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %s, want %s", c.sql, got, c.want)
		}
	}
	run(t, s, "CREATE TABLE e (id int)")
	if got := callOutput(t, s, "CALL system.compute_table_stats('e')"); !strings.HasPrefix(got, "statistics_file:text\nCALL") {
		t.Errorf("empty table: %q", got)
	}
}

// failingCommitEnv hands out the catalog with CommitTable failing as a
// lost race would.
type failingCommitEnv struct{ *callEnv }

type failingCommit struct{ catalog.MutableCatalog }

func (failingCommit) CommitTable(context.Context, catalog.Identifier, []catalog.Requirement, []catalog.Update) (*catalog.Table, error) {
	return nil, fmt.Errorf("test: %w", catalog.ErrCommitConflict)
}

func (e failingCommitEnv) Table(ctx context.Context, name string) (*catalog.Table, catalog.MutableCatalog, error) {
	t, mc, err := e.callEnv.Table(ctx, name)
	return t, failingCommit{mc}, err
}

// statsFiles lists the .stats files in the table's metadata directory.
func statsFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "public", "t", "metadata", "*.stats"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestComputeTableStatsConcurrency: a commit that races another writer
// records the statistics of the snapshot the procedure read, keeping the
// other writer's snapshot current; a commit that fails leaves no file.
func TestComputeTableStatsConcurrency(t *testing.T) {
	s, cat, dir := newWriteSession(t)
	other, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, "CREATE TABLE t (id int)")
	run(t, s, "INSERT INTO t VALUES (1), (2), (3)")
	read := snapshotIDs(t, s, "t")[0]
	p, _ := procedure.Lookup("compute_table_stats")

	env := &racingEnv{callEnv: &callEnv{sess: s, now: time.Now()}, other: other.(*session), races: 1}
	rows, err := p.Run(context.Background(), env, procedure.Args{"table": "t"})
	if err != nil || len(rows) != 1 {
		t.Fatalf("racing run: %v %v", rows, err)
	}
	tbl, err := cat.LoadTable(context.Background(), catalog.Identifier{Namespace: []string{"public"}, Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ids := snapshotIDs(t, s, "t")
	if len(ids) != 2 || strconv.FormatInt(*tbl.Metadata.CurrentSnapshotID, 10) != ids[1] {
		t.Fatalf("snapshots %v, current %d: the concurrent insert is lost", ids, *tbl.Metadata.CurrentSnapshotID)
	}
	if len(tbl.Metadata.Statistics) != 1 || strconv.FormatInt(tbl.Metadata.Statistics[0].SnapshotID, 10) != read {
		t.Fatalf("statistics %+v, want one entry for the snapshot read (%s)", tbl.Metadata.Statistics, read)
	}
	if ndv := tbl.Metadata.ColumnNDVs(tbl.Metadata.Statistics[0].SnapshotID); ndv[1] != 3 {
		t.Errorf("ndv %v, want id: 3", ndv)
	}
	before := statsFiles(t, dir)
	if len(before) != 1 {
		t.Fatalf("stats files %v, want the one committed", before)
	}

	_, err = p.Run(context.Background(), failingCommitEnv{&callEnv{sess: s, now: time.Now()}}, procedure.Args{"table": "t"})
	if !errors.Is(err, catalog.ErrCommitConflict) {
		t.Fatalf("failed commit: %v", err)
	}
	if after := statsFiles(t, dir); len(after) != len(before) {
		t.Errorf("stats files %v after a failed commit, want %v", after, before)
	}
}

// BenchmarkComputeTableStats: compute_table_stats over 1e6 rows of three
// columns (a long, a text of 1000 values, a date), the rows read and
// sketched per second.
func BenchmarkComputeTableStats(b *testing.B) {
	s, _, _ := newWriteSession(b)
	const rows = 1_000_000
	for _, q := range []string{
		"CREATE TABLE t (id bigint, grp text, d date)",
		"INSERT INTO t SELECT g, 'g' || (g % 1000), DATE '2024-01-01' + (g % 365) FROM generate_series(1, 1000000) g",
	} {
		if out := statementOutput(s, q); strings.HasPrefix(out, "error") {
			b.Fatalf("%s: %s", q, out)
		}
	}
	b.ResetTimer()
	for range b.N {
		if out := statementOutput(s, "CALL system.compute_table_stats('t')"); strings.HasPrefix(out, "error") {
			b.Fatal(out)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestComputeTableStatsDeletes: the sketches count the rows the snapshot
// has, deletes applied, whatever the delete files' kind.
func TestComputeTableStatsDeletes(t *testing.T) {
	for _, props := range []string{
		"'write.delete.mode'='merge-on-read'",
		"'write.delete.mode'='merge-on-read', 'format-version'='3'",
		"'write.delete.mode'='copy-on-write'",
	} {
		s, cat, _ := newWriteSession(t)
		run(t, s, "CREATE TABLE t (id int, k int) TBLPROPERTIES ("+props+")")
		run(t, s, "INSERT INTO t SELECT g, g % 10 FROM generate_series(1, 200) g")
		run(t, s, "DELETE FROM t WHERE id > 120 OR k = 3")
		run(t, s, "CALL system.compute_table_stats('t')")
		tbl, _, _ := readStats(t, cat)
		ndv := tbl.Metadata.ColumnNDVs(*tbl.Metadata.CurrentSnapshotID)
		if ndv[1] != 108 || ndv[2] != 9 {
			t.Errorf("%s: ndv %v, want id: 108, k: 9", props, ndv)
		}
	}
}

// TestComputeTableStatsNested: a dotted name reaches a primitive field in
// a struct; a value under a NULL struct counts as NULL; a struct itself is
// refused.
func TestComputeTableStatsNested(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, s struct<a: int, b: struct<c: string>>) USING iceberg")
	var vals []string
	for g := 1; g <= 100; g++ {
		if g%10 == 0 {
			vals = append(vals, fmt.Sprintf("(%d, NULL)", g))
			continue
		}
		vals = append(vals, fmt.Sprintf(`(%d, '{"a": %d, "b": {"c": "x%d"}}')`, g, g%6+1, g%4))
	}
	run(t, s, "INSERT INTO t VALUES "+strings.Join(vals, ", "))
	run(t, s, "CALL system.compute_table_stats('t', columns => array['s.a', 'S.B.C', 'id'])")
	tbl, _, blobs := readStats(t, cat)
	if len(blobs) != 3 {
		t.Fatalf("%d blobs, want 3", len(blobs))
	}
	ndv := tbl.Metadata.ColumnNDVs(*tbl.Metadata.CurrentSnapshotID)
	st := tbl.Metadata.CurrentSchema().Fields[1].Type.(*catalog.StructType)
	a, c := st.Fields[0].ID, st.Fields[1].Type.(*catalog.StructType).Fields[0].ID
	// g % 10 = 0 rows are NULL structs, whose a is NULL, not 0: a
	// takes 1..6 among the others, c x0..x3.
	if ndv[1] != 100 || ndv[a] != 6 || ndv[c] != 4 {
		t.Errorf("ndv %v, want id 100, s.a (%d) 6, s.b.c (%d) 4", ndv, a, c)
	}
	if got := callOutput(t, s, "CALL system.compute_table_stats('t', columns => array['s'])"); !strings.HasPrefix(got, `error (0A000): cannot compute statistics of column "s"`) {
		t.Errorf("struct column: %s", got)
	}
	if got := callOutput(t, s, "CALL system.compute_table_stats('t', columns => array['s.nope'])"); !strings.HasPrefix(got, `error (42703): column "s.nope" does not exist`) {
		t.Errorf("missing nested column: %s", got)
	}
}
