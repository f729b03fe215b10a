package expr

import (
	"math/rand/v2"
	"testing"
)

// likeCases are LIKE results as PostgreSQL 15 (UTF8 database) gives them:
// SELECT s LIKE p for each row.
var likeCases = []struct {
	s, p string
	want bool
}{
	{"", "", true},
	{"a", "", false},
	{"", "%", true},
	{"abc", "%", true},
	{"abc", "abc", true},
	{"abc", "ab", false},
	{"abc", "abc%", true},
	{"abc", "ab%", true},
	{"abc", "b%", false},
	{"abc", "%bc", true},
	{"abc", "%ab", false},
	{"abc", "%b%", true},
	{"abc", "%d%", false},
	{"abc", "a%c", true},
	{"ac", "a%c", true},
	{"a", "a%a", false},
	{"aa", "a%a", true},
	{"aba", "a%b%a", true},
	{"aa", "a%%a", true},
	{"ab", "a%b%a", false},
	{"xspecial yrequests z", "%special%requests%", true},
	{"requests special", "%special%requests%", false},
	{"specialrequests", "%special%requests%", true},
	{"special", "%special%special%", false},
	{"specialspecial", "%special%special%", true},
	{"a%b", `a\%b`, true},
	{"axb", `a\%b`, false},
	{"a_b", `%\_%`, true},
	{"ab", `%\_%`, false},
	{"abc", "_b_", true},
	{"ab", "_b_", false},
	// Multibyte: é is two bytes, 日 three; _ is one character.
	{"café", "caf_", true},
	{"café", "caf__", false},
	{"café", "%é", true},
	{"cafe", "%é", false},
	{"日本語", "%本%", true},
	{"日本語", "日%語", true},
	{"日本語", "日_語", true},
	{"日本語", "日__語", false},
	{"日本", "日本%", true},
	{"x日y本z", "%日%本%", true},
	{"x本y日z", "%日%本%", false},
}

func TestLikeMatcher(t *testing.T) {
	for _, c := range likeCases {
		toks, err := compileLike([]byte(c.p), '\\', false)
		if err != nil {
			t.Fatalf("%q: %v", c.p, err)
		}
		m := newLikeMatcher(toks, false)
		if got := m.match([]byte(c.s)); got != c.want {
			t.Errorf("%q LIKE %q = %v, want %v", c.s, c.p, got, c.want)
		}
		if got := likeMatch([]byte(c.s), toks, false); got != c.want {
			t.Errorf("general walk: %q LIKE %q = %v, want %v", c.s, c.p, got, c.want)
		}
	}
}

// TestLikeMatcherAgreesWithWalk checks the byte matcher against the
// rune-by-rune walk on random subjects and patterns drawn from a small
// alphabet with multibyte characters, an invalid byte and U+FFFD, so that
// runs repeat and overlap often.
func TestLikeMatcherAgreesWithWalk(t *testing.T) {
	alpha := []string{"a", "b", "é", "日", "\xff", "\xe6", "\uFFFD"}
	patAlpha := append([]string{"%", "%", "_", `\%`}, alpha...)
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(from []string, n int) string {
		s := ""
		for range n {
			s += from[rng.IntN(len(from))]
		}
		return s
	}
	fast := 0
	for range 200000 {
		p := gen(patAlpha, rng.IntN(6))
		s := gen(alpha, rng.IntN(9))
		toks, err := compileLike([]byte(p), '\\', false)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		m := newLikeMatcher(toks, false)
		if m.fast {
			fast++
		}
		if got, want := m.match([]byte(s)), likeMatch([]byte(s), toks, false); got != want {
			t.Fatalf("%q LIKE %q: matcher %v, walk %v", s, p, got, want)
		}
	}
	if fast == 0 {
		t.Fatal("no pattern took the byte matcher")
	}
}
