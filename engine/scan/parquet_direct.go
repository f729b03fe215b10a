package scan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go/encoding"
)

// Fixed-width columns are read straight into the value buffer of the
// batch's array: no builder, one pass over the page's values (decimals
// stored as INT64 are widened on the way), a validity bitmap only when
// the batch has nulls, and buffers from the scan's recycler.

// arrayReader is a leaf reader that can build a batch's array itself.
type arrayReader interface {
	// setDirect makes the reader serve readArray (and skipping reads)
	// only, for arrays of type dt; it reports false when it cannot (values
	// neither fixed-width nor strings or binaries).
	setDirect(dt arrow.DataType) bool
	// readArray reads the next n rows (n > 0) as an array of type dt
	// whose buffers come from mem.
	readArray(mem memory.Allocator, dt arrow.DataType, n int) (arrow.Array, error)
}

// newFixed is newFlat for fixed-width Arrow element types.
func newFixed[T any](fn func(v encoding.Values, count int, dst []T) ([]T, error), copies bool,
	app func(b array.Builder, v []T, valid []bool)) leafReader {
	return &flatReader[T]{decode: valueDecoder[T]{fn: fn, copies: copies}, appendTo: app, fixed: true}
}

// widenDecimals converts INT64 unscaled values to 128-bit decimals. The
// high word is the sign extension of the low one: no branch per value
// (decimal128.FromI64 branches on the sign).
func widenDecimals(dst []decimal128.Num, src []int64) {
	src = src[:len(dst)]
	for i, x := range src {
		dst[i] = decimal128.New(x>>63, uint64(x))
	}
}

// lazyValues says where a direct reader's current page values are.
type lazyValues uint8

const (
	lazyNone  lazyValues = iota // in vals
	lazyWide                    // src64, converted by widen64
	lazyDict                    // dictVals[idx[i]]
	lazyBytes                   // bytes[offs[i]:offs[i+1]]
)

func (r *flatReader[T]) setDirect(dt arrow.DataType) bool {
	_, isBytes := any(r).(*flatReader[[]byte])
	r.direct = r.fixed || isBytes && (dt.ID() == arrow.STRING || dt.ID() == arrow.BINARY)
	return r.direct
}

// checkIndexes checks that every dictionary index is in [0, n).
func checkIndexes(idx []int32, n int) error {
	for _, k := range idx {
		if uint32(k) >= uint32(n) {
			return fmt.Errorf("dictionary index %d out of range %d", k, n)
		}
	}
	return nil
}

// keepPage leaves the nn values of a plain page in place when the reader
// can convert them straight into a batch, and reports whether it did.
func (r *flatReader[T]) keepPage(v encoding.Values, nn int) (bool, error) {
	if r.widen64 != nil {
		src := v.Int64()
		if len(src) < nn {
			return false, fmt.Errorf("page holds %d values, want %d", len(src), nn)
		}
		r.src64, r.lazy = src[:nn], lazyWide
		return true, nil
	}
	if _, isBytes := any(r).(*flatReader[[]byte]); !isBytes || v.Kind() != encoding.ByteArray {
		return false, nil
	}
	data, offs := v.ByteArray()
	if len(offs) < nn+1 {
		return false, fmt.Errorf("byte array page holds %d values, want %d", max(len(offs)-1, 0), nn)
	}
	offs = offs[:nn+1]
	prev := offs[0]
	for _, o := range offs[1:] {
		if o < prev {
			return false, fmt.Errorf("byte array page has decreasing offsets")
		}
		prev = o
	}
	if int(prev) > len(data) {
		return false, fmt.Errorf("byte array page holds %d bytes, its offsets reach %d", len(data), prev)
	}
	r.bytes, r.offs, r.lazy = data, offs, lazyBytes
	return true, nil
}

// gather writes dict[idx[i]] to dst[i] for every index and reports
// whether every index was in range (it stops at the first that is not).
// Checking here rather than in a pass of its own when the page is loaded
// saves reading the indexes twice; the explicit comparison also spares
// the bounds check of dict[k]. The slices are locals, so the loop keeps
// them in registers rather than reloading the reader's fields.
func gather[T any](dst, dict []T, idx []int32) bool {
	dst = dst[:len(idx)]
	for i, k := range idx {
		j := uint(uint32(k))
		if j >= uint(len(dict)) {
			return false
		}
		dst[i] = dict[j]
	}
	return true
}

// fill writes len(dst) values, from the page's non-null value d on.
func (r *flatReader[T]) fill(dst []T, d int) error {
	switch r.lazy {
	case lazyWide:
		r.widen64(dst, r.src64[d:d+len(dst)])
	case lazyDict:
		idx := r.idx[d : d+len(dst)]
		if !gather(dst, r.dictVals, idx) {
			return checkIndexes(idx, len(r.dictVals))
		}
	default:
		copy(dst, r.vals[d:d+len(dst)])
	}
	return nil
}

