package write

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

func partSchema() *catalog.Schema {
	return &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: prim(catalog.TLong)},
		{ID: 2, Name: "ts", Type: prim(catalog.TTimestamptz)},
		{ID: 3, Name: "s", Type: prim(catalog.TString)},
		{ID: 4, Name: "d", Type: prim(catalog.TDate)},
		{ID: 5, Name: "dec", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 9, Scale: 2}},
		{ID: 6, Name: "st", Type: &catalog.StructType{Fields: []catalog.NestedField{
			{ID: 7, Name: "k", Type: prim(catalog.TInt)},
		}}},
	}}
}

const partRows = `[
{"id": 1, "ts": "2024-01-01T10:15:00Z", "s": "apple", "d": "2024-01-01", "dec": "1.50", "st": {"k": 1}},
{"id": 2, "ts": "2024-01-01T11:00:00Z", "s": "apricot", "d": "2024-01-02", "dec": "-1.50", "st": {"k": 2}},
{"id": 3, "ts": "1969-12-31T23:59:59Z", "s": "a b/c", "d": "1969-12-31", "dec": "0.99", "st": null},
{"id": 4, "ts": null, "s": null, "d": null, "dec": null, "st": {"k": null}},
{"id": 5, "ts": "2025-06-30T00:00:00Z", "s": "banana", "d": "2025-06-30", "dec": "100.00", "st": {"k": 1}},
{"id": 6, "ts": "2024-02-29T23:59:59.999999Z", "s": "ünï", "d": "2024-02-29", "dec": "2.00", "st": {"k": 2}}
]`

// TestPartitionedWrites writes rows under a spec per transform, in Parquet
// and in Avro: every file holds only rows whose partition tuple is the
// file's, in the directory the tuple names, and the files together hold
// every row once.
func TestPartitionedWrites(t *testing.T) {
	schema := partSchema()
	rec := recordFromJSON(t, schema, partRows)
	defer rec.Release()
	tests := []struct {
		name   string
		fields []catalog.PartitionField
		files  int
		dir    string // a directory one of the files must be in
	}{
		{"identity", []catalog.PartitionField{{SourceID: 3, FieldID: 1000, Name: "s", Transform: catalog.Transform{Name: "identity"}}}, 6, "s=a+b%2Fc"},
		{"bucket", []catalog.PartitionField{{SourceID: 1, FieldID: 1000, Name: "id_bucket", Transform: catalog.Transform{Name: "bucket", Param: 2}}}, 2, "id_bucket=0"},
		{"truncate string", []catalog.PartitionField{{SourceID: 3, FieldID: 1000, Name: "s_trunc", Transform: catalog.Transform{Name: "truncate", Param: 2}}}, 5, "s_trunc=ap"},
		{"truncate decimal", []catalog.PartitionField{{SourceID: 5, FieldID: 1000, Name: "dec_trunc", Transform: catalog.Transform{Name: "truncate", Param: 100}}}, 6, "dec_trunc=-2.00"},
		{"year", []catalog.PartitionField{{SourceID: 2, FieldID: 1000, Name: "ts_year", Transform: catalog.Transform{Name: "year"}}}, 4, "ts_year=1969"},
		{"month", []catalog.PartitionField{{SourceID: 2, FieldID: 1000, Name: "ts_month", Transform: catalog.Transform{Name: "month"}}}, 5, "ts_month=2024-02"},
		{"day", []catalog.PartitionField{{SourceID: 2, FieldID: 1000, Name: "ts_day", Transform: catalog.Transform{Name: "day"}}}, 5, "ts_day=2024-01-01"},
		{"hour", []catalog.PartitionField{{SourceID: 2, FieldID: 1000, Name: "ts_hour", Transform: catalog.Transform{Name: "hour"}}}, 6, "ts_hour=2024-01-01-10"},
		{"day of date", []catalog.PartitionField{{SourceID: 4, FieldID: 1000, Name: "d_day", Transform: catalog.Transform{Name: "day"}}}, 6, "d_day=1969-12-31"},
		{"void", []catalog.PartitionField{{SourceID: 1, FieldID: 1000, Name: "v", Transform: catalog.Transform{Name: "void"}}}, 1, "v=null"},
		{"nested struct source", []catalog.PartitionField{{SourceID: 7, FieldID: 1000, Name: "k", Transform: catalog.Transform{Name: "identity"}}}, 3, "k=null"},
		{"two fields", []catalog.PartitionField{
			{SourceID: 4, FieldID: 1000, Name: "d_year", Transform: catalog.Transform{Name: "year"}},
			{SourceID: 1, FieldID: 1001, Name: "id_bucket", Transform: catalog.Transform{Name: "bucket", Param: 2}},
		}, 5, "d_year=2024/id_bucket="},
	}
	for _, tc := range tests {
		for _, format := range []string{"parquet", "avro"} {
			t.Run(format+"/"+tc.name, func(t *testing.T) {
				spec := &catalog.PartitionSpec{ID: 3, Fields: tc.fields}
				dir := t.TempDir()
				// the batch twice, split so that partitions span batches
				files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir + "/data", Schema: schema, Spec: spec, Format: format},
					rec.NewSlice(0, 3), rec.NewSlice(3, 6), rec)
				if len(files) != tc.files {
					t.Errorf("files = %d, want %d", len(files), tc.files)
				}
				tbl := tableFor(dir, schema)
				var all []string
				foundDir := false
				for _, df := range files {
					if df.SpecID != 3 || len(df.Partition) != len(tc.fields) {
						t.Fatalf("%s: spec %d, partition %v", df.Path, df.SpecID, df.Partition)
					}
					if strings.Contains(df.Path, "/data/"+tc.dir) {
						foundDir = true
					}
					recs := scanRecords(t, tbl, schema, tasksFor([]*catalog.DataFile{df}, spec))
					if n := countRows(recs); n != df.RecordCount {
						t.Errorf("%s: %d rows read, record count %d", df.Path, n, df.RecordCount)
					}
					for _, r := range recs {
						for j, pf := range tc.fields {
							path, src := sourcePath(schema, pf.SourceID)
							p, err := NewPartitionTransform(pf.Transform, src.Type)
							if err != nil {
								t.Fatal(err)
							}
							col := r.Column(path[0])
							for _, k := range path[1:] {
								col = structField(col, k)
							}
							for i := 0; i < int(r.NumRows()); i++ {
								v, err := p.Value(col, i)
								if err != nil {
									t.Fatal(err)
								}
								if len(path) > 1 && r.Column(path[0]).IsNull(i) {
									v = nil
								}
								if !catalog.ValuesEqual(v, df.Partition[j]) {
									t.Errorf("%s row %d: partition %v, file has %v", df.Path, i, v, df.Partition[j])
								}
							}
						}
					}
					all = append(all, rowStrings(recs...)...)
					releaseAll(recs)
					if want := partitionPath(spec, mustTransforms(t, schema, spec), df.Partition); !strings.HasPrefix(df.Path, dir+"/data/"+want+"/") {
						t.Errorf("path %s is not under the partition directory %s", df.Path, want)
					}
				}
				if !foundDir {
					t.Errorf("no file under a directory starting %q: %v", tc.dir, paths(files))
				}
				slices.Sort(all)
				want := append(rowStrings(rec), rowStrings(rec)...)
				slices.Sort(want)
				if !slices.Equal(all, want) {
					t.Errorf("rows differ\n got: %q\nwant: %q", all, want)
				}
			})
		}
	}
}

