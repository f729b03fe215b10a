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

// A grace hash join: when a join's build side passes statement_mem and
// the statement may spill, the build rows are written to joinPartitions
// temporary files by the hash of their keys (those buffered so far, then
// the rest of the build input), then the probe rows likewise by theirs;
// equal keys hash alike, so each partition joins on its own. The
// partitions are joined one after another by a join of the same spec
// over the two files, which spills again (with another seed) when its
// build side is still too large, up to joinMaxDepth levels. Every join
// type stays correct: a build row is in exactly one partition (right and
// full joins emit it there when nothing matched it) and so is a probe
// row. A join that builds on its left input spills the same way, the
// roles swapped.
//
// Null-aware anti and mark joins (NOT IN, IN) depend on more than a
// partition: a right row with a NULL key makes every left row without a
// match yield NULL, and a left row with a NULL key yields NULL when the
// right side has any row at all. So the first right row with a NULL key
// goes to every partition (the others add nothing), and the left rows
// with a NULL key go to a file of their own, emitted after the
// partitions once the whole right side was counted. With a residual the
// NULL rule depends on each pair: such a join does not spill and fails
// with 53200 as before.

const (
	joinPartitions = 16
	joinMaxDepth   = 4
)

// graceJoin is a spilling join's partitions.
type graceJoin struct {
	tmp                      *spill.Statement
	seed                     maphash.Seed
	build, probe             spillParts
	buildSchema, probeSchema *arrow.Schema
	subBytes                 int64 // written by the partitions' joins
	cur                      int
	sub                      *joinOp
	out                      arrow.RecordBatch
	scratch                  []byte

	// Null-aware only: the left rows with a NULL key (one partition),
	// the right rows partitioned, whether a right row with a NULL key
	// went to every partition, and whether the right side is all
	// partitioned.
	nullLeft     spillParts
	nullScan     *spillScan
	rightRows    int64
	rightNull    bool
	rightDone    bool
	nullsEmitted bool
}

// bytes is what the join wrote to temporary files so far.
func (g *graceJoin) bytes() int64 {
	return g.build.bytes + g.probe.bytes + g.nullLeft.bytes + g.subBytes
}

// canSpill reports whether the join may spill its build side in ctx.
func (o *joinOp) canSpill(ctx context.Context) bool {
	return o.shared == nil && o.spillable(ctx)
}

// spillable reports whether this join, were its build side its own,
// could go on past statement_mem as a grace hash join. A shared build
// side cannot (its partitions would have to meet every part's probe
// rows): it fails with errSharedBuildTooLarge instead, and the plan runs
// again serially (SerialFallback).
func (o *joinOp) spillable(ctx context.Context) bool {
	return len(o.buildKeys) > 0 && (!o.nullAware || o.residual == nil) && o.depth < joinMaxDepth &&
		spill.FromContext(ctx) != nil
}

// spillBuild turns the build side into partitions: the decoded columns
// buffered so far (parts: per column, one array per batch), then, with
// rest, the rest of the build input.
func (o *joinOp) spillBuild(parts [][]arrow.Array, rest bool) error {
	g := &graceJoin{tmp: spill.FromContext(o.ctx), seed: maphash.MakeSeed(),
		build: newSpillParts(joinPartitions), probe: newSpillParts(joinPartitions), nullLeft: newSpillParts(1),
		buildSchema: o.buildSchema, probeSchema: o.probeIn.Schema()}
	o.grace = g
	if len(parts) > 0 {
		for i := range parts[0] {
			cols := make([]arrow.Array, len(parts))
			for j := range parts {
				cols[j] = parts[j][i]
			}
			b := array.NewRecordBatch(o.buildSchema, cols, int64(cols[0].Len()))
			err := o.partitionWrite(b, o.buildKeys, &g.build, g.buildSchema, o.spec.BuildLeft)
			b.Release()
			if err != nil {
				return err
			}
		}
	}
	o.build.mem.release()
	o.build.rows = 0
	for rest {
		if err := o.ctx.Err(); err != nil {
			return err
		}
		rb, err := o.buildIn.Next()
		if err != nil {
			return err
		}
		if rb == nil {
			break
		}
		cols, err := decodeColumns(o.ctx, rb)
		if err != nil {
			return err
		}
		b := array.NewRecordBatch(o.buildSchema, cols, rb.NumRows())
		releaseAll(cols)
		err = o.partitionWrite(b, o.buildKeys, &g.build, g.buildSchema, o.spec.BuildLeft)
		b.Release()
		if err != nil {
			return err
		}
	}
	g.rightDone = !o.spec.BuildLeft
	return g.build.finish()
}

