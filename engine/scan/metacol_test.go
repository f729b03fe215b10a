package scan

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/write"
)

// metaRow is one row's metadata columns.
type metaRow struct {
	file    string
	pos     int64
	specID  int32
	deleted bool
}

// scanMeta scans the metadata columns ids (a subset of _file, _pos,
// _spec_id, _deleted, in that order) and returns the rows.
func scanMeta(t *testing.T, spec engine.ScanSpec, opts Options) ([]metaRow, error) {
	t.Helper()
	recs, err := scanAll(t, spec, opts)
	if err != nil {
		return nil, err
	}
	defer releaseRecs(recs)
	var out []metaRow
	for _, rec := range recs {
		for i := 0; i < int(rec.NumRows()); i++ {
			var r metaRow
			for c, id := range spec.FieldIDs {
				col := rec.Column(c)
				if col.IsNull(i) {
					t.Fatalf("metadata column %d is NULL", id)
				}
				switch id {
				case FieldIDFile:
					r.file = col.(*array.String).Value(i)
				case FieldIDPos:
					r.pos = col.(*array.Int64).Value(i)
				case FieldIDSpecID:
					r.specID = col.(*array.Int32).Value(i)
				case FieldIDDeleted:
					r.deleted = col.(*array.Boolean).Value(i)
				}
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func (r metaRow) key() string { return fmt.Sprintf("%s@%d", r.file, r.pos) }

// TestMetadataColumnsEveryFixture checks the metadata columns on every
// fixture table. With _deleted read, every row of every data file comes
// back: positions 0..record_count-1 once each, the file's spec id, and
// as many rows flagged deleted as a plain scan drops. Without _deleted,
// the (_file, _pos) pairs are exactly those of the rows not flagged, and
// the shards of a parallel scan give the same pairs (positions stay those
// of the file when row groups are split among shards).
func TestMetadataColumnsEveryFixture(t *testing.T) {
	facts := loadFacts(t)
	names := make([]string, 0, len(facts))
	for name := range facts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			tbl, tasks := loadTable(t, name)
			schema := tbl.Metadata.CurrentSchema()
			plain := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)}
			whole, err := scanAll(t, plain, Options{})
			if err != nil {
				t.Skipf("the plain scan fails (%v): covered by the fixture tests", err)
			}
			live := countRows(whole)
			releaseRecs(whole)

			all := plain
			all.FieldIDs = []int{FieldIDFile, FieldIDPos, FieldIDSpecID, FieldIDDeleted}
			rows, err := scanMeta(t, all, Options{BatchSize: 7})
			if err != nil {
				t.Fatalf("scan with metadata columns: %v", err)
			}
			byFile := map[string][]metaRow{}
			var flagged int64
			for _, r := range rows {
				byFile[r.file] = append(byFile[r.file], r)
				if r.deleted {
					flagged++
				}
			}
			for _, task := range tasks {
				df := task.File
				got := byFile[df.Path]
				if int64(len(got)) != df.RecordCount {
					t.Errorf("%s: %d rows, manifest says %d", df.Path, len(got), df.RecordCount)
					continue
				}
				sort.Slice(got, func(i, j int) bool { return got[i].pos < got[j].pos })
				for i, r := range got {
					if r.pos != int64(i) {
						t.Errorf("%s: positions %d and %d out of sequence", df.Path, i, r.pos)
						break
					}
					if r.specID != int32(df.SpecID) {
						t.Errorf("%s: _spec_id %d, manifest says %d", df.Path, r.specID, df.SpecID)
						break
					}
				}
			}
			if live+flagged != int64(len(rows)) {
				t.Errorf("%d rows flagged deleted, %d live, %d in all", flagged, live, len(rows))
			}
			if f := facts[name]; f.ExpectedRowsCurrent != nil && *f.ExpectedRowsCurrent != live {
				t.Errorf("plain scan: %d rows, tables.json expects %d", live, *f.ExpectedRowsCurrent)
			}

			want := map[string]bool{}
			for _, r := range rows {
				if !r.deleted {
					want[r.key()] = true
				}
			}
			kept := plain
			kept.FieldIDs = []int{FieldIDPos, FieldIDFile}
			for _, shards := range []int{1, 3} {
				got := map[string]bool{}
				for k := 0; k < shards; k++ {
					opts := Options{BatchSize: 5}
					if shards > 1 {
						opts.Shard, opts.Shards = k, shards
					}
					rows, err := scanMeta(t, kept, opts)
					if err != nil {
						t.Fatalf("shard %d of %d: %v", k, shards, err)
					}
					for _, r := range rows {
						if r.deleted {
							t.Fatalf("_deleted not read but a row is flagged")
						}
						if got[r.key()] {
							t.Fatalf("%d shards: %s twice", shards, r.key())
						}
						got[r.key()] = true
					}
				}
				if len(got) != len(want) {
					t.Errorf("%d shards: %d rows, want %d", shards, len(got), len(want))
				}
				for k := range got {
					if !want[k] {
						t.Errorf("%d shards: %s is deleted or does not exist", shards, k)
						break
					}
				}
			}
		})
	}
}

