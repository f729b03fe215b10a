package scan

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// value returns the page's non-null value d of a direct byte-array reader.
func (r *flatReader[T]) value(d int) []byte {
	br := any(r).(*flatReader[[]byte])
	switch r.lazy {
	case lazyBytes:
		return r.bytes[r.offs[d]:r.offs[d+1]]
	case lazyDict:
		return br.dictVals[r.idx[d]]
	}
	return br.vals[d]
}

// byteDictionary is the current dictionary of a direct byte-array reader
// laid out for gathers, built on first use after each dictionary page.
func (r *flatReader[T]) byteDictionary() (*byteDict, error) {
	br := any(r).(*flatReader[[]byte])
	if !br.bdict.ok {
		if err := br.bdict.build(br.dictVals); err != nil {
			return nil, err
		}
	}
	return &br.bdict, nil
}

// binaryOut is the offsets and data of a string or binary array being
// built.
type binaryOut struct {
	offs []int32
	data *memory.Buffer
	size int
}

// reserve makes room for extra more bytes of data.
func (o *binaryOut) reserve(extra int) error {
	if o.size+extra > math.MaxInt32 {
		return fmt.Errorf("a batch of strings holds more than %d bytes", math.MaxInt32)
	}
	if need := o.size + extra; need > o.data.Cap() {
		o.data.Reserve(max(need, 2*o.data.Cap()))
	}
	return nil
}

func (o *binaryOut) appendBytes(b []byte) {
	copy(o.data.Buf()[o.size:], b)
	o.size += len(b)
}

// readBinaryArray is readArray for strings and binaries: the offsets and
// bytes of the batch are written straight into its buffers.
func (r *flatReader[T]) readBinaryArray(mem memory.Allocator, dt arrow.DataType, n int) (arrow.Array, error) {
	offsets := memory.NewResizableBuffer(mem)
	offsets.Resize((n + 1) * 4)
	o := binaryOut{
		offs: unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(offsets.Bytes()))), n+1),
		data: memory.NewResizableBuffer(mem),
	}
	o.data.Reserve(n * 8)
	o.offs[0] = 0
	var v validityBits
	release := func() {
		offsets.Release()
		o.data.Release()
		v.release()
	}
	c := &r.cur
	for at := 0; at < n; {
		if c.page == nil || c.i >= c.n {
			if err := r.nextPage(n - at); err != nil {
				release()
				return nil, err
			}
			continue
		}
		k := min(n-at, c.n-c.i)
		var defs []byte
		nn := k
		if len(c.defs) > 0 {
			defs = c.defs[c.i : c.i+k]
			nn = presentCount(defs, c.maxDef)
		}
		if r.markRun(at, k, c.d, nn, defs, c.maxDef) {
			// values nothing reads (judged by code, their codes checked
			// when the page was loaded): empty
			out := o.offs[at+1 : at+1+k]
			for j := range out {
				out[j] = int32(o.size)
			}
			v.setRun(at, k)
		} else if nn == k {
			if err := r.appendRun(&o, at, c.d, k); err != nil {
				release()
				return nil, err
			}
			v.setRun(at, k)
		} else if r.lazy == lazyDict {
			bd, err := r.byteDictionary()
			if err != nil {
				release()
				return nil, err
			}
			valid := v.start(mem, n, at)
			if err := appendDictDefs(&o, bd, at, r.idx[c.d:c.d+nn], defs, c.maxDef, valid); err != nil {
				release()
				return nil, err
			}
			v.nulls += k - nn
		} else if r.lazy == lazyBytes {
			valid := v.start(mem, n, at)
			if err := appendPlainDefs(&o, r.bytes, r.offs[c.d:c.d+nn+1], at, defs, c.maxDef, valid); err != nil {
				release()
				return nil, err
			}
			v.nulls += k - nn
		} else {
			valid := v.start(mem, n, at)
			d := c.d
			for j, def := range defs {
				if def == c.maxDef {
					v := r.value(d)
					if err := o.reserve(len(v)); err != nil {
						release()
						return nil, err
					}
					o.appendBytes(v)
					bitutil.SetBit(valid, at+j)
					d++
				}
				o.offs[at+j+1] = int32(o.size)
			}
			v.nulls += k - nn
		}
		c.d += nn
		c.i += k
		at += k
	}
	r.judged(n)
	o.data.ResizeNoShrink(o.size)
	d := array.NewData(dt, n, []*memory.Buffer{v.buffer(), offsets, o.data}, nil, v.nulls, 0)
	arr := array.MakeFromData(d)
	d.Release()
	release()
	return arr, nil
}

// appendRun appends the k non-null values from the page's value d on as
// the rows at, at+1, ... of o.
func (r *flatReader[T]) appendRun(o *binaryOut, at, d, k int) error {
	if r.lazy == lazyBytes {
		start, end := r.offs[d], r.offs[d+k]
		if err := o.reserve(int(end - start)); err != nil {
			return err
		}
		base := int32(o.size) - int32(start)
		for j, off := range r.offs[d+1 : d+k+1] {
			o.offs[at+j+1] = base + int32(off)
		}
		o.appendBytes(r.bytes[start:end])
		return nil
	}
	if r.lazy == lazyDict {
		bd, err := r.byteDictionary()
		if err != nil {
			return err
		}
		if sel := r.sel; sel != nil && sel.n >= at+k {
			return appendDictRunSel(o, bd, at, r.idx[d:d+k], sel.drop)
		}
		return appendDictRun(o, bd, at, r.idx[d:d+k])
	}
	for j := range k {
		v := r.value(d + j)
		if err := o.reserve(len(v)); err != nil {
			return err
		}
		o.appendBytes(v)
		o.offs[at+j+1] = int32(o.size)
	}
	return nil
}
