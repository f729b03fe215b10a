package lower

import (
	"runtime"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate/plan"
)

// TestSplitFile: a scan splits its files among its workers only in a
// query, only where its rows' order does not matter, only for a large
// table of fewer files than CPUs, and not when a parallel part reads a
// share of it already.
func TestSplitFile(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	files := func(rows ...int64) []catalog.FileScanTask {
		var out []catalog.FileScanTask
		for _, n := range rows {
			out = append(out, catalog.FileScanTask{File: &catalog.DataFile{RecordCount: n}})
		}
		return out
	}
	build, other := &plan.Scan{Name: "build"}, &plan.Scan{Name: "other"}
	// The build side of a hash join, under a filter.
	marked := func() *Lowerer {
		l := &Lowerer{ParallelJoins: true}
		l.markOrderFree(&plan.Filter{In: build})
		return l
	}
	for _, tc := range []struct {
		name  string
		l     *Lowerer
		x     *plan.Scan
		tasks []catalog.FileScanTask
		want  bool
	}{
		{"a large build side of one file", marked(), build, files(1 << 20), true},
		{"at the threshold, over three files", marked(), build, files(parallelJoinMinRows-2, 1, 1), true},
		{"too few rows", marked(), build, files(parallelJoinMinRows - 1), false},
		{"as many files as CPUs", marked(), build, files(1<<20, 1<<20, 1<<20, 1<<20), false},
		{"not where order is free", marked(), other, files(1 << 20), false},
		{"not in a statement that changes a table", func() *Lowerer { l := marked(); l.ParallelJoins = false; return l }(), build, files(1 << 20), false},
		{"not the scan a part reads a share of", func() *Lowerer { l := marked(); l.split = &scanSplit{scan: build}; return l }(), build, files(1 << 20), false},
		{"another scan than the part's", func() *Lowerer { l := marked(); l.split = &scanSplit{scan: other}; return l }(), build, files(1 << 20), true},
	} {
		if got := tc.l.splitFile(tc.x, tc.tasks); got != tc.want {
			t.Errorf("%s: split %v, want %v", tc.name, got, tc.want)
		}
	}
	// Under one CPU nothing splits.
	runtime.GOMAXPROCS(1)
	if marked().splitFile(build, files(1<<20)) {
		t.Error("one CPU: split")
	}
}
