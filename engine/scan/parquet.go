package scan

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// columnReader reads one top-level read field from the row groups of a
// Parquet file.
type columnReader interface {
	startRowGroup(rg parquet.RowGroup)
	read(b array.Builder, n int) error
	close()
}

// flatColumn reads a top-level primitive column.
type flatColumn struct {
	node *pqNode
	leaf leafReader
	// direct: the leaf builds each batch's array itself (arrayReader).
	direct bool
}

func (c *flatColumn) startRowGroup(rg parquet.RowGroup) {
	c.leaf.start(rg.ColumnChunks()[c.node.leaf].Pages())
}
func (c *flatColumn) read(b array.Builder, n int) error {
	if err := c.leaf.read(b, n); err != nil {
		return fmt.Errorf("column %q: %w", c.node.name, err)
	}
	return nil
}
func (c *flatColumn) close() { c.leaf.close() }

// parquetReader reads a Parquet data or delete file, row group by row
// group, decoding only the projected columns.
type parquetReader struct {
	path     string
	pf       *parquet.File
	file     catalog.File // what pf reads (page indexes, bloom filters)
	fields   []readField
	cols     []columnReader // nil where the file lacks the field
	builders []array.Builder
	opts     readOptions
	rg       int   // current row group, -1 before the first
	left     int64 // rows left to read in the current row group
	pos      int64 // file position of the next row
	// groupEnd is the file position of the row after the current group.
	groupEnd int64
	// part, ranged: the rows this shard reads when the file is split by
	// rows rather than by row group (see shardRange).
	part   rowRange
	ranged bool

	// pruned: the filtered columns row groups are judged by.
	pruned []prunedColumn
	// spans: the row ranges of the current row group still to read when
	// the page index narrowed it (prune_page.go); group, groupStart: that
	// group and the file position of its first row.
	spans      []rowSpan
	group      parquet.RowGroup
	groupStart int64

	// prefetch, when the file can fetch ahead (an object store's reader),
	// is told the byte ranges of a row group's projected column chunks
	// before they are decoded; leaves are those columns' leaf indexes.
	prefetch prefetcher
	leaves   []int

	// whole, when the current row group's columns came whole from (or
	// went whole into) opts.columns, are those arrays (nil where the file
	// lacks the field); batches are slices of them from wholeOff on.
	whole    []arrow.Array
	wholeOff int64
	// wholeSpans, when an equality found the matching rows of the whole
	// columns through their index, are those rows (from wholeOff on).
	wholeSpans []rowSpan

	// footer, when pf came from (or goes to) a FooterCache, gives it back
	// when the reader closes.
	footer func()
	// pageIndexes, when pf came from a FooterCache, are the page indexes
	// decoded so far, kept with the footer (prune_page.go).
	pageIndexes map[*format.ColumnChunk]pageIndex
}

// prefetcher is a file that can fetch byte ranges ahead of reading them,
// coalescing those that are close (objstore.Reader).
type prefetcher interface {
	Prefetch(ranges [][2]int64)
}

func openParquet(path string, f catalog.File, fields []readField, opts readOptions) (*parquetReader, error) {
	pf, err := parquet.OpenFile(f, f.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("open parquet file %s: %w", path, err)
	}
	return newParquetReader(path, pf, f, fields, opts, nil)
}

// newParquetReader reads fields of the Parquet file pf, opened over f.
// top, when not nil, is pf's schema tree as buildPqSchema made it from a
// schema with field ids, which nothing changes (assignIDs leaves it).
func newParquetReader(path string, pf *parquet.File, f catalog.File, fields []readField, opts readOptions, top []*pqNode) (*parquetReader, error) {
	if top == nil {
		var hasIDs bool
		var err error
		top, hasIDs, err = buildPqSchema(pf.Metadata().Schema)
		if err != nil {
			return nil, fmt.Errorf("parquet file %s: %w", path, err)
		}
		ff := make([]fileField, len(top))
		for i, n := range top {
			ff[i] = n
		}
		var schemaFields []catalog.NestedField
		for _, rf := range fields {
			schemaFields = append(schemaFields, rf.field)
		}
		assignIDs(ff, hasIDs, opts.mapping, schemaFields)
	}

	r := &parquetReader{path: path, pf: pf, file: f, fields: fields, opts: opts, rg: -1}
	r.prefetch, _ = f.(prefetcher)
	if len(opts.filter) > 0 {
		r.pruned = parquetGroupFilter(opts.filter, fields, top)
	}
	for _, rf := range fields {
		var node *pqNode
		for _, n := range top {
			if n.id != 0 && n.id == rf.field.ID {
				node = n
				break
			}
		}
		r.builders = append(r.builders, array.NewBuilder(opts.mem, engine.ArrowType(rf.field.Type)))
		if node == nil {
			r.cols = append(r.cols, nil)
			continue
		}
		col, err := newColumnReader(rf.field.Type, node, opts.generalNested)
		if err != nil {
			r.close()
			return nil, fmt.Errorf("parquet file %s: %w", path, err)
		}
		if fc, ok := col.(*flatColumn); ok && opts.vals != nil {
			if ar, ok := fc.leaf.(arrayReader); ok {
				dt := r.builders[len(r.builders)-1].Type()
				fc.direct = ar.setDirect(dt)
				if cr, ok := fc.leaf.(condReader); ok && fc.direct && opts.sel != nil {
					cr.setCond(opts.sel.condOf(rf.field.ID), opts.sel, dt)
				}
			}
		}
		r.cols = append(r.cols, col)
		for _, l := range node.leaves(nil) {
			r.leaves = append(r.leaves, l.leaf)
		}
	}
	r.part, r.ranged = shardRange(pf, r.cols, opts.shard, opts.shards)
	return r, nil
}

