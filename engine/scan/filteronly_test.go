package scan

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/write"
)

// maskColumns rewrites rendered rows (renderRows: each value then '|')
// with the columns flagged in mask shown NULL.
func maskColumns(rows []string, mask []bool) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		vals := strings.Split(strings.TrimSuffix(r, "|"), "|")
		for j := range vals {
			if j < len(mask) && mask[j] {
				vals[j] = "(null)"
			}
		}
		out[i] = strings.Join(vals, "|") + "|"
	}
	slices.Sort(out)
	return out
}

// TestFilterOnlyColumns: columns flagged ScanSpec.FilterOnly come out all
// NULL of their type, and every other column as a Filter above the scan
// would keep it: columns judged by dictionary code alone (whose values
// are then not built), read by the other conjuncts too, read both by a
// conjunct and above (not flagged), a chunk with dictionary and PLAIN
// pages, NULLs, deletes, and _pos (a metadata column, always built).
func TestFilterOnlyColumns(t *testing.T) {
	const n = 4000
	tbl, df := writeLateTable(t, n)
	var deleted []int64
	for i := int64(3); i < n; i += 7 {
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
	type foCase struct {
		name string
		ids  []int
		conj func(col func(id int) expr.Expr) []expr.Expr
		// only: the field ids flagged filter-only; null: those that must
		// come out NULL (metadata columns do not)
		only, null []int
	}
	cases := []foCase{
		{"s = v2, s only", []int{1, 3}, func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("=", c(3), str("v2"))}
		}, []int{3}, []int{3}},
		{"s like %7 and g = 1, both only", []int{1, 2, 3, 4}, func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("like", c(3), str("%7")), exactCall("=", c(2), i8(1))}
		}, []int{2, 3}, []int{2, 3}},
		{"s like %7 and g = 1, s only (g read above)", []int{3, 2, 1}, func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("like", c(3), str("%7")), exactCall("=", c(2), i8(1))}
		}, []int{3}, []int{3}},
		{"s like v% and g = 2, nothing only", []int{3, 2, 1}, func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("like", c(3), str("v%")), exactCall("=", c(2), i8(2))}
		}, nil, nil},
		{"g in (1, 4), g only", []int{2, 4}, func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("or", exactCall("=", c(2), i8(1)), exactCall("=", c(2), i8(4)))}
		}, []int{2}, []int{2}},
		{"s like %1 and (s = v1 or g = 2): s read by two conjuncts", []int{1, 2, 3}, func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("like", c(3), str("%1")),
				exactCall("or", exactCall("=", c(3), str("v1")), exactCall("=", c(2), i8(2)))}
		}, []int{2, 3}, []int{2, 3}},
		{"k + g > 100 (two columns), g only", []int{1, 2}, func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall(">", exactCall("+", c(1), &expr.Cast{Arg: c(2), T: expr.Int8}), i8(100))}
		}, []int{2}, []int{2}},
		{"s is not null and 12/(g+1) > 2 (may fail: after)", []int{1, 2, 3, 4}, func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("isnotnull", c(3)), exactCall(">", exactCall("/", i8(12), exactCall("+", c(2), i8(1))), i8(2))}
		}, []int{3, 2}, []int{3, 2}},
		{"_pos < 1000 and s = v3, both only", []int{1, 3, FieldIDPos}, func(c func(int) expr.Expr) []expr.Expr {
			return []expr.Expr{exactCall("<", c(FieldIDPos), i8(1000)), exactCall("=", c(3), str("v3"))}
		}, []int{3, FieldIDPos}, []int{3}},
	}
	for _, withDeletes := range []bool{false, true} {
		task := catalog.FileScanTask{File: df}
		if withDeletes {
			task.Deletes = dels
		}
		for _, c := range cases {
			spec := engine.ScanSpec{Table: tbl, Tasks: []catalog.FileScanTask{task}, Schema: schema, FieldIDs: c.ids}
			plain, err := scanAll(t, spec, Options{})
			if err != nil {
				t.Fatal(err)
			}
			out := New(spec, Options{}).Schema()
			col := func(id int) expr.Expr {
				i := slices.Index(c.ids, id)
				return &expr.Col{Idx: i, Name: out.Field(i).Name, T: out.Field(i).Type}
			}
			conj := c.conj(col)
			kept, err := filterAbove(t, out, plain, conj)
			releaseRecs(plain)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			only := make([]bool, len(c.ids))
			null := make([]bool, len(c.ids))
			for i, id := range c.ids {
				only[i] = slices.Contains(c.only, id)
				null[i] = slices.Contains(c.null, id)
			}
			want := maskColumns(kept, null)
			exact := spec
			exact.Exact, exact.FilterOnly = conj, only
			for _, o := range []struct {
				name string
				opts Options
			}{
				{"default", Options{}},
				{"every cost", Options{dictEveryCost: true}},
				{"batches of 37", Options{BatchSize: 37, dictEveryCost: true}},
				{"recycled", Options{RecycleBuffers: true, dictEveryCost: true}},
				{"by value", Options{noDictFilter: true}},
				{"builders", Options{builders: true}},
			} {
				what := fmt.Sprintf("%s deletes %v (%s)", c.name, withDeletes, o.name)
				got, _, _, err := scanCounted(t, exact, o.opts)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if len(want) == 0 {
					t.Fatalf("%s: no rows kept, the case tests nothing", what)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s: %d rows\n%s\nwant %d\n%s", what, len(got), head(got, 5), len(want), head(want, 5))
				}
			}
		}
	}
}

// TestFilterOnlyEqualityDeletes: a filter-only column that equality
// deletes compare is still read for them.
func TestFilterOnlyEqualityDeletes(t *testing.T) {
	tbl, tasks := loadTable(t, "impala__iceberg_v2_delete_equality_nulls")
	schema := tbl.Metadata.CurrentSchema()
	spec := engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: []int{1, 2}}
	plain, err := scanAll(t, spec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := New(spec, Options{}).Schema()
	cases := []struct {
		name string
		conj []expr.Expr
	}{
		{"id is not null", []expr.Expr{exactCall("isnotnull", &expr.Col{Idx: 0, Name: out.Field(0).Name, T: out.Field(0).Type})}},
		{"id is null or id <> 2", []expr.Expr{exactCall("or",
			exactCall("isnull", &expr.Col{Idx: 0, Name: out.Field(0).Name, T: out.Field(0).Type}),
			exactCall("<>", &expr.Col{Idx: 0, Name: out.Field(0).Name, T: out.Field(0).Type},
				&expr.Lit{V: int64(2), T: expr.Int8}))}},
	}
	for _, c := range cases {
		kept, err := filterAbove(t, out, plain, c.conj)
		if err != nil {
			t.Fatal(err)
		}
		want := maskColumns(kept, []bool{true, false})
		exact := spec
		exact.Exact, exact.FilterOnly = c.conj, []bool{true, false}
		for _, opts := range []Options{{}, {dictEveryCost: true}, {noDictFilter: true}} {
			got, _, _, err := scanCounted(t, exact, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %+v: rows %q, want %q", c.name, opts, got, want)
			}
		}
	}
	releaseRecs(plain)
}
