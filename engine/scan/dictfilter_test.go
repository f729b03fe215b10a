package scan

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/write"
	"github.com/icegate/icegate/internal/pgerr"
)

// scanCounted scans spec and returns its rows (rendered, sorted), its
// statistics and the rows its conjuncts removed.
func scanCounted(t *testing.T, spec engine.ScanSpec, opts Options) ([]string, ScanStats, int64, error) {
	t.Helper()
	mem := newChecked(t)
	opts.Alloc = mem
	op := New(spec, opts).(*Scan)
	defer mem.AssertSize(t, 0)
	defer op.Close()
	if err := op.Open(context.Background()); err != nil {
		return nil, ScanStats{}, 0, err
	}
	var rows []string
	for {
		rec, err := op.Next()
		if err != nil {
			return nil, ScanStats{}, 0, err
		}
		if rec == nil {
			break
		}
		rows = append(rows, renderRows([]arrow.RecordBatch{rec})...)
	}
	slices.Sort(rows)
	return rows, op.Stats(), op.RowsFiltered(), nil
}

// TestExactConjunctsByDictionaryCode: conjuncts on one column that cannot
// fail are judged by dictionary code where the column chunk's pages are
// dictionary-encoded and by value on its PLAIN pages, and the scan returns
// what it returns judging every conjunct by value (and what a Filter above
// keeps), with the same count of rows filtered, with NULLs, deletes, _pos,
// a dictionary with no passing entry (the row group skipped when its
// pages are all dictionary-encoded), and conjuncts that can fail left to
// run after them. Comparisons of integers are judged by code only when
// the scan is told to (by default they stay comparisons).
func TestExactConjunctsByDictionaryCode(t *testing.T) {
	const n = 4000
	tbl, df := writeLateTable(t, n)
	if dict, plain := pageEncodings(t, df.Path, 2); !dict || !plain {
		t.Fatalf("column s: dictionary pages %v, plain pages %v: want both", dict, plain)
	}
	if dict, plain := pageEncodings(t, df.Path, 1); !dict || plain {
		t.Fatalf("column g: dictionary pages %v, plain pages %v: want dictionary only", dict, plain)
	}
	var deleted []int64
	for i := int64(2); i < n; i += 5 {
		deleted = append(deleted, i)
	}
	dels, err := write.WriteDeletes(context.Background(), write.DeleteSpec{IO: write.LocalFiles{}, DataDir: write.DataDir(tbl.Metadata),
		Metadata: tbl.Metadata}, []write.FileDeletes{{File: df, Positions: deleted}})
	if err != nil {
		t.Fatal(err)
	}
	schema := tbl.Metadata.CurrentSchema()
	str := func(s string) expr.Expr { return &expr.Lit{V: s, T: arrow.BinaryTypes.String} }
	i8 := func(v int64) expr.Expr { return &expr.Lit{V: v, T: expr.Int8} }
	// lo, hi bound the rows judged by code, counted once per column: n
	// for g (dictionary pages only), some but not all for s.
	type conjCase struct {
		name   string
		conj   func(col func(id int) expr.Expr) []expr.Expr
		lo, hi int64
		needs  []int // the field ids read
		// skipped: the row group is skipped whole (no entry passes, the
		// chunk's data pages all dictionary-encoded).
		skipped bool
	}
	cases := []conjCase{
		{"g = 3", func(c func(int) expr.Expr) []expr.Expr { return []expr.Expr{exactCall("=", c(2), i8(3))} }, n, n, []int{2}, false},
		{"g < 0 (no entry passes)", func(c func(int) expr.Expr) []expr.Expr { return []expr.Expr{exactCall("<", c(2), i8(0))} }, 0, 0, []int{2}, true},
		{"g is null", func(c func(int) expr.Expr) []expr.Expr { return []expr.Expr{exactCall("isnull", c(2))} }, n, n, []int{2}, false},
		{"g in (1, 4) and g <> 4", func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("or", exactCall("=", c(2), i8(1)), exactCall("=", c(2), i8(4))), exactCall("<>", c(2), i8(4))}
		}, n, n, []int{2}, false},
		{"s = zz (no entry passes, PLAIN pages too)", func(c func(int) expr.Expr) []expr.Expr { return []expr.Expr{exactCall("=", c(3), str("zz"))} }, 1, n - 1, []int{3}, false},
		{"s = v2", func(c func(int) expr.Expr) []expr.Expr { return []expr.Expr{exactCall("=", c(3), str("v2"))} }, 1, n - 1, []int{3}, false},
		{"s like %7 and g = 1", func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("like", c(3), str("%7")), exactCall("=", c(2), i8(1))}
		}, n + 1, 2*n - 1, []int{2, 3}, false},
		{"s is not null and 1/(g-3) > -5 (fails after)", func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("isnotnull", c(3)), exactCall(">", exactCall("/", i8(1), exactCall("-", c(2), i8(3))), i8(-5))}
		}, 1, n - 1, []int{2, 3}, false},
		{"g <> 3 and 1/(g-3) > -5", func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("<>", c(2), i8(3)), exactCall(">", exactCall("/", i8(1), exactCall("-", c(2), i8(3))), i8(-5))}
		}, n, n, []int{2}, false},
		{"k + g > 100 (two columns: by value)", func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall(">", exactCall("+", c(1), &expr.Cast{Arg: c(2), T: expr.Int8}), i8(100))}
		}, 0, 0, []int{1, 2}, false},
	}
	for _, withDeletes := range []bool{false, true} {
		task := catalog.FileScanTask{File: df}
		if withDeletes {
			task.Deletes = dels
		}
		for _, ids := range [][]int{{1, 2, 3, 4}, {3, 2}, {2, 3, FieldIDPos}} {
			spec := engine.ScanSpec{Table: tbl, Tasks: []catalog.FileScanTask{task}, Schema: schema, FieldIDs: ids}
			plain, err := scanAll(t, spec, Options{})
			if err != nil {
				t.Fatal(err)
			}
			out := New(spec, Options{}).Schema()
			col := func(id int) expr.Expr {
				for i, x := range ids {
					if x == id {
						return &expr.Col{Idx: i, Name: out.Field(i).Name, T: out.Field(i).Type}
					}
				}
				return nil
			}
			for _, c := range cases {
				if slices.ContainsFunc(c.needs, func(id int) bool { return col(id) == nil }) {
					continue
				}
				conj := c.conj(col)
				if slices.Contains(conj, nil) {
					t.Fatalf("%s: does not bind", c.name)
				}
				want, wantErr := filterAbove(t, out, plain, conj)
				exact := spec
				exact.Exact = conj
				for _, o := range []struct {
					name string
					opts Options
				}{
					{"batches of 37", Options{BatchSize: 37, dictEveryCost: true}},
					{"every cost", Options{dictEveryCost: true}},
					{"recycled", Options{RecycleBuffers: true, dictEveryCost: true}},
					{"default", Options{}},
				} {
					what := fmt.Sprintf("%v deletes %v %s (%s)", ids, withDeletes, c.name, o.name)
					byValue := o.opts
					byValue.noDictFilter = true
					ref, refStats, refFiltered, refErr := scanCounted(t, exact, byValue)
					got, stats, filtered, err := scanCounted(t, exact, o.opts)
					refCode, byCode := refStats.RowsByCode, stats.RowsByCode
					if wantErr != nil || err != nil || refErr != nil {
						if pgerr.Code(err) != pgerr.Code(wantErr) || pgerr.Code(refErr) != pgerr.Code(wantErr) {
							t.Fatalf("%s: error %v (by value %v), the filter's %v", what, err, refErr, wantErr)
						}
						continue
					}
					if !slices.Equal(got, want) || !slices.Equal(ref, want) {
						t.Fatalf("%s: %d rows (by value %d)\n%q\nthe filter keeps %d\n%q", what, len(got), len(ref), head(got, 5), len(want), head(want, 5))
					}
					if o.opts.dictEveryCost && c.skipped {
						// rows of skipped groups are neither read nor filtered
						if filtered != 0 || stats.Rows != 0 {
							t.Errorf("%s: %d rows read, %d filtered, want none", what, stats.Rows, filtered)
						}
					} else if filtered != refFiltered {
						t.Errorf("%s: %d rows filtered, by value %d", what, filtered, refFiltered)
					}
					if refCode != 0 {
						t.Errorf("%s: %d rows judged by code without the dictionary filter", what, refCode)
					}
					if o.opts.dictEveryCost && (byCode < c.lo || byCode > c.hi) {
						t.Errorf("%s: %d rows judged by code, want %d to %d", what, byCode, c.lo, c.hi)
					}
					skipped := stats.RowGroupsSkipped == stats.RowGroups && stats.RowGroups > 0
					if o.opts.dictEveryCost && skipped != c.skipped || refStats.RowGroupsSkipped != 0 {
						t.Errorf("%s: %d of %d row groups skipped (by value %d), want all: %v", what,
							stats.RowGroupsSkipped, stats.RowGroups, refStats.RowGroupsSkipped, c.skipped)
					}
				}
			}
			releaseRecs(plain)
		}
	}
}
