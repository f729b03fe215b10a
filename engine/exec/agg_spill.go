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

// A hash aggregation whose groups pass statement_mem spills, when its
// statement may and every aggregate has a partial state (count, sum, avg,
// min, max, the bool and variance families; not DISTINCT, ORDER BY in the
// call, string_agg, array_agg or the ordered-set aggregates, which fail
// with 53200 as before):
//
//   - The table's groups and their aggregates' partial states (the
//     columns of a parallel plan's partial aggregation) are written to
//     aggPartitions temporary files, each group to the partition of its
//     key's hash, and the table starts empty again. The batch being
//     added completes first, so the limit is passed by at most one batch.
//   - At the end of the input the last table is written the same way, and
//     each partition in turn is aggregated by a final aggregation that
//     merges the states of equal groups: a group's states all went to one
//     partition. A partition that is still too large spills again, hashed
//     with another seed, up to aggMaxDepth levels.
//
// A partial aggregation (the per-part phase of a parallel plan) needs no
// partitions: its output is states anyway, merged above it, so it writes
// the table to one file and emits that file's rows, then the last table.

const (
	aggPartitions = 16
	aggMaxDepth   = 4
)

// aggSpill is a spilling aggregation's partitions.
type aggSpill struct {
	tmp     *spill.Statement
	seed    maphash.Seed
	schema  *arrow.Schema // group keys, then the aggregates' states
	scratch []byte
	// spillParts: the partitions and, emitting, the one being read and
	// its final aggregation (or, for a partial aggregation, its reader).
	spillParts
}

// spillable reports whether the aggregation may spill in ctx.
func (o *hashAggOp) spillable(ctx context.Context) bool {
	if len(o.groups) == 0 || o.depth >= aggMaxDepth || spill.FromContext(ctx) == nil {
		return false
	}
	o.byInput = false
	if o.phase != phaseWhole {
		return true // partial and final phases only have partial states
	}
	for i, a := range o.aggs {
		if _, err := partialTypes(a, o.argTypes[i], o.resTypes[i]); err != nil {
			// Spill input rows instead (agg_spill_input.go), which means
			// keeping them: only under a limit.
			lim := memoryLimitOf(ctx)
			o.byInput = len(o.groupExprs) == len(o.groups) && lim != nil && lim.limit > 0
			return o.byInput
		}
	}
	return true
}

// stateSchema is the schema of the spilled rows: the group keys, then the
// states of every aggregate.
func (o *hashAggOp) stateSchema() (*arrow.Schema, error) {
	if o.phase == phasePartial {
		return o.schema, nil
	}
	fields := append([]arrow.Field(nil), o.schema.Fields()[:len(o.groups)]...)
	for i, a := range o.aggs {
		ts, err := partialTypes(a, o.argTypes[i], o.resTypes[i])
		if err != nil {
			return nil, err
		}
		name := o.schema.Field(len(o.groups) + i).Name
		for j, t := range ts {
			fields = append(fields, arrow.Field{Name: fmt.Sprintf("%s.state%d", name, j), Type: t, Nullable: true})
		}
	}
	return arrow.NewSchema(fields, nil), nil
}

// flushSpill writes the table's groups and states to the partitions and
// empties the table.
func (o *hashAggOp) flushSpill() error {
	if o.spill == nil {
		schema, err := o.stateSchema()
		if err != nil {
			return err
		}
		n := aggPartitions
		if o.phase == phasePartial {
			n = 1
		}
		o.spill = &aggSpill{tmp: spill.FromContext(o.ctx), seed: maphash.MakeSeed(), schema: schema,
			spillParts: newSpillParts(n)}
	}
	sp := o.spill
	if o.ngroups > 0 {
		b, err := o.stateBatch()
		if err != nil {
			return err
		}
		defer b.Release()
		parts, err := o.partitionRows(b, len(sp.files))
		if err != nil {
			return err
		}
		if err := sp.writeRows(o.ctx, sp.tmp, sp.schema, b, parts); err != nil {
			return err
		}
	}
	return o.reset(o.ctx)
}