func (r *flatReader[T]) readArray(mem memory.Allocator, dt arrow.DataType, n int) (arrow.Array, error) {
	mem = valueAllocator(mem)
	if br, ok := any(r).(*flatReader[[]byte]); ok {
		return br.readBinaryArray(mem, dt, n)
	}
	var zero T
	width := int(unsafe.Sizeof(zero))
	data := memory.NewResizableBuffer(mem)
	data.Resize(n * width)
	dst := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(data.Bytes()))), n)
	var v validityBits
	release := func() {
		data.Release()
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
		if len(c.defs) == 0 {
			if r.markRun(at, k, c.d, k, nil, c.maxDef) {
				// values nothing reads: their codes checked, not gathered
				if err := checkIndexes(r.idx[c.d:c.d+k], len(r.dictVals)); err != nil {
					release()
					return nil, err
				}
			} else if err := r.fill(dst[at:at+k], c.d); err != nil {
				release()
				return nil, err
			}
			c.d += k
		} else {
			defs := c.defs[c.i : c.i+k]
			nn := presentCount(defs, c.maxDef)
			if r.markRun(at, k, c.d, nn, defs, c.maxDef) {
				if err := checkIndexes(r.idx[c.d:c.d+nn], len(r.dictVals)); err != nil {
					release()
					return nil, err
				}
				v.setRun(at, k)
			} else if nn == k {
				if err := r.fill(dst[at:at+k], c.d); err != nil {
					release()
					return nil, err
				}
				v.setRun(at, k)
			} else {
				// the present values first, then moved to their rows
				valid := v.start(mem, n, at)
				if err := r.fill(dst[at:at+nn], c.d); err != nil {
					release()
					return nil, err
				}
				spreadValues(dst[at:at+k], nn, defs, c.maxDef, valid, at)
				v.nulls += k - nn
			}
			c.d += nn
		}
		c.i += k
		at += k
	}
	r.judged(n)
	d := array.NewData(dt, n, []*memory.Buffer{v.buffer(), data}, nil, v.nulls, 0)
	arr := array.MakeFromData(d)
	d.Release()
	release()
	return arr, nil
}

// spreadValues moves the nn values at the start of dst to the rows whose
// definition levels defs are maxDef, clears the others (NULLs), and sets
// the validity bits of the values' rows, row j being bit at+j of valid.
// It walks back from the last row: a value never moves towards the start,
// so none is overwritten before it moves.
func spreadValues[T any](dst []T, nn int, defs []byte, maxDef byte, valid []byte, at int) {
	var zero T
	dst = dst[:len(defs)]
	i := nn
	for j := len(defs) - 1; j >= 0; j-- {
		if defs[j] == maxDef {
			i--
			dst[j] = dst[i]
			bitutil.SetBit(valid, at+j)
		} else {
			dst[j] = zero
		}
	}
}

// nextPage loads the column chunk's next page; remaining rows were still
// expected from it.
func (r *flatReader[T]) nextPage(remaining int) error {
	err := r.loadPage()
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("column chunk ended %d rows early: %w", remaining, io.ErrUnexpectedEOF)
	}
	return err
}

// presentCount is how many of defs are maxDef: the values present among
// the rows whose definition levels they are (the others are NULL).
// It counts with bytes.Count, which uses the CPU's vector instructions.
func presentCount(defs []byte, maxDef byte) int {
	return bytes.Count(defs, []byte{maxDef})
}

// validityBits is the validity bitmap of an array being decoded, made
// when its first NULL arrives (an array without NULLs has none).
type validityBits struct {
	buf   *memory.Buffer
	bits  []byte
	nulls int
}

// start makes the bitmap for n rows if it is not there yet, the rows
// before at valid, and returns its bytes.
func (v *validityBits) start(mem memory.Allocator, n, at int) []byte {
	if v.buf == nil {
		v.buf = memory.NewResizableBuffer(mem)
		v.buf.Resize(int(bitutil.BytesForBits(int64(n))))
		v.bits = v.buf.Bytes()
		clear(v.bits)
		bitutil.SetBitsTo(v.bits, 0, int64(at), true)
	}
	return v.bits
}

// setRun marks k rows from at valid.
func (v *validityBits) setRun(at, k int) {
	if v.bits != nil {
		bitutil.SetBitsTo(v.bits, int64(at), int64(k), true)
	}
}

// buffer is the array's validity buffer: nil without NULLs.
func (v *validityBits) buffer() *memory.Buffer {
	if v.nulls == 0 {
		return nil
	}
	return v.buf
}

func (v *validityBits) release() {
	if v.buf != nil {
		v.buf.Release()
	}
}
