package scan

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// leafCursor walks the pages of one leaf column chunk of a row group.
type leafCursor struct {
	pages  parquet.Pages
	page   parquet.Page
	defs   []byte
	reps   []byte
	n      int // levels (or values, for a required flat column) in the page
	i      int // next level
	d      int // next non-null value
	maxDef byte
}

func (c *leafCursor) reset(pages parquet.Pages) {
	c.close()
	c.pages = pages
}

func (c *leafCursor) close() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	if c.pages != nil {
		c.pages.Close()
		c.pages = nil
	}
}

// nextPage moves to the next data page and returns the number of non-null
// values it holds.
func (c *leafCursor) nextPage() (int, error) {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	if c.pages == nil {
		return 0, io.ErrUnexpectedEOF
	}
	p, err := c.pages.ReadPage()
	if err != nil {
		return 0, err
	}
	c.page = p
	c.defs = p.DefinitionLevels()
	c.reps = p.RepetitionLevels()
	c.i, c.d = 0, 0
	if len(c.defs) == 0 {
		c.n = int(p.NumValues())
		return c.n, nil
	}
	c.n = len(c.defs)
	return presentCount(c.defs, c.maxDef), nil
}

// valueDecoder converts the count values of a page (or of a dictionary page)
// into the Go representation T of the target Arrow type. When copies is
// set, fn appends to dst[:0]; otherwise it returns a view of the page data.
type valueDecoder[T any] struct {
	fn     func(v encoding.Values, count int, dst []T) ([]T, error)
	copies bool
}

// flatReader reads a leaf column into an Arrow builder of the target type:
// T is the builder's element type, decode converts page values, appendTo
// appends a run of values with an optional validity slice.
type flatReader[T any] struct {
	cur      leafCursor
	decode   valueDecoder[T]
	appendTo func(b array.Builder, v []T, valid []bool)

	// defSink, when set, receives the definition level of every row read
	// (structs of primitives derive their validity from it).
	defSink *[]byte

	dict     parquet.Dictionary
	dictVals []T
	dictBuf  []T // converted dictionary values, reused between chunks
	vals     []T // converted non-null values of the current page
	buf      []T
	scratch  []T
	valid    []bool

	// fixed: T is a fixed-width Arrow value; direct: the reader serves
	// readArray only (parquet_direct.go), and then leaves the current
	// page's values where they are (lazy says where) rather than in vals.
	fixed, direct bool
	lazy          lazyValues
	// widen64, when set, converts INT64 page values to T (lazyWide:
	// src64 holds the page's values).
	widen64 func(dst []T, src []int64)
	src64   []int64
	// idx: the page's dictionary indexes (lazyDict).
	idx []int32
	// bytes, offs: a plain BYTE_ARRAY page's data and value offsets
	// (lazyBytes).
	bytes []byte
	offs  []uint32
	// bdict: the dictionary of a direct byte-array reader laid out for
	// gathers (parquet_direct_gather.go), built when first used.
	bdict byteDict

	// cond, when set, are conjuncts on this column the direct reader
	// judges by dictionary code into sel's batch (dictfilter.go); condType
	// is the column's Arrow type.
	cond     *colCond
	sel      *rowSel
	condType arrow.DataType
}

func (r *flatReader[T]) start(pages parquet.Pages) {
	r.cur.reset(pages)
	r.dict, r.dictVals, r.vals = nil, nil, nil
}
func (r *flatReader[T]) close() { r.cur.close() }

func (r *flatReader[T]) loadPage() error {
	nn, err := r.cur.nextPage()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		return err
	}
	p := r.cur.page
	r.lazy = lazyNone
	if nn == 0 { // all nulls: no values to decode
		r.vals = r.vals[:0]
		return nil
	}
	if dict := p.Dictionary(); dict != nil {
		if dict != r.dict {
			// A converting decoder (decimals, scaled times) fills the
			// reader's dictionary buffer, sized once: each row group's
			// dictionary is converted once, not per value, and without
			// growing a new slice value by value.
			var dst []T
			if r.decode.copies {
				dst = r.dictBuf[:0]
				if cap(dst) < dict.Len() {
					dst = make([]T, 0, dict.Len())
				}
			}
			vals, err := r.decode.fn(dict.Page().Data(), dict.Len(), dst)
			if err != nil {
				return err
			}
			if r.decode.copies {
				r.dictBuf = vals
			}
			r.dict, r.dictVals = dict, vals
			r.bdict.ok = false
			if r.cond != nil {
				r.cond.dict = nil // a dictionary may be reused for another chunk
			}
		}
		pv := p.Data()
		idx := pv.Int32()
		if len(idx) < nn {
			return fmt.Errorf("dictionary page holds %d indexes, want %d", len(idx), nn)
		}
		idx = idx[:nn]
		if r.direct {
			// fixed-width values check their indexes as they gather them
			// (fill); strings and binaries index the dictionary value by
			// value, so theirs are checked here
			if _, isBytes := any(r).(*flatReader[[]byte]); isBytes {
				if err := checkIndexes(idx, len(r.dictVals)); err != nil {
					return err
				}
			}
			r.idx, r.lazy = idx, lazyDict
			return nil
		}
		buf := r.buf[:0]
		for _, k := range idx {
			if int(k) >= len(r.dictVals) || k < 0 {
				return fmt.Errorf("dictionary index %d out of range %d", k, len(r.dictVals))
			}
			buf = append(buf, r.dictVals[k])
		}
		r.buf = buf
		r.vals = buf
		return nil
	}
	if r.direct {
		if ok, err := r.keepPage(p.Data(), nn); ok || err != nil {
			return err
		}
	}
	vals, err := r.decode.fn(p.Data(), nn, r.buf[:0])
	if err != nil {
		return err
	}
	if len(vals) < nn {
		return fmt.Errorf("page holds %d values, want %d", len(vals), nn)
	}
	if r.decode.copies {
		r.buf = vals
	}
	r.vals = vals
	return nil
}

