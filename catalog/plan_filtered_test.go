package catalog

import (
	"context"
	"encoding/binary"
	"math"
	"slices"
	"testing"
	"time"
)

// prunedFile is a data file of the pruning tests: its rows are listed so
// the test knows which predicates each file can satisfy.
type prunedFile struct {
	name string
	ids  []int64
	ts   []int64 // micros
	tags []string
	vals []float64
}

// TestPlanFilesFilteredEvolution writes a table through Append under two
// partition specs (month(ts), bucket[4](id), then year(ts),
// truncate[2](tag)) and checks, for many predicates, that every file
// holding a matching row is kept and that the files and manifests the
// predicates rule out are skipped.
func TestPlanFilesFilteredEvolution(t *testing.T) {
	ctx := context.Background()
	cat := newWarehouse(t)
	id := Identifier{Namespace: []string{"db"}, Name: "events"}
	schema := &Schema{Fields: []NestedField{
		{ID: 1, Name: "id", Required: true, Type: &PrimitiveType{ID: TLong}},
		{ID: 2, Name: "ts", Type: &PrimitiveType{ID: TTimestamptz}},
		{ID: 3, Name: "tag", Type: &PrimitiveType{ID: TString}},
		{ID: 4, Name: "v", Type: &PrimitiveType{ID: TDouble}},
	}}
	tbl, err := cat.CreateTable(ctx, id, TableSpec{Schema: schema, FormatVersion: 2, Spec: &PartitionSpec{Fields: []PartitionField{
		{SourceID: 2, Name: "ts_month", Transform: Transform{Name: "month"}},
		{SourceID: 1, Name: "id_bucket", Transform: Transform{Name: "bucket", Param: 4}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := func(s string) int64 {
		tm, err := time.Parse("2006-01-02", s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMicro()
	}
	// Spec 0 files: one month and one bucket each.
	var files []prunedFile
	var all []prunedFile
	for m, month := range []string{"2024-01-10", "2024-02-10", "2024-03-10"} {
		for b := range 4 {
			f := prunedFile{name: month + "-b" + string(rune('0'+b))}
			for n := int64(0); len(f.ids) < 3; n++ {
				if v, _ := bucketOfValue(&PrimitiveType{ID: TLong}, n, 4); int(v) == b {
					f.ids = append(f.ids, n)
					f.ts = append(f.ts, ts(month)+n*int64(time.Hour/time.Microsecond))
					f.tags = append(f.tags, "a"+string(rune('a'+m)))
					f.vals = append(f.vals, float64(n))
				}
			}
			files = append(files, f)
		}
	}
	if tbl, err = Append(ctx, cat, id, dataFiles(t, tbl, files, 0), nil); err != nil {
		t.Fatal(err)
	}
	all = append(all, files...)

	// Evolve to year(ts), truncate[2](tag); then files of 2023 and 2025.
	if tbl, err = cat.CommitTable(ctx, id, nil, []Update{
		AddSpec{Spec: &PartitionSpec{Fields: []PartitionField{
			{SourceID: 2, Name: "ts_year", Transform: Transform{Name: "year"}},
			{SourceID: 3, Name: "tag_trunc", Transform: Transform{Name: "truncate", Param: 2}},
		}}},
		SetDefaultSpec{SpecID: LastAdded},
	}); err != nil {
		t.Fatal(err)
	}
	files = []prunedFile{
		{name: "y2023-zz", ids: []int64{100, 101}, ts: []int64{ts("2023-06-01"), ts("2023-07-01")}, tags: []string{"zz1", "zz2"}, vals: []float64{1, math.NaN()}},
		{name: "y2025-ab", ids: []int64{200}, ts: []int64{ts("2025-01-01")}, tags: []string{"ab"}, vals: []float64{5}},
	}
	if tbl, err = Append(ctx, cat, id, dataFiles(t, tbl, files, 1), nil); err != nil {
		t.Fatal(err)
	}
	all = append(all, files...)

	snap := tbl.Metadata.CurrentSnapshot()
	full, err := PlanFiles(ctx, tbl, snap)
	if err != nil {
		t.Fatal(err)
	}
	if len(full) != len(all) {
		t.Fatalf("PlanFiles: %d files, want %d", len(full), len(all))
	}
	for _, tc := range []struct {
		name          string
		preds         []Predicate
		wantFiles     int // files kept
		wantManSkiped int
	}{
		{"none", nil, 14, 0},
		{"one month", []Predicate{{2, OpGtEq, []any{ts("2024-02-01")}}, {2, OpLt, []any{ts("2024-03-01")}}}, 4, 0},
		{"month and bucket", []Predicate{{2, OpGtEq, []any{ts("2024-02-01")}}, {2, OpLt, []any{ts("2024-03-01")}}, {1, OpEq, []any{int64(5)}}}, 1, 0},
		// ids 0 and 1 share a bucket: one file per month.
		{"id in", []Predicate{{1, OpIn, []any{int64(0), int64(1)}}}, 3, 0},
		{"year 2023 only", []Predicate{{2, OpLt, []any{ts("2024-01-01")}}}, 1, 1},
		{"tag prefix zz", []Predicate{{3, OpEq, []any{"zz2"}}}, 1, 0},
		// Upper bounds "ab" may be prefixes of larger tags: those files stay.
		{"tag range", []Predicate{{3, OpGt, []any{"ab"}}}, 10, 0},
		{"id null", []Predicate{{1, OpIsNull, nil}}, 0, 1},
		{"v greater NaN file", []Predicate{{4, OpGt, []any{100.0}}}, 1, 0},
		{"v less", []Predicate{{4, OpLt, []any{0.5}}}, 3, 0},
		{"nothing", []Predicate{{1, OpIn, []any{nil}}}, 0, 1},
		{"not equal", []Predicate{{1, OpNotEq, []any{int64(1)}}}, 14, 0},
	} {
		tasks, stats, err := PlanFilesFiltered(ctx, tbl, snap, tc.preds)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var kept []string
		for _, task := range tasks {
			kept = append(kept, task.File.Path)
		}
		for _, f := range all {
			if fileMatches(f, tc.preds) && !slices.ContainsFunc(kept, func(p string) bool { return p == tbl.Metadata.Location+"/data/"+f.name+".parquet" }) {
				t.Errorf("%s: file %s holds a matching row but was skipped", tc.name, f.name)
			}
		}
		if len(tasks) != tc.wantFiles || stats.ManifestsSkipped != tc.wantManSkiped {
			t.Errorf("%s: kept %d files, skipped %d manifests; want %d, %d (%+v)", tc.name, len(tasks), stats.ManifestsSkipped, tc.wantFiles, tc.wantManSkiped, stats)
		}
		if stats.Manifests != 2 || stats.Files-stats.FilesSkipped != len(tasks) {
			t.Errorf("%s: stats %+v", tc.name, stats)
		}
	}
}

// fileMatches reports whether some row of f satisfies every predicate.
func fileMatches(f prunedFile, preds []Predicate) bool {
	for i := range f.ids {
		ok := true
		for _, p := range preds {
			var v any
			switch p.FieldID {
			case 1:
				v = f.ids[i]
			case 2:
				v = f.ts[i]
			case 3:
				v = f.tags[i]
			case 4:
				v = f.vals[i]
			}
			if !rowMatches(p, v) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// rowMatches evaluates a predicate on one value the way PostgreSQL does
// (NaN equal to itself and above every number).
func rowMatches(p Predicate, v any) bool {
	switch p.Op {
	case OpIsNull:
		return v == nil
	case OpIsNotNull:
		return v != nil
	}
	if v == nil {
		return false
	}
	cmp := func(c any) (int, bool) {
		if c == nil {
			return 0, false
		}
		if x, ok := v.(float64); ok {
			y := c.(float64)
			switch {
			case math.IsNaN(x) && math.IsNaN(y):
				return 0, true
			case math.IsNaN(x):
				return 1, true
			case math.IsNaN(y):
				return -1, true
			}
		}
		r, ok := pruneCompare(v, c)
		return r, ok
	}
	for _, c := range p.Values {
		r, ok := cmp(c)
		if !ok {
			continue
		}
		switch p.Op {
		case OpEq, OpIn:
			if r == 0 {
				return true
			}
		case OpNotEq:
			return r != 0
		case OpLt:
			return r < 0
		case OpLtEq:
			return r <= 0
		case OpGt:
			return r > 0
		case OpGtEq:
			return r >= 0
		}
	}
	return false
}

// dataFiles describes files as a writer would: partition values through
// the spec's transforms, and metrics (a NaN counted, not a bound).
func dataFiles(t *testing.T, tbl *Table, files []prunedFile, specID int) []*DataFile {
	t.Helper()
	spec := tbl.Metadata.SpecByID(specID)
	schema := tbl.Metadata.CurrentSchema()
	var out []*DataFile
	for _, f := range files {
		df := &DataFile{Content: ContentData, Path: tbl.Metadata.Location + "/data/" + f.name + ".parquet", Format: FormatParquet,
			SpecID: specID, RecordCount: int64(len(f.ids)), FileSizeInBytes: 100,
			ValueCounts: map[int]int64{}, NullValueCounts: map[int]int64{}, NaNValueCounts: map[int]int64{},
			LowerBounds: map[int][]byte{}, UpperBounds: map[int][]byte{}}
		cols := map[int][]any{}
		for i := range f.ids {
			cols[1] = append(cols[1], f.ids[i])
			cols[2] = append(cols[2], f.ts[i])
			cols[3] = append(cols[3], f.tags[i])
			cols[4] = append(cols[4], f.vals[i])
		}
		for _, pf := range spec.Fields {
			src := Primitive(schema.FindField(pf.SourceID).Type)
			v, ok := transformValue(src, pf.Transform, cols[pf.SourceID][0])
			if !ok {
				t.Fatalf("transform %v", pf.Transform)
			}
			df.Partition = append(df.Partition, v)
		}
		for fid, vals := range cols {
			typ := Primitive(schema.FindField(fid).Type)
			df.ValueCounts[fid] = int64(len(vals))
			df.NullValueCounts[fid] = 0
			if typ.ID == TDouble {
				df.NaNValueCounts[fid] = 0
			}
			var lo, hi any
			for _, v := range vals {
				if isNaN(v) {
					df.NaNValueCounts[fid]++
					continue
				}
				if c, _ := pruneCompare(v, lo); lo == nil || c < 0 {
					lo = v
				}
				if c, _ := pruneCompare(v, hi); hi == nil || c > 0 {
					hi = v
				}
			}
			if fid == 4 {
				df.LowerBounds[fid], df.UpperBounds[fid] = f64(lo), f64(hi)
				continue
			}
			var err error
			if df.LowerBounds[fid], err = EncodeValue(typ, lo); err != nil {
				t.Fatal(err)
			}
			if df.UpperBounds[fid], err = EncodeValue(typ, hi); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, df)
	}
	return out
}

func f64(v any) []byte {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, math.Float64bits(v.(float64)))
	return b
}
