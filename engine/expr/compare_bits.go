package expr

import (
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Word-at-a-time boolean results: the typed comparison kernels fill a
// boolean array 64 rows per uint64 word instead of setting bits one by
// one, and the logic kernels combine bitmaps word by word.

// wordsFor is the number of 64-bit words that hold n bits.
func wordsFor(n int) int { return (n + 63) >> 6 }

// newWords allocates a bitmap of n bits as words (the bits past n are
// zero; the buffer is a valid Arrow bitmap of n bits).
func newWords(mem memory.Allocator, n int) (*memory.Buffer, []uint64) {
	buf := memory.NewResizableBuffer(mem)
	nw := wordsFor(n)
	buf.Resize(nw * 8)
	if nw == 0 {
		return buf, nil
	}
	b := buf.Bytes()
	return buf, unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), nw)
}

// clearTail zeroes the bits at and past n of the last word.
func clearTail(w []uint64, n int) {
	if r := n & 63; r != 0 && len(w) > 0 {
		w[len(w)-1] &= 1<<r - 1
	}
}

// wordsOf returns n bits of bm starting at bit off as words: the bytes
// themselves when off is a multiple of 8 and whole words are readable
// (within bm's capacity: Arrow pads its buffers), else a copy. The bits
// of the last word past n are unspecified.
func wordsOf(bm []byte, off, n int) []uint64 {
	nw := wordsFor(n)
	if nw == 0 {
		return nil
	}
	if off&7 == 0 && cap(bm)-off>>3 >= nw*8 {
		b := bm[off>>3 : cap(bm)]
		if uintptr(unsafe.Pointer(&b[0]))&7 == 0 {
			return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), nw)
		}
	}
	out := make([]uint64, nw)
	dst := unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), nw*8)
	bitutil.CopyBitmap(bm, off, n, dst, 0)
	return out
}

// ValidWords returns the validity of a as n words (nil when a has no
// NULLs). The result may share a's memory: read it only.
func ValidWords(a arrow.Array) []uint64 {
	if a.NullN() == 0 {
		return nil
	}
	return wordsOf(a.NullBitmapBytes(), a.Data().Offset(), a.Len())
}

// TrueWords writes the rows of a boolean array that are TRUE (valid and
// set) into dst (grown as needed) as a bitmap of words and returns it; the
// bits past a.Len() are zero. A Null-typed array has no TRUE row.
func TrueWords(dst []uint64, a arrow.Array) []uint64 {
	n := a.Len()
	nw := wordsFor(n)
	if cap(dst) < nw {
		dst = make([]uint64, nw)
	}
	dst = dst[:nw]
	d := a.Data()
	bufs := d.Buffers()
	if n == 0 || a.DataType().ID() != arrow.BOOL || len(bufs) < 2 || bufs[1] == nil || a.NullN() == n {
		clear(dst)
		return dst
	}
	copy(dst, wordsOf(bufs[1].Bytes(), d.Offset(), n))
	if v := ValidWords(a); v != nil {
		for i := range dst {
			dst[i] &= v[i]
		}
	}
	clearTail(dst, n)
	return dst
}

// CountWords counts the set bits of a bitmap.
func CountWords(w []uint64) int {
	c := 0
	for _, x := range w {
		c += bits.OnesCount64(x)
	}
	return c
}

// AppendSetRows appends the positions of the set bits of w (below n) to
// dst.
func AppendSetRows(dst []int32, w []uint64) []int32 {
	for k, x := range w {
		base := int32(k << 6)
		for x != 0 {
			dst = append(dst, base+int32(bits.TrailingZeros64(x)))
			x &= x - 1
		}
	}
	return dst
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint64 {
	var u uint64
	if b {
		u = 1
	}
	return u
}

// finishWords makes the boolean result of n rows from value words and the
// strict validity (valid, nulls as andValidity returns them). Values under
// NULLs are cleared so that the bits alone tell TRUE rows.
func finishWords(vbuf *memory.Buffer, w []uint64, n int, valid *memory.Buffer, nulls int) arrow.Array {
	if valid != nil {
		vw := wordsOf(valid.Bytes(), 0, n)
		for i := range w {
			w[i] &= vw[i]
		}
	}
	clearTail(w, n)
	return makeFixed(Bool, n, valid, nulls, vbuf)
}