// spillBuilt partitions a build side read whole whose index does not fit.
func (o *joinOp) spillBuilt() error {
	b := &o.build
	whole := make([][]arrow.Array, b.batch.NumCols())
	for j, c := range b.batch.Columns() {
		whole[j] = []arrow.Array{c}
	}
	err := o.spillBuild(whole, false)
	b.release()
	b.rows = 0
	return err
}

// spillProbe reads the whole probe input into its partitions.
func (o *joinOp) spillProbe() error {
	g := o.grace
	for {
		if err := o.ctx.Err(); err != nil {
			return err
		}
		b, err := o.probeIn.Next()
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		if err := o.partitionWrite(b, o.probeKeys, &g.probe, g.probeSchema, !o.spec.BuildLeft); err != nil {
			return err
		}
	}
	g.rightDone = true
	if err := g.probe.finish(); err != nil {
		return err
	}
	return g.nullLeft.finish()
}

// partitionWrite writes the rows of b (of the left input when left) to
// the partitions of sp by their keys' hash.
func (o *joinOp) partitionWrite(b arrow.RecordBatch, keyProgs []expr.Program, sp *spillParts, schema *arrow.Schema, left bool) error {
	g := o.grace
	n := int(b.NumRows())
	if n == 0 {
		return nil
	}
	if !left {
		g.rightRows += int64(n)
	}
	keys := make([]arrow.Array, len(keyProgs))
	defer releaseAll(keys)
	writers := make([]keyWriter, len(keyProgs))
	for i, p := range keyProgs {
		k, err := p.Eval(o.ctx, b)
		if err != nil {
			return err
		}
		keys[i] = k
		if writers[i], err = newKeyWriter(k); err != nil {
			return err
		}
	}
	nulls := make([]bool, n)
	anyNull := o.keyNulls(keys, nulls)
	parts := hashRows(g.seed, writers, n, len(sp.files), nulls, &g.scratch)
	if anyNull {
		switch {
		case !o.nullAware:
			// A row with a NULL key that is not null-safe matches
			// nothing: any partition will do, and spreading them keeps
			// many such rows from making one partition too large at
			// every level.
			for r := range n {
				if nulls[r] {
					parts[r%len(parts)] = append(parts[r%len(parts)], int32(r))
				}
			}
		case left:
			// Settled at the end by whether the right side has rows; an
			// anti join whose right side is known to have some drops them.
			if o.spec.Type == JoinAnti && g.rightDone && g.rightRows > 0 {
				break
			}
			var rows []int32
			for r := range n {
				if nulls[r] {
					rows = append(rows, int32(r))
				}
			}
			if err := g.nullLeft.writeRows(o.ctx, g.tmp, schema, b, [][]int32{rows}); err != nil {
				return err
			}
		case !g.rightNull:
			// The first right row with a NULL key reaches every left
			// row: it goes to every partition.
			first := int32(-1)
			for r := range n {
				if nulls[r] {
					first = int32(r)
					break
				}
			}
			for p := range parts {
				parts[p] = append(parts[p], first)
			}
			g.rightNull = true
		}
	}
	return sp.writeRows(o.ctx, g.tmp, schema, b, parts)
}

