package expr

import (
	"regexp"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// Regular expression functions and operators (patterns as regex_translate.go
// reads them).
//
//	function / operator             arguments                          result
//	~ ~* !~ !~*                     text, text                         bool (* folds case, ! negates)
//	regexp_like                     text, text [, text flags]          bool
//	regexp_count                    text, text [, int4 start [, text flags]]  int4
//	regexp_replace                  text, text, text [, text flags]    text (flag g: every match;
//	                                                                   \1..\9 and \& in the replacement)
//	                                text, text, text, int4 start [, int4 n [, text flags]]
//	                                                                   text (the n-th match; 0: all)
//	regexp_substr                   text, text [, int4 start [, int4 n [, text flags [, int4 group]]]]
//	                                                                   text
//	regexp_split_to_array           text, text [, text flags]          text[]
//	regexp_match                    text, text [, text flags]          text[] (list<utf8>): the groups
//	                                                                   of the first match, NULL if none
//	substring                       text, text pattern                 text: the first group of the first
//	                                                                   match (the match without groups),
//	                                                                   NULL if none (substring(a FROM b))
//	similar_to_escape               text [, text escape]               text: the regular expression of a
//	                                                                   SIMILAR TO pattern (a SIMILAR TO b
//	                                                                   is a ~ similar_to_escape(b))
//
// A pattern (with its flags) that stays the same from row to row - a
// constant - is compiled once per Program and reused by every batch.

// TextArray is the Arrow type of text[] results.
var TextArray arrow.DataType = arrow.ListOf(arrow.BinaryTypes.String)

func resolveRegex(fn string, args []arrow.DataType) (Resolved, bool, error) {
	n := len(args)
	texts := func(k int) []arrow.DataType {
		out := make([]arrow.DataType, k)
		for i := range out {
			out[i] = Text
		}
		return out
	}
	var r Resolved
	switch fn {
	case "~", "~*", "!~", "!~*":
		if n == 2 && allKinds(args, kText) {
			return Resolved{Args: texts(2), Result: Bool}, true, nil
		}
		return r, true, operatorError(fn, args)
	case "regexp_like", "regexp_match":
		if (n == 2 || n == 3) && allKinds(args, kText) {
			res := Bool
			if fn == "regexp_match" {
				res = TextArray
			}
			return Resolved{Args: texts(n), Result: res}, true, nil
		}
	case "regexp_replace":
		if (n == 3 || n == 4) && allKinds(args, kText) {
			return Resolved{Args: texts(n), Result: Text}, true, nil
		}
		if sig := []arrow.DataType{Text, Text, Text, Int4, Int4, Text}; n >= 4 && n <= 6 && matchesSig(args, sig) {
			return Resolved{Args: sig[:n], Result: Text}, true, nil
		}
	case "regexp_count":
		if sig := []arrow.DataType{Text, Text, Int4, Text}; n >= 2 && n <= 4 && matchesSig(args, sig) {
			return Resolved{Args: sig[:n], Result: Int4}, true, nil
		}
	case "regexp_substr":
		if sig := []arrow.DataType{Text, Text, Int4, Int4, Text, Int4}; n >= 2 && n <= 6 && matchesSig(args, sig) {
			return Resolved{Args: sig[:n], Result: Text}, true, nil
		}
	case "regexp_split_to_array":
		if (n == 2 || n == 3) && allKinds(args, kText) {
			return Resolved{Args: texts(n), Result: TextArray}, true, nil
		}
	case "substring":
		// substring(text FROM pattern); the core catalogue answers the
		// (text, int4) forms before this family is asked.
		if n == 2 && allKinds(args, kText) {
			return Resolved{Args: texts(2), Result: Text}, true, nil
		}
	case "similar_to_escape", "similar_escape":
		if (n == 1 || n == 2) && allKinds(args, kText) {
			return Resolved{Args: texts(n), Result: Text}, true, nil
		}
	default:
		return r, false, nil
	}
	return r, true, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

func kernelRegex(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	switch fn {
	case "~", "~*", "!~", "!~*":
		return regexMatchKernel(fn == "~*" || fn == "!~*", fn[0] == '!', fn), true, nil
	case "regexp_like":
		return regexMatchKernel(false, false, fn), true, nil
	case "regexp_count":
		return regexCountKernel(len(ts)), true, nil
	case "regexp_replace":
		return regexReplaceKernel(ts), true, nil
	case "regexp_substr":
		return regexSubstrKernel(len(ts)), true, nil
	case "regexp_split_to_array":
		return regexSplitKernel(), true, nil
	case "regexp_match":
		return regexpMatchKernel(), true, nil
	case "substring":
		return regexSubstringKernel(), true, nil
	case "similar_to_escape", "similar_escape":
		return strictText(similarToEscape), true, nil
	}
	return nil, false, nil
}

// compiledRE is a compiled pattern and the text it came from.
type compiledRE struct {
	pat, flags string
	re         *regexp.Regexp
	global     bool
	// cont is re after one character, for matching long values from a
	// position (regex_interrupt.go).
	contOnce sync.Once
	cont     *regexp.Regexp
	contErr  error
}

// reCache keeps the last pattern a kernel compiled: a constant pattern is
// compiled once, a pattern column once per run of equal values. Programs
// may be evaluated from several goroutines; the entry is swapped whole.
type reCache struct {
	last     atomic.Pointer[compiledRE]
	compiles atomic.Int64 // patterns compiled, for tests
	icase    bool
	fn       string
	glob     bool // the function accepts the g flag
}

func (c *reCache) get(pat, flags []byte) (*compiledRE, error) {
	if e := c.last.Load(); e != nil && e.pat == string(pat) && e.flags == string(flags) {
		return e, nil
	}
	f, err := parseREFlags(flags, c.glob, c.fn)
	if err != nil {
		return nil, err
	}
	f.icase = f.icase || c.icase
	re, err := compilePGRegex(string(pat), f)
	if err != nil {
		return nil, err
	}
	if !hasNonGreedy(re.String()) {
		re.Longest()
	}
	c.compiles.Add(1)
	e := &compiledRE{pat: string(pat), flags: string(flags), re: re, global: f.global}
	c.last.Store(e)
	return e, nil
}

// regexRows runs f over the valid rows of a strict regular-expression
// function: args[0] the subject, args[1] the pattern, args[flagArg] the
// flags (flagArg < 0: none).
func regexRows(ev *evalCtx, args []vec, cache *reCache, flagArg int, f func(i int, s []byte, re *compiledRE) error) error {
	n, _ := outLen(ev, args)
	ra := newRowArgs(args)
	vs := make([]bitmap, len(args))
	for j, a := range args {
		vs[j] = validityOf(a)
	}
	for i := 0; i < n; i++ {
		ok := true
		for j := range vs {
			ok = ok && vs[j].valid(i)
		}
		if !ok {
			continue
		}
		var flags []byte
		if flagArg >= 0 && flagArg < len(args) {
			flags = ra.s(flagArg, i)
		}
		re, err := cache.get(ra.s(1, i), flags)
		if err != nil {
			return err
		}
		if err := f(i, ra.s(0, i), re); err != nil {
			return err
		}
	}
	return nil
}

// regexMatchKernel is ~ ~* !~ !~* and regexp_like.
func regexMatchKernel(icase, negate bool, fn string) kernelFn {
	k, _ := newRegexMatch(icase, negate, fn)
	return k
}

func newRegexMatch(icase, negate bool, fn string) (kernelFn, *reCache) {
	cache := &reCache{icase: icase, fn: fn}
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Bool, args), nil
		}
		n, c := outLen(ev, args)
		valid, nulls := andValidity(ev.mem, n, args)
		out := newBoolOut(ev.mem, n)
		err := regexRows(ev, args, cache, 2, func(i int, s []byte, re *compiledRE) error {
			found := len(s) < longInput && re.re.Match(s)
			if len(s) >= longInput {
				m, err := firstMatch(ev.ctx, re, s, false)
				if err != nil {
					return err
				}
				found = m != nil
			}
			if found != negate {
				out.set(i)
			}
			return nil
		})
		if err != nil {
			out.buf.Release()
			if valid != nil {
				valid.Release()
			}
			return vec{}, err
		}
		return vec{arr: out.finish(n, valid, nulls), c: c}, nil
	}, cache
}

