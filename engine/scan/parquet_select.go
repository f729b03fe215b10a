package scan

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/exec"
)

// Late materialization: a scan applying exact conjuncts (ScanSpec.Exact)
// decodes the columns they read first, evaluates them, and decodes the
// other columns only for the rows kept. Direct readers copy only those
// rows' values out of the page (dictionary indexes gathered, plain values
// and byte ranges copied run by run); other columns are decoded whole
// and the kept rows taken; a batch without kept rows only advances the
// readers. Rows keep their file positions.

// keptRun is a run of consecutive kept rows [lo, hi) of a batch.
type keptRun struct{ lo, hi int }

// keptRuns lists the runs of rows whose skip flag is false.
func keptRuns(dst []keptRun, skip []bool) []keptRun {
	dst = dst[:0]
	for i := 0; i < len(skip); {
		if skip[i] {
			i++
			continue
		}
		j := i + 1
		for j < len(skip) && !skip[j] {
			j++
		}
		dst = append(dst, keptRun{i, j})
		i = j
	}
	return dst
}

// runReader is a direct leaf reader that can decode only some rows.
type runReader interface {
	// readArrayRuns reads the next n rows and returns an array of the
	// rows in runs only (kept of them, in order), of type dt with
	// buffers from mem.
	readArrayRuns(mem memory.Allocator, dt arrow.DataType, n int, runs []keptRun, kept int) (arrow.Array, error)
}

func (r *flatReader[T]) readArrayRuns(mem memory.Allocator, dt arrow.DataType, n int, runs []keptRun, kept int) (arrow.Array, error) {
	if br, ok := any(r).(*flatReader[[]byte]); ok {
		return br.readBinaryArrayRuns(mem, dt, n, runs, kept)
	}
	var zero T
	width := int(unsafe.Sizeof(zero))
	data := memory.NewResizableBuffer(mem)
	data.Resize(kept * width)
	dst := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(data.Bytes()))), kept)
	var v validityBits
	release := func() {
		data.Release()
		v.release()
	}
	c := &r.cur
	out, ri := 0, 0
	for at := 0; at < n; {
		if c.page == nil || c.i >= c.n {
			if err := r.nextPage(n - at); err != nil {
				release()
				return nil, err
			}
			continue
		}
		k := min(n-at, c.n-c.i)
		end := at + k
		var defs []byte
		nn := k
		if len(c.defs) > 0 {
			defs = c.defs[c.i : c.i+k]
			nn = presentCount(defs, c.maxDef)
		}
		d, j := c.d, at // value d is row j's (or the next present row's)
		for ri < len(runs) && runs[ri].lo < end {
			lo, hi := max(runs[ri].lo, at), min(runs[ri].hi, end)
			if nn == k {
				if err := r.fill(dst[out:out+hi-lo], c.d+lo-at); err != nil {
					release()
					return nil, err
				}
				v.setRun(out, hi-lo)
				out += hi - lo
			} else {
				d += presentCount(defs[j-at:lo-at], c.maxDef)
				valid := v.start(mem, kept, out)
				for _, def := range defs[lo-at : hi-at] {
					if def == c.maxDef {
						if err := r.fill(dst[out:out+1], d); err != nil {
							release()
							return nil, err
						}
						bitutil.SetBit(valid, out)
						d++
					} else {
						dst[out] = zero
						v.nulls++
					}
					out++
				}
			}
			j = hi
			if runs[ri].hi > end {
				break
			}
			ri++
		}
		c.d += nn
		c.i += k
		at = end
	}
	d := array.NewData(dt, kept, []*memory.Buffer{v.buffer(), data}, nil, v.nulls, 0)
	arr := array.MakeFromData(d)
	d.Release()
	release()
	return arr, nil
}

