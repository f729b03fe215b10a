package write

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
)

// deleteTable is a small table written with the Writer: an id column and
// a category column, partitioned by identity(cat) or not.
type deleteTable struct {
	dir    string
	schema *catalog.Schema
	spec   *catalog.PartitionSpec
	meta   *catalog.TableMetadata
	files  []*catalog.DataFile
	ids    map[string][]int64 // data file path -> id at each position
}

func newDeleteTable(t *testing.T, version int, partitioned bool, props map[string]string) *deleteTable {
	t.Helper()
	dir := t.TempDir()
	schema := &catalog.Schema{ID: 0, Fields: []catalog.NestedField{
		{ID: 1, Name: "id", Required: true, Type: prim(catalog.TLong)},
		{ID: 2, Name: "cat", Type: prim(catalog.TString)},
	}}
	spec := &catalog.PartitionSpec{ID: 0}
	if partitioned {
		spec = &catalog.PartitionSpec{ID: 1, Fields: []catalog.PartitionField{
			{SourceID: 2, FieldID: 1000, Name: "cat", Transform: catalog.Transform{Name: "identity"}}}}
	}
	if props == nil {
		props = map[string]string{}
	}
	dt := &deleteTable{dir: dir, schema: schema, spec: spec, ids: map[string][]int64{},
		meta: &catalog.TableMetadata{FormatVersion: version, Location: dir, Schemas: []*catalog.Schema{schema},
			PartitionSpecs: []*catalog.PartitionSpec{{ID: 0}, spec}, DefaultSpecID: spec.ID, Properties: props}}
	var wspec *catalog.PartitionSpec
	if partitioned {
		wspec = spec
	}
	// Two writes: two files per partition (one file each when not partitioned).
	for _, rows := range []string{
		`[{"id": 1, "cat": "a b"}, {"id": 2, "cat": "c"}, {"id": 3, "cat": "a b"}, {"id": 4, "cat": "c"}, {"id": 5, "cat": null}]`,
		`[{"id": 6, "cat": "c"}, {"id": 7, "cat": "a b"}, {"id": 8, "cat": "a b"}, {"id": 9, "cat": null}, {"id": 10, "cat": "c"}]`,
	} {
		rec := recordFromJSON(t, schema, rows)
		files := writeAll(t, WriterSpec{IO: LocalFiles{}, DataDir: dir + "/data", Schema: schema, Spec: wspec,
			FormatVersion: version}, rec)
		rec.Release()
		dt.files = append(dt.files, files...)
	}
	for _, f := range dt.files {
		dt.ids[f.Path] = dt.scanIDs(t, []catalog.FileScanTask{{File: f, Spec: spec}})
	}
	return dt
}

// scanIDs reads the id column of tasks through engine/scan.
func (dt *deleteTable) scanIDs(t *testing.T, tasks []catalog.FileScanTask) []int64 {
	t.Helper()
	recs := scanRecords(t, tableFor(dt.dir, dt.schema), dt.schema, tasks)
	defer releaseAll(recs)
	var ids []int64
	for _, r := range recs {
		col := r.Column(0).(*array.Int64)
		for i := 0; i < col.Len(); i++ {
			ids = append(ids, col.Value(i))
		}
	}
	return ids
}

// deleteEvery picks positions of every data file (those where pick(pos)
// holds) and returns the deletes and the ids they delete.
func (dt *deleteTable) deleteEvery(pick func(file int, pos int64) bool) ([]FileDeletes, map[int64]bool) {
	var deletes []FileDeletes
	gone := map[int64]bool{}
	for i, f := range dt.files {
		var pos []int64
		for p, id := range dt.ids[f.Path] {
			if pick(i, int64(p)) {
				pos = append(pos, int64(p))
				gone[id] = true
			}
		}
		deletes = append(deletes, FileDeletes{File: f, Positions: pos})
	}
	return deletes, gone
}