// prefetchGroup announces the byte ranges of row group g's projected
// column chunks to a file that fetches ahead.
func (r *parquetReader) prefetchGroup(g int) {
	if r.prefetch == nil || len(r.leaves) == 0 {
		return
	}
	groups := r.pf.Metadata().RowGroups
	if g >= len(groups) {
		return
	}
	chunks := groups[g].Columns
	ranges := make([][2]int64, 0, len(r.leaves))
	for _, l := range r.leaves {
		if l < 0 || l >= len(chunks) {
			continue
		}
		md := chunks[l].MetaData
		start := md.DataPageOffset
		if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
			start = md.DictionaryPageOffset
		}
		if start < 0 || md.TotalCompressedSize <= 0 {
			continue
		}
		ranges = append(ranges, [2]int64{start, md.TotalCompressedSize})
	}
	r.prefetch.Prefetch(ranges)
}

func newColumnReader(t catalog.Type, n *pqNode, generalNested bool) (columnReader, error) {
	if p, ok := t.(*catalog.PrimitiveType); ok && n.shape == pqPrimitive && n.maxRep == 0 {
		leaf, err := newLeafReader(n, p)
		if err != nil {
			return nil, err
		}
		leaf.cursor().maxDef = byte(n.maxDef)
		return &flatColumn{node: n, leaf: leaf}, nil
	}
	if st, ok := t.(*catalog.StructType); ok && !generalNested && flatStruct(st, n) {
		return newStructColumn(st, n)
	}
	if lt, ok := t.(*catalog.ListType); ok && !generalNested && flatList(lt, n) {
		return newListColumn(lt, n)
	}
	return newNestedColumn(t, n)
}

func (r *parquetReader) next(ctx context.Context, n int) ([]arrow.Array, int64, int, error) {
	for r.left == 0 {
		if len(r.spans) > 0 {
			sp := r.spans[0]
			r.spans = r.spans[1:]
			if err := r.startSpan(sp); err != nil {
				return nil, 0, 0, err
			}
			continue
		}
		r.rg++
		rgs := r.pf.RowGroups()
		if r.rg >= len(rgs) {
			return nil, r.pos, 0, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, 0, 0, err
		}
		rg := rgs[r.rg]
		start := r.groupEnd
		r.groupEnd += rg.NumRows()
		from, to := int64(0), rg.NumRows() // the group's rows this reader reads
		if r.ranged {
			from = min(max(r.part.lo-start, 0), to)
			to = max(min(r.part.hi-start, to), from)
		}
		r.pos = start + from // positions stay those of the file
		if r.skipGroup(start, to-from) {
			continue
		}
		if spans, ok := r.pageRanges(r.rg, rg.NumRows(), from, to); ok {
			for _, sp := range spans {
				r.countRows(sp.hi - sp.lo)
			}
			r.spans, r.group, r.groupStart = spans, rg, start
			continue
		}
		r.countRows(to - from)
		r.left = to - from
		r.releaseWhole()
		if r.groupCacheable(rg) {
			if err := r.startCachedGroup(rg); err != nil {
				return nil, 0, 0, err
			}
			continue
		}
		r.prefetchGroup(r.rg)
		for _, c := range r.cols {
			if c == nil {
				continue
			}
			if r.ranged {
				if err := c.(seekColumn).startRowGroupAt(rg, from); err != nil {
					return nil, 0, 0, fmt.Errorf("read parquet file %s row group %d: %w", r.path, r.rg, err)
				}
				continue
			}
			c.startRowGroup(rg)
		}
		if r.opts.sel != nil && !r.ranged {
			out, err := r.dictRulesOut()
			if err != nil {
				return nil, 0, 0, fmt.Errorf("read parquet file %s row group %d: %w", r.path, r.rg, err)
			}
			if out {
				if c := r.opts.counters; c != nil {
					c.skipped.Add(1)
					c.rows.Add(-r.left)
				}
				r.pos += r.left
				r.left = 0
			}
		}
	}
	k := int(min(int64(n), r.left))
	out := make([]arrow.Array, len(r.fields))
	release := func() {
		for _, a := range out {
			if a != nil {
				a.Release()
			}
		}
	}
	if r.whole != nil {
		return r.nextWhole(k)
	}
	if r.opts.sel != nil {
		r.opts.sel.begin(k)
	}
	for i, c := range r.cols {
		if c == nil {
			a, err := constantArray(r.opts.mem, r.fields[i].field.Type, r.fields[i].missing, k)
			if err != nil {
				release()
				return nil, 0, 0, fmt.Errorf("parquet file %s: column %q: %w", r.path, r.fields[i].field.Name, err)
			}
			out[i] = a
			continue
		}
		a, err := r.readColumn(i, k)
		if err != nil {
			release()
			return nil, 0, 0, err
		}
		out[i] = a
	}
	pos := r.pos
	r.pos += int64(k)
	r.left -= int64(k)
	return out, pos, k, nil
}

