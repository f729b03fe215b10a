package tpch

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// generate writes every table at sf and splits the rows into fields.
func generate(t *testing.T, sf float64) map[string][][]string {
	t.Helper()
	out := map[string][][]string{}
	for _, tbl := range Tables {
		var buf bytes.Buffer
		rows, n, err := WriteTable(&buf, tbl, sf, Text)
		if err != nil {
			t.Fatalf("%s: %v", tbl.Name, err)
		}
		if n != int64(buf.Len()) {
			t.Errorf("%s: %d bytes reported, %d written", tbl.Name, n, buf.Len())
		}
		cols := strings.Count(tbl.Columns, ",") + 1 - strings.Count(tbl.Columns, "(15,2)")
		for i, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
			f := strings.Split(line, "\t")
			if len(f) != cols {
				t.Fatalf("%s row %d has %d fields, want %d: %q", tbl.Name, i, len(f), cols, line)
			}
			out[tbl.Name] = append(out[tbl.Name], f)
		}
		if int64(len(out[tbl.Name])) != rows {
			t.Errorf("%s: %d rows reported, %d written", tbl.Name, rows, len(out[tbl.Name]))
		}
	}
	return out
}

// TestTablesCardinalityAndKeys checks the row counts of scale factor 0.01
// and that every foreign key of the schema finds its row.
func TestTablesCardinalityAndKeys(t *testing.T) {
	data := generate(t, 0.01)
	want := map[string]int{"region": 5, "nation": 25, "supplier": 100, "customer": 1500,
		"part": 2000, "partsupp": 8000, "orders": 15000, "lineitem": 59977}
	for name, n := range want {
		if len(data[name]) != n {
			t.Errorf("%s has %d rows, want %d", name, len(data[name]), n)
		}
	}
	keys := func(table string, cols ...int) map[string]bool {
		m := map[string]bool{}
		for _, f := range data[table] {
			var k []string
			for _, c := range cols {
				k = append(k, f[c])
			}
			m[strings.Join(k, "|")] = true
		}
		return m
	}
	refs := []struct {
		from         string
		fromCols     []int
		to           string
		toCols       []int
		wantDistinct int // distinct referenced keys expected, 0: not checked
	}{
		{"nation", []int{2}, "region", []int{0}, 5},
		{"supplier", []int{3}, "nation", []int{0}, 0},
		{"customer", []int{3}, "nation", []int{0}, 0},
		{"partsupp", []int{0}, "part", []int{0}, 2000},
		{"partsupp", []int{1}, "supplier", []int{0}, 100},
		{"orders", []int{1}, "customer", []int{0}, 0},
		{"lineitem", []int{0}, "orders", []int{0}, 15000},
		{"lineitem", []int{1, 2}, "partsupp", []int{0, 1}, 0},
	}
	for _, ref := range refs {
		target := keys(ref.to, ref.toCols...)
		seen := keys(ref.from, ref.fromCols...)
		for k := range seen {
			if !target[k] {
				t.Errorf("%s%v = %s has no row in %s", ref.from, ref.fromCols, k, ref.to)
				break
			}
		}
		if ref.wantDistinct > 0 && len(seen) != ref.wantDistinct {
			t.Errorf("%s%v holds %d distinct keys, want %d", ref.from, ref.fromCols, len(seen), ref.wantDistinct)
		}
	}
	if len(keys("partsupp", 0, 1)) != 8000 {
		t.Error("partsupp (partkey, suppkey) pairs are not unique")
	}
	for _, f := range data["orders"] {
		if c, _ := strconv.Atoi(f[1]); c%3 == 0 {
			t.Fatalf("order %s has customer %d, a multiple of 3", f[0], c)
		}
	}
}

// TestOrdersSummarizeLines checks o_orderstatus and o_totalprice against the
// order's lines.
func TestOrdersSummarizeLines(t *testing.T) {
	data := generate(t, 0.01)
	type agg struct {
		cents          int64
		shipped, lines int
	}
	byOrder := map[string]*agg{}
	cents := func(s string) int64 {
		v, err := strconv.ParseInt(strings.Replace(s, ".", "", 1), 10, 64)
		if err != nil {
			t.Fatalf("money %q: %v", s, err)
		}
		return v
	}
	for _, f := range data["lineitem"] {
		a := byOrder[f[0]]
		if a == nil {
			a = &agg{}
			byOrder[f[0]] = a
		}
		price, disc, tax := cents(f[5]), cents(f[6]), cents(f[7])
		a.cents += (price*(100+tax)*(100-disc) + 5000) / 10000
		a.lines++
		if f[9] == "F" {
			a.shipped++
		}
	}
	for _, f := range data["orders"] {
		a := byOrder[f[0]]
		want := "P"
		if a.shipped == 0 {
			want = "O"
		} else if a.shipped == a.lines {
			want = "F"
		}
		if f[2] != want || cents(f[3]) != a.cents {
			t.Fatalf("order %s: status %s total %s, want %s %d cents", f[0], f[2], f[3], want, a.cents)
		}
	}
}
