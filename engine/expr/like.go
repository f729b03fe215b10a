package expr

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/icegate/icegate/internal/pgerr"
)

// LIKE / ILIKE with PostgreSQL's rules: % matches any run of characters,
// _ one character, the escape character (default \, none when given as '')
// makes the next character literal. ILIKE folds case rune by rune.

type likeTok struct {
	kind byte // 'l' literal, '_' one char, '%' any run
	r    rune
}

func compileLike(pat []byte, esc rune, fold bool) ([]likeTok, error) {
	toks := make([]likeTok, 0, len(pat))
	for len(pat) > 0 {
		c, w := utf8.DecodeRune(pat)
		pat = pat[w:]
		switch {
		case esc >= 0 && c == esc:
			if len(pat) == 0 {
				return nil, pgerr.New(pgerr.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
			}
			c, w = utf8.DecodeRune(pat)
			pat = pat[w:]
			toks = append(toks, likeTok{kind: 'l', r: foldRune(c, fold)})
		case c == '%':
			if len(toks) > 0 && toks[len(toks)-1].kind == '%' {
				continue
			}
			toks = append(toks, likeTok{kind: '%'})
		case c == '_':
			toks = append(toks, likeTok{kind: '_'})
		default:
			toks = append(toks, likeTok{kind: 'l', r: foldRune(c, fold)})
		}
	}
	return toks, nil
}

func foldRune(c rune, fold bool) rune {
	if fold {
		return unicode.ToLower(c)
	}
	return c
}

// likeMatch reports whether s matches the compiled pattern.
func likeMatch(s []byte, toks []likeTok, fold bool) bool {
	for len(toks) > 0 {
		t := toks[0]
		switch t.kind {
		case '%':
			rest := toks[1:]
			if len(rest) == 0 {
				return true
			}
			for {
				if likeMatch(s, rest, fold) {
					return true
				}
				if len(s) == 0 {
					return false
				}
				_, w := utf8.DecodeRune(s)
				s = s[w:]
			}
		case '_':
			if len(s) == 0 {
				return false
			}
			_, w := utf8.DecodeRune(s)
			s = s[w:]
		default:
			if len(s) == 0 {
				return false
			}
			c, w := utf8.DecodeRune(s)
			if foldRune(c, fold) != t.r {
				return false
			}
			s = s[w:]
		}
		toks = toks[1:]
	}
	return len(s) == 0
}

// likeMatcher is a compiled pattern. Case-sensitive patterns made only of
// literals and % compare raw bytes: the runs of literals between the %s are
// found with bytes.HasPrefix / bytes.HasSuffix / bytes.Index. On UTF-8 this
// agrees with the rune-by-rune walk of likeMatch: an encoded character never
// starts with a continuation byte, so a byte match of a literal run always
// begins on a character boundary, and the leftmost match of each run between
// %s is the one the backtracking walk would settle on. Patterns with _ (which
// steps one character), ILIKE (which folds case) and patterns holding U+FFFD
// (which likeMatch also pairs with an invalid byte of the subject) take the
// general walk.
type likeMatcher struct {
	toks []likeTok
	fold bool

	fast        bool
	hasPct      bool     // any % in the pattern
	segs        [][]byte // literal runs between %s, in order
	anchorStart bool     // the pattern does not start with %
	anchorEnd   bool     // the pattern does not end with %
}

func newLikeMatcher(toks []likeTok, fold bool) likeMatcher {
	m := likeMatcher{toks: toks, fold: fold}
	if fold {
		return m
	}
	var cur []byte
	for i, t := range toks {
		switch t.kind {
		case '_':
			return m
		case '%':
			m.hasPct = true
			if i == 0 {
				continue
			}
			m.segs = append(m.segs, cur)
			cur = nil
		default:
			if t.r == utf8.RuneError {
				return m
			}
			cur = utf8.AppendRune(cur, t.r)
		}
	}
	if len(toks) == 0 || toks[len(toks)-1].kind != '%' {
		m.segs = append(m.segs, cur)
	}
	m.anchorStart = len(toks) == 0 || toks[0].kind != '%'
	m.anchorEnd = len(toks) == 0 || toks[len(toks)-1].kind != '%'
	m.fast = true
	return m
}

// match reports whether s matches the pattern.
func (m *likeMatcher) match(s []byte) bool {
	if !m.fast {
		return likeMatch(s, m.toks, m.fold)
	}
	if !m.hasPct {
		var lit []byte
		if len(m.segs) > 0 {
			lit = m.segs[0]
		}
		return bytes.Equal(s, lit)
	}
	// With a % present and both ends anchored there are at least two runs,
	// so the prefix and the suffix below are distinct runs.
	segs := m.segs
	if m.anchorStart {
		if !bytes.HasPrefix(s, segs[0]) {
			return false
		}
		s = s[len(segs[0]):]
		segs = segs[1:]
	}
	if m.anchorEnd {
		last := segs[len(segs)-1]
		if !bytes.HasSuffix(s, last) {
			return false
		}
		s = s[:len(s)-len(last)]
		segs = segs[:len(segs)-1]
	}
	for _, seg := range segs {
		i := bytes.Index(s, seg)
		if i < 0 {
			return false
		}
		s = s[i+len(seg):]
	}
	return true
}

func likeEscape(e []byte) (rune, error) {
	if len(e) == 0 {
		return -1, nil
	}
	c, w := utf8.DecodeRune(e)
	if w != len(e) {
		return 0, pgerr.New(pgerr.InvalidEscapeSequence, "invalid escape string").WithHint("Escape string must be empty or one character.")
	}
	return c, nil
}

// likeKernel is like / not_like / ilike / not_ilike.
func likeKernel(negate, fold bool) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Bool, args), nil
		}
		n, c := outLen(ev, args)
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		ra := newRowArgs(args)
		out := newBoolOut(ev.mem, n)
		fail := func(err error) (vec, error) {
			out.buf.Release()
			if valid != nil {
				valid.Release()
			}
			return vec{}, err
		}
		constPat := args[1].c && (len(args) < 3 || args[2].c)
		var lm likeMatcher
		if constPat {
			esc := rune('\\')
			if len(args) == 3 {
				e, err := likeEscape(ra.s(2, 0))
				if err != nil {
					return fail(err)
				}
				esc = e
			}
			t, err := compileLike(ra.s(1, 0), esc, fold)
			if err != nil {
				return fail(err)
			}
			lm = newLikeMatcher(t, fold)
		}
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				continue
			}
			if !constPat {
				esc := rune('\\')
				if len(args) == 3 {
					e, err := likeEscape(ra.s(2, i))
					if err != nil {
						return fail(err)
					}
					esc = e
				}
				t, err := compileLike(ra.s(1, i), esc, fold)
				if err != nil {
					return fail(err)
				}
				lm = newLikeMatcher(t, fold)
			}
			if lm.match(ra.s(0, i)) != negate {
				out.set(i)
			}
		}
		return vec{arr: out.finish(n, valid, nulls), c: c}, nil
	}
}
