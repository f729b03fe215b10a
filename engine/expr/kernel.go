package expr

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Building blocks of the typed kernels: raw value slices of fixed-width
// arrays, output buffers, and validity bitmaps.

// values returns the values of a fixed-width array (offset applied). T
// must have the byte width of a's type.
func values[T any](a arrow.Array) []T {
	d := a.Data()
	var zero T
	w := int(unsafe.Sizeof(zero))
	end := d.Offset() + d.Len()
	bufs := d.Buffers()
	if len(bufs) < 2 || bufs[1] == nil || bufs[1].Len() < end*w || end == 0 {
		// No values buffer (an all-NULL or empty array): zeros stand in.
		return make([]T, d.Len())
	}
	b := bufs[1].Bytes()
	all := unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/w)
	return all[d.Offset():end]
}

// outBuf allocates a values buffer of n values of T.
func outBuf[T any](mem memory.Allocator, n int) (*memory.Buffer, []T) {
	var zero T
	w := int(unsafe.Sizeof(zero))
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * w)
	b := buf.Bytes()
	if n == 0 {
		return buf, nil
	}
	return buf, unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}

// makeFixed wraps a values buffer and validity into an array of type t.
// It takes over the buffers' references.
func makeFixed(t arrow.DataType, n int, valid *memory.Buffer, nulls int, vals *memory.Buffer) arrow.Array {
	d := array.NewData(t, n, []*memory.Buffer{valid, vals}, nil, nulls, 0)
	defer d.Release()
	if valid != nil {
		valid.Release()
	}
	vals.Release()
	return array.MakeFromData(d)
}

// bitmap is the validity of one argument: nil bytes = all valid.
type bitmap struct {
	b   []byte
	off int
	m   int // index mask (0 for a constant)
}

func validityOf(v vec) bitmap {
	if v.arr.NullN() == 0 {
		return bitmap{}
	}
	return bitmap{b: v.arr.NullBitmapBytes(), off: v.arr.Data().Offset(), m: v.idx()}
}

func (bm bitmap) valid(i int) bool {
	if bm.b == nil {
		return true
	}
	j := bm.off + i&bm.m
	return bm.b[j>>3]&(1<<(j&7)) != 0
}

// andValidity computes the validity of a strict function's result over n
// rows: a row is valid when every argument is. nil = no NULLs.
func andValidity(mem memory.Allocator, n int, args []vec) (*memory.Buffer, int) {
	any := false
	for _, a := range args {
		if a.arr.NullN() > 0 {
			any = true
		}
	}
	if !any {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	out := buf.Bytes()
	first := true
	for _, a := range args {
		if a.arr.NullN() == 0 {
			continue
		}
		bm := validityOf(a)
		if first && !a.c && bm.off == 0 {
			copy(out, bm.b[:len(out)])
			first = false
			continue
		}
		if first {
			for i := range out {
				out[i] = 0xff
			}
			first = false
		}
		if !a.c && bm.off == 0 {
			for i := range out {
				out[i] &= bm.b[i]
			}
			continue
		}
		for i := 0; i < n; i++ {
			if !bm.valid(i) {
				out[i>>3] &^= 1 << (i & 7)
			}
		}
	}
	nulls := n - bitutil.CountSetBits(out, 0, n)
	return buf, nulls
}

// constNull reports whether any argument is a constant NULL (or of the
// Null type): a strict function's result is then NULL.
func constNull(args []vec) bool {
	for _, a := range args {
		if a.arr.DataType().ID() == arrow.NULL {
			return true
		}
		if a.c && a.arr.IsNull(0) {
			return true
		}
	}
	return false
}

// nullResult is the all-NULL result of type t for args.
func nullResult(ev *evalCtx, t arrow.DataType, args []vec) vec {
	n, c := outLen(ev, args)
	return vec{arr: makeNulls(ev.mem, t, n), c: c}
}

// boolOut is a boolean result under construction.
type boolOut struct {
	buf  *memory.Buffer
	bits []byte
}

func newBoolOut(mem memory.Allocator, n int) boolOut {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(n))))
	b := buf.Bytes()
	for i := range b {
		b[i] = 0
	}
	return boolOut{buf: buf, bits: b}
}

func (o boolOut) set(i int) { o.bits[i>>3] |= 1 << (i & 7) }

func (o boolOut) finish(n int, valid *memory.Buffer, nulls int) arrow.Array {
	return makeFixed(Bool, n, valid, nulls, o.buf)
}

// boolValues reads a boolean array's bits.
type boolBits struct {
	b   []byte
	off int
	m   int
}

func boolsOf(v vec) boolBits {
	d := v.arr.Data()
	need := int(bitutil.BytesForBits(int64(d.Offset() + d.Len())))
	if bufs := d.Buffers(); len(bufs) > 1 && bufs[1] != nil && bufs[1].Len() >= need {
		return boolBits{b: bufs[1].Bytes(), off: d.Offset(), m: v.idx()}
	}
	return boolBits{b: make([]byte, need+1), off: d.Offset(), m: v.idx()}
}

func (bb boolBits) get(i int) bool {
	j := bb.off + i&bb.m
	return bb.b[j>>3]&(1<<(j&7)) != 0
}

// bytesOf reads variable-width binary/string values without copying.
type bytesOf struct {
	offs []int32
	data []byte
	m    int
}

func binaryOf(v vec) bytesOf {
	d := v.arr.Data()
	ob := d.Buffers()[1].Bytes()
	if len(ob) < 4 {
		return bytesOf{m: v.idx(), offs: []int32{0, 0}}
	}
	all := unsafe.Slice((*int32)(unsafe.Pointer(&ob[0])), len(ob)/4)
	offs := all[d.Offset() : d.Offset()+d.Len()+1]
	var data []byte
	if b := d.Buffers()[2]; b != nil {
		data = b.Bytes()
	}
	return bytesOf{offs: offs, data: data, m: v.idx()}
}

func (s bytesOf) get(i int) []byte {
	i &= s.m
	return s.data[s.offs[i]:s.offs[i+1]]
}

// fixedBytesOf reads FixedSizeBinary values.
type fixedBytesOf struct {
	data []byte
	w    int
	off  int
	m    int
}

func fixedBinaryOf(v vec) fixedBytesOf {
	d := v.arr.Data()
	w := v.arr.DataType().(*arrow.FixedSizeBinaryType).ByteWidth
	var data []byte
	if b := d.Buffers()[1]; b != nil {
		data = b.Bytes()
	}
	return fixedBytesOf{data: data, w: w, off: d.Offset(), m: v.idx()}
}

func (f fixedBytesOf) get(i int) []byte {
	j := (f.off + i&f.m) * f.w
	return f.data[j : j+f.w]
}