// stateBatch is the table's groups with their aggregates' states.
func (o *hashAggOp) stateBatch() (arrow.RecordBatch, error) {
	mem := expr.Allocator(o.ctx)
	var cols []arrow.Array
	defer func() { releaseAll(cols) }()
	for i := range o.groups {
		c, err := concatArrays(mem, o.keyParts[i])
		if err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	for a, s := range o.states {
		ps, ok := s.(partialState)
		if !ok {
			return nil, fmt.Errorf("spill %s: no partial state", o.aggs[a].Fn)
		}
		cs, err := ps.partial(mem)
		cols = append(cols, cs...)
		if err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(o.spill.schema, cols, int64(o.ngroups)), nil
}

// partitionRows splits the rows of b by the hash of their group keys.
func (o *hashAggOp) partitionRows(b arrow.RecordBatch, n int) ([][]int32, error) {
	parts := make([][]int32, n)
	rows := int(b.NumRows())
	if n == 1 {
		parts[0] = make([]int32, rows)
		return parts, nil
	}
	ws := make([]keyWriter, len(o.groups))
	for i := range ws {
		w, err := newKeyWriter(b.Column(i))
		if err != nil {
			return nil, err
		}
		ws[i] = w
	}
	return hashRows(o.spill.seed, ws, rows, n, nil, &o.spill.scratch), nil
}

// finishSpill writes the last table and ends the partitions' files.
func (o *hashAggOp) finishSpill() error {
	if err := o.flushSpill(); err != nil {
		return err
	}
	return o.spill.finish()
}

// nextSpilled emits the partitions' groups, one partition at a time.
func (o *hashAggOp) nextSpilled() (arrow.RecordBatch, error) {
	return o.spill.next(o.schema, "aggregation", func(f *spill.File) (engine.Operator, error) {
		var sub engine.Operator = &spillScan{file: f, schema: o.spill.schema}
		if o.byInput {
			agg, err := NewHashAggregate(sub, o.groupExprs, o.aggs, o.opts...)
			if err != nil {
				sub.Close()
				return nil, err
			}
			agg.(*hashAggOp).depth = o.depth + 1
			sub = agg
		} else if o.phase != phasePartial {
			fin, err := NewHashAggregateFinal(sub, len(o.groups), o.aggs, o.opts...)
			if err != nil {
				sub.Close()
				return nil, err
			}
			fin.(*hashAggOp).depth = o.depth + 1
			sub = fin
		}
		if err := sub.Open(o.ctx); err != nil {
			sub.Close()
			return nil, err
		}
		return sub, nil
	})
}

// closeSpill removes the partitions.
func (o *hashAggOp) closeSpill() {
	if o.spill == nil {
		return
	}
	o.spill.close()
	o.spilled += o.spill.bytes
	o.spill = nil
}

// SpilledBytes is what the aggregation wrote to temporary files.
func (o *hashAggOp) SpilledBytes() int64 {
	if o.spill != nil {
		return o.spilled + o.spill.bytes
	}
	return o.spilled
}

// spillScan reads back a temporary file of batches.
type spillScan struct {
	file   *spill.File
	schema *arrow.Schema
	r      *spill.Reader
}

func (s *spillScan) Open(ctx context.Context) error {
	if s.file == nil {
		return nil // an empty partition
	}
	r, err := spill.NewReader(s.file, s.schema, expr.Allocator(ctx))
	if err != nil {
		return err
	}
	s.r = r
	return nil
}

func (s *spillScan) Next() (arrow.RecordBatch, error) {
	if s.r == nil {
		return nil, nil
	}
	return s.r.Next()
}

func (s *spillScan) Close() error {
	if s.r != nil {
		s.r.Close()
		s.r = nil
	}
	return nil
}

func (s *spillScan) Schema() *arrow.Schema { return s.schema }