// readBinaryArrayRuns is readArrayRuns for strings and binaries: only
// the kept rows' bytes are copied.
func (r *flatReader[T]) readBinaryArrayRuns(mem memory.Allocator, dt arrow.DataType, n int, runs []keptRun, kept int) (arrow.Array, error) {
	offsets := memory.NewResizableBuffer(mem)
	offsets.Resize((kept + 1) * 4)
	o := binaryOut{
		offs: unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(offsets.Bytes()))), kept+1),
		data: memory.NewResizableBuffer(mem),
	}
	o.data.Reserve(kept * 8)
	o.offs[0] = 0
	var v validityBits
	release := func() {
		offsets.Release()
		o.data.Release()
		v.release()
	}
	c := &r.cur
	out, ri := 0, 0
	for at := 0; at < n; {
		if c.page == nil || c.i >= c.n {
			if err := r.nextPage(n - at); err != nil {
				release()
				return nil, err
			}
			continue
		}
		k := min(n-at, c.n-c.i)
		end := at + k
		var defs []byte
		nn := k
		if len(c.defs) > 0 {
			defs = c.defs[c.i : c.i+k]
			nn = presentCount(defs, c.maxDef)
		}
		d, j := c.d, at
		for ri < len(runs) && runs[ri].lo < end {
			lo, hi := max(runs[ri].lo, at), min(runs[ri].hi, end)
			if nn == k {
				if err := r.appendRun(&o, out, c.d+lo-at, hi-lo); err != nil {
					release()
					return nil, err
				}
				v.setRun(out, hi-lo)
				out += hi - lo
			} else {
				d += presentCount(defs[j-at:lo-at], c.maxDef)
				valid := v.start(mem, kept, out)
				for _, def := range defs[lo-at : hi-at] {
					if def == c.maxDef {
						b := r.value(d)
						if err := o.reserve(len(b)); err != nil {
							release()
							return nil, err
						}
						o.appendBytes(b)
						bitutil.SetBit(valid, out)
						d++
					} else {
						v.nulls++
					}
					o.offs[out+1] = int32(o.size)
					out++
				}
			}
			j = hi
			if runs[ri].hi > end {
				break
			}
			ri++
		}
		c.d += nn
		c.i += k
		at = end
	}
	o.data.ResizeNoShrink(o.size)
	d := array.NewData(dt, kept, []*memory.Buffer{v.buffer(), offsets, o.data}, nil, v.nulls, 0)
	arr := array.MakeFromData(d)
	d.Release()
	release()
	return arr, nil
}

// selectFunc decides which of a batch's rows pass: given the arrays of
// the read fields decoded so far (nil for the others), the file position
// of the batch's first row and its row count, it returns a flag per row,
// true for rows not kept, and the number kept.
type selectFunc func(cols []arrow.Array, pos int64, rows int) (skip []bool, kept int, err error)

