package scan

import (
	"fmt"
	"math"
)

// Dictionary-encoded strings and binaries are gathered from a copy of the
// dictionary laid out for it: every value's bytes in one buffer and the
// offsets where each starts, so that a run of indexes is one pass that
// writes the batch's offsets and copies each value, with one reservation
// for the whole run. Values up to wordCopy bytes long (flags, modes,
// names and codes: most dictionary strings) are copied as one
// fixed-size word, not through memmove: the dictionary's buffer is padded
// so the word never reads past it, and the batch's buffer is reserved
// with the same slack.

// wordCopy is the length of the word short values are copied as.
const wordCopy = 32

// copyWord copies the first wordCopy bytes of src to dst, as two 16-byte
// moves (an array of 32 bytes is copied through memmove).
func copyWord(dst, src []byte) {
	d, s := (*[wordCopy]byte)(dst), (*[wordCopy]byte)(src)
	*(*[16]byte)(d[:16]) = *(*[16]byte)(s[:16])
	*(*[16]byte)(d[16:]) = *(*[16]byte)(s[16:])
}

// byteDict is a byte-array dictionary laid out for gathers.
type byteDict struct {
	// ok: built from the reader's current dictionary.
	ok bool
	// data holds the values one after the other, then wordCopy bytes of
	// padding; value i is data[offs[i]:offs[i+1]].
	data []byte
	offs []int32
	// maxLen is the length of the longest value.
	maxLen int
}

// build lays out vals, reusing the buffers of the previous dictionary.
func (d *byteDict) build(vals [][]byte) error {
	total, maxLen := 0, 0
	for _, v := range vals {
		total += len(v)
		maxLen = max(maxLen, len(v))
	}
	if total > math.MaxInt32-wordCopy {
		return fmt.Errorf("a dictionary holds more than %d bytes", math.MaxInt32-wordCopy)
	}
	data := d.data[:0]
	if cap(data) < total+wordCopy {
		data = make([]byte, 0, total+wordCopy)
	}
	offs := d.offs[:0]
	if cap(offs) < len(vals)+1 {
		offs = make([]int32, 0, len(vals)+1)
	}
	offs = append(offs, 0)
	for _, v := range vals {
		data = append(data, v...)
		offs = append(offs, int32(len(data)))
	}
	var pad [wordCopy]byte
	data = append(data, pad[:]...)
	d.data, d.offs, d.maxLen, d.ok = data, offs, maxLen, true
	return nil
}

// runBytes is how many bytes the values of idx hold together.
func (d *byteDict) runBytes(idx []int32) int {
	offs := d.offs
	total := 0
	for _, k := range idx {
		total += int(offs[k+1] - offs[k])
	}
	return total
}

// reserveRun makes room in o for the values of idx and wordCopy bytes of
// slack after them.
func (o *binaryOut) reserveRun(d *byteDict, idx []int32) error {
	// Short values reserve their upper bound, sparing a pass over the
	// indexes; longer ones (or a bound past the limit) what they need.
	need := len(idx) * d.maxLen
	if d.maxLen > wordCopy || o.size+need > math.MaxInt32 {
		need = d.runBytes(idx)
		if o.size+need > math.MaxInt32 {
			return fmt.Errorf("a batch of strings holds more than %d bytes", math.MaxInt32)
		}
	}
	if want := o.size + need + wordCopy; want > o.data.Cap() {
		o.data.Reserve(max(want, 2*o.data.Cap()))
	}
	return nil
}

