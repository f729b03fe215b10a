package expr

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// Kernels of the text functions of str_funcs.go. Positions and lengths
// count characters (UTF-8 code points).

// maxTextBytes is PostgreSQL's largest value (1 GB less its header).
const maxTextBytes = 0x3fffffff - 4

var errTooLong = pgerr.New(pgerr.ProgramLimitExceeded, "requested length too large")

// charCount is the number of characters of s.
func charCount(s []byte) int { return utf8.RuneCount(s) }

// lastChars is the suffix of s holding its last k characters (all of s
// when it has fewer).
func lastChars(s []byte, k int) []byte {
	end := len(s)
	for ; k > 0 && end > 0; k-- {
		_, w := utf8.DecodeLastRune(s[:end])
		end -= w
	}
	return s[end:]
}

func splitPart(r *rowArgs, i int, dst []byte) ([]byte, error) {
	s, sep, k := r.s(0, i), r.s(1, i), int(r.n(2, i))
	if k == 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "field position must not be zero")
	}
	if len(s) == 0 {
		return dst, nil
	}
	if len(sep) == 0 {
		if k == 1 || k == -1 {
			return append(dst, s...), nil
		}
		return dst, nil
	}
	if k < 0 {
		n := bytes.Count(s, sep) + 1
		k += n + 1
		if k <= 0 {
			return dst, nil
		}
	}
	for ; k > 1; k-- {
		j := bytes.Index(s, sep)
		if j < 0 {
			return dst, nil
		}
		s = s[j+len(sep):]
	}
	if j := bytes.Index(s, sep); j >= 0 {
		s = s[:j]
	}
	return append(dst, s...), nil
}

func leftChars(r *rowArgs, i int, dst []byte) ([]byte, error) {
	s, k := r.s(0, i), int64(r.n(1, i))
	if k < 0 {
		k += int64(charCount(s))
		if k <= 0 {
			return dst, nil
		}
	}
	return append(dst, s[:charOffset(s, k)]...), nil
}

func rightChars(r *rowArgs, i int, dst []byte) ([]byte, error) {
	s, k := r.s(0, i), int64(r.n(1, i))
	if k < 0 {
		return append(dst, s[charOffset(s, -k):]...), nil
	}
	return append(dst, lastChars(s, int(k))...), nil
}

func repeatText(r *rowArgs, i int, dst []byte) ([]byte, error) {
	s, k := r.s(0, i), int64(r.n(1, i))
	if k <= 0 || len(s) == 0 {
		return dst, nil
	}
	if k*int64(len(s)) > maxTextBytes {
		return nil, errTooLong
	}
	if err := r.reserve(k * int64(len(s))); err != nil {
		return nil, err
	}
	for ; k > 0; k-- {
		dst = append(dst, s...)
	}
	return dst, nil
}

// padText is lpad (left) or rpad: s cut or filled to k characters.
func padText(left bool, nargs int) func(r *rowArgs, i int, dst []byte) ([]byte, error) {
	space := []byte(" ")
	return func(r *rowArgs, i int, dst []byte) ([]byte, error) {
		s, k := r.s(0, i), int(r.n(1, i))
		fill := space
		if nargs == 3 {
			fill = r.s(2, i)
		}
		if k <= 0 {
			return dst, nil
		}
		if k > maxTextBytes/utf8.UTFMax {
			return nil, errTooLong
		}
		perChar := 1 // bytes of one fill character, rounded up
		if nf := charCount(fill); nf > 0 {
			perChar = (len(fill) + nf - 1) / nf
		}
		if err := r.reserve(int64(k) * int64(perChar)); err != nil {
			return nil, err
		}
		have := charCount(s)
		if have >= k || len(fill) == 0 {
			return append(dst, s[:charOffset(s, int64(k))]...), nil
		}
		if !left {
			dst = append(dst, s...)
		}
		for need, f := k-have, fill; need > 0; need-- {
			c, w := utf8.DecodeRune(f)
			dst = utf8.AppendRune(dst, c)
			if f = f[w:]; len(f) == 0 {
				f = fill
			}
		}
		if left {
			dst = append(dst, s...)
		}
		return dst, nil
	}
}

func reverseText(r *rowArgs, i int, dst []byte) ([]byte, error) {
	s := r.s(0, i)
	for len(s) > 0 {
		_, w := utf8.DecodeLastRune(s)
		dst = append(dst, s[len(s)-w:]...)
		s = s[:len(s)-w]
	}
	return dst, nil
}

// initcap upper-cases the first letter of each run of letters and digits
// and lower-cases the rest.
func initcap(r *rowArgs, i int, dst []byte) ([]byte, error) {
	inWord := false
	for _, c := range string(r.s(0, i)) {
		if inWord {
			c = unicode.ToLower(c)
		} else {
			c = unicode.ToUpper(c)
		}
		inWord = unicode.IsLetter(c) || unicode.IsDigit(c)
		dst = utf8.AppendRune(dst, c)
	}
	return dst, nil
}

func asciiOf(r *rowArgs, i int) int32 {
	s := r.s(0, i)
	if len(s) == 0 {
		return 0
	}
	c, _ := utf8.DecodeRune(s)
	return c
}

func chrOf(r *rowArgs, i int, dst []byte) ([]byte, error) {
	c := r.n(0, i)
	switch {
	case c == 0:
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "null character not permitted")
	case c < 0:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "character number must be positive")
	case c > unicode.MaxRune:
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "requested character too large for encoding: %d", c)
	case c >= 0xD800 && c <= 0xDFFF:
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "requested character not valid for encoding: %d", c)
	}
	return utf8.AppendRune(dst, c), nil
}

