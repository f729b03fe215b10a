package expr

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"unicode/utf8"
)

// Matching a regular expression over a long value runs for seconds inside
// one call of the regexp package, which cannot be interrupted. Over values
// of longInput bytes or more, eachMatch reads the value through a reader
// that checks the statement's context every interruptRunes characters
// and ends the input when it is done, and finds one match at a time, so a
// CancelRequest or statement_timeout stops it, and the matches are not
// all held at once.

// longInput is the size from which matching checks for interrupts.
const longInput = 1 << 20

// interruptRunes is how many characters the reader reads between two
// checks of the context.
const interruptRunes = 1 << 16

// ctxReader reads s rune by rune as the regexp package decodes a []byte;
// once ctx is done it reports the end of the input and keeps the error.
type ctxReader struct {
	ctx context.Context
	s   []byte
	pos int
	n   int
	err error
}

func (r *ctxReader) ReadRune() (rune, int, error) {
	if r.pos >= len(r.s) {
		return 0, 0, io.EOF
	}
	if r.n++; r.n == interruptRunes {
		r.n = 0
		if err := r.ctx.Err(); err != nil {
			r.err = err
			return 0, 0, err
		}
	}
	c, w := utf8.DecodeRune(r.s[r.pos:])
	r.pos += w
	return c, w, nil
}

// continuation is re preceded by one character: matching it from the
// character before a position finds the matches of re that start at or
// after that position, with ^, \b and \B seeing the character before
// (a reader has no context of its own).
func (c *compiledRE) continuation() (*regexp.Regexp, error) {
	c.contOnce.Do(func() {
		c.cont, c.contErr = regexp.Compile(`(?s:.)(?:` + c.re.String() + `)`)
		if c.contErr == nil && !hasNonGreedy(c.re.String()) {
			c.cont.Longest()
		}
	})
	return c.cont, c.contErr
}

// eachMatch calls fn with the matches of re in s, as
// FindAllSubmatchIndex(s, -1) finds them (FindAllIndex without
// submatches), until fn returns false. Over a long s it stops with ctx's
// error when ctx ends.
func eachMatch(ctx context.Context, re *compiledRE, s []byte, fn func(m []int) bool) error {
	return eachMatchOf(ctx, re, s, true, fn)
}

// eachMatchIndex is eachMatch without the submatches.
func eachMatchIndex(ctx context.Context, re *compiledRE, s []byte, fn func(m []int) bool) error {
	return eachMatchOf(ctx, re, s, false, fn)
}

func eachMatchOf(ctx context.Context, re *compiledRE, s []byte, submatch bool, fn func(m []int) bool) error {
	if len(s) < longInput {
		all := re.re.FindAllIndex
		if submatch {
			all = re.re.FindAllSubmatchIndex
		}
		for _, m := range all(s, -1) {
			if !fn(m) {
				break
			}
		}
		return nil
	}
	find := func(r *regexp.Regexp, rd io.RuneReader) []int {
		if submatch {
			return r.FindReaderSubmatchIndex(rd)
		}
		return r.FindReaderIndex(rd)
	}
	if ctx.Value(foldingKey{}) != nil {
		return errFoldTooLarge
	}
	cont, err := re.continuation()
	if err != nil {
		return err
	}
	// Every match begins with the literal prefix: the search skips to
	// its next occurrence (the regexp package does so over a []byte, not
	// over a reader).
	prefix, _ := re.re.LiteralPrefix()
	prevEnd := -1
	for pos, found := 0, 0; pos <= len(s); found++ {
		// Each search reads at least one character; short matches
		// close together are checked for interrupts here.
		if found%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if prefix != "" {
			k := bytes.Index(s[pos:], []byte(prefix))
			if k < 0 {
				break
			}
			pos += k
		}
		var m []int
		rd := &ctxReader{ctx: ctx}
		if pos == 0 {
			rd.s = s
			m = find(re.re, rd)
		} else {
			_, w := utf8.DecodeLastRune(s[:pos])
			start := pos - w
			rd.s = s[start:]
			m = find(cont, rd)
			if m != nil {
				for j := range m {
					if m[j] >= 0 {
						m[j] += start
					}
				}
				_, w := utf8.DecodeRune(s[m[0]:])
				m[0] += w // the character before is not the match's
			}
		}
		if rd.err != nil {
			return rd.err
		}
		if m == nil {
			break
		}
		accept := true
		if m[1] == pos {
			// An empty match: not right after the previous match; the
			// search goes on one character further.
			accept = m[0] != prevEnd
			if pos < len(s) {
				_, w := utf8.DecodeRune(s[pos:])
				pos += w
			} else {
				pos++
			}
		} else {
			pos = m[1]
		}
		prevEnd = m[1]
		if accept && !fn(m) {
			break
		}
	}
	return ctx.Err()
}

// firstMatch is the first match of re in s (nil: none), with its
// submatches or not; over a long s it stops with ctx's error when ctx
// ends.
func firstMatch(ctx context.Context, re *compiledRE, s []byte, submatch bool) ([]int, error) {
	if len(s) < longInput {
		if submatch {
			return re.re.FindSubmatchIndex(s), nil
		}
		return re.re.FindIndex(s), nil
	}
	var first []int
	err := eachMatchOf(ctx, re, s, submatch, func(m []int) bool {
		first = m
		return false
	})
	return first, err
}
