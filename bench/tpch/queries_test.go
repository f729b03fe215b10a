package tpch

import (
	"fmt"
	"strings"
	"testing"
)

func TestQueriesAreTheTwentyTwo(t *testing.T) {
	qs, err := Queries()
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 22 {
		t.Fatalf("%d queries, want 22", len(qs))
	}
	for i, q := range qs {
		if want := fmt.Sprintf("q%02d", i+1); q.Name != want || len(q.SQL) < 50 {
			t.Errorf("query %d is %s (%d bytes), want %s", i, q.Name, len(q.SQL), want)
		}
	}
}

func TestQueriesAtScaleQ11Fraction(t *testing.T) {
	for _, tc := range []struct {
		sf   float64
		want string
	}{
		{1, "* 0.0001\n"},
		{10, "* 0.00001\n"},
		{0.1, "* 0.001\n"},
	} {
		qs, err := QueriesAt(tc.sf)
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) != 22 {
			t.Fatalf("SF %v: %d queries", tc.sf, len(qs))
		}
		if !strings.Contains(qs[10].SQL, tc.want) {
			t.Errorf("SF %v: q11 lacks %q:\n%s", tc.sf, tc.want, qs[10].SQL)
		}
	}
	if _, err := QueriesAt(0); err == nil {
		t.Error("SF 0: no error")
	}
}
