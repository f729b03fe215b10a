package expr

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestEachMatchLong: over a long value eachMatch finds, one at a time, the
// matches FindAllSubmatchIndex finds at once - anchors, word boundaries,
// empty matches and groups included - and stops when its context ends.
func TestEachMatchLong(t *testing.T) {
	s := []byte(strings.Repeat("ab cab\nbá é ", longInput/12+1000))
	for _, pat := range []string{`^a`, `\bab`, `\Bb`, `b*`, `a|ab`, `(a)(b)?`, `(?m)^b`, `é $`, `(c)?ab`, `cab\n`, `(?i)CAB`} {
		cache := &reCache{fn: "regexp_replace", glob: true}
		re, err := cache.get([]byte(pat), []byte("g"))
		if err != nil {
			t.Fatalf("%s: %v", pat, err)
		}
		want := re.re.FindAllSubmatchIndex(s, -1)
		var got [][]int
		if err := eachMatch(context.Background(), re, s, func(m []int) bool {
			got = append(got, slices.Clone(m))
			return true
		}); err != nil {
			t.Fatalf("%s: %v", pat, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d matches, want %d", pat, len(got), len(want))
		}
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Fatalf("%s: match %d is %v, want %v", pat, i, got[i], want[i])
			}
		}
		want, got = re.re.FindAllIndex(s, -1), nil
		if err := eachMatchIndex(context.Background(), re, s, func(m []int) bool {
			got = append(got, slices.Clone(m))
			return true
		}); err != nil {
			t.Fatalf("%s: %v", pat, err)
		}
		if len(got) != len(want) || len(got) > 0 && (!slices.Equal(got[0], want[0]) || !slices.Equal(got[len(got)-1], want[len(want)-1])) {
			t.Fatalf("%s without submatches: %d matches, want %d", pat, len(got), len(want))
		}
	}
	// A canceled context stops the search soon, whether matches are dense
	// or there are none (the reader checks as it reads).
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, pat := range []string{`b`, `(a|b)*?b`, `zzz`, `z+y`} {
		cache := &reCache{fn: "regexp_replace", glob: true}
		re, err := cache.get([]byte(pat), []byte("g"))
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		err = eachMatch(ctx, re, s, func([]int) bool { calls++; return true })
		if !errors.Is(err, context.Canceled) || calls > 1024 {
			t.Fatalf("%s with a canceled context: %v after %d matches, want context.Canceled within 1024", pat, err, calls)
		}
	}
}