// survivors scans every data file with the delete files that apply to it
// (the ones naming it, or, without a referenced file, those of its spec
// and partition) and returns the ids left, sorted.
func (dt *deleteTable) survivors(t *testing.T, dels []*catalog.DataFile) []int64 {
	t.Helper()
	var tasks []catalog.FileScanTask
	for _, f := range dt.files {
		task := catalog.FileScanTask{File: f, Spec: dt.spec}
		for _, d := range dels {
			if d.ReferencedDataFile != nil {
				if *d.ReferencedDataFile == f.Path {
					task.Deletes = append(task.Deletes, d)
				}
				continue
			}
			if d.SpecID == f.SpecID && slices.EqualFunc(d.Partition, f.Partition, catalog.ValuesEqual) {
				task.Deletes = append(task.Deletes, d)
			}
		}
		tasks = append(tasks, task)
	}
	ids := dt.scanIDs(t, tasks)
	slices.Sort(ids)
	return ids
}

func (dt *deleteTable) allIDsExcept(gone map[int64]bool) []int64 {
	var want []int64
	for _, ids := range dt.ids {
		for _, id := range ids {
			if !gone[id] {
				want = append(want, id)
			}
		}
	}
	slices.Sort(want)
	return want
}

func (dt *deleteTable) deleteSpec() DeleteSpec {
	return DeleteSpec{IO: LocalFiles{}, DataDir: DataDir(dt.meta), Metadata: dt.meta}
}

func TestWriteDeletesRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name        string
		version     int
		partitioned bool
		props       map[string]string
		// wantFiles is the number of delete files (distinct paths); -1:
		// one per data file with deletes.
		wantFiles int
		format    catalog.FileFormat
	}{
		{name: "v2 file granularity", version: 2, wantFiles: -1, format: catalog.FormatParquet},
		{name: "v2 partition granularity", version: 2, props: map[string]string{propDeleteGranularity: "partition"},
			wantFiles: 1, format: catalog.FormatParquet},
		{name: "v2 partitioned, file granularity", version: 2, partitioned: true, wantFiles: -1, format: catalog.FormatParquet},
		{name: "v2 partitioned, partition granularity", version: 2, partitioned: true,
			props: map[string]string{propDeleteGranularity: "partition"}, wantFiles: 3, format: catalog.FormatParquet},
		{name: "v2 avro", version: 2, partitioned: true,
			props: map[string]string{propDeleteFormat: "avro", propDeleteGranularity: "partition"}, wantFiles: 3, format: catalog.FormatAvro},
		{name: "v2 data format avro", version: 2, props: map[string]string{propFormat: "avro"}, wantFiles: -1, format: catalog.FormatAvro},
		{name: "v2 delete codec", version: 2, props: map[string]string{"write.delete.parquet.compression-codec": "gzip"},
			wantFiles: -1, format: catalog.FormatParquet},
		{name: "v3 deletion vectors", version: 3, wantFiles: 1, format: catalog.FormatPuffin},
		{name: "v3 partitioned", version: 3, partitioned: true, wantFiles: 1, format: catalog.FormatPuffin},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dt := newDeleteTable(t, tc.version, tc.partitioned, tc.props)
			deletes, gone := dt.deleteEvery(func(file int, pos int64) bool { return (pos+int64(file))%2 == 0 })
			dels, err := WriteDeletes(context.Background(), dt.deleteSpec(), deletes)
			if err != nil {
				t.Fatalf("write deletes: %v", err)
			}
			paths := map[string]bool{}
			var records int64
			for _, d := range dels {
				paths[d.Path] = true
				records += d.RecordCount
				if d.Content != catalog.ContentPositionDelete || d.Format != tc.format {
					t.Errorf("delete file %s: content %d format %s, want 1 %s", d.Path, d.Content, d.Format, tc.format)
				}
				if !strings.HasPrefix(d.Path, dt.dir+"/data/") {
					t.Errorf("delete file %s is not under the data directory", d.Path)
				}
				st, err := os.Stat(d.Path)
				if err != nil || st.Size() != d.FileSizeInBytes {
					t.Errorf("delete file %s: stat %v, size %d, recorded %d", d.Path, err, st.Size(), d.FileSizeInBytes)
				}
			}
			want := tc.wantFiles
			if want < 0 {
				want = 0
				for _, d := range deletes {
					if len(d.Positions) > 0 {
						want++
					}
				}
			}
			if len(paths) != want {
				t.Errorf("delete files = %d, want %d", len(paths), want)
			}
			if records != int64(len(gone)) {
				t.Errorf("record counts sum to %d, want %d", records, len(gone))
			}
			if got, want := dt.survivors(t, dels), dt.allIDsExcept(gone); !slices.Equal(got, want) {
				t.Errorf("surviving ids = %v, want %v", got, want)
			}
		})
	}
}