// nextKept reads the next up to n rows as next does, but decodes first
// only the fields marked in early; sel then says which rows to keep, and
// the other fields are decoded for those rows only. It returns the kept
// rows of every field (nil when none is kept), the file position of the
// first row read, the rows read (0 at the end) and the rows kept.
func (r *parquetReader) nextKept(ctx context.Context, n int, early []bool, sel selectFunc) (cols []arrow.Array, pos int64, rows, kept int, err error) {
	if more, err := r.advance(ctx); err != nil || !more {
		return nil, r.pos, 0, 0, err
	}
	k := int(min(int64(n), r.left))
	if r.whole != nil {
		all, pos, k, err := r.nextWhole(k)
		if err != nil {
			return nil, 0, 0, 0, err
		}
		skip, kept, err := sel(all, pos, k)
		if err != nil || kept == 0 {
			releaseAll(all)
			return nil, pos, k, 0, err
		}
		out, err := takeKept(ctx, r.opts.mem, all, skip, kept)
		releaseAll(all)
		return out, pos, k, kept, err
	}
	out := make([]arrow.Array, len(r.fields))
	fail := func(err error) ([]arrow.Array, int64, int, int, error) {
		releaseAll(out)
		return nil, 0, 0, 0, err
	}
	for i := range r.cols {
		if early[i] {
			a, err := r.readField(i, k)
			if err != nil {
				return fail(err)
			}
			out[i] = a
		}
	}
	pos = r.pos
	r.pos += int64(k)
	r.left -= int64(k)
	skip, kept, err := sel(out, pos, k)
	if err != nil {
		return fail(err)
	}
	if kept == 0 {
		releaseAll(out)
		for i, c := range r.cols {
			if !early[i] && c != nil {
				if err := r.skipRows(i, k); err != nil {
					return nil, 0, 0, 0, err
				}
			}
		}
		return nil, pos, k, 0, nil
	}
	var runs []keptRun
	if kept < k {
		// the early fields' kept rows
		var early0 []arrow.Array
		var at []int
		for i, a := range out {
			if a != nil {
				early0, at = append(early0, a), append(at, i)
			}
		}
		taken, err := takeKept(ctx, r.opts.mem, early0, skip, kept)
		if err != nil {
			return fail(err)
		}
		for j, i := range at {
			out[i].Release()
			out[i] = taken[j]
		}
		runs = keptRuns(nil, skip)
	}
	for i, c := range r.cols {
		if early[i] {
			continue
		}
		if kept == k {
			a, err := r.readField(i, k)
			if err != nil {
				return fail(err)
			}
			out[i] = a
			continue
		}
		if c == nil {
			a, err := constantArray(r.opts.mem, r.fields[i].field.Type, r.fields[i].missing, kept)
			if err != nil {
				return fail(fmt.Errorf("parquet file %s: column %q: %w", r.path, r.fields[i].field.Name, err))
			}
			out[i] = a
			continue
		}
		if fc, ok := c.(*flatColumn); ok && fc.direct {
			if rr, ok := fc.leaf.(runReader); ok {
				a, err := rr.readArrayRuns(r.opts.vals, r.builders[i].Type(), k, runs, kept)
				if err != nil {
					return fail(fmt.Errorf("read parquet file %s row group %d: column %q: %w", r.path, r.rg, fc.node.name, err))
				}
				out[i] = a
				continue
			}
		}
		a, err := r.readColumn(i, k)
		if err != nil {
			return fail(err)
		}
		taken, err := takeKept(ctx, r.opts.mem, []arrow.Array{a}, skip, kept)
		a.Release()
		if err != nil {
			return fail(err)
		}
		out[i] = taken[0]
	}
	return out, pos, k, kept, nil
}

// readField decodes the next k rows of field i, the file's or its
// constant when the file lacks it.
func (r *parquetReader) readField(i, k int) (arrow.Array, error) {
	if r.cols[i] == nil {
		a, err := constantArray(r.opts.mem, r.fields[i].field.Type, r.fields[i].missing, k)
		if err != nil {
			return nil, fmt.Errorf("parquet file %s: column %q: %w", r.path, r.fields[i].field.Name, err)
		}
		return a, nil
	}
	return r.readColumn(i, k)
}

// skipRows moves column i past k rows without building an array (a
// flat column walks its levels; others decode and drop them).
func (r *parquetReader) skipRows(i, k int) error {
	if fc, ok := r.cols[i].(*flatColumn); ok {
		if err := fc.leaf.read(nil, k); err != nil {
			return fmt.Errorf("read parquet file %s row group %d: column %q: %w", r.path, r.rg, fc.node.name, err)
		}
		return nil
	}
	a, err := r.readColumn(i, k)
	if err != nil {
		return err
	}
	a.Release()
	return nil
}

// takeKept returns the rows of cols whose skip flag is false (kept of
// them).
func takeKept(ctx context.Context, mem memory.Allocator, cols []arrow.Array, skip []bool, kept int) ([]arrow.Array, error) {
	idx := make([]int32, 0, kept)
	for i, s := range skip {
		if !s {
			idx = append(idx, int32(i))
		}
	}
	return exec.GatherRows(ctx, mem, cols, idx)
}