// appendDictRun appends the dictionary values of idx as the rows at,
// at+1, ... of o. The indexes were checked when the page was loaded.
func appendDictRun(o *binaryOut, d *byteDict, at int, idx []int32) error {
	if err := o.reserveRun(d, idx); err != nil {
		return err
	}
	dst := o.data.Buf()
	src, offs := d.data, d.offs
	out := o.offs[at+1 : at+1+len(idx)]
	size := o.size
	if d.maxLen <= wordCopy {
		for j, k := range idx {
			start := offs[k]
			copyWord(dst[size:], src[start:])
			size += int(offs[k+1] - start)
			out[j] = int32(size)
		}
		o.size = size
		return nil
	}
	for j, k := range idx {
		start, end := offs[k], offs[k+1]
		if n := end - start; n <= wordCopy {
			copyWord(dst[size:], src[start:])
			size += int(n)
		} else {
			size += copy(dst[size:], src[start:end])
		}
		out[j] = int32(size)
	}
	o.size = size
	return nil
}

// appendDictDefs appends the rows at, at+1, ... of o whose definition
// levels are defs: those at maxDef take the dictionary values of idx in
// turn (and their bit in valid), the others are NULL.
func appendDictDefs(o *binaryOut, d *byteDict, at int, idx []int32, defs []byte, maxDef byte, valid []byte) error {
	if err := o.reserveRun(d, idx); err != nil {
		return err
	}
	dst := o.data.Buf()
	src, offs := d.data, d.offs
	out := o.offs[at+1 : at+1+len(defs)]
	size := o.size
	i := 0
	for j, def := range defs {
		if def == maxDef {
			k := idx[i]
			i++
			start, end := offs[k], offs[k+1]
			if n := end - start; n <= wordCopy {
				copyWord(dst[size:], src[start:])
				size += int(n)
			} else {
				size += copy(dst[size:], src[start:end])
			}
			valid[(at+j)>>3] |= 1 << ((at + j) & 7)
		}
		out[j] = int32(size)
	}
	o.size = size
	return nil
}

// appendPlainDefs appends the rows at, at+1, ... of o whose definition
// levels are defs from a PLAIN page: the rows at maxDef take the values
// data[offs[i]:offs[i+1]] in turn (and their bit in valid), the others are
// NULL. The values lie side by side in the page, so their bytes are one
// copy and only the offsets are written row by row.
func appendPlainDefs(o *binaryOut, data []byte, offs []uint32, at int, defs []byte, maxDef byte, valid []byte) error {
	start, end := offs[0], offs[len(offs)-1]
	if err := o.reserve(int(end - start)); err != nil {
		return err
	}
	base := int32(o.size) - int32(start)
	o.appendBytes(data[start:end])
	out := o.offs[at+1 : at+1+len(defs)]
	prev := base + int32(start)
	i := 1
	for j, def := range defs {
		if def == maxDef {
			prev = base + int32(offs[i])
			i++
			valid[(at+j)>>3] |= 1 << ((at + j) & 7)
		}
		out[j] = prev
	}
	return nil
}

// appendDictRunSel is appendDictRun but for the rows drop marks (bits of
// the batch's rows), which stay empty: no conjunct of the scan keeps them.
func appendDictRunSel(o *binaryOut, d *byteDict, at int, idx []int32, drop []uint64) error {
	if err := o.reserveRun(d, idx); err != nil {
		return err
	}
	dst := o.data.Buf()
	src, offs := d.data, d.offs
	out := o.offs[at+1 : at+1+len(idx)]
	size := o.size
	if d.maxLen <= wordCopy {
		// every value is copied, the size grows by the kept ones only: no
		// branch on the selection, which is often close to random
		for j, k := range idx {
			start := offs[k]
			copyWord(dst[size:], src[start:])
			row := uint(at + j)
			keep := 1 ^ int(drop[row>>6]>>(row&63)&1)
			size += int(offs[k+1]-start) * keep
			out[j] = int32(size)
		}
		o.size = size
		return nil
	}
	for j, k := range idx {
		if row := uint(at + j); drop[row>>6]>>(row&63)&1 == 0 {
			start, end := offs[k], offs[k+1]
			if n := end - start; n <= wordCopy {
				copyWord(dst[size:], src[start:])
				size += int(n)
			} else {
				size += copy(dst[size:], src[start:end])
			}
		}
		out[j] = int32(size)
	}
	o.size = size
	return nil
}
