package sequence

import (
	"errors"
	"math"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestTake: values taken in blocks from a state, at the ends of the range
// with and without CYCLE, and descending sequences.
func TestTake(t *testing.T) {
	asc := Options{Type: "bigint", Start: 1, Increment: 1, Min: 1, Max: math.MaxInt64, Cache: 1}
	small := Options{Type: "integer", Start: 1, Increment: 2, Min: 1, Max: 10, Cache: 1}
	desc := Options{Type: "integer", Start: -1, Increment: -1, Min: -3, Max: -1, Cache: 1}
	for _, tc := range []struct {
		name        string
		o           Options
		st          State
		n           int64
		first, cnt  int64
		next        State
		limitErrors bool
	}{
		{name: "first nextval", o: asc, st: State{Last: 1}, n: 1, first: 1, cnt: 1, next: State{Last: 1, Called: true}},
		{name: "a block", o: asc, st: State{Last: 1, Called: true}, n: 10, first: 2, cnt: 10, next: State{Last: 11, Called: true}},
		{name: "n below one takes one", o: asc, st: State{Last: 5, Called: true}, n: 0, first: 6, cnt: 1, next: State{Last: 6, Called: true}},
		{name: "block cut at max", o: small, st: State{Last: 5, Called: true}, n: 10, first: 7, cnt: 2, next: State{Last: 9, Called: true}},
		{name: "max reached", o: small, st: State{Last: 9, Called: true}, n: 1, limitErrors: true},
		{name: "cycle wraps to min", o: func() Options { o := small; o.Cycle = true; return o }(), st: State{Last: 9, Called: true}, n: 1, first: 1, cnt: 1, next: State{Last: 1, Called: true}},
		{name: "descending", o: desc, st: State{Last: -1}, n: 5, first: -1, cnt: 3, next: State{Last: -3, Called: true}},
		{name: "descending min reached", o: desc, st: State{Last: -3, Called: true}, n: 1, limitErrors: true},
		{name: "no overflow at int64 max", o: asc, st: State{Last: math.MaxInt64 - 1, Called: true}, n: 5, first: math.MaxInt64, cnt: 1, next: State{Last: math.MaxInt64, Called: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, cnt, next, err := tc.o.Take("s", tc.st, tc.n)
			if tc.limitErrors {
				var pe *pgerr.Error
				if !errors.As(err, &pe) || pe.Code != pgerr.SequenceGeneratorLimitExceeded {
					t.Fatalf("err = %v, want 2200H", err)
				}
				return
			}
			if err != nil || first != tc.first || cnt != tc.cnt || next != tc.next {
				t.Fatalf("Take = %d, %d, %+v, %v; want %d, %d, %+v", first, cnt, next, err, tc.first, tc.cnt, tc.next)
			}
		})
	}
}

// TestStateText: the state property round-trips and bad text is refused.
func TestStateText(t *testing.T) {
	for _, st := range []State{{Last: 1}, {Last: -42, Called: true}, {Last: math.MinInt64, Called: true}} {
		got, err := ParseState(st.String())
		if err != nil || got != st {
			t.Errorf("ParseState(%q) = %+v, %v", st.String(), got, err)
		}
	}
	for _, bad := range []string{"", "1", "x true", "1 maybe", "1true"} {
		if _, err := ParseState(bad); err == nil {
			t.Errorf("ParseState(%q) accepted", bad)
		}
	}
}