// TestDeleteFilesInPartitionDirectory checks that the delete files of a
// partitioned table carry the data file's spec and partition and sit in
// its partition directory.
func TestDeleteFilesInPartitionDirectory(t *testing.T) {
	for _, version := range []int{2, 3} {
		dt := newDeleteTable(t, version, true, nil)
		for _, f := range dt.files {
			dels, err := WriteDeletes(context.Background(), dt.deleteSpec(), []FileDeletes{{File: f, Positions: []int64{0}}})
			if err != nil {
				t.Fatalf("v%d: write deletes: %v", version, err)
			}
			if len(dels) != 1 {
				t.Fatalf("v%d: %d delete files, want 1", version, len(dels))
			}
			d := dels[0]
			dataDir := f.Path[:strings.LastIndex(f.Path, "/")]
			if got := d.Path[:strings.LastIndex(d.Path, "/")]; got != dataDir {
				t.Errorf("v%d: delete file in %s, data file in %s", version, got, dataDir)
			}
			if d.SpecID != f.SpecID || !slices.EqualFunc(d.Partition, f.Partition, catalog.ValuesEqual) {
				t.Errorf("v%d: delete file spec %d partition %v, data file %d %v", version, d.SpecID, d.Partition, f.SpecID, f.Partition)
			}
			if d.ReferencedDataFile == nil || *d.ReferencedDataFile != f.Path {
				t.Errorf("v%d: referenced data file %v, want %s", version, d.ReferencedDataFile, f.Path)
			}
		}
	}
}