// nextNullLeft emits the left rows with a NULL key of a null-aware join
// that spilled: none for NOT IN when the right side had rows, else all
// of them; for IN, marked NULL when the right side had rows, else false.
func (o *joinOp) nextNullLeft() (arrow.RecordBatch, error) {
	g := o.grace
	if g.nullsEmitted || g.nullLeft.files[0] == nil || (o.spec.Type == JoinAnti && g.rightRows > 0) {
		g.nullsEmitted = true
		return nil, nil
	}
	if g.nullScan == nil {
		schema := g.probeSchema
		if o.spec.BuildLeft {
			schema = g.buildSchema
		}
		g.nullScan = &spillScan{file: g.nullLeft.files[0], schema: schema}
		if err := g.nullScan.Open(o.ctx); err != nil {
			return nil, err
		}
	}
	for {
		b, err := g.nullScan.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			g.nullsEmitted = true
			return nil, nil
		}
		if b.NumRows() == 0 {
			continue
		}
		cols, err := decodeColumns(o.ctx, b)
		if err != nil {
			return nil, err
		}
		if o.spec.Type == JoinMark {
			bb := array.NewBooleanBuilder(expr.Allocator(o.ctx))
			if g.rightRows > 0 {
				bb.AppendNulls(int(b.NumRows()))
			} else {
				bb.AppendValues(make([]bool, b.NumRows()), nil)
			}
			cols = append(cols, bb.NewArray())
			bb.Release()
		}
		g.out = array.NewRecordBatch(o.schema, cols, b.NumRows())
		releaseAll(cols)
		return g.out, nil
	}
}

// nextGrace emits the joins of the partitions, one after another.
func (o *joinOp) nextGrace() (arrow.RecordBatch, error) {
	g := o.grace
	if g.out != nil {
		g.out.Release()
		g.out = nil
	}
	for {
		if g.sub == nil {
			if g.cur >= len(g.build.files) {
				return o.nextNullLeft()
			}
			probe := &spillScan{file: g.probe.files[g.cur], schema: g.probeSchema}
			build := &spillScan{file: g.build.files[g.cur], schema: g.buildSchema}
			left, right := engine.Operator(probe), engine.Operator(build)
			if o.spec.BuildLeft {
				left, right = build, probe
			}
			sub, err := newJoin(left, right, o.spec, o.opts)
			if err != nil {
				return nil, err
			}
			sub.depth = o.depth + 1
			if err := sub.Open(o.ctx); err != nil {
				sub.Close()
				return nil, err
			}
			g.sub = sub
		}
		b, err := g.sub.Next()
		if err != nil {
			return nil, err
		}
		if b != nil {
			if int(b.NumCols()) != o.schema.NumFields() {
				return nil, fmt.Errorf("spilled join: %d columns, not %d", b.NumCols(), o.schema.NumFields())
			}
			g.out = array.NewRecordBatch(o.schema, b.Columns(), b.NumRows())
			return g.out, nil
		}
		err = g.sub.Close()
		g.subBytes += g.sub.SpilledBytes()
		g.sub = nil
		for _, f := range []*spill.File{g.build.files[g.cur], g.probe.files[g.cur]} {
			if f != nil {
				f.Close()
			}
		}
		g.build.files[g.cur], g.probe.files[g.cur] = nil, nil
		g.cur++
		if err != nil {
			return nil, err
		}
	}
}

// closeGrace removes the partitions.
func (o *joinOp) closeGrace() {
	g := o.grace
	if g == nil {
		return
	}
	if g.out != nil {
		g.out.Release()
		g.out = nil
	}
	if g.sub != nil {
		g.sub.Close()
		g.sub = nil
	}
	if g.nullScan != nil {
		g.nullScan.Close()
		g.nullScan = nil
	}
	g.build.close()
	g.probe.close()
	g.nullLeft.close()
	o.spilled += g.bytes()
	o.grace = nil
}

// SpilledBytes is what the join wrote to temporary files.
func (o *joinOp) SpilledBytes() int64 {
	if o.grace != nil {
		return o.spilled + o.grace.bytes()
	}
	return o.spilled
}