func mustTransforms(t *testing.T, s *catalog.Schema, spec *catalog.PartitionSpec) []*PartitionTransform {
	var out []*PartitionTransform
	for _, pf := range spec.Fields {
		_, src := sourcePath(s, pf.SourceID)
		p, err := NewPartitionTransform(pf.Transform, src.Type)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func paths(files []*catalog.DataFile) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func countRows(recs []arrow.RecordBatch) int64 {
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	return n
}

// TestPartitionPathStrings checks the human strings of partition paths.
func TestPartitionPathStrings(t *testing.T) {
	tr := func(name string, param int, src catalog.Type) *PartitionTransform {
		p, err := NewPartitionTransform(catalog.Transform{Name: name, Param: param}, src)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ts := prim(catalog.TTimestamp)
	tests := []struct {
		p    *PartitionTransform
		v    any
		want string
	}{
		{tr("year", 0, ts), int32(-1), "1969"},
		{tr("month", 0, ts), int32(-1), "1969-12"},
		{tr("month", 0, ts), int32(649), "2024-02"},
		{tr("day", 0, ts), int32(19723), "2024-01-01"},
		{tr("hour", 0, ts), int32(-1), "1969-12-31-23"},
		{tr("identity", 0, ts), int64(1510871468000000), "2017-11-16T22:31:08"},
		{tr("identity", 0, ts), int64(1510871468123000), "2017-11-16T22:31:08.123"},
		{tr("identity", 0, prim(catalog.TTimestamptz)), int64(0), "1970-01-01T00:00:00+00:00"},
		{tr("identity", 0, prim(catalog.TTime)), int64(81068000000), "22:31:08"},
		{tr("identity", 0, prim(catalog.TDate)), int32(-1), "1969-12-31"},
		{tr("identity", 0, prim(catalog.TString)), "x=1&y", "x=1&y"},
		{tr("identity", 0, prim(catalog.TBoolean)), true, "true"},
		{tr("identity", 0, &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 9, Scale: 2}), catalog.Decimal{Unscaled: bigInt(-5), Scale: 2}, "-0.05"},
		{tr("identity", 0, prim(catalog.TUUID)), [16]byte{0xf7, 0x9c, 0x3e, 0x09, 0x67, 0x7c, 0x4b, 0xbd, 0xa4, 0x79, 0x3f, 0x34, 0x9c, 0xb7, 0x85, 0xe7}, "f79c3e09-677c-4bbd-a479-3f349cb785e7"},
		{tr("identity", 0, prim(catalog.TBinary)), []byte{0, 1, 2, 3}, "AAECAw=="},
		{tr("bucket", 8, prim(catalog.TLong)), int32(3), "3"},
		{tr("bucket", 8, prim(catalog.TLong)), nil, "null"},
	}
	for _, tc := range tests {
		if got := humanString(tc.p, tc.v); got != tc.want {
			t.Errorf("%s of %#v = %q, want %q", transformString(tc.p.Transform), tc.v, got, tc.want)
		}
	}
	spec := &catalog.PartitionSpec{Fields: []catalog.PartitionField{{Name: "a b"}, {Name: "c"}}}
	got := partitionPath(spec, []*PartitionTransform{tr("identity", 0, prim(catalog.TString)), tr("identity", 0, prim(catalog.TString))},
		[]any{"x=1&y/ü", nil})
	if want := "a+b=x%3D1%26y%2F%C3%BC/c=null"; got != want {
		t.Errorf("path = %q, want %q", got, want)
	}
}

// TestRolling writes enough rows to roll files and row groups.
func TestRolling(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: prim(catalog.TLong)},
		{ID: 2, Name: "s", Type: prim(catalog.TString)},
	}}
	var b strings.Builder
	b.WriteString("[")
	for i := range 20000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": %d, "s": "value %d %x"}`, i, i, i*7919)
	}
	b.WriteString("]")
	rec := recordFromJSON(t, schema, b.String())
	defer rec.Release()
	dir := t.TempDir()
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, Properties: map[string]string{
		propTargetFileSize: "200000", propRowGroupBytes: "60000", propPageBytes: "8192", propCodec: "snappy",
	}}, rec)
	if len(files) < 2 {
		t.Fatalf("files = %d, want several", len(files))
	}
	var total int64
	multiGroup := false
	for _, df := range files {
		total += df.RecordCount
		st, err := os.Stat(df.Path)
		if err != nil || st.Size() != df.FileSizeInBytes {
			t.Errorf("%s: size %d recorded, stat %v %v", df.Path, df.FileSizeInBytes, st, err)
		}
		if df.SplitOffsets[0] != 4 || !slices.IsSorted(df.SplitOffsets) {
			t.Errorf("%s: split offsets %v", df.Path, df.SplitOffsets)
		}
		if len(df.SplitOffsets) > 1 {
			multiGroup = true
		}
		if !strings.HasPrefix(filepath.Base(df.Path), "00000-") || !strings.HasSuffix(df.Path, ".parquet") {
			t.Errorf("file name %s", df.Path)
		}
	}
	if total != 20000 || !multiGroup {
		t.Errorf("total rows %d (want 20000), several row groups in a file: %v", total, multiGroup)
	}
	got := scanRecords(t, tableFor(dir, schema), schema, tasksFor(files, nil))
	defer releaseAll(got)
	if !slices.Equal(rowStrings(got...), rowStrings(rec)) {
		t.Errorf("rows read back differ from the rows written")
	}
}

