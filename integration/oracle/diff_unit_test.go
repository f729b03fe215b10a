package oracle

import (
	"strings"
	"testing"
)

// TestDiffRows checks the multiset comparison: order does not matter,
// duplicates count, and differences name the column and both values.
func TestDiffRows(t *testing.T) {
	c := func(s string) cell { return cell{text: s} }
	null := cell{null: true}
	cols := []string{"id", "v"}
	tests := []struct {
		name      string
		got, want [][]cell
		contains  []string // each must occur in some reported difference
	}{
		{name: "same rows in another order",
			got:  [][]cell{{c("1"), c("a")}, {c("2"), null}},
			want: [][]cell{{c("2"), null}, {c("1"), c("a")}}},
		{name: "NULL is not the text NULL",
			got:      [][]cell{{c("1"), c("NULL")}},
			want:     [][]cell{{c("1"), null}},
			contains: []string{"column v differs in 1 rows", "icegate:    NULL", "iceberg-go: NULL"}},
		{name: "duplicate row missing",
			got:      [][]cell{{c("1"), c("a")}},
			want:     [][]cell{{c("1"), c("a")}, {c("1"), c("a")}},
			contains: []string{"icegate returned 1 rows, iceberg-go 2", `row missing from icegate: ("1", "a")`}},
		{name: "value differs",
			got:      [][]cell{{c("1"), c("x")}, {c("2"), c("b")}},
			want:     [][]cell{{c("1"), c("a")}, {c("2"), c("b")}},
			contains: []string{"column v differs in 1 rows", "row id=1:", "icegate:    x", "iceberg-go: a"}},
		{name: "extra row",
			got:      [][]cell{{c("1"), c("a")}, {c("9"), c("z")}},
			want:     [][]cell{{c("1"), c("a")}},
			contains: []string{`row only in icegate: ("9", "z")`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diffs := diffRows(cols, tc.got, tc.want)
			if len(tc.contains) == 0 && len(diffs) > 0 {
				t.Fatalf("want no differences, got %q", diffs)
			}
			all := strings.Join(diffs, "\n")
			for _, s := range tc.contains {
				if !strings.Contains(all, s) {
					t.Errorf("differences %q lack %q", all, s)
				}
			}
		})
	}
}
