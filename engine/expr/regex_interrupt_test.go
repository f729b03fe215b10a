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
	for _, pat := range []string{`^a`, `\bab`, `\Bb`, `b*`, `a|ab`, `(a)(b)?`, `(?m)^b`, `é $`, `(c)?ab`} {
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
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cache := &reCache{fn: "regexp_replace", glob: true}
	re, err := cache.get([]byte(`zzz`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := eachMatch(ctx, re, s, func([]int) bool { return true }); !errors.Is(err, context.Canceled) {
		t.Fatalf("a canceled context: %v, want context.Canceled", err)
	}
}