// translateText replaces each character of s found in from by the
// character at the same position of to, or drops it when to is shorter.
func translateText(r *rowArgs, i int, dst []byte) ([]byte, error) {
	s, from, to := r.s(0, i), r.s(1, i), r.s(2, i)
	for len(s) > 0 {
		c, w := utf8.DecodeRune(s)
		s = s[w:]
		pos, found := 0, false
		for f := from; len(f) > 0; pos++ {
			fc, fw := utf8.DecodeRune(f)
			if fc == c {
				found = true
				break
			}
			f = f[fw:]
		}
		if !found {
			dst = utf8.AppendRune(dst, c)
			continue
		}
		if off := charOffset(to, int64(pos)); off < len(to) {
			tc, _ := utf8.DecodeRune(to[off:])
			dst = utf8.AppendRune(dst, tc)
		}
	}
	return dst, nil
}

// overlayText is overlay(s placing sub from start [for count]): the
// characters before start, sub, then s from start+count on.
func overlayText(nargs int) func(r *rowArgs, i int, dst []byte) ([]byte, error) {
	return func(r *rowArgs, i int, dst []byte) ([]byte, error) {
		s, sub, start := r.s(0, i), r.s(1, i), int64(r.n(2, i))
		count := int64(charCount(sub))
		if nargs == 4 {
			count = int64(r.n(3, i))
		}
		if start <= 0 {
			return nil, pgerr.New(pgerr.SubstringError, "negative substring length not allowed")
		}
		rest := start + count
		if rest > 1<<31-1 || rest < -1<<31 {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
		}
		dst = append(dst, s[:charOffset(s, start-1)]...)
		dst = append(dst, sub...)
		if rest < 1 {
			rest = 1
		}
		return append(dst, s[charOffset(s, rest-1):]...), nil
	}
}

// strictBool is a strict kernel producing bool.
func strictBool(f func(r *rowArgs, i int) bool) kernelFn {
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
		for i := 0; i < n; i++ {
			if vb.valid(i) && f(ra, i) {
				out.set(i)
			}
		}
		return vec{arr: out.finish(n, valid, nulls), c: c}, nil
	}
}

var startsWithKernel = strictBool(func(r *rowArgs, i int) bool { return bytes.HasPrefix(r.s(0, i), r.s(1, i)) })

// strictBytea is a strict kernel producing bytea, one row at a time.
func strictBytea(f func(r *rowArgs, i int, dst []byte) ([]byte, error)) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Bytea, args), nil
		}
		n, c := outLen(ev, args)
		valid, _ := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
			defer valid.Release()
		}
		ra := newRowArgs(args)
		b := array.NewBinaryBuilder(ev.mem, arrow.BinaryTypes.Binary)
		defer b.Release()
		b.Reserve(n)
		var buf []byte
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				b.AppendNull()
				continue
			}
			var err error
			if buf, err = f(ra, i, buf[:0]); err != nil {
				return vec{}, err
			}
			b.Append(buf)
		}
		return vec{arr: b.NewArray(), c: c}, nil
	}
}

// concatWSKernel is concat_ws(sep, ...): NULL when sep is NULL, NULL values
// skipped.
func concatWSKernel(ev *evalCtx, args []vec) (vec, error) {
	n, c := outLen(ev, args)
	vs := make([]bitmap, len(args))
	for j, a := range args {
		vs[j] = nullableValidity(a)
	}
	ra := newOutputRow(args)
	b := array.NewStringBuilder(ev.mem)
	defer b.Release()
	var buf []byte
	out := built{ev: ev}
	for i := 0; i < n; i++ {
		if !vs[0].valid(i) {
			b.AppendNull()
			continue
		}
		var size int64
		for j := 1; j < len(args); j++ {
			if vs[j].valid(i) {
				size += int64(len(ra.s(0, i)) + len(ra.s(j, i)))
			}
		}
		if err := ev.reserve(out.total, size); err != nil {
			return vec{}, err
		}
		buf = buf[:0]
		first := true
		for j := 1; j < len(args); j++ {
			if !vs[j].valid(i) {
				continue
			}
			if !first {
				buf = append(buf, ra.s(0, i)...)
			}
			first = false
			buf = append(buf, ra.s(j, i)...)
		}
		if err := out.add(len(buf)); err != nil {
			return vec{}, err
		}
		b.BinaryBuilder.Append(buf)
	}
	return vec{arr: b.NewArray(), c: c}, nil
}

// outputRow reads text arguments, and boolean ones as PostgreSQL's output
// function prints them (t, f).
type outputRow struct {
	*rowArgs
	bools []boolBits // non-nil .b for boolean arguments
}

func newOutputRow(args []vec) outputRow {
	o := outputRow{rowArgs: newRowArgs(args), bools: make([]boolBits, len(args))}
	for j, a := range args {
		if kindOf(a.arr.DataType()) == kBool {
			o.bools[j] = boolsOf(a)
		}
	}
	return o
}

var boolText = [2][]byte{[]byte("f"), []byte("t")}

func (o outputRow) s(j, i int) []byte {
	if o.bools[j].b != nil {
		if o.bools[j].get(i) {
			return boolText[1]
		}
		return boolText[0]
	}
	return o.rowArgs.s(j, i)
}
