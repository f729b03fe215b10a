package expr

import (
	"bytes"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// String functions. Text is UTF-8; positions and lengths count characters;
// lower/upper fold by Unicode case rules (PostgreSQL under a UTF-8 locale).

// rowArgs reads text and int4 arguments by row.
type rowArgs struct {
	txt  []bytesOf
	ints [][]int32
	im   []int
	// out counts what the kernel built for the batch, when it checks
	// (limits.go); reserve checks a value before it is built.
	out built
}

// reserve checks that the kernel may build a value of n bytes now.
func (r *rowArgs) reserve(n int64) error {
	if r.out.ev == nil {
		if n > MaxValueBytes {
			return errTooLong
		}
		return nil
	}
	return r.out.ev.reserve(r.out.total, n)
}

func newRowArgs(args []vec) *rowArgs {
	r := &rowArgs{txt: make([]bytesOf, len(args)), ints: make([][]int32, len(args)), im: make([]int, len(args))}
	for j, a := range args {
		switch kindOf(a.arr.DataType()) {
		case kText, kBytea:
			r.txt[j] = binaryOf(a)
		case kInt4:
			r.ints[j] = values[int32](a.arr)
			r.im[j] = a.idx()
		}
	}
	return r
}

func (r *rowArgs) s(j, i int) []byte { return r.txt[j].get(i) }
func (r *rowArgs) n(j, i int) int32  { return r.ints[j][i&r.im[j]] }

// strictText is a strict kernel producing text, one row at a time.
func strictText(f func(r *rowArgs, i int, dst []byte) ([]byte, error)) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Text, args), nil
		}
		n, c := outLen(ev, args)
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
			defer valid.Release()
		}
		_ = nulls
		ra := newRowArgs(args)
		ra.out.ev = ev
		b := array.NewStringBuilder(ev.mem)
		defer b.Release()
		b.Reserve(n)
		var buf []byte
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				b.AppendNull()
				continue
			}
			var err error
			buf, err = f(ra, i, buf[:0])
			if err != nil {
				return vec{}, err
			}
			if err := ra.out.add(len(buf)); err != nil {
				return vec{}, err
			}
			b.BinaryBuilder.Append(buf)
		}
		return vec{arr: b.NewArray(), c: c}, nil
	}
}

// strictInt4 is a strict kernel producing int4.
func strictInt4(f func(r *rowArgs, i int) int32) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Int4, args), nil
		}
		n, c := outLen(ev, args)
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		ra := newRowArgs(args)
		buf, out := outBuf[int32](ev.mem, n)
		for i := 0; i < n; i++ {
			if vb.valid(i) {
				out[i] = f(ra, i)
			} else {
				out[i] = 0
			}
		}
		return vec{arr: makeFixed(Int4, n, valid, nulls, buf), c: c}, nil
	}
}