func TestPositionDeleteMetrics(t *testing.T) {
	dt := newDeleteTable(t, 2, false, nil)
	a, b := dt.files[0], dt.files[1]
	t.Run("one data file", func(t *testing.T) {
		dels, err := WriteDeletes(context.Background(), dt.deleteSpec(), []FileDeletes{{File: a, Positions: []int64{1, 3, 4}}})
		if err != nil {
			t.Fatal(err)
		}
		d := dels[0]
		if d.RecordCount != 3 {
			t.Errorf("record count = %d, want 3", d.RecordCount)
		}
		if d.ReferencedDataFile == nil || *d.ReferencedDataFile != a.Path {
			t.Errorf("referenced data file = %v, want %s", d.ReferencedDataFile, a.Path)
		}
		wantBounds := map[int][2][]byte{
			deleteFilePathID: {[]byte(a.Path), []byte(a.Path)},
			deletePosID:      {le64(1), le64(4)},
		}
		for id, want := range wantBounds {
			if string(d.LowerBounds[id]) != string(want[0]) || string(d.UpperBounds[id]) != string(want[1]) {
				t.Errorf("field %d bounds = %q..%q, want %q..%q", id, d.LowerBounds[id], d.UpperBounds[id], want[0], want[1])
			}
			if d.ColumnSizes[id] <= 0 {
				t.Errorf("field %d column size = %d", id, d.ColumnSizes[id])
			}
			if _, ok := d.ValueCounts[id]; ok {
				t.Errorf("field %d has a value count", id)
			}
			if _, ok := d.NullValueCounts[id]; ok {
				t.Errorf("field %d has a null count", id)
			}
		}
		if len(d.SplitOffsets) != 1 || d.SplitOffsets[0] != 4 {
			t.Errorf("split offsets = %v, want [4]", d.SplitOffsets)
		}
	})
	t.Run("two data files", func(t *testing.T) {
		spec := dt.deleteSpec()
		spec.Metadata = &catalog.TableMetadata{FormatVersion: 2, Location: dt.dir, Schemas: dt.meta.Schemas,
			PartitionSpecs: dt.meta.PartitionSpecs, Properties: map[string]string{propDeleteGranularity: "partition"}}
		// Given in reverse path order, with an unsorted, duplicated list.
		first, second := a, b
		if first.Path < second.Path {
			first, second = second, first
		}
		dels, err := WriteDeletes(context.Background(), spec, []FileDeletes{
			{File: first, Positions: []int64{2, 0}}, {File: second, Positions: []int64{4}}, {File: first, Positions: []int64{2}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(dels) != 1 {
			t.Fatalf("%d delete files, want 1", len(dels))
		}
		d := dels[0]
		if d.RecordCount != 3 || d.ReferencedDataFile != nil || len(d.LowerBounds) != 0 || len(d.UpperBounds) != 0 {
			t.Errorf("delete file = records %d, referenced %v, bounds %v %v; want 3 rows, no referenced file, no bounds",
				d.RecordCount, d.ReferencedDataFile, d.LowerBounds, d.UpperBounds)
		}
		rows := readPositionDeleteRows(t, dt, d)
		// rows sorted by path, then position (second.Path < first.Path)
		want := []string{second.Path + "@4", first.Path + "@0", first.Path + "@2"}
		if !slices.Equal(rows, want) {
			t.Errorf("rows = %q, want %q", rows, want)
		}
	})
}

// readPositionDeleteRows reads a position delete file's rows in file
// order as "path@pos".
func readPositionDeleteRows(t *testing.T, dt *deleteTable, d *catalog.DataFile) []string {
	t.Helper()
	schema := positionDeleteSchema
	recs := scanRecords(t, tableFor(dt.dir, schema), schema,
		[]catalog.FileScanTask{{File: &catalog.DataFile{Path: d.Path, Format: d.Format, RecordCount: d.RecordCount,
			FileSizeInBytes: d.FileSizeInBytes}, Spec: &catalog.PartitionSpec{}}})
	defer releaseAll(recs)
	var rows []string
	for _, r := range recs {
		paths, pos := r.Column(0).(*array.String), r.Column(1).(*array.Int64)
		for i := 0; i < paths.Len(); i++ {
			rows = append(rows, paths.Value(i)+"@"+strconv.FormatInt(pos.Value(i), 10))
		}
	}
	return rows
}

// TestDeleteFileCodec checks that write.delete.parquet.compression-codec
// overrides the data files' codec for delete files.
func TestDeleteFileCodec(t *testing.T) {
	for _, tc := range []struct {
		props map[string]string
		want  format.CompressionCodec
	}{
		{map[string]string{}, format.Snappy},
		{map[string]string{propCodec: "zstd"}, format.Zstd},
		{map[string]string{propCodec: "zstd", "write.delete.parquet.compression-codec": "gzip"}, format.Gzip},
	} {
		dt := newDeleteTable(t, 2, false, tc.props)
		dels, err := WriteDeletes(context.Background(), dt.deleteSpec(), []FileDeletes{{File: dt.files[0], Positions: []int64{1}}})
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(dels[0].Path)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := parquet.OpenFile(f, dels[0].FileSizeInBytes)
		if err != nil {
			f.Close()
			t.Fatal(err)
		}
		for _, c := range pf.Metadata().RowGroups[0].Columns {
			if c.MetaData.Codec != tc.want {
				t.Errorf("%v: column %v codec %v, want %v", tc.props, c.MetaData.PathInSchema, c.MetaData.Codec, tc.want)
			}
			// positions are distinct and ascending: a dictionary would
			// only add its page and the indexes to the PLAIN values
			if c.MetaData.PathInSchema[0] == "pos" && slices.Contains(c.MetaData.Encoding, format.RLEDictionary) {
				t.Errorf("pos encodings %v, want PLAIN", c.MetaData.Encoding)
			}
		}
		f.Close()
	}
}