// TestPartitionStruct checks the type of _partition: the union of every
// spec's fields by partition field id, named as the newest spec names
// them, typed by transform (day as a date).
func TestPartitionStruct(t *testing.T) {
	str := func(s *catalog.StructType) string {
		out := ""
		for _, f := range s.Fields {
			out += fmt.Sprintf("%d:%s:%s ", f.ID, f.Name, f.Type)
		}
		return out
	}
	cases := []struct{ table, want string }{
		{"lithium__no_partitioning", ""},
		{"lithium__partition_evolution", "1000:c1:int 1001:c2:date 1002:c3:double "},
		{"lithium__day_timestamptz_partitioning", "1000:c2_day:date "},
		{"lithium__bucket_partitioning", "1000:col_int_bucket:int 1001:col_long_bucket:int 1002:col_decimal_bucket:int 1003:col_date_bucket:int " +
			"1004:col_time_bucket:int 1005:col_timestamp_bucket:int 1006:col_timestamptz_bucket:int 1007:col_string_bucket:int " +
			"1008:col_uuid_bucket:int 1009:col_varbinary_bucket:int "},
		{"impala__iceberg_partitioned", "1000:event_time_hour:int 1001:action:string "},
		// The legacy Impala table's manifests say int for a column the
		// schema promoted to long: the type follows the schema.
		{"impala__iceberg_legacy_partition_schema_evolution", "1000:p_int_long:long 1001:p_float_double:double 1002:p_dec_dec:decimal(8, 3) "},
	}
	for _, c := range cases {
		t.Run(c.table, func(t *testing.T) {
			tbl, _ := loadTable(t, c.table)
			got := str(PartitionStruct(tbl.Metadata, tbl.Metadata.CurrentSchema()))
			if got != c.want {
				t.Errorf("_partition is %q, want %q", got, c.want)
			}
		})
	}
}

// TestMetadataPartitionMatchesRows checks on every partitioned fixture
// table that each row's _partition holds its file's partition values:
// for every partition field of the row's spec over a top-level column,
// the field of _partition equals the transform of the row's column value.
func TestMetadataPartitionMatchesRows(t *testing.T) {
	facts := loadFacts(t)
	names := make([]string, 0, len(facts))
	for name := range facts {
		names = append(names, name)
	}
	sort.Strings(names)
	checked := 0
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			tbl, tasks := loadTable(t, name)
			schema := tbl.Metadata.CurrentSchema()
			part := PartitionStruct(tbl.Metadata, schema)
			if len(part.Fields) == 0 {
				return
			}
			// The source columns of the partition fields, then _partition
			// and _spec_id.
			var ids []int
			col := map[int]int{}
			for _, spec := range tbl.Metadata.PartitionSpecs {
				for _, pf := range spec.Fields {
					if _, ok := col[pf.SourceID]; ok || topField(engine.ScanSpec{Schema: schema}, pf.SourceID) == nil {
						continue
					}
					col[pf.SourceID] = len(ids)
					ids = append(ids, pf.SourceID)
				}
			}
			ids = append(ids, FieldIDPartition, FieldIDSpecID)
			spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: ids}
			recs, err := scanAll(t, spec, Options{})
			if err != nil {
				t.Skipf("the scan fails (%v): covered by the fixture tests", err)
			}
			defer releaseRecs(recs)
			mem := memory.NewGoAllocator()
			for _, rec := range recs {
				parts := rec.Column(len(ids) - 2).(*array.Struct)
				specIDs := rec.Column(len(ids) - 1).(*array.Int32)
				for i := 0; i < int(rec.NumRows()); i++ {
					ps := tbl.Metadata.SpecByID(int(specIDs.Value(i)))
					if ps == nil {
						continue
					}
					for _, pf := range ps.Fields {
						c, ok := col[pf.SourceID]
						if !ok {
							continue
						}
						k := slices.IndexFunc(part.Fields, func(f catalog.NestedField) bool { return f.ID == pf.FieldID })
						if k < 0 {
							t.Fatalf("_partition lacks field %d (%s)", pf.FieldID, pf.Name)
						}
						tr, err := write.NewPartitionTransform(pf.Transform, schema.FindField(pf.SourceID).Type)
						if err != nil {
							t.Fatalf("transform %s: %v", pf.Name, err)
						}
						v, err := tr.Value(rec.Column(c), i)
						if err != nil {
							t.Fatalf("transform %s: %v", pf.Name, err)
						}
						want, err := constantArray(mem, part.Fields[k].Type, v, 1)
						if err != nil {
							t.Fatalf("%s: %v", pf.Name, err)
						}
						got := parts.Field(k)
						if got.IsNull(i) != want.IsNull(0) || (!got.IsNull(i) && got.ValueStr(i) != want.ValueStr(0)) {
							t.Errorf("row with %s = %s: _partition.%s is %s, want %s", schema.FindField(pf.SourceID).Name,
								rec.Column(c).ValueStr(i), pf.Name, got.ValueStr(i), want.ValueStr(0))
						}
						want.Release()
						checked++
					}
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("no partition value checked")
	}
}