func caseKernel(upper bool) kernelFn {
	return strictText(func(r *rowArgs, i int, dst []byte) ([]byte, error) {
		s := r.s(0, i)
		ascii := true
		for _, ch := range s {
			if ch >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		if !ascii {
			if upper {
				return append(dst, bytes.ToUpper(s)...), nil
			}
			return append(dst, bytes.ToLower(s)...), nil
		}
		for _, ch := range s {
			if upper && 'a' <= ch && ch <= 'z' {
				ch -= 'a' - 'A'
			} else if !upper && 'A' <= ch && ch <= 'Z' {
				ch += 'a' - 'A'
			}
			dst = append(dst, ch)
		}
		return dst, nil
	})
}

func lengthKernel(t arrow.DataType) kernelFn {
	if kindOf(t) == kBytea {
		return strictInt4(func(r *rowArgs, i int) int32 { return int32(len(r.s(0, i))) })
	}
	return strictInt4(func(r *rowArgs, i int) int32 { return int32(utf8.RuneCount(r.s(0, i))) })
}

// charOffset is the byte offset of the k-th character (0-based) of s,
// len(s) when s has fewer.
func charOffset(s []byte, k int64) int {
	off := 0
	for ; k > 0 && off < len(s); k-- {
		if s[off] < utf8.RuneSelf {
			off++
			continue
		}
		_, w := utf8.DecodeRune(s[off:])
		off += w
	}
	return off
}

func substrKernel(nargs int) kernelFn {
	return strictText(func(r *rowArgs, i int, dst []byte) ([]byte, error) {
		s := r.s(0, i)
		start := int64(r.n(1, i))
		end := int64(1) << 62
		if nargs == 3 {
			cnt := int64(r.n(2, i))
			if cnt < 0 {
				return nil, pgerr.New(pgerr.SubstringError, "negative substring length not allowed")
			}
			end = start + cnt
		}
		if start < 1 {
			start = 1
		}
		if end <= start {
			return dst, nil
		}
		b := charOffset(s, start-1)
		e := b + charOffset(s[b:], end-start)
		return append(dst, s[b:e]...), nil
	})
}

func strposKernel() kernelFn {
	return strictInt4(func(r *rowArgs, i int) int32 {
		s, sub := r.s(0, i), r.s(1, i)
		k := bytes.Index(s, sub)
		if k < 0 {
			return 0
		}
		return int32(utf8.RuneCount(s[:k])) + 1
	})
}

// trimKernel is btrim (left and right), ltrim or rtrim.
func trimKernel(left, right bool, nargs int) kernelFn {
	return strictText(func(r *rowArgs, i int, dst []byte) ([]byte, error) {
		s := r.s(0, i)
		chars := []byte(" ")
		if nargs == 2 {
			chars = r.s(1, i)
		}
		in := func(c rune) bool { return bytes.ContainsRune(chars, c) }
		if left {
			for len(s) > 0 {
				c, w := utf8.DecodeRune(s)
				if !in(c) {
					break
				}
				s = s[w:]
			}
		}
		if right {
			for len(s) > 0 {
				c, w := utf8.DecodeLastRune(s)
				if !in(c) {
					break
				}
				s = s[:len(s)-w]
			}
		}
		return append(dst, s...), nil
	})
}

func replaceKernel() kernelFn {
	return strictText(func(r *rowArgs, i int, dst []byte) ([]byte, error) {
		s, from, to := r.s(0, i), r.s(1, i), r.s(2, i)
		if len(from) == 0 {
			return append(dst, s...), nil
		}
		if len(to) > len(from) && len(s) >= budgetStep {
			// The value grows: its size is known before it is built.
			if err := r.reserve(int64(len(s)) + int64(bytes.Count(s, from))*int64(len(to)-len(from))); err != nil {
				return nil, err
			}
		}
		for {
			k := bytes.Index(s, from)
			if k < 0 {
				break
			}
			dst = append(dst, s[:k]...)
			dst = append(dst, to...)
			s = s[k+len(from):]
		}
		return append(dst, s...), nil
	})
}

func catKernel() kernelFn {
	return strictText(func(r *rowArgs, i int, dst []byte) ([]byte, error) {
		a, b := r.s(0, i), r.s(1, i)
		if err := r.reserve(int64(len(a)) + int64(len(b))); err != nil {
			return nil, err
		}
		return append(append(dst, a...), b...), nil
	})
}

// concatKernel is concat(...): text arguments, NULLs skipped, never NULL.
func concatKernel(ev *evalCtx, args []vec) (vec, error) {
	n, c := outLen(ev, args)
	vs := make([]bitmap, len(args))
	for j, a := range args {
		vs[j] = nullableValidity(a)
	}
	ra := newRowArgs(args)
	out := built{ev: ev}
	b := array.NewStringBuilder(ev.mem)
	defer b.Release()
	var buf []byte
	for i := 0; i < n; i++ {
		buf = buf[:0]
		var size int64
		for j := range args {
			if vs[j].valid(i) {
				size += int64(len(ra.s(j, i)))
			}
		}
		if err := ev.reserve(out.total, size); err != nil {
			return vec{}, err
		}
		for j := range args {
			if vs[j].valid(i) {
				buf = append(buf, ra.s(j, i)...)
			}
		}
		if err := out.add(len(buf)); err != nil {
			return vec{}, err
		}
		b.BinaryBuilder.Append(buf)
	}
	return vec{arr: b.NewArray(), c: c}, nil
}

// byteaCatKernel is bytea || bytea.
func byteaCatKernel(ev *evalCtx, args []vec) (vec, error) {
	if constNull(args) {
		return nullResult(ev, Bytea, args), nil
	}
	n, c := outLen(ev, args)
	l, lok := args[0].arr.(*array.Binary)
	r, rok := args[1].arr.(*array.Binary)
	if !lok || !rok {
		return vec{}, wrongArgs("||", []arrow.DataType{args[0].arr.DataType(), args[1].arr.DataType()})
	}
	ml, mr := args[0].idx(), args[1].idx()
	b := array.NewBinaryBuilder(ev.mem, arrow.BinaryTypes.Binary)
	defer b.Release()
	b.Reserve(n)
	var buf []byte
	out := built{ev: ev}
	for i := 0; i < n; i++ {
		if l.IsNull(i&ml) || r.IsNull(i&mr) {
			b.AppendNull()
			continue
		}
		if err := ev.reserve(out.total, int64(len(l.Value(i&ml)))+int64(len(r.Value(i&mr)))); err != nil {
			return vec{}, err
		}
		buf = append(append(buf[:0], l.Value(i&ml)...), r.Value(i&mr)...)
		if err := out.add(len(buf)); err != nil {
			return vec{}, err
		}
		b.Append(buf)
	}
	return vec{arr: b.NewArray(), c: c}, nil
}
