package scan

import (
	"fmt"
	"io"
	"math"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
)

// Page skipping. Within a row group the statistics of its chunks cannot
// rule out, the column index of each filtered column (min and max per
// page) rules out pages, and the offset index turns the pages left into
// row ranges. The rows a range holds are read from every projected column
// by seeking to the range's first row (the offset index of each column
// locates the page holding it), so only the pages that overlap a range are
// decompressed and decoded. The ranges keep the rows' positions in the
// file, which position deletes and _pos rely on. The scan returns a
// superset of the matching rows: the filter above it decides.

// rowSpan is rows [lo, hi) of a row group.
type rowSpan struct{ lo, hi int64 }

// pageRanges returns the rows of row group g (of n rows) whose pages may
// hold a row matching every filtered column's predicates, clipped to
// [from, to), and ok false when the page index cannot narrow them (no
// index, or every page may match). It counts the pages judged and ruled
// out.
func (r *parquetReader) pageRanges(g int, n, from, to int64) ([]rowSpan, bool) {
	if len(r.pruned) == 0 || r.file == nil || !r.groupSeekable(g) {
		return nil, false
	}
	meta := r.pf.Metadata()
	group := &meta.RowGroups[g]
	spans := []rowSpan{{from, to}}
	narrowed := false
	for _, c := range r.pruned {
		if c.node.leaf >= len(group.Columns) {
			continue
		}
		cc := &group.Columns[c.node.leaf]
		if cc.ColumnIndexOffset <= 0 || cc.OffsetIndexOffset <= 0 || !pageBoundsUsable(meta, c.node) {
			continue
		}
		ci, oi, err := r.readPageIndex(cc)
		if err != nil || len(ci.NullPages) != len(oi.PageLocations) || len(ci.MinValues) != len(ci.NullPages) || len(ci.MaxValues) != len(ci.NullPages) {
			continue // a page index that does not read or agree is ignored
		}
		var keep []rowSpan
		skipped := 0
		for p, loc := range oi.PageLocations {
			end := n
			if p+1 < len(oi.PageLocations) {
				end = oi.PageLocations[p+1].FirstRowIndex
			}
			if pageMayMatch(ci, p, c) {
				keep = appendSpan(keep, rowSpan{loc.FirstRowIndex, end})
			} else {
				skipped++
			}
		}
		// The shard holding the group's first row counts its pages.
		if cnt := r.opts.counters; cnt != nil && (!r.ranged || r.groupEnd-n >= r.part.lo) {
			cnt.pages.Add(int64(len(oi.PageLocations)))
			cnt.pagesSkipped.Add(int64(skipped))
		}
		if skipped > 0 {
			spans = intersectSpans(spans, keep)
			narrowed = true
		}
	}
	if !narrowed {
		return nil, false
	}
	return spans, true
}

// groupSeekable: every column the reader reads in row group g can start
// at any row (a top-level primitive whose chunk has an offset index).
func (r *parquetReader) groupSeekable(g int) bool {
	chunks := r.pf.Metadata().RowGroups[g].Columns
	for _, c := range r.cols {
		if c == nil {
			continue
		}
		fc, ok := c.(*flatColumn)
		if !ok || fc.node.leaf >= len(chunks) || chunks[fc.node.leaf].OffsetIndexOffset <= 0 {
			return false
		}
	}
	return true
}

// pageBoundsUsable: the column index of leaf n orders its values as the
// reader compares them (see chunkBounds).
func pageBoundsUsable(meta *format.FileMetaData, n *pqNode) bool {
	return !unsignedInt(n.elem) && columnOrderDefined(meta, n.leaf)
}

