package compact

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/dml"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/pgerr"
)

// appendSmall appends n batches of per rows each; it returns every row.
func (e *env) appendSmall(t *testing.T, n, per int) []row {
	t.Helper()
	var all []row
	for i := range n {
		rs := rowsOf(int64(i*per), int64((i+1)*per))
		e.appendRows(t, rs)
		all = append(all, rs...)
	}
	return all
}

func TestBinpackOneFilePerPartition(t *testing.T) {
	for _, version := range []int{1, 2, 3} {
		t.Run(string(rune('0'+version)), func(t *testing.T) {
			e := newTable(t, version, true, nil)
			all := e.appendSmall(t, 8, 30)
			if d, _ := e.fileCounts(t); d != 24 {
				t.Fatalf("before: %d data files, want 24", d)
			}
			res, err := e.rewrite(t, Spec{}, map[string]string{OptMaxConcurrentGroups: "2"})
			if err != nil {
				t.Fatal(err)
			}
			if res.RewrittenDataFiles != 24 || res.AddedDataFiles != 3 || res.RewrittenBytes <= 0 || res.FailedDataFiles != 0 {
				t.Fatalf("result %+v", res)
			}
			if d, _ := e.fileCounts(t); d != 3 {
				t.Fatalf("after: %d data files, want 3", d)
			}
			if got, want := e.rows(t), wantRows(all, nil); !slices.Equal(got, want) {
				t.Fatalf("rows differ after the rewrite: %d vs %d", len(got), len(want))
			}
			snap := e.load(t).Metadata.CurrentSnapshot()
			if op := snap.Summary["operation"]; op != "replace" {
				t.Fatalf("operation %q, want replace", op)
			}
			// A second run finds nothing to do.
			res, err = e.rewrite(t, Spec{}, nil)
			if err != nil || res.RewrittenDataFiles != 0 {
				t.Fatalf("second run: %+v, %v", res, err)
			}
		})
	}
}

func TestMinInputFilesAndRewriteAll(t *testing.T) {
	e := newTable(t, 2, false, nil)
	all := e.appendSmall(t, 4, 10)
	res, err := e.rewrite(t, Spec{}, nil)
	if err != nil || res.RewrittenDataFiles != 0 {
		t.Fatalf("4 files under min-input-files 5: %+v, %v", res, err)
	}
	res, err = e.rewrite(t, Spec{}, map[string]string{OptMinInputFiles: "2"})
	if err != nil || res.RewrittenDataFiles != 4 || res.AddedDataFiles != 1 {
		t.Fatalf("min-input-files 2: %+v, %v", res, err)
	}
	// One file alone is rewritten only with rewrite-all.
	res, err = e.rewrite(t, Spec{}, map[string]string{OptMinInputFiles: "1"})
	if err != nil || res.RewrittenDataFiles != 0 {
		t.Fatalf("one file: %+v, %v", res, err)
	}
	res, err = e.rewrite(t, Spec{}, map[string]string{OptRewriteAll: "true"})
	if err != nil || res.RewrittenDataFiles != 1 || res.AddedDataFiles != 1 {
		t.Fatalf("rewrite-all: %+v, %v", res, err)
	}
	if got, want := e.rows(t), wantRows(all, nil); !slices.Equal(got, want) {
		t.Fatal("rows differ after the rewrite")
	}
}

func TestTargetFileSizeSplitsOutput(t *testing.T) {
	e := newTable(t, 2, false, nil)
	all := e.appendSmall(t, 6, 2000)
	res, err := e.rewrite(t, Spec{}, map[string]string{OptTargetFileSize: "4000", OptMinFileSize: "0", OptRewriteAll: "true"})
	if err != nil {
		t.Fatal(err)
	}
	if res.AddedDataFiles < 2 {
		t.Fatalf("a 4000-byte target wrote %d files", res.AddedDataFiles)
	}
	if got, want := e.rows(t), wantRows(all, nil); !slices.Equal(got, want) {
		t.Fatal("rows differ after the rewrite")
	}
}

