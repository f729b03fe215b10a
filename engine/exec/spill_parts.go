package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
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
