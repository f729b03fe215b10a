package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// regexp_count, regexp_replace, regexp_substr and regexp_split_to_array.
// A start position restricts the matches to those beginning at or after
// it; ^ and \A still anchor at the beginning of the whole string, as in
// PostgreSQL.

// matchesSig reports whether args take the leading parameters of sig
// (text parameters take text or NULL, int4 ones int2/int4 or NULL).
func matchesSig(args, sig []arrow.DataType) bool {
	if len(args) > len(sig) {
		return false
	}
	for i, a := range args {
		if kindOf(sig[i]) == kText && !isTextish(a) || kindOf(sig[i]) == kInt4 && !castsImplicitly(a, Int4) {
			return false
		}
	}
	return true
}

func badRegexParam(name string, v int32) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"%s\": %d", name, v)
}

// startByte is the byte offset of the 1-based character position start.
func startByte(s []byte, start int32) (int, error) {
	if start <= 0 {
		return 0, badRegexParam("start", start)
	}
	return charOffset(s, int64(start)-1), nil
}

// matchesFrom drops the matches that begin before byte offset from.
func matchesFrom(ms [][]int, from int) [][]int {
	k := 0
	for k < len(ms) && ms[k][0] < from {
		k++
	}
	return ms[k:]
}

// regexCountKernel is regexp_count(s, pattern [, start [, flags]]).
func regexCountKernel(nargs int) kernelFn {
	cache := &reCache{fn: "regexp_count"}
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Int4, args), nil
		}
		n, c := outLen(ev, args)
		valid, nulls := andValidity(ev.mem, n, args)
		buf, out := outBuf[int32](ev.mem, n)
		clear(out)
		ra := newRowArgs(args)
		err := regexRows(ev, args, cache, 3, func(i int, s []byte, re *compiledRE) error {
			from := 0
			if nargs > 2 {
				var err error
				if from, err = startByte(s, ra.n(2, i)); err != nil {
					return err
				}
			}
			count := int32(0)
			err := eachMatchIndex(ev.ctx, re, s, func(m []int) bool {
				if m[0] >= from {
					count++
				}
				return true
			})
			out[i] = count
			return err
		})
		if err != nil {
			buf.Release()
			if valid != nil {
				valid.Release()
			}
			return vec{}, err
		}
		return vec{arr: makeFixed(Int4, n, valid, nulls, buf), c: c}, nil
	}
}

// textRows runs f over the valid rows of a regular-expression function
// producing text (ok false: NULL).
func textRows(ev *evalCtx, args []vec, cache *reCache, flagArg int, f func(i int, s []byte, re *compiledRE, dst []byte) ([]byte, bool, error)) (vec, error) {
	if constNull(args) {
		return nullResult(ev, Text, args), nil
	}
	n, c := outLen(ev, args)
	b := array.NewStringBuilder(ev.mem)
	defer b.Release()
	b.Reserve(n)
	var buf []byte
	next := 0 // rows before next are appended
	size := built{ev: ev}
	err := regexRows(ev, args, cache, flagArg, func(i int, s []byte, re *compiledRE) error {
		for ; next < i; next++ {
			b.AppendNull()
		}
		next = i + 1
		out, ok, err := f(i, s, re, buf[:0])
		if err != nil {
			return err
		}
		if err := size.add(len(out)); err != nil {
			return err
		}
		buf = out
		if !ok {
			b.AppendNull()
			return nil
		}
		b.BinaryBuilder.Append(buf)
		return nil
	})
	if err != nil {
		return vec{}, err
	}
	for ; next < n; next++ {
		b.AppendNull()
	}
	return vec{arr: b.NewArray(), c: c}, nil
}

