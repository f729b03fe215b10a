package scan

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"
)

// groupCacheable reports whether row group rg is read whole through the
// column cache: a cache is set, the reader reads the whole group (not a
// part of it for a shard) and the group is small.
func (r *parquetReader) groupCacheable(rg parquet.RowGroup) bool {
	return r.opts.columns != nil && !r.ranged && r.rg < len(r.pf.Metadata().RowGroups) &&
		rg.NumRows() > 0 && rg.NumRows() <= maxCachedGroupRows
}

// startCachedGroup takes the current row group's columns from the column
// cache, decoding (and caching) those it lacks whole.
func (r *parquetReader) startCachedGroup(rg parquet.RowGroup) error {
	whole := make([]arrow.Array, len(r.cols))
	rows := int(rg.NumRows())
	for i, c := range r.cols {
		if c == nil {
			continue
		}
		fc, ok := c.(*flatColumn)
		k := columnKey{path: r.path, size: r.file.Size(), group: r.rg, field: r.fields[i].field.ID,
			typ: r.builders[i].Type().String(), leaf: -1}
		if ok {
			k.leaf = fc.node.leaf
		}
		var a arrow.Array
		if ok {
			a = r.opts.columns.get(k)
		}
		if a == nil {
			c.startRowGroup(rg)
			var err error
			if a, err = r.readCachedColumn(i, rows); err != nil {
				releaseAll(whole)
				return err
			}
			if ok {
				r.opts.columns.put(k, a)
			}
		}
		whole[i] = a
	}
	r.whole, r.wholeOff = whole, 0
	r.wholeSpans = nil
	if spans, ok := r.cachedMatches(whole, rows); ok {
		r.wholeSpans = spans
		n := int64(0)
		for _, sp := range spans {
			n += sp.hi - sp.lo
		}
		r.left = n
		if n == 0 {
			r.releaseWhole()
		}
	}
	return nil
}

// cachedMatches returns the rows of the current group whose cached
// integer column equals a value of an equality or IN predicate on it, as
// spans, found through the column's index (the filter above the scan then
// sees those rows only); ok is false when no predicate applies.
func (r *parquetReader) cachedMatches(whole []arrow.Array, rows int) ([]rowSpan, bool) {
	for _, pc := range r.pruned {
		i := slices.IndexFunc(r.cols, func(c columnReader) bool {
			fc, ok := c.(*flatColumn)
			return ok && fc.node == pc.node
		})
		if i < 0 || whole[i] == nil || whole[i].Len() != rows {
			continue
		}
		for _, p := range pc.preds {
			vals, ok := intEquality(p)
			if !ok {
				continue
			}
			k := columnKey{path: r.path, size: r.file.Size(), group: r.rg, field: r.fields[i].field.ID,
				typ: r.builders[i].Type().String(), leaf: pc.node.leaf}
			found, ok := r.opts.columns.lookup(k, whole[i], vals)
			if !ok {
				continue
			}
			return spansOf(found), true
		}
	}
	return nil, false
}

// nextWhole returns the next k rows of the current group as slices of
// its whole columns.
func (r *parquetReader) nextWhole(k int) ([]arrow.Array, int64, int, error) {
	if len(r.wholeSpans) > 0 { // only the rows of these spans
		sp := r.wholeSpans[0]
		if r.wholeOff < sp.lo {
			r.pos += sp.lo - r.wholeOff
			r.wholeOff = sp.lo
		}
		k = int(min(int64(k), sp.hi-r.wholeOff))
		if r.wholeOff+int64(k) == sp.hi {
			r.wholeSpans = r.wholeSpans[1:]
		}
	}
	out := make([]arrow.Array, len(r.fields))
	for i, a := range r.whole {
		if a == nil {
			c, err := constantArray(r.opts.mem, r.fields[i].field.Type, r.fields[i].missing, k)
			if err != nil {
				releaseAll(out)
				return nil, 0, 0, err
			}
			out[i] = c
			continue
		}
		if r.wholeOff == 0 && k == a.Len() {
			a.Retain()
			out[i] = a
			continue
		}
		out[i] = array.NewSlice(a, r.wholeOff, r.wholeOff+int64(k))
	}
	pos := r.pos
	r.pos += int64(k)
	r.left -= int64(k)
	r.wholeOff += int64(k)
	if r.left == 0 {
		r.releaseWhole()
	}
	return out, pos, k, nil
}

// releaseWhole drops the current group's whole columns.
func (r *parquetReader) releaseWhole() {
	releaseAll(r.whole)
	r.whole = nil
}

// readCachedColumn decodes the whole of column i of a group going into
// the column cache, on readOptions.cacheVals when set.
func (r *parquetReader) readCachedColumn(i, rows int) (arrow.Array, error) {
	if r.opts.cacheVals == nil {
		return r.readColumn(i, rows)
	}
	vals := r.opts.vals
	r.opts.vals = r.opts.cacheVals
	defer func() { r.opts.vals = vals }()
	return r.readColumn(i, rows)
}