// TestNotNullViolation: a NULL in a required column fails with 23502 and
// removes every file written so far.
func TestNotNullViolation(t *testing.T) {
	schema := allTypes()
	good := recordFromJSON(t, schema, allTypesRows)
	defer good.Release()
	tests := []struct {
		name, rows, column string
	}{
		{"top level", `[{"i": null}]`, "i"},
		{"struct field", `[{"i": 1, "st": {"a": 1, "b": null}}]`, "st.b"},
		{"list element", `[{"i": 1, "ls": [{"x": 1}, null]}]`, "ls.element"},
	}
	for _, tc := range tests {
		for _, variant := range []string{"parquet", "avro", "parquet sorted", "avro sorted"} {
			t.Run(variant+"/"+tc.name, func(t *testing.T) {
				bad := recordFromJSON(t, schema, tc.rows)
				defer bad.Release()
				dir := t.TempDir()
				ws := WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, Format: strings.Fields(variant)[0],
					Spec: &catalog.PartitionSpec{Fields: []catalog.PartitionField{{SourceID: 2, FieldID: 1000, Name: "i",
						Transform: catalog.Transform{Name: "identity"}}}}}
				sorted := strings.HasSuffix(variant, "sorted")
				if sorted {
					ws.SortOrder = &catalog.SortOrder{ID: 1, Fields: []catalog.SortField{{SourceID: 13,
						Transform: catalog.Transform{Name: "identity"}, Direction: "asc", NullOrder: "nulls-first"}}}
				}
				w, err := NewWriter(context.Background(), ws)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.Write(good); err != nil {
					t.Fatal(err)
				}
				err = w.Write(bad)
				if err == nil {
					// nested values are met when the batch is encoded, behind
					// Write (or, sorted, when the buffer is written): the
					// error comes from a later call, Close here
					_, err = w.Close()
				}
				wantCode(t, err, pgerr.NotNullViolation)
				if want := fmt.Sprintf("null value in column %q violates not-null constraint", tc.column); pgerr.As(err).Message != want {
					t.Errorf("message = %q, want %q", pgerr.As(err).Message, want)
				}
				if files := listFiles(t, dir); len(files) != 0 {
					t.Errorf("files left after the failed write: %v", files)
				}
				if _, err := w.Close(); pgerr.As(err) == nil || pgerr.As(err).Code != pgerr.NotNullViolation {
					t.Errorf("close after failure = %v, want the write's error", err)
				}
			})
		}
	}
}