// pageMayMatch reports whether page p of column c may hold a row matching
// all of c's predicates.
func pageMayMatch(ci *format.ColumnIndex, p int, c prunedColumn) bool {
	b := catalog.ColumnBounds{MayNull: true, MayNaN: c.typ.ID == catalog.TFloat || c.typ.ID == catalog.TDouble}
	switch {
	case ci.NullPages[p]:
		b.AllNull = true
	default:
		// MayNull stays true: like a chunk's, a page's null count of 0
		// may mean none was written.
		lo, hi := ci.MinValues[p], ci.MaxValues[p]
		if len(lo) > 0 || len(hi) > 0 || c.node.elem.Type.V == format.ByteArray {
			b.Lo, b.Hi = statValue(c.node.elem, c.typ, lo), statValue(c.node.elem, c.typ, hi)
			if b.Lo == nil || b.Hi == nil {
				b.Lo, b.Hi = nil, nil
			}
		}
	}
	for _, pr := range c.preds {
		if !b.MayMatch(pr.Op, pr.Values) {
			return false
		}
	}
	return true
}

// readPageIndex reads and decodes the column and offset index of a chunk.
// A reader over a cached footer keeps the decoded indexes with it.
func (r *parquetReader) readPageIndex(cc *format.ColumnChunk) (*format.ColumnIndex, *format.OffsetIndex, error) {
	if r.pageIndexes != nil {
		if ix, ok := r.pageIndexes[cc]; ok {
			return ix.ci, ix.oi, nil
		}
	}
	ci, oi, err := r.decodePageIndex(cc)
	if err == nil && r.pageIndexes != nil {
		r.pageIndexes[cc] = pageIndex{ci, oi}
	}
	return ci, oi, err
}

// pageIndex is a column chunk's decoded column and offset index.
type pageIndex struct {
	ci *format.ColumnIndex
	oi *format.OffsetIndex
}

func (r *parquetReader) decodePageIndex(cc *format.ColumnChunk) (*format.ColumnIndex, *format.OffsetIndex, error) {
	ci := new(format.ColumnIndex)
	if err := r.readThrift(cc.ColumnIndexOffset, int64(cc.ColumnIndexLength), ci); err != nil {
		return nil, nil, fmt.Errorf("column index: %w", err)
	}
	oi := new(format.OffsetIndex)
	if err := r.readThrift(cc.OffsetIndexOffset, int64(cc.OffsetIndexLength), oi); err != nil {
		return nil, nil, fmt.Errorf("offset index: %w", err)
	}
	return ci, oi, nil
}

func (r *parquetReader) readThrift(off, n int64, v any) error {
	if off <= 0 || n <= 0 || n > 64<<20 {
		return fmt.Errorf("bad location %d+%d", off, n)
	}
	buf := make([]byte, n)
	if _, err := r.file.ReadAt(buf, off); err != nil && err != io.EOF {
		return err
	}
	return thrift.Unmarshal(new(thrift.CompactProtocol), buf, v)
}

// appendSpan appends s to sorted spans, merging it into the last span when
// they touch.
func appendSpan(spans []rowSpan, s rowSpan) []rowSpan {
	if s.hi <= s.lo {
		return spans
	}
	if k := len(spans); k > 0 && spans[k-1].hi >= s.lo {
		spans[k-1].hi = max(spans[k-1].hi, s.hi)
		return spans
	}
	return append(spans, s)
}

