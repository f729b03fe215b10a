package compact

import (
	"slices"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/dml"
	"github.com/icegate/icegate/internal/pgerr"
)

func (e *env) rewritePosDeletes(t *testing.T, opts map[string]string) (PositionDeleteResult, error) {
	t.Helper()
	tbl := e.load(t)
	o, err := ParsePositionDeleteOptions(tbl.Metadata.Properties, opts)
	if err != nil {
		t.Fatal(err)
	}
	return RewritePositionDeletes(e.ctx, PositionDeleteSpec{Catalog: e.cat, Table: tbl, Options: o})
}

func TestRewritePositionDeletesIntoOnePerPartition(t *testing.T) {
	e := newTable(t, 2, true, nil)
	all := e.appendSmall(t, 3, 30)
	var gone []func(int64) bool
	for k := int64(0); k < 6; k++ {
		f := func(id int64) bool { return id%11 == k }
		e.deleteWhere(t, dml.MergeOnRead, f)
		gone = append(gone, f)
	}
	keep := func(id int64) bool {
		for _, f := range gone {
			if f(id) {
				return false
			}
		}
		return true
	}
	_, before := e.fileCounts(t)
	res, err := e.rewritePosDeletes(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDeleteFiles != before || res.AddedDeleteFiles != 3 || res.AddedBytes <= 0 || res.RewrittenBytes <= 0 {
		t.Fatalf("result %+v, want %d delete files into 3", res, before)
	}
	if _, after := e.fileCounts(t); after != 3 {
		t.Fatalf("%d delete files after, want 3", after)
	}
	if got, want := e.rows(t), wantRows(all, keep); !slices.Equal(got, want) {
		t.Fatalf("rows differ: %d vs %d", len(got), len(want))
	}
	if op := e.load(t).Metadata.CurrentSnapshot().Summary["operation"]; op != "replace" {
		t.Fatalf("operation %s", op)
	}
}

// Positions of data files no longer live are dropped.
func TestRewritePositionDeletesDropsDangling(t *testing.T) {
	e := newTable(t, 2, false, map[string]string{"write.delete.granularity": "partition"})
	all := e.appendSmall(t, 2, 30) // ids 0-29 in one file, 30-59 in another
	gone := func(id int64) bool { return id%10 == 3 }
	e.deleteWhere(t, dml.MergeOnRead, gone) // one delete file naming both files
	// Rewrite the first file only: the delete file still applies to the second.
	res, err := e.rewrite(t, Spec{Filter: []catalog.Predicate{{FieldID: 1, Op: catalog.OpLt, Values: []any{int64(30)}}}},
		map[string]string{OptRewriteAll: "true"})
	if err != nil || res.RewrittenDataFiles != 1 || res.RemovedDeleteFiles != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
	pres, err := e.rewritePosDeletes(t, map[string]string{OptRewriteAll: "true"})
	if err != nil || pres.RewrittenDeleteFiles != 1 || pres.AddedDeleteFiles != 1 {
		t.Fatalf("%+v, %v", pres, err)
	}
	tbl := e.load(t)
	live, err := liveDeleteFiles(e.ctx, tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil || len(live) != 1 {
		t.Fatalf("%d live delete files, %v", len(live), err)
	}
	if live[0].RecordCount != 3 { // 33, 43, 53
		t.Fatalf("the new delete file holds %d positions, want 3", live[0].RecordCount)
	}
	keep := func(id int64) bool { return !gone(id) }
	if got, want := e.rows(t), wantRows(all, keep); !slices.Equal(got, want) {
		t.Fatal("rows differ")
	}
}

func TestRewritePositionDeletesNothingToDo(t *testing.T) {
	e := newTable(t, 2, false, nil)
	e.appendSmall(t, 2, 10)
	e.deleteWhere(t, dml.MergeOnRead, func(id int64) bool { return id == 1 })
	res, err := e.rewritePosDeletes(t, nil)
	if err != nil || res != (PositionDeleteResult{}) {
		t.Fatalf("%+v, %v", res, err)
	}
	if _, err := ParsePositionDeleteOptions(nil, map[string]string{OptDeleteFileThreshold: "1"}); pgerr.Code(err) != pgerr.InvalidParameterValue {
		t.Fatalf("delete-file-threshold: %v", err)
	}
}

// Format 3 tables keep deletion vectors, one per data file: position
// delete files left from format 2 are refused (rewrite_data_files applies
// them), and a table with only deletion vectors has nothing to do.
func TestRewritePositionDeletesFormat3(t *testing.T) {
	e := newTable(t, 2, false, nil)
	e.appendSmall(t, 2, 10)
	e.deleteWhere(t, dml.MergeOnRead, func(id int64) bool { return id == 1 })
	if _, err := e.cat.CommitTable(e.ctx, e.id, nil, []catalog.Update{catalog.UpgradeFormatVersion{FormatVersion: 3}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.rewritePosDeletes(t, map[string]string{OptRewriteAll: "true"}); pgerr.Code(err) != pgerr.FeatureNotSupported {
		t.Fatalf("format 2 position deletes in a format 3 table: %v, want 0A000", err)
	}
	v3 := newTable(t, 3, false, nil)
	v3.appendSmall(t, 2, 10)
	v3.deleteWhere(t, dml.MergeOnRead, func(id int64) bool { return id == 1 })
	res, err := v3.rewritePosDeletes(t, map[string]string{OptRewriteAll: "true"})
	if err != nil || res != (PositionDeleteResult{}) {
		t.Fatalf("deletion vectors only: %+v, %v", res, err)
	}
}