// read appends the next n rows of a flat (non-repeated) column to b.
func (r *flatReader[T]) read(b array.Builder, n int) error {
	c := &r.cur
	for n > 0 {
		if c.page == nil || c.i >= c.n {
			if err := r.loadPage(); err != nil {
				if errors.Is(err, io.EOF) {
					return fmt.Errorf("column chunk ended %d rows early: %w", n, io.ErrUnexpectedEOF)
				}
				return err
			}
			continue
		}
		k := min(n, c.n-c.i)
		if r.defSink != nil {
			if len(c.defs) == 0 {
				for range k {
					*r.defSink = append(*r.defSink, c.maxDef)
				}
			} else {
				*r.defSink = append(*r.defSink, c.defs[c.i:c.i+k]...)
			}
		}
		if b == nil { // levels only
			if len(c.defs) == 0 {
				c.d += k
			} else {
				for _, d := range c.defs[c.i : c.i+k] {
					if d == c.maxDef {
						c.d++
					}
				}
			}
		} else if len(c.defs) == 0 {
			r.appendTo(b, r.vals[c.d:c.d+k], nil)
			c.d += k
		} else {
			defs := c.defs[c.i : c.i+k]
			nn := presentCount(defs, c.maxDef)
			switch nn {
			case k:
				r.appendTo(b, r.vals[c.d:c.d+k], nil)
			case 0:
				b.AppendNulls(k)
			default:
				if cap(r.scratch) < k {
					r.scratch = make([]T, k)
					r.valid = make([]bool, k)
				}
				sc, valid := r.scratch[:k], r.valid[:k]
				var zero T
				d := c.d
				for j, def := range defs {
					if def == c.maxDef {
						sc[j], valid[j] = r.vals[d], true
						d++
					} else {
						sc[j], valid[j] = zero, false
					}
				}
				r.appendTo(b, sc, valid)
			}
			c.d += nn
		}
		c.i += k
		n -= k
	}
	return nil
}

// leafEntry is one level entry of a repeated or nested column: its
// definition and repetition levels and, when fully defined, its value.
type leafEntry struct {
	def, rep byte
	val      any
}

// readEntries reads the level entries of the next n rows of a nested
// column (a row starts at repetition level 0), appending one slice of
// entries per row to rows. When vals is false the values are not boxed.
func (r *flatReader[T]) readEntries(n int, rows [][]leafEntry, vals bool) ([][]leafEntry, error) {
	c := &r.cur
	var row []leafEntry
	started := false
	got := 0
	for {
		if c.page == nil || c.i >= c.n {
			if err := r.loadPage(); err != nil {
				if errors.Is(err, io.EOF) {
					if started {
						rows = append(rows, row)
						got++
					}
					if got < n {
						return nil, fmt.Errorf("column chunk ended %d rows early: %w", n-got, io.ErrUnexpectedEOF)
					}
					return rows, nil
				}
				return nil, err
			}
			continue
		}
		var rep byte
		if len(c.reps) > 0 {
			rep = c.reps[c.i]
		}
		if rep == 0 {
			if started {
				rows = append(rows, row)
				row = nil
				started = false
				got++
			}
			if got == n {
				return rows, nil
			}
			started = true
		}
		def := c.maxDef
		if len(c.defs) > 0 {
			def = c.defs[c.i]
		}
		e := leafEntry{def: def, rep: rep}
		if def == c.maxDef {
			if vals && c.d < len(r.vals) {
				v := any(r.vals[c.d])
				if b, ok := v.([]byte); ok {
					// Rows are assembled after later pages were read and
					// this page's buffers released: keep a copy.
					v = slices.Clone(b)
				}
				e.val = v
			}
			c.d++
		}
		row = append(row, e)
		c.i++
	}
}