// intersectSpans returns the rows in both sorted span lists.
func intersectSpans(a, b []rowSpan) []rowSpan {
	var out []rowSpan
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		out = appendSpan(out, rowSpan{lo, hi})
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// Bloom filters. A row group whose chunk of a filtered column has a bloom
// filter is skipped when an = or IN predicate's values are all absent
// from it. Values are hashed as the file stores them (the spec hashes the
// plain encoding), so only values whose stored form is certain are
// checked: floats equal to zero (two encodings) and NaN are not.

// bloomRuledOut reports whether the bloom filters of row group g rule the
// group out.
func (r *parquetReader) bloomRuledOut(g int) bool {
	meta := r.pf.Metadata()
	group := &meta.RowGroups[g]
	for _, c := range r.pruned {
		if c.node.leaf >= len(group.Columns) || group.Columns[c.node.leaf].MetaData.BloomFilterOffset <= 0 {
			continue
		}
		for _, p := range c.preds {
			if p.Op != catalog.OpEq && p.Op != catalog.OpIn {
				continue
			}
			vals := make([]parquet.Value, 0, len(p.Values))
			for _, v := range p.Values {
				pv, ok := bloomValue(c.node.elem, c.typ, v)
				if !ok {
					vals = nil
					break
				}
				vals = append(vals, pv)
			}
			if len(vals) == 0 {
				continue
			}
			bf := r.bloomFilter(g, c.node.leaf)
			if bf == nil {
				continue
			}
			found := false
			for _, v := range vals {
				if ok, err := bf.Check(v); err != nil || ok {
					found = true
					break
				}
			}
			if !found {
				return true
			}
		}
	}
	return false
}

func (r *parquetReader) bloomFilter(g, leaf int) parquet.BloomFilter {
	rgs := r.pf.RowGroups()
	if g >= len(rgs) {
		return nil
	}
	chunks := rgs[g].ColumnChunks()
	if leaf >= len(chunks) {
		return nil
	}
	fc, ok := chunks[leaf].(*parquet.FileColumnChunk)
	if !ok {
		return nil
	}
	bf, err := fc.BloomFilterFrom(r.file)
	if err != nil || bf == nil {
		return nil
	}
	return bf
}

// bloomValue is catalog value v of type t as a Parquet value of the
// column e stores it in, when that form is certain.
func bloomValue(e *format.SchemaElement, t *catalog.PrimitiveType, v any) (parquet.Value, bool) {
	if e.LogicalType.Value != nil {
		switch e.LogicalType.Value.(type) {
		case *format.IntType:
			if unsignedInt(e) {
				return parquet.Value{}, false
			}
		case *format.StringType, *format.DateType, *format.UUIDType, *format.TimestampType, *format.TimeType:
		default:
			return parquet.Value{}, false // decimals, enums, json...: not checked
		}
	}
	phys := e.Type.V
	switch t.ID {
	case catalog.TInt, catalog.TDate:
		if x, ok := v.(int32); ok && phys == format.Int32 {
			return parquet.Int32Value(x), true
		}
	case catalog.TLong:
		x, ok := v.(int64)
		if !ok {
			break
		}
		switch phys {
		case format.Int64:
			return parquet.Int64Value(x), true
		case format.Int32:
			if x >= math.MinInt32 && x <= math.MaxInt32 {
				return parquet.Int32Value(int32(x)), true
			}
		}
	case catalog.TTimestamp, catalog.TTimestamptz, catalog.TTime:
		if x, ok := v.(int64); ok && phys == format.Int64 && timeUnit(e) == 1e3 {
			return parquet.Int64Value(x), true
		}
	case catalog.TTimestampNs, catalog.TTimestamptzNs:
		if x, ok := v.(int64); ok && phys == format.Int64 && timeUnit(e) == 1 {
			return parquet.Int64Value(x), true
		}
	case catalog.TFloat:
		if x, ok := v.(float32); ok && phys == format.Float && !math.IsNaN(float64(x)) && x != 0 {
			return parquet.FloatValue(x), true
		}
	case catalog.TDouble:
		if x, ok := v.(float64); ok && phys == format.Double && !math.IsNaN(x) && x != 0 {
			return parquet.DoubleValue(x), true
		}
	case catalog.TString:
		if x, ok := v.(string); ok && phys == format.ByteArray {
			return parquet.ByteArrayValue([]byte(x)), true
		}
	case catalog.TBinary:
		if x, ok := v.([]byte); ok && phys == format.ByteArray {
			return parquet.ByteArrayValue(x), true
		}
	case catalog.TFixed:
		if x, ok := v.([]byte); ok && phys == format.FixedLenByteArray {
			return parquet.FixedLenByteArrayValue(x), true
		}
	case catalog.TUUID:
		if x, ok := v.([16]byte); ok && phys == format.FixedLenByteArray {
			return parquet.FixedLenByteArrayValue(x[:]), true
		}
	}
	return parquet.Value{}, false
}
