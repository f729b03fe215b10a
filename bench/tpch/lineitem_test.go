package tpch

import (
	"bytes"
	"strings"
	"testing"
)

// TestGeneratorPinnedRows pins the first rows of scale factor 0.01 in both
// formats, so a change to the generator (and thus to benchmark input) shows.
func TestGeneratorPinnedRows(t *testing.T) {
	tests := []struct {
		format Format
		want   []string
	}{
		{Text, []string{
			"1\t959\t94\t1\t22.00\t40918.90\t0.05\t0.02\tA\tF\t1994-04-20\t1994-06-03\t1994-04-23\tTAKE BACK RETURN\tAIR\tsleep platelets detect of bold",
			"1\t463\t22\t2\t41.00\t55901.86\t0.08\t0.01\tR\tF\t1994-04-02\t1994-05-08\t1994-04-11\tTAKE BACK RETURN\tTRUCK\tideas instructio",
			"2\t852\t52\t1\t20.00\t35057.00\t0.08\t0.00\tN\tO\t1998-02-04\t1998-04-17\t1998-02-28\tDELIVER IN PERSON\tREG AIR\tslyly integrate courts bold according depe",
		}},
		{CSV, []string{
			"1,959,94,1,22.00,40918.90,0.05,0.02,A,F,1994-04-20,1994-06-03,1994-04-23,TAKE BACK RETURN,AIR,sleep platelets detect of bold",
			"1,463,22,2,41.00,55901.86,0.08,0.01,R,F,1994-04-02,1994-05-08,1994-04-11,TAKE BACK RETURN,TRUCK,ideas instructio",
			"2,852,52,1,20.00,35057.00,0.08,0.00,N,O,1998-02-04,1998-04-17,1998-02-28,DELIVER IN PERSON,REG AIR,slyly integrate courts bold according depe",
			"2,228,29,2,36.00,40615.92,0.06,0.03,N,O,1998-03-27,1998-04-02,1998-04-07,NONE,REG AIR,slyly ideas carefull",
		}},
	}
	for _, tt := range tests {
		g, err := NewGenerator(0.01, tt.format)
		if err != nil {
			t.Fatal(err)
		}
		var buf []byte
		for len(strings.Split(strings.TrimSuffix(string(buf), "\n"), "\n")) < len(tt.want) {
			var n int
			if buf, n = g.AppendOrder(buf); n == 0 {
				t.Fatal("generator ran out of orders")
			}
		}
		got := strings.Split(strings.TrimSuffix(string(buf), "\n"), "\n")[:len(tt.want)]
		for i := range tt.want {
			if got[i] != tt.want[i] {
				t.Errorf("format %d row %d:\n got %q\nwant %q", tt.format, i, got[i], tt.want[i])
			}
		}
	}
}

// TestWriteScaleFactor checks the row count and value domains of a small
// scale factor, and that two runs write the same bytes.
func TestWriteScaleFactor(t *testing.T) {
	var a, b bytes.Buffer
	rows, n, err := Write(&a, 0.01, Text)
	if err != nil {
		t.Fatal(err)
	}
	if rows != 59977 {
		t.Errorf("rows = %d, want 59977", rows)
	}
	if n != int64(a.Len()) {
		t.Errorf("bytes = %d, buffer holds %d", n, a.Len())
	}
	if _, _, err := Write(&b, 0.01, Text); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two runs wrote different rows")
	}
	orders := map[string]bool{}
	for i, line := range strings.Split(strings.TrimSuffix(a.String(), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 16 {
			t.Fatalf("row %d has %d fields: %q", i, len(f), line)
		}
		orders[f[0]] = true
		checks := []struct {
			name string
			ok   bool
		}{
			{"linenumber", f[3] >= "1" && f[3] <= "7" && len(f[3]) == 1},
			{"discount", f[6] >= "0.00" && f[6] <= "0.10" && len(f[6]) == 4},
			{"tax", f[7] >= "0.00" && f[7] <= "0.08" && len(f[7]) == 4},
			{"returnflag", f[8] == "R" || f[8] == "A" || f[8] == "N"},
			{"linestatus", f[9] == "O" || f[9] == "F"},
			{"shipdate", f[10] > "1992-01-01" && f[10] < "1999-01-01"},
			{"receipt after ship", f[12] > f[10]},
			{"comment", len(f[15]) >= 9 && len(f[15]) <= 43 && !strings.HasSuffix(f[15], " ")},
		}
		for _, c := range checks {
			if !c.ok {
				t.Fatalf("row %d: bad %s: %q", i, c.name, line)
			}
		}
	}
	if len(orders) != 15000 {
		t.Errorf("%d distinct orders, want 15000", len(orders))
	}
}

func TestNewGeneratorRejectsScaleFactor(t *testing.T) {
	for _, sf := range []float64{0, -1} {
		if _, err := NewGenerator(sf, Text); err == nil {
			t.Errorf("NewGenerator(%v) succeeded", sf)
		}
	}
}
