package tpch

import (
	"fmt"
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
