package scan

import (
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

// widenDecimals converts INT64 unscaled values to 128-bit decimals.
func widenDecimals(dst []decimal128.Num, src []int64) {
	src = src[:len(dst)]
	for i, x := range src {
		dst[i] = decimal128.FromI64(x)
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

// fill writes len(dst) values, from the page's non-null value d on.
func (r *flatReader[T]) fill(dst []T, d int) {
	switch r.lazy {
	case lazyWide:
		r.widen64(dst, r.src64[d:d+len(dst)])
	case lazyDict:
		idx := r.idx[d : d+len(dst)]
		for i, k := range idx {
			dst[i] = r.dictVals[k]
		}
	default:
		copy(dst, r.vals[d:d+len(dst)])
	}
}

func (r *flatReader[T]) readArray(mem memory.Allocator, dt arrow.DataType, n int) (arrow.Array, error) {
	if br, ok := any(r).(*flatReader[[]byte]); ok {
		return br.readBinaryArray(mem, dt, n)
	}
	var zero T
	width := int(unsafe.Sizeof(zero))
	data := memory.NewResizableBuffer(mem)
	data.Resize(n * width)
	dst := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(data.Bytes()))), n)
	var validity *memory.Buffer
	var valid []byte
	nulls := 0
	release := func() {
		data.Release()
		if validity != nil {
			validity.Release()
		}
	}
	c := &r.cur
	for at := 0; at < n; {
		if c.page == nil || c.i >= c.n {
			if err := r.loadPage(); err != nil {
				release()
				if errors.Is(err, io.EOF) {
					return nil, fmt.Errorf("column chunk ended %d rows early: %w", n-at, io.ErrUnexpectedEOF)
				}
				return nil, err
			}
			continue
		}
		k := min(n-at, c.n-c.i)
		if len(c.defs) == 0 {
			r.fill(dst[at:at+k], c.d)
			c.d += k
		} else {
			defs := c.defs[c.i : c.i+k]
			nn := 0
			for _, d := range defs {
				if d == c.maxDef {
					nn++
				}
			}
			if nn == k {
				r.fill(dst[at:at+k], c.d)
				if valid != nil {
					bitutil.SetBitsTo(valid, int64(at), int64(k), true)
				}
			} else {
				if validity == nil {
					validity = memory.NewResizableBuffer(mem)
					validity.Resize(int(bitutil.BytesForBits(int64(n))))
					valid = validity.Bytes()
					clear(valid)
					bitutil.SetBitsTo(valid, 0, int64(at), true)
				}
				d := c.d
				for j, def := range defs {
					if def == c.maxDef {
						r.fill(dst[at+j:at+j+1], d)
						bitutil.SetBit(valid, at+j)
						d++
					} else {
						dst[at+j] = zero
					}
				}
				nulls += k - nn
			}
			c.d += nn
		}
		c.i += k
		at += k
	}
	buffers := []*memory.Buffer{nil, data}
	if nulls > 0 {
		buffers[0] = validity
	}
	d := array.NewData(dt, n, buffers, nil, nulls, 0)
	arr := array.MakeFromData(d)
	d.Release()
	release()
	return arr, nil
}