// readColumn decodes the next k rows of column i (which the file has).
func (r *parquetReader) readColumn(i, k int) (arrow.Array, error) {
	c, b := r.cols[i], r.builders[i]
	if fc, ok := c.(*flatColumn); ok && fc.direct {
		a, err := fc.leaf.(arrayReader).readArray(r.opts.vals, b.Type(), k)
		if err != nil {
			return nil, fmt.Errorf("read parquet file %s row group %d: column %q: %w", r.path, r.rg, fc.node.name, err)
		}
		return a, nil
	}
	b.Reserve(k)
	if err := c.read(b, k); err != nil {
		return nil, fmt.Errorf("read parquet file %s row group %d: %w", r.path, r.rg, err)
	}
	return b.NewArray(), nil
}

func (r *parquetReader) close() error {
	r.releaseWhole()
	for _, c := range r.cols {
		if c != nil {
			c.close()
		}
	}
	for _, b := range r.builders {
		b.Release()
	}
	r.cols, r.builders = nil, nil
	if r.footer != nil {
		r.footer()
		r.footer = nil
	}
	return nil
}

// skipGroup reports whether the current row group (starting at file row
// start) is another shard's or ruled out by statistics, and counts it.
// rows is how many of its rows this reader would read.
func (r *parquetReader) skipGroup(start, rows int64) bool {
	// owner: this shard counts the group (the one holding its first row).
	owner := true
	if r.ranged {
		if rows == 0 {
			return true
		}
		owner = start >= r.part.lo
	} else if r.opts.shards > 1 && r.rg%r.opts.shards != r.opts.shard {
		return true // another shard of the scan reads it
	}
	c := r.opts.counters
	if c == nil {
		return false
	}
	if owner {
		c.groups.Add(1)
	}
	if len(r.pruned) > 0 && !rowGroupMayMatch(r.pf.Metadata(), r.rg, r.pruned) {
		if owner {
			c.skipped.Add(1)
		}
		return true
	}
	if len(r.pruned) > 0 && r.bloomRuledOut(r.rg) {
		if owner {
			c.skipped.Add(1)
			c.bloomSkipped.Add(1)
		}
		return true
	}
	return false
}

// countRows counts rows this reader decodes.
func (r *parquetReader) countRows(n int64) {
	if c := r.opts.counters; c != nil {
		c.rows.Add(n)
	}
}

// startSpan starts reading rows sp of the current row group: every column
// seeks to its first row (the offset index finds the page holding it).
func (r *parquetReader) startSpan(sp rowSpan) error {
	for _, c := range r.cols {
		if c == nil {
			continue
		}
		if err := c.(seekColumn).startRowGroupAt(r.group, sp.lo); err != nil {
			return fmt.Errorf("read parquet file %s row group %d: %w", r.path, r.rg, err)
		}
	}
	r.pos = r.groupStart + sp.lo
	r.left = sp.hi - sp.lo
	return nil
}