// appendReplacement expands a replacement: \1..\9 the groups, \& the
// whole match, \\ a backslash; any other backslash stays.
func appendReplacement(dst, repl, s []byte, m []int) []byte {
	for k := 0; k < len(repl); k++ {
		ch := repl[k]
		if ch != '\\' || k+1 == len(repl) {
			dst = append(dst, ch)
			continue
		}
		nx := repl[k+1]
		switch {
		case nx >= '1' && nx <= '9':
			g := int(nx - '0')
			if 2*g+1 < len(m) && m[2*g] >= 0 {
				dst = append(dst, s[m[2*g]:m[2*g+1]]...)
			}
			k++
		case nx == '&':
			dst = append(dst, s[m[0]:m[1]]...)
			k++
		case nx == '\\':
			dst = append(dst, '\\')
			k++
		default:
			dst = append(dst, '\\')
		}
	}
	return dst
}

// regexpMatchKernel is regexp_match(s, pattern [, flags]): the groups of
// the first match as text[] (the whole match when the pattern has no
// groups), NULL when nothing matches.
func regexpMatchKernel() kernelFn {
	cache := &reCache{fn: "regexp_match"}
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, TextArray, args), nil
		}
		n, c := outLen(ev, args)
		lb := array.NewListBuilder(ev.mem, arrow.BinaryTypes.String)
		defer lb.Release()
		vb := lb.ValueBuilder().(*array.StringBuilder)
		next := 0
		err := regexRows(ev, args, cache, 2, func(i int, s []byte, re *compiledRE) error {
			for ; next < i; next++ {
				lb.AppendNull()
			}
			next = i + 1
			m, err := firstMatch(ev.ctx, re, s, true)
			if err != nil {
				return err
			}
			if m == nil {
				lb.AppendNull()
				return nil
			}
			lb.Append(true)
			if len(m) == 2 {
				vb.BinaryBuilder.Append(s[m[0]:m[1]])
				return nil
			}
			for g := 1; 2*g < len(m); g++ {
				if m[2*g] < 0 {
					vb.AppendNull()
					continue
				}
				vb.BinaryBuilder.Append(s[m[2*g]:m[2*g+1]])
			}
			return nil
		})
		if err != nil {
			return vec{}, err
		}
		for ; next < n; next++ {
			lb.AppendNull()
		}
		return vec{arr: lb.NewArray(), c: c}, nil
	}
}

// similarToEscape is similar_to_escape(pattern [, escape]).
func similarToEscape(r *rowArgs, i int, dst []byte) ([]byte, error) {
	esc := rune('\\')
	if len(r.txt) > 1 {
		e := r.s(1, i)
		switch {
		case len(e) == 0:
			esc = -1
		case utf8.RuneCount(e) == 1:
			esc, _ = utf8.DecodeRune(e)
		default:
			return nil, pgerr.New(pgerr.InvalidEscapeSequence, "invalid escape string").WithHint("Escape string must be empty or one character.")
		}
	}
	re, err := similarToRegex(r.s(0, i), esc)
	if err != nil {
		return nil, err
	}
	return append(dst, re...), nil
}
