package exec

import (
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/spill"
)

// An aggregation with an aggregate that has no partial state (DISTINCT,
// ORDER BY in the call, string_agg, array_agg, the ordered-set
// aggregates) cannot write its groups' states and merge them later. When
// its statement may spill it keeps the input batches its table was built
// from, accounted with the table; when the two pass statement_mem:
//
//   - the kept batches' rows are written to aggPartitions temporary
//     files, each row to the partition of its group keys' hash, and the
//     table is dropped; every later input row goes to its partition too.
//   - At the end of the input each partition in turn is aggregated from
//     its rows by a new aggregation of the same groups and aggregates
//     (which spills again, hashed with another seed, if still too
//     large, up to aggMaxDepth levels). A group's rows all went to one
//     partition, in their input order, so ordered aggregates without
//     ORDER BY (string_agg, array_agg) see them in the same order.
//
// A single group larger than the limit still fails with 53200.

// addInput folds b into the table, keeping it, or writes its rows to the
// partitions once the aggregation spilled.
func (o *hashAggOp) addInput(b arrow.RecordBatch) error {
	if o.spill != nil {
		return o.spillInput(b)
	}
	b.Retain()
	o.kept = append(o.kept, b)
	if err := o.mem.growTo(batchBytes(b), true); err != nil {
		o.overflow = true
	}
	if !o.overflow {
		if err := o.add(b); err != nil {
			return err
		}
	}
	if !o.overflow {
		return nil
	}
	o.overflow = false
	o.spill = &aggSpill{tmp: spill.FromContext(o.ctx), seed: maphash.MakeSeed(), schema: o.in.Schema(),
		spillParts: newSpillParts(aggPartitions)}
	kept := o.kept
	o.kept = nil
	defer func() {
		for _, k := range kept {
			k.Release()
		}
	}()
	for _, k := range kept {
		if err := o.spillInput(k); err != nil {
			return err
		}
	}
	return o.reset(o.ctx)
}

// spillInput writes b's rows to the partitions of their group keys' hash.
func (o *hashAggOp) spillInput(b arrow.RecordBatch) error {
	sp := o.spill
	if err := o.ctx.Err(); err != nil {
		return err
	}
	rows := int(b.NumRows())
	if rows == 0 {
		return nil
	}
	ws := make([]keyWriter, len(o.groups))
	for i, p := range o.groups {
		k, err := p.Eval(o.ctx, b)
		if err != nil {
			return err
		}
		defer k.Release()
		if ws[i], err = winKeyWriter(k); err != nil {
			return err
		}
	}
	parts := hashRows(sp.seed, ws, rows, len(sp.files), nil, &sp.scratch)
	return sp.writeRows(o.ctx, sp.tmp, sp.schema, b, parts)
}

// finishInputSpill ends the partitions' files.
func (o *hashAggOp) finishInputSpill() error {
	return o.spill.finish()
}

// releaseKept releases the kept input batches.
func (o *hashAggOp) releaseKept() {
	for _, b := range o.kept {
		b.Release()
	}
	o.kept = nil
}
