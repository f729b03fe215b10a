package exec

import (
	"context"
	"fmt"
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/spill"
)

// spillParts are a spilling operator's hash partitions on disk (an
// aggregation's or a window's) and, once its input ends, the partition
// being read back: each file in turn is handed to an operator of the same
// kind, which may spill again one level deeper.
type spillParts struct {
	files   []*spill.File
	writers []*spill.Writer
	bytes   int64

	cur int
	sub engine.Operator
	out arrow.RecordBatch
}

func newSpillParts(n int) spillParts {
	return spillParts{files: make([]*spill.File, n), writers: make([]*spill.Writer, n)}
}

// hashRows splits rows 0..n-1 into parts by the hash (with seed) of the
// keys ws write; rows with skip[r] set are left out (skip may be nil).
// scratch is reused for the key bytes.
func hashRows(seed maphash.Seed, ws []keyWriter, n, parts int, skip []bool, scratch *[]byte) [][]int32 {
	out := make([][]int32, parts)
	buf := (*scratch)[:0]
	for r := range n {
		if skip != nil && skip[r] {
			continue
		}
		buf = buf[:0]
		for _, w := range ws {
			buf = w(buf, r)
		}
		p := maphash.Bytes(seed, buf) % uint64(parts)
		out[p] = append(out[p], int32(r))
	}
	*scratch = buf
	return out
}

// writeRows appends to each partition p the rows rows[p] of b, creating
// its temporary file in tmp (for batches of schema) on first use.
func (sp *spillParts) writeRows(ctx context.Context, tmp *spill.Statement, schema *arrow.Schema, b arrow.RecordBatch, rows [][]int32) error {
	n := int(b.NumRows())
	for p, idx := range rows {
		if len(idx) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if sp.writers[p] == nil {
			f, err := tmp.Create()
			if err != nil {
				return err
			}
			sp.files[p] = f
			sp.writers[p] = spill.NewWriter(f, schema, expr.Allocator(ctx))
		}
		part := b
		if len(idx) < n {
			var err error
			if part, err = takeBatch(ctx, b, idx); err != nil {
				return err
			}
		} else {
			part.Retain()
		}
		err := sp.writers[p].Write(part)
		part.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// finish ends the partitions' files and counts their bytes.
func (sp *spillParts) finish() error {
	for p, w := range sp.writers {
		if w == nil {
			continue
		}
		if err := w.Finish(); err != nil {
			return err
		}
		sp.writers[p] = nil
		sp.bytes += sp.files[p].Size()
	}
	return nil
}

// next returns the next batch of the partitions, one partition at a time,
// as schema (what names the operator in errors). open makes the operator
// that reads a partition's file back.
func (sp *spillParts) next(schema *arrow.Schema, what string, open func(*spill.File) (engine.Operator, error)) (arrow.RecordBatch, error) {
	if sp.out != nil {
		sp.out.Release()
		sp.out = nil
	}
	for {
		if sp.sub == nil {
			for sp.cur < len(sp.files) && sp.files[sp.cur] == nil {
				sp.cur++
			}
			if sp.cur >= len(sp.files) {
				return nil, nil
			}
			sub, err := open(sp.files[sp.cur])
			if err != nil {
				return nil, err
			}
			sp.sub = sub
		}
		b, err := sp.sub.Next()
		if err != nil {
			return nil, err
		}
		if b != nil {
			for i, c := range b.Columns() {
				if !arrow.TypeEqual(c.DataType(), schema.Field(i).Type) {
					return nil, fmt.Errorf("spilled %s: column %d is %s, not %s", what, i, c.DataType(), schema.Field(i).Type)
				}
			}
			sp.out = array.NewRecordBatch(schema, b.Columns(), b.NumRows())
			return sp.out, nil
		}
		if s, ok := sp.sub.(interface{ SpilledBytes() int64 }); ok {
			sp.bytes += s.SpilledBytes()
		}
		err = sp.sub.Close()
		sp.sub = nil
		sp.files[sp.cur].Close()
		sp.files[sp.cur] = nil
		if err != nil {
			return nil, err
		}
	}
}

// close removes the partitions and releases what is being emitted.
func (sp *spillParts) close() {
	if sp.out != nil {
		sp.out.Release()
		sp.out = nil
	}
	if sp.sub != nil {
		sp.sub.Close()
		sp.sub = nil
	}
	for p, f := range sp.files {
		if f != nil {
			f.Close()
			sp.files[p] = nil
		}
	}
}