// regexReplaceKernel is regexp_replace(s, pattern, replacement [, flags])
// or regexp_replace(s, pattern, replacement, start [, n [, flags]]).
func regexReplaceKernel(ts []arrow.DataType) kernelFn {
	cache := &reCache{fn: "regexp_replace", glob: true}
	withStart := len(ts) >= 4 && kindOf(ts[3]) != kText
	flagArg := 3
	if withStart {
		flagArg = 5
	}
	return func(ev *evalCtx, args []vec) (vec, error) {
		ra := newRowArgs(args)
		return textRows(ev, args, cache, flagArg, func(i int, s []byte, re *compiledRE, dst []byte) ([]byte, bool, error) {
			from, nth := 0, int32(-1) // -1: the first match, or all with g
			if withStart {
				var err error
				if from, err = startByte(s, ra.n(3, i)); err != nil {
					return nil, false, err
				}
				if len(args) > 4 {
					if nth = ra.n(4, i); nth < 0 {
						return nil, false, badRegexParam("n", nth)
					}
				}
			}
			// The k-th match at or after from (k = 0: all of them) is
			// replaced, as the matches are found.
			k := 0
			if nth > 0 || nth < 0 && !re.global {
				k = max(int(nth), 1)
			}
			repl, prev, seen := ra.s(2, i), 0, 0
			var over error // the value outgrew what it may take
			check := budgetStep
			err := eachMatch(ev.ctx, re, s, func(m []int) bool {
				if m[0] < from {
					return true
				}
				if seen++; k > 0 && seen < k {
					return true
				}
				dst = append(dst, s[prev:m[0]]...)
				dst = appendReplacement(dst, repl, s, m)
				prev = m[1]
				if len(dst) >= check {
					check = len(dst) + budgetStep
					if over = ev.reserve(int64(len(dst)), int64(len(s)-prev)); over != nil {
						return false
					}
				}
				return k == 0
			})
			if over != nil {
				return nil, false, over
			}
			if err != nil {
				return nil, false, err
			}
			return append(dst, s[prev:]...), true, nil
		})
	}
}

// regexSubstrKernel is regexp_substr(s, pattern [, start [, n [, flags [,
// group]]]]): the n-th match at or after start, or its group; NULL when
// there is none.
func regexSubstrKernel(nargs int) kernelFn {
	cache := &reCache{fn: "regexp_substr"}
	return func(ev *evalCtx, args []vec) (vec, error) {
		ra := newRowArgs(args)
		return textRows(ev, args, cache, 4, func(i int, s []byte, re *compiledRE, dst []byte) ([]byte, bool, error) {
			from, nth, group := 0, int32(1), int32(0)
			var err error
			if nargs > 2 {
				if from, err = startByte(s, ra.n(2, i)); err != nil {
					return nil, false, err
				}
			}
			if nargs > 3 {
				if nth = ra.n(3, i); nth <= 0 {
					return nil, false, badRegexParam("n", nth)
				}
			}
			if nargs > 5 {
				if group = ra.n(5, i); group < 0 {
					return nil, false, badRegexParam("subexpr", group)
				}
			}
			var m []int
			seen := int32(0)
			if err := eachMatch(ev.ctx, re, s, func(x []int) bool {
				if x[0] >= from {
					if seen++; seen == nth {
						m = x
						return false
					}
				}
				return true
			}); err != nil {
				return nil, false, err
			}
			if m == nil {
				return dst, false, nil
			}
			if 2*int(group)+1 >= len(m) || m[2*group] < 0 {
				return dst, false, nil
			}
			return append(dst, s[m[2*group]:m[2*group+1]]...), true, nil
		})
	}
}

// regexSplitKernel is regexp_split_to_array(s, pattern [, flags]). Empty
// matches at the start or end of s or right after another match do not
// split.
func regexSplitKernel() kernelFn {
	cache := &reCache{fn: "regexp_split_to_array"}
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
			lb.Append(true)
			prev := 0
			err := eachMatchIndex(ev.ctx, re, s, func(m []int) bool {
				if m[0] >= len(s) || m[1] <= prev {
					return true
				}
				vb.BinaryBuilder.Append(s[prev:m[0]])
				prev = m[1]
				return true
			})
			vb.BinaryBuilder.Append(s[prev:])
			return err
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

// regexSubstringKernel is substring(s FROM pattern).
func regexSubstringKernel() kernelFn {
	cache := &reCache{fn: "substring"}
	return func(ev *evalCtx, args []vec) (vec, error) {
		return textRows(ev, args, cache, -1, func(i int, s []byte, re *compiledRE, dst []byte) ([]byte, bool, error) {
			m, err := firstMatch(ev.ctx, re, s, true)
			if err != nil {
				return nil, false, err
			}
			if m == nil {
				return dst, false, nil
			}
			if len(m) > 2 {
				m = m[2:4]
			}
			if m[0] < 0 {
				return dst, false, nil
			}
			return append(dst, s[m[0]:m[1]]...), true, nil
		})
	}
}
