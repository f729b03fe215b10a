package scan

import (
	"fmt"

	"github.com/parquet-go/parquet-go"
)

// Sharding a Parquet file. The shards of a scan split each file's rows:
// when every column the scan reads is a top-level primitive and every
// column chunk has an offset index (so a reader can jump to the page
// holding a row without decoding the pages before it), shard k of n reads
// the contiguous rows [k*N/n, (k+1)*N/n) of the file's N rows, which
// balances the shards whatever the sizes of the row groups. Otherwise
// shard k reads the row groups whose index is k modulo n. Every shard
// takes the same decision from the file's metadata.

// rowRange is the part of a file a shard reads: rows [lo, hi).
type rowRange struct {
	lo, hi int64
}

// shardRange returns the rows of the file that shard reads, and ok false
// when the file is split by row group instead.
func shardRange(pf *parquet.File, cols []columnReader, shard, shards int) (rowRange, bool) {
	if shards <= 1 {
		return rowRange{}, false
	}
	md := pf.Metadata()
	for _, c := range cols {
		if c == nil {
			continue
		}
		fc, ok := c.(*flatColumn)
		if !ok {
			return rowRange{}, false
		}
		for _, rg := range md.RowGroups {
			if fc.node.leaf >= len(rg.Columns) || rg.Columns[fc.node.leaf].OffsetIndexOffset <= 0 {
				return rowRange{}, false
			}
		}
	}
	n := md.NumRows
	return rowRange{lo: n * int64(shard) / int64(shards), hi: n * int64(shard+1) / int64(shards)}, true
}

// seekColumn is a column reader that can start reading a row group at a
// row other than its first.
type seekColumn interface {
	startRowGroupAt(rg parquet.RowGroup, row int64) error
}

func (c *flatColumn) startRowGroupAt(rg parquet.RowGroup, row int64) error {
	cc := rg.ColumnChunks()[c.node.leaf]
	pages := cc.Pages()
	if row == 0 {
		c.leaf.start(pages)
		return nil
	}
	// Jump to the first row of the page holding row (the offset index
	// locates it), then skip the rows before row in that page.
	idx, err := cc.OffsetIndex()
	if err != nil {
		pages.Close()
		return fmt.Errorf("column %q: read offset index: %w", c.node.name, err)
	}
	first := int64(0)
	for p := range idx.NumPages() {
		if f := idx.FirstRowIndex(p); f <= row {
			first = f
		}
	}
	if err := pages.SeekToRow(first); err != nil {
		pages.Close()
		return fmt.Errorf("column %q: seek to row %d: %w", c.node.name, first, err)
	}
	c.leaf.start(pages)
	if row > first {
		if err := c.leaf.read(nil, int(row-first)); err != nil {
			return fmt.Errorf("column %q: skip to row %d: %w", c.node.name, row, err)
		}
	}
	return nil
}