// TestAbortAndCancel: Abort after Close removes the files; a cancelled
// context stops a write and removes what it wrote.
func TestAbortAndCancel(t *testing.T) {
	schema := partSchema()
	rec := recordFromJSON(t, schema, partRows)
	defer rec.Release()
	dir := t.TempDir()
	spec := &catalog.PartitionSpec{Fields: []catalog.PartitionField{{SourceID: 1, FieldID: 1000, Name: "id", Transform: catalog.Transform{Name: "identity"}}}}
	w, err := NewWriter(context.Background(), WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	files, err := w.Close()
	if err != nil || len(files) != 6 || len(listFiles(t, dir)) != 6 {
		t.Fatalf("close: %d files, %v", len(files), err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if left := listFiles(t, dir); len(left) != 0 {
		t.Errorf("files left after abort: %v", left)
	}

	ctx, cancel := context.WithCancel(context.Background())
	w, err = NewWriter(ctx, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema, Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := w.Write(rec); !errors.Is(err, context.Canceled) {
		t.Errorf("write after cancel = %v", err)
	}
	if left := listFiles(t, dir); len(left) != 0 {
		t.Errorf("files left after a cancelled write: %v", left)
	}
}

// TestWriterRejects: what the writer cannot write fails before any file.
func TestWriterRejects(t *testing.T) {
	variant := &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "v", Type: prim(catalog.TVariant)}}}
	_, err := NewWriter(context.Background(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: variant})
	wantCode(t, err, pgerr.FeatureNotSupported)

	schema := partSchema()
	_, err = NewWriter(context.Background(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema,
		Properties: map[string]string{propCodec: "brotli"}})
	wantCode(t, err, pgerr.FeatureNotSupported)
	_, err = NewWriter(context.Background(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema,
		Properties: map[string]string{propTargetFileSize: "-1"}})
	wantCode(t, err, pgerr.InvalidParameterValue)
	_, err = NewWriter(context.Background(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema,
		Spec: &catalog.PartitionSpec{Fields: []catalog.PartitionField{{SourceID: 3, Name: "x", Transform: catalog.Transform{Name: "hour"}}}}})
	wantCode(t, err, pgerr.FeatureNotSupported)

	w, err := NewWriter(context.Background(), WriterSpec{IO: LocalFiles{}, DataDir: t.TempDir(), Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	other := recordFromJSON(t, allTypes(), allTypesRows)
	defer other.Release()
	wantCode(t, w.Write(other), pgerr.DatatypeMismatch)
}

// TestDictionaryColumn: a dictionary-encoded string column (as the engine
// may produce) is written as its values.
func TestDictionaryColumn(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "s", Type: prim(catalog.TString)}}}
	db := array.NewDictionaryBuilder(memory.DefaultAllocator,
		&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String})
	defer db.Release()
	sb := db.(*array.BinaryDictionaryBuilder)
	for _, v := range []string{"b", "a", "b", "", "c"} {
		if err := sb.AppendString(v); err != nil {
			t.Fatal(err)
		}
	}
	sb.AppendNull()
	col := db.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "s", Type: col.DataType(), Nullable: true}}, nil),
		[]arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	dir := t.TempDir()
	files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir, Schema: schema}, rec)
	got := scanRecords(t, tableFor(dir, schema), schema, tasksFor(files, nil))
	defer releaseAll(got)
	want := []string{"b", "a", "b", "", "c", "<nil>"}
	if g := rowStrings(got...); !slices.Equal(g, want) {
		t.Errorf("rows = %q, want %q", g, want)
	}
	if lo, hi := string(files[0].LowerBounds[1]), string(files[0].UpperBounds[1]); lo != "" || hi != "c" {
		t.Errorf("bounds %q..%q", lo, hi)
	}
}