// posDeleteRow is a row of a position-delete file, read by parquet-go's
// row reader (not by the scan's readers).
type posDeleteRow struct {
	FilePath string `parquet:"file_path"`
	Pos      int64  `parquet:"pos"`
}

// withoutAuthority drops a path's scheme and authority: Impala's delete
// files name data files hdfs://host:port/... where manifests write /...
func withoutAuthority(p string) string {
	if i := strings.Index(p, "://"); i >= 0 {
		rest := p[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			return rest[j:]
		}
	}
	return p
}

// TestMetadataPositionsMatchDeleteFiles checks _pos against the Parquet
// position-delete files of the fixtures: the rows a scan with _deleted
// flags are exactly the (file, pos) pairs the delete files that apply
// list, and a scan without _deleted returns none of them. Dangling
// deletes flag nothing.
func TestMetadataPositionsMatchDeleteFiles(t *testing.T) {
	tables := []string{
		"impala__iceberg_v2_delete_positional",
		"impala__iceberg_v2_partitioned_position_deletes",
		"impala__iceberg_v2_positional_not_all_data_files_have_delete_files",
		"impala__iceberg_v2_positional_update_all_rows",
		"impala__iceberg_v2_positional_delete_all_rows",
		"impala__iceberg_lineitem_multiblock",
		"impala__iceberg_v2_null_delete_record",
		"lithium__granular_deletes",
		"lithium__refdeletes3",
		"duckdb__generated_spec2_0_001",
		// Their delete files apply to no data file (sequence numbers):
		// no row is flagged.
		"lithium__dangling_deletes",
		"impala__iceberg_spark_compaction_with_dangling_delete",
	}
	dangling := map[string]bool{"lithium__dangling_deletes": true, "impala__iceberg_spark_compaction_with_dangling_delete": true}
	ctx := context.Background()
	for _, name := range tables {
		t.Run(name, func(t *testing.T) {
			tbl, tasks := loadTable(t, name)
			want := map[string]bool{}
			read := map[string][]posDeleteRow{}
			for _, task := range tasks {
				data := withoutAuthority(task.File.Path)
				for _, d := range task.Deletes {
					if d.Content != catalog.ContentPositionDelete || !strings.EqualFold(string(d.Format), "parquet") {
						continue
					}
					rows, ok := read[d.Path]
					if !ok {
						f, err := tbl.IO.Open(ctx, d.Path)
						if err != nil {
							t.Fatal(err)
						}
						pf, err := parquet.OpenFile(f, f.Size())
						if err != nil {
							t.Fatal(err)
						}
						r := parquet.NewGenericReader[posDeleteRow](pf)
						rows = make([]posDeleteRow, pf.NumRows())
						if n, err := r.Read(rows); int64(n) != pf.NumRows() && err != nil {
							t.Fatalf("read %s: %d rows: %v", d.Path, n, err)
						}
						r.Close()
						f.Close()
						read[d.Path] = rows
					}
					for _, r := range rows {
						if withoutAuthority(r.FilePath) == data {
							want[metaRow{file: task.File.Path, pos: r.Pos}.key()] = true
						}
					}
				}
			}
			if (len(want) == 0) != dangling[name] {
				t.Fatalf("%d deleted positions in the %d Parquet position-delete files that apply", len(want), len(read))
			}
			schema := tbl.Metadata.CurrentSchema()
			spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema,
				FieldIDs: []int{FieldIDFile, FieldIDPos, FieldIDDeleted}}
			mem := newChecked(t)
			defer mem.AssertSize(t, 0)
			rows, err := scanMeta(t, spec, Options{Alloc: mem, BatchSize: 3})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, r := range rows {
				if r.deleted {
					got[r.key()] = true
				}
			}
			if !maps.Equal(got, want) {
				t.Errorf("%d rows flagged deleted, the delete files list %d", len(got), len(want))
			}
			spec.FieldIDs = []int{FieldIDFile, FieldIDPos}
			kept, err := scanMeta(t, spec, Options{Alloc: mem, BatchSize: 3})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range kept {
				if want[r.key()] {
					t.Fatalf("deleted row %s returned", r.key())
				}
			}
			if len(kept)+len(want) != len(rows) {
				t.Errorf("%d rows kept + %d deleted != %d rows", len(kept), len(want), len(rows))
			}
		})
	}
}