func TestDeletesAppliedAndRemoved(t *testing.T) {
	cases := []struct {
		name    string
		version int
		mode    dml.Mode
		props   map[string]string
	}{
		{"v2 position deletes", 2, dml.MergeOnRead, nil},
		{"v2 partition-scoped deletes", 2, dml.MergeOnRead, map[string]string{"write.delete.granularity": "partition"}},
		{"v3 deletion vectors", 3, dml.MergeOnRead, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newTable(t, c.version, true, c.props)
			all := e.appendSmall(t, 6, 30)
			gone := func(id int64) bool { return id%7 == 0 }
			e.deleteWhere(t, c.mode, gone)
			if _, dels := e.fileCounts(t); dels == 0 {
				t.Fatal("the delete wrote no delete files")
			}
			res, err := e.rewrite(t, Spec{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.RemovedDeleteFiles == 0 {
				t.Fatalf("no delete file removed: %+v", res)
			}
			data, dels := e.fileCounts(t)
			if data != 3 || dels != 0 {
				t.Fatalf("after: %d data and %d delete files, want 3 and 0", data, dels)
			}
			keep := func(id int64) bool { return !gone(id) }
			if got, want := e.rows(t), wantRows(all, keep); !slices.Equal(got, want) {
				t.Fatalf("rows differ after the rewrite: %d vs %d", len(got), len(want))
			}
		})
	}
}

func TestFilterRewritesMatchingPartitionsOnly(t *testing.T) {
	e := newTable(t, 2, true, map[string]string{"write.delete.granularity": "partition"})
	all := e.appendSmall(t, 6, 30)
	gone := func(id int64) bool { return id%5 == 0 }
	e.deleteWhere(t, dml.MergeOnRead, gone)
	_, delsBefore := e.fileCounts(t)
	res, err := e.rewrite(t, Spec{Filter: []catalog.Predicate{{FieldID: 2, Op: catalog.OpEq, Values: []any{int32(1)}}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDataFiles != 6 || res.AddedDataFiles != 1 {
		t.Fatalf("result %+v, want the 6 files of part=1", res)
	}
	data, dels := e.fileCounts(t)
	if data != 13 || dels != delsBefore-1 {
		t.Fatalf("after: %d data and %d delete files, want 13 and %d", data, dels, delsBefore-1)
	}
	keep := func(id int64) bool { return !gone(id) }
	if got, want := e.rows(t), wantRows(all, keep); !slices.Equal(got, want) {
		t.Fatal("rows differ after the rewrite")
	}
}

// A DELETE committed while the rewrite ran makes the rewrite fail with a
// validation error, its files removed: the deleted rows stay deleted.
func TestConcurrentDeleteFailsTheRewrite(t *testing.T) {
	for _, mode := range []dml.Mode{dml.CopyOnWrite, dml.MergeOnRead} {
		t.Run([]string{"copy-on-write", "merge-on-read"}[mode], func(t *testing.T) {
			e := newTable(t, 2, false, nil)
			all := e.appendSmall(t, 6, 20)
			read := e.load(t) // the rewrite plans this snapshot
			gone := func(id int64) bool { return id%4 == 1 }
			e.deleteWhere(t, mode, gone)
			onDisk := e.dataFilesOnDisk(t)
			_, err := e.rewriteOf(t, read, Spec{}, nil)
			if !errors.Is(err, catalog.ErrValidation) {
				t.Fatalf("rewrite after a concurrent delete: %v, want a validation error", err)
			}
			if got := e.dataFilesOnDisk(t); !slices.Equal(got, onDisk) {
				t.Fatalf("the failed rewrite left files: %d on disk, %d before", len(got), len(onDisk))
			}
			keep := func(id int64) bool { return !gone(id) }
			if got, want := e.rows(t), wantRows(all, keep); !slices.Equal(got, want) {
				t.Fatal("deleted rows came back")
			}
		})
	}
}

// A DELETE computed before the rewrite committed fails its own commit: it
// would delete from files the rewrite removed.
func TestDeleteAfterRewriteConflicts(t *testing.T) {
	e := newTable(t, 2, false, nil)
	all := e.appendSmall(t, 6, 20)
	read := e.load(t)
	ch, w := e.deleteChange(t, read, dml.MergeOnRead, func(id int64) bool { return id == 3 })
	if _, err := e.rewrite(t, Spec{}, nil); err != nil {
		t.Fatal(err)
	}
	_, err := catalog.CommitChange(e.ctx, e.cat, e.id, ch)
	w.Abort()
	if !errors.Is(err, catalog.ErrValidation) {
		t.Fatalf("delete after the rewrite: %v, want a validation error", err)
	}
	if got, want := e.rows(t), wantRows(all, nil); !slices.Equal(got, want) {
		t.Fatal("rows differ")
	}
}

func TestCancelLeavesTableAsItWas(t *testing.T) {
	e := newTable(t, 2, true, nil)
	all := e.appendSmall(t, 6, 30)
	before := e.load(t).Metadata.CurrentSnapshot().SnapshotID
	onDisk := e.dataFilesOnDisk(t)
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	groups := 0
	tbl := e.load(t)
	o, _ := ParseOptions(nil, map[string]string{OptMaxConcurrentGroups: "1"})
	_, err := RewriteDataFiles(ctx, Spec{Catalog: e.cat, Table: tbl, Options: o, Progress: func(msg string) {
		if strings.Contains(msg, "rewriting group") {
			groups++
			if groups == 2 { // the first group is written by now or being written
				cancel()
			}
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled rewrite: %v", err)
	}
	if got := e.load(t).Metadata.CurrentSnapshot().SnapshotID; got != before {
		t.Fatal("a cancelled rewrite committed")
	}
	if got := e.dataFilesOnDisk(t); !slices.Equal(got, onDisk) {
		t.Fatalf("the cancelled rewrite left files: %d on disk, %d before", len(got), len(onDisk))
	}
	if got, want := e.rows(t), wantRows(all, nil); !slices.Equal(got, want) {
		t.Fatal("rows differ")
	}
}

func TestPartialProgressCommitsPerBatch(t *testing.T) {
	e := newTable(t, 2, true, nil)
	all := e.appendSmall(t, 6, 30)
	snaps := len(e.load(t).Metadata.Snapshots)
	res, err := e.rewrite(t, Spec{}, map[string]string{OptPartialProgress: "true", OptPartialProgressMax: "3", OptMaxConcurrentGroups: "3"})
	if err != nil || res.RewrittenDataFiles != 18 || res.AddedDataFiles != 3 {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := len(e.load(t).Metadata.Snapshots) - snaps; got != 3 {
		t.Fatalf("%d commits, want 3", got)
	}
	if got, want := e.rows(t), wantRows(all, nil); !slices.Equal(got, want) {
		t.Fatal("rows differ")
	}
}

// Files of an older partition spec are rewritten together into the
// current spec.
func TestOldSpecRewrittenIntoCurrentSpec(t *testing.T) {
	e := newTable(t, 2, true, nil)
	all := e.appendSmall(t, 6, 30) // 18 files partitioned by part
	tbl := e.load(t)
	_, err := e.cat.CommitTable(e.ctx, e.id, nil, []catalog.Update{
		catalog.AddSpec{Spec: &catalog.PartitionSpec{Fields: []catalog.PartitionField{
			{SourceID: 1, FieldID: 1001, Name: "id_bucket", Transform: catalog.Transform{Name: "bucket", Param: 2}},
		}}},
		catalog.SetDefaultSpec{SpecID: catalog.LastAdded},
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = tbl
	res, err := e.rewrite(t, Spec{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDataFiles != 18 || res.AddedDataFiles != 2 {
		t.Fatalf("result %+v, want 18 files into one per bucket", res)
	}
	m := e.load(t).Metadata
	tasks, _ := catalog.PlanFiles(e.ctx, e.load(t), m.CurrentSnapshot())
	for _, task := range tasks {
		if task.File.SpecID != m.DefaultSpecID {
			t.Fatalf("file %s has spec %d, want %d", task.File.Path, task.File.SpecID, m.DefaultSpecID)
		}
	}
	if got, want := e.rows(t), wantRows(all, nil); !slices.Equal(got, want) {
		t.Fatal("rows differ")
	}
}

// fileOrder reads the one data file of the table in file order: the ids.
func (e *env) fileOrder(t *testing.T) []int64 {
	t.Helper()
	tbl := e.load(t)
	tasks, err := catalog.PlanFiles(e.ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil || len(tasks) != 1 {
		t.Fatalf("%d files, %v", len(tasks), err)
	}
	var ids []int64
	for _, r := range e.scanRows(t, tbl, true) {
		ids = append(ids, r.id)
	}
	return ids
}

func TestSortStrategy(t *testing.T) {
	e := newTable(t, 2, false, nil)
	all := e.appendSmall(t, 5, 20)
	order, _, err := ParseSortOrder(e.load(t).Metadata.CurrentSchema(), "id DESC NULLS LAST")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.rewrite(t, Spec{Strategy: Sort, SortOrder: order}, nil)
	if err != nil || res.AddedDataFiles != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	ids := e.fileOrder(t)
	if !slices.IsSortedFunc(ids, func(a, b int64) int { return int(b - a) }) || len(ids) != len(all) {
		t.Fatalf("file not in id DESC order: %v", ids[:min(10, len(ids))])
	}
}

func TestZOrderStrategy(t *testing.T) {
	e := newTable(t, 2, false, nil)
	all := e.appendSmall(t, 5, 20)
	_, z, err := ParseSortOrder(e.load(t).Metadata.CurrentSchema(), "zorder(part, id)")
	if err != nil || !slices.Equal(z, []int{2, 1}) {
		t.Fatalf("%v, %v", z, err)
	}
	res, err := e.rewrite(t, Spec{Strategy: Sort, ZOrder: z}, nil)
	if err != nil || res.AddedDataFiles != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	ids := e.fileOrder(t)
	// part is id%3, so z-order by (part, id) keeps each part's ids
	// ascending and starts with part 0's smallest id.
	if ids[0] != 0 || len(ids) != len(all) {
		t.Fatalf("first id %d of %d", ids[0], len(ids))
	}
	if got, want := e.rows(t), wantRows(all, nil); !slices.Equal(got, want) {
		t.Fatal("rows differ")
	}
}

func TestZOrderInterleavesBits(t *testing.T) {
	mem := memory.DefaultAllocator
	xb, yb := array.NewInt32Builder(mem), array.NewInt32Builder(mem)
	defer xb.Release()
	defer yb.Release()
	// (x, y) in row order.
	pts := [][2]int32{{1, 1}, {0, 1}, {1, 0}, {0, 0}, {2, 0}, {0, 2}}
	for _, p := range pts {
		xb.Append(p[0])
		yb.Append(p[1])
	}
	x, y := xb.NewArray(), yb.NewArray()
	defer x.Release()
	defer y.Release()
	rows, err := zorderRows([][]int{{0}, {1}})([]arrow.Array{x, y})
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]int32
	for _, r := range rows {
		got = append(got, pts[r])
	}
	// Bits interleaved x first: (0,0) (0,1) (1,0) (1,1) (0,2) (2,0).
	want := [][2]int32{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 2}, {2, 0}}
	if !slices.Equal(got, want) {
		t.Fatalf("z-order %v, want %v", got, want)
	}
}

// Format 3: rewritten rows keep their row ids.
func TestRowLineageKept(t *testing.T) {
	e := newTable(t, 3, false, nil)
	e.appendSmall(t, 5, 10)
	before := e.rowIDs(t)
	if _, err := e.rewrite(t, Spec{}, nil); err != nil {
		t.Fatal(err)
	}
	after := e.rowIDs(t)
	if len(before) != 50 || !mapsEqual(before, after) {
		t.Fatalf("row ids changed: %v -> %v", before, after)
	}
}

func mapsEqual(a, b map[int64]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// rowIDs maps each row's id to its _row_id.
func (e *env) rowIDs(t *testing.T) map[int64]int64 {
	t.Helper()
	tbl := e.load(t)
	tasks, err := catalog.PlanFiles(e.ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	op := scan.New(engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: tbl.Metadata.CurrentSchema(),
		FieldIDs: []int{1, scan.FieldIDRowID}}, scan.Options{Parallelism: 1})
	defer op.Close()
	if err := op.Open(e.ctx); err != nil {
		t.Fatal(err)
	}
	out := map[int64]int64{}
	for {
		b, err := op.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return out
		}
		ids, rids := b.Column(0).(*array.Int64), b.Column(1).(*array.Int64)
		for i := 0; i < ids.Len(); i++ {
			out[ids.Value(i)] = rids.Value(i)
		}
	}
}

func TestParseOptions(t *testing.T) {
	o, err := ParseOptions(map[string]string{"write.target-file-size-bytes": "1000"}, nil)
	if err != nil || o.TargetFileSize != 1000 || o.MinFileSize != 750 || o.MaxFileSize != 1800 || o.MinInputFiles != 5 {
		t.Fatalf("%+v, %v", o, err)
	}
	o, err = ParseOptions(nil, map[string]string{OptTargetFileSize: "134217728"})
	if err != nil || o.TargetFileSize != 134217728 {
		t.Fatalf("%+v, %v", o, err)
	}
	for _, bad := range []map[string]string{
		{"no-such-option": "1"},
		{OptTargetFileSize: "x"},
		{OptTargetFileSize: "0"},
		{OptMinInputFiles: "-1"},
		{OptRewriteAll: "yes"},
		{OptTargetFileSize: "100", OptMinFileSize: "200"},
		{OptTargetFileSize: "100", OptMaxFileSize: "50"},
	} {
		if _, err := ParseOptions(nil, bad); pgerr.Code(err) != pgerr.InvalidParameterValue {
			t.Errorf("%v: %v, want 22023", bad, err)
		}
	}
}

func TestParseSortOrder(t *testing.T) {
	schema := testSchema()
	cases := []struct {
		in   string
		want string // fields as id:dir:nulls, or z:ids
		code string
	}{
		{in: "id", want: "1:asc:nulls-first"},
		{in: "id DESC NULLS LAST, name", want: "1:desc:nulls-last 3:asc:nulls-first"},
		{in: "ID desc, `name` asc nulls last", want: "1:desc:nulls-last 3:asc:nulls-last"},
		{in: "part DESC NULLS FIRST", want: "2:desc:nulls-first"},
		{in: "zorder(id, name)", want: "z:1,3"},
		{in: "zorder(id)", want: "z:1"},
		{in: "", code: pgerr.InvalidParameterValue},
		{in: "nope", code: pgerr.UndefinedColumn},
		{in: "id,", code: pgerr.InvalidParameterValue},
		{in: "id id", code: pgerr.InvalidParameterValue},
		{in: "id NULLS MIDDLE", code: pgerr.InvalidParameterValue},
		{in: "id, id", code: pgerr.InvalidParameterValue},
		{in: "bucket(4, id)", code: pgerr.FeatureNotSupported},
		{in: "zorder(id", code: pgerr.InvalidParameterValue},
		{in: "zorder(id), name", code: pgerr.FeatureNotSupported},
	}
	for _, c := range cases {
		order, z, err := ParseSortOrder(schema, c.in)
		if c.code != "" {
			if pgerr.Code(err) != c.code {
				t.Errorf("%q: %v, want %s", c.in, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var parts []string
		if z != nil {
			var ids []string
			for _, id := range z {
				ids = append(ids, string(rune('0'+id)))
			}
			parts = append(parts, "z:"+strings.Join(ids, ","))
		} else {
			for _, f := range order.Fields {
				parts = append(parts, string(rune('0'+f.SourceID))+":"+f.Direction+":"+f.NullOrder)
			}
		}
		if got := strings.Join(parts, " "); got != c.want {
			t.Errorf("%q: %s, want %s", c.in, got, c.want)
		}
	}
}

// remove-dangling-deletes also removes delete files that apply to no live
// data file; without it they stay.
func TestRemoveDanglingDeletes(t *testing.T) {
	for _, remove := range []bool{false, true} {
		t.Run(map[bool]string{false: "kept", true: "removed"}[remove], func(t *testing.T) {
			e := newTable(t, 2, false, map[string]string{"write.delete.granularity": "partition"})
			all := e.appendSmall(t, 2, 30)
			// One delete file naming both files, then both files rewritten
			// copy-on-write: the delete file names no live file.
			e.deleteWhere(t, dml.MergeOnRead, func(id int64) bool { return id == 3 || id == 33 })
			e.deleteWhere(t, dml.CopyOnWrite, func(id int64) bool { return id == 4 || id == 34 })
			tbl := e.load(t)
			live, err := liveDeleteFiles(e.ctx, tbl, tbl.Metadata.CurrentSnapshot())
			if err != nil || len(live) != 1 {
				t.Fatalf("%d live delete files, %v", len(live), err)
			}
			more := e.appendSmall(t, 3, 10) // ids 0-29 again: appendSmall numbers from 0
			opts := map[string]string{OptMinInputFiles: "2"}
			if remove {
				opts[OptRemoveDanglingDeletes] = "true"
			}
			res, err := e.rewrite(t, Spec{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			if remove {
				want = 1
			}
			if res.RemovedDeleteFiles != want {
				t.Fatalf("removed %d delete files, want %d", res.RemovedDeleteFiles, want)
			}
			if _, dels := e.fileCounts(t); dels != 1-want {
				t.Fatalf("%d delete files left, want %d", dels, 1-want)
			}
			keep := func(id int64) bool { return id != 3 && id != 33 && id != 4 && id != 34 }
			want2 := wantRows(all, keep)
			want2 = append(want2, wantRows(more, nil)...)
			slices.Sort(want2)
			if got := e.rows(t); !slices.Equal(got, want2) {
				t.Fatalf("rows differ: %d vs %d", len(got), len(want2))
			}
		})
	}
}

// With partial progress a commit that conflicts loses only its own groups.
func TestPartialProgressKeepsTheOtherCommits(t *testing.T) {
	e := newTable(t, 2, true, nil)
	all := e.appendSmall(t, 6, 30)
	read := e.load(t)
	gone := func(id int64) bool { return id%3 == 1 && id%10 == 0 } // part 1 only
	e.deleteWhere(t, dml.MergeOnRead, gone)
	res, err := e.rewriteOf(t, read, Spec{}, map[string]string{OptPartialProgress: "true", OptPartialProgressMax: "3"})
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDataFiles != 12 || res.FailedDataFiles != 6 || res.AddedDataFiles != 2 {
		t.Fatalf("result %+v, want 12 rewritten and the 6 of part 1 failed", res)
	}
	if data, _ := e.fileCounts(t); data != 8 {
		t.Fatalf("%d data files, want 2 + 6", data)
	}
	keep := func(id int64) bool { return !gone(id) }
	if got, want := e.rows(t), wantRows(all, keep); !slices.Equal(got, want) {
		t.Fatal("rows differ")
	}
	// Without partial progress the same conflict fails the whole rewrite.
	e2 := newTable(t, 2, true, nil)
	e2.appendSmall(t, 6, 30)
	read = e2.load(t)
	e2.deleteWhere(t, dml.MergeOnRead, gone)
	if _, err := e2.rewriteOf(t, read, Spec{}, nil); !errors.Is(err, catalog.ErrValidation) {
		t.Fatalf("without partial progress: %v", err)
	}
}

// A file of a good size is rewritten when its deletes remove at least
// delete-ratio-threshold of its rows (0.3 by default).
func TestDeleteRatioThreshold(t *testing.T) {
	for _, c := range []struct {
		ratio     string
		rewritten int
	}{{"", 1}, {"0.5", 0}} {
		t.Run("ratio "+c.ratio, func(t *testing.T) {
			e := newTable(t, 2, false, nil)
			all := e.appendSmall(t, 3, 10)
			gone := func(id int64) bool { return id < 4 } // 40% of the first file
			e.deleteWhere(t, dml.MergeOnRead, gone)
			opts := map[string]string{OptMinFileSize: "0", OptMaxFileSize: "1000000000"}
			if c.ratio != "" {
				opts[OptDeleteRatioThreshold] = c.ratio
			}
			res, err := e.rewrite(t, Spec{}, opts)
			if err != nil || res.RewrittenDataFiles != c.rewritten {
				t.Fatalf("%+v, %v; want %d rewritten", res, err, c.rewritten)
			}
			if _, dels := e.fileCounts(t); dels != 1-c.rewritten {
				t.Fatalf("%d delete files left", dels)
			}
			keep := func(id int64) bool { return !gone(id) }
			if got, want := e.rows(t), wantRows(all, keep); !slices.Equal(got, want) {
				t.Fatal("rows differ")
			}
		})
	}
	if _, err := ParseOptions(nil, map[string]string{OptDeleteRatioThreshold: "2"}); pgerr.Code(err) != pgerr.InvalidParameterValue {
		t.Fatalf("ratio 2: %v", err)
	}
}

// output-spec-id writes the new files with another of the table's specs;
// files of the other specs are rewritten together into it.
func TestOutputSpecID(t *testing.T) {
	e := newTable(t, 2, true, nil)
	all := e.appendSmall(t, 6, 30) // spec 0: identity(part), 18 files
	_, err := e.cat.CommitTable(e.ctx, e.id, nil, []catalog.Update{
		catalog.AddSpec{Spec: &catalog.PartitionSpec{Fields: []catalog.PartitionField{
			{SourceID: 1, FieldID: 1001, Name: "id_bucket", Transform: catalog.Transform{Name: "bucket", Param: 2}},
		}}},
		catalog.SetDefaultSpec{SpecID: catalog.LastAdded},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 { // spec 1: 12 files
		rs := rowsOf(int64(1000+i*30), int64(1000+(i+1)*30))
		e.appendRows(t, rs)
		all = append(all, rs...)
	}
	res, err := e.rewrite(t, Spec{}, map[string]string{OptOutputSpecID: "0"})
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDataFiles != 30 || res.AddedDataFiles != 6 {
		t.Fatalf("result %+v, want 30 files into 3 + 3 of spec 0", res)
	}
	tbl := e.load(t)
	tasks, _ := catalog.PlanFiles(e.ctx, tbl, tbl.Metadata.CurrentSnapshot())
	for _, task := range tasks {
		if task.File.SpecID != 0 {
			t.Fatalf("file %s has spec %d, want 0", task.File.Path, task.File.SpecID)
		}
	}
	if got, want := e.rows(t), wantRows(all, nil); !slices.Equal(got, want) {
		t.Fatal("rows differ")
	}
	if _, err := e.rewrite(t, Spec{}, map[string]string{OptOutputSpecID: "7"}); pgerr.Code(err) != pgerr.InvalidParameterValue {
		t.Fatalf("spec 7: %v", err)
	}
}

func TestJobOrder(t *testing.T) {
	mk := func() []*group {
		return []*group{{key: "a", bytes: 5, tasks: make([]catalog.FileScanTask, 1)},
			{key: "b", bytes: 1, tasks: make([]catalog.FileScanTask, 3)},
			{key: "c", bytes: 9, tasks: make([]catalog.FileScanTask, 2)}}
	}
	for order, want := range map[string]string{"none": "abc", "bytes-asc": "bac", "bytes-desc": "cab", "files-asc": "acb", "files-desc": "bca"} {
		g := mk()
		orderGroups(g, order)
		got := g[0].key + g[1].key + g[2].key
		if got != want {
			t.Errorf("%s: %s, want %s", order, got, want)
		}
	}
	if _, err := ParseOptions(nil, map[string]string{OptRewriteJobOrder: "random"}); pgerr.Code(err) != pgerr.InvalidParameterValue {
		t.Fatalf("random: %v", err)
	}
}
