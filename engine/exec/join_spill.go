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
// row. Null-aware anti and mark joins (NOT IN, IN) are the exception:
// whether the whole build side has a NULL key decides their rows, so they
// do not spill and fail with 53200 as before. A join that builds on its
// left input spills the same way, the roles swapped.

const (
	joinPartitions = 16
	joinMaxDepth   = 4
)

// graceJoin is a spilling join's partitions.
type graceJoin struct {
	tmp                        *spill.Statement
	seed                       maphash.Seed
	build, probe               []*spill.File
	buildW, probeW             []*spill.Writer
	buildSchema, probeSchema   *arrow.Schema
	bytes                      int64
	cur                        int
	sub                        *joinOp
	out                        arrow.RecordBatch
	buildScratch, probeScratch []byte
}

// canSpill reports whether the join may spill its build side in ctx.
func (o *joinOp) canSpill(ctx context.Context) bool {
	return len(o.buildKeys) > 0 && !o.nullAware && o.depth < joinMaxDepth &&
		spill.FromContext(ctx) != nil
}

// spillBuild turns the build side into partitions: the decoded columns
// buffered so far (parts: per column, one array per batch), then, with
// rest, the rest of the build input.
func (o *joinOp) spillBuild(parts [][]arrow.Array, rest bool) error {
	g := &graceJoin{tmp: spill.FromContext(o.ctx), seed: maphash.MakeSeed(),
		build: make([]*spill.File, joinPartitions), probe: make([]*spill.File, joinPartitions),
		buildW: make([]*spill.Writer, joinPartitions), probeW: make([]*spill.Writer, joinPartitions),
		buildSchema: o.buildSchema, probeSchema: o.probeIn.Schema()}
	o.grace = g
	if len(parts) > 0 {
		for i := range parts[0] {
			cols := make([]arrow.Array, len(parts))
			for j := range parts {
				cols[j] = parts[j][i]
			}
			b := array.NewRecordBatch(o.buildSchema, cols, int64(cols[0].Len()))
			err := o.partitionWrite(b, o.buildKeys, g.build, g.buildW, g.buildSchema)
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
		err = o.partitionWrite(b, o.buildKeys, g.build, g.buildW, g.buildSchema)
		b.Release()
		if err != nil {
			return err
		}
	}
	return finishWriters(g.build, g.buildW, &g.bytes)
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
		if err := o.partitionWrite(b, o.probeKeys, g.probe, g.probeW, g.probeSchema); err != nil {
			return err
		}
	}
	return finishWriters(g.probe, g.probeW, &g.bytes)
}

func finishWriters(files []*spill.File, ws []*spill.Writer, bytes *int64) error {
	for p, w := range ws {
		if w == nil {
			continue
		}
		if err := w.Finish(); err != nil {
			return err
		}
		ws[p] = nil
		*bytes += files[p].Size()
	}
	return nil
}

// partitionWrite writes the rows of b to the partitions of their keys'
// hash.
func (o *joinOp) partitionWrite(b arrow.RecordBatch, keyProgs []expr.Program, files []*spill.File, ws []*spill.Writer, schema *arrow.Schema) error {
	g := o.grace
	n := int(b.NumRows())
	if n == 0 {
		return nil
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
	// A row with a NULL key that is not null-safe matches nothing: any
	// partition will do, and spreading them keeps many such rows from
	// making one partition too large at every level.
	nulls := make([]bool, n)
	o.keyNulls(keys, nulls)
	parts := make([][]int32, len(files))
	buf := g.buildScratch[:0]
	for r := range n {
		if nulls[r] {
			parts[r%len(files)] = append(parts[r%len(files)], int32(r))
			continue
		}
		buf = buf[:0]
		for _, w := range writers {
			buf = w(buf, r)
		}
		p := maphash.Bytes(g.seed, buf) % uint64(len(files))
		parts[p] = append(parts[p], int32(r))
	}
	g.buildScratch = buf
	for p, rows := range parts {
		if len(rows) == 0 {
			continue
		}
		if ws[p] == nil {
			f, err := g.tmp.Create()
			if err != nil {
				return err
			}
			files[p] = f
			ws[p] = spill.NewWriter(f, schema, expr.Allocator(o.ctx))
		}
		part := b
		if len(rows) < n {
			var err error
			if part, err = takeBatch(o.ctx, b, rows); err != nil {
				return err
			}
		} else {
			part.Retain()
		}
		err := ws[p].Write(part)
		part.Release()
		if err != nil {
			return err
		}
	}
	return nil
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
			if g.cur >= len(g.build) {
				return nil, nil
			}
			probe := &spillScan{file: g.probe[g.cur], schema: g.probeSchema}
			build := &spillScan{file: g.build[g.cur], schema: g.buildSchema}
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
		if g.sub.grace != nil {
			g.bytes += g.sub.grace.bytes
		}
		err = g.sub.Close()
		g.sub = nil
		for _, f := range []*spill.File{g.build[g.cur], g.probe[g.cur]} {
			if f != nil {
				f.Close()
			}
		}
		g.build[g.cur], g.probe[g.cur] = nil, nil
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
	for _, fs := range [][]*spill.File{g.build, g.probe} {
		for i, f := range fs {
			if f != nil {
				f.Close()
				fs[i] = nil
			}
		}
	}
	o.spilled += g.bytes
	o.grace = nil
}

// SpilledBytes is what the join wrote to temporary files.
func (o *joinOp) SpilledBytes() int64 {
	if o.grace != nil {
		return o.spilled + o.grace.bytes
	}
	return o.spilled
}
