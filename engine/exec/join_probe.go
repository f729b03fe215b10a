package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

const (
	// joinChunkRows bounds the candidate pairs evaluated (and emitted) at
	// once.
	joinChunkRows = 4096
	// joinMinBatchRows is the least a batch of output has unless the
	// input ran out.
	joinMinBatchRows = 1024
)

// Where the enumeration of one left row's candidates stands.
const (
	candStart uint8 = iota // not started
	candChain              // following the chain of its key
	candNulls              // following the NULL chain (null-aware)
	candAll                // every right row in order
)

// joinProbe is the state of the left batch being joined.
type joinProbe struct {
	batch   arrow.RecordBatch // current left batch (the left input's); nil between batches
	n       int
	cols    []arrow.Array // its columns, dictionaries decoded
	heads   []int32       // first candidate of each row's key, -1 if none
	keyNull []bool        // the row has a NULL in a key that is not null-safe
	matches []int32       // pairs of each row that matched
	nullHit []bool        // null-aware: a right row compared as NULL

	row     int   // row whose candidates are being enumerated
	cand    int32 // its next candidate
	mode    uint8
	allNull bool // candAll pairs compare as NULL (null-aware, NULL left key)

	li, ri []int32 // the candidate pairs of the chunk
	isNull []bool  // the pair compares as NULL (null-aware)
	keep   []int32 // the positions of a chunk the residual accepts
	sel    []int32 // the rows of the batch finishBatch emits
	vals   []uint64
	packed []uint64 // packed keys (joinBuild.packs)
	enc    keyEncoder
}

func (p *joinProbe) release() {
	releaseAll(p.cols)
	p.cols = nil
	p.batch = nil
}

// existence reports whether only the existence of a match matters.
func (o *joinOp) existence() bool {
	t := o.spec.Type
	return t == JoinSemi || t == JoinAnti || t == JoinMark
}

// Next returns the next joined rows. Small results are held back and
// concatenated until they make joinMinBatchRows rows (or the input ends).
func (o *joinOp) Next() (arrow.RecordBatch, error) {
	if o.grace != nil {
		return o.nextGrace()
	}
	o.release()
	for {
		b, err := o.produce()
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		if len(o.pending) == 0 && b.NumRows() >= joinMinBatchRows {
			o.out = b
			return b, nil
		}
		o.pending = append(o.pending, b)
		o.pendingRows += int(b.NumRows())
		if o.pendingRows >= joinMinBatchRows {
			break
		}
	}
	if len(o.pending) == 0 {
		return nil, nil
	}
	out, err := concatBatches(expr.Allocator(o.ctx), o.schema, o.pending)
	o.releasePending()
	if err != nil {
		return nil, fmt.Errorf("join: %w", err)
	}
	o.out = out
	return out, nil
}

func (o *joinOp) releasePending() {
	for _, b := range o.pending {
		b.Release()
	}
	o.pending, o.pendingRows = o.pending[:0], 0
}

// produce returns the next batch of joined rows, which the caller owns;
// nil at the end.
func (o *joinOp) produce() (arrow.RecordBatch, error) {
	if o.spec.BuildLeft {
		return o.produceBuildLeft()
	}
	p := &o.probe
	for {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		if o.leftDone {
			if o.shared != nil && o.rightMatched != nil {
				if last, err := o.endSharedProbe(); !last || err != nil {
					return nil, err
				}
			}
			return o.rightTail()
		}
		if p.batch == nil {
			lb, err := o.left.Next()
			if err != nil {
				return nil, err
			}
			if lb == nil {
				o.leftDone = true
				continue
			}
			if err := o.startBatch(lb); err != nil {
				return nil, err
			}
		}
		var out arrow.RecordBatch
		var err error
		if p.row < p.n {
			if err := o.fill(); err != nil {
				return nil, err
			}
			out, err = o.matchChunk()
		} else {
			out, err = o.finishBatch()
		}
		if err != nil || out != nil {
			return out, err
		}
	}
}

// startBatch takes left batch lb as the current one and looks its keys up.
func (o *joinOp) startBatch(lb arrow.RecordBatch) error {
	p := &o.probe
	b := &o.build
	n := int(lb.NumRows())
	// Dictionaries are decoded as rows are gathered (takeCols).
	cols := make([]arrow.Array, lb.NumCols())
	for j := range cols {
		cols[j] = lb.Column(j)
		cols[j].Retain()
	}
	p.batch, p.n, p.cols = lb, n, cols
	p.row, p.mode = 0, candStart
	p.heads = resize(p.heads, n)
	p.matches = resize(p.matches, n)
	p.keyNull = resize(p.keyNull, n)
	p.nullHit = resize(p.nullHit, n)
	clear(p.matches)
	clear(p.keyNull)
	clear(p.nullHit)
	hashed := len(o.probeKeys) > 0
	if hashed {
		for i := range p.heads {
			p.heads[i] = -1
		}
		if b.rows > 0 {
			if err := o.lookup(lb); err != nil {
				return err
			}
		}
	}
	if o.residual != nil || !o.existence() {
		return nil
	}
	// Without a residual, existence is known from the lookup alone.
	for i := 0; i < n; i++ {
		switch {
		case !hashed:
			p.matches[i] = int32(min(b.rows, 1))
		case p.heads[i] >= 0:
			p.matches[i] = 1
		}
		if o.nullAware && b.rows > 0 && (b.hasNullKey || p.keyNull[i]) {
			p.nullHit[i] = true
		}
	}
	p.row = n
	return nil
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// fill collects the next chunk of candidate pairs of the current batch.
func (o *joinOp) fill() error {
	p := &o.probe
	b := &o.build
	p.li, p.ri, p.isNull = p.li[:0], p.ri[:0], p.isNull[:0]
	hashed := len(o.probeKeys) > 0
	existence := o.existence()
	rows := int32(b.rows)
	if hashed && b.unique && !o.nullAware && p.mode == candStart {
		o.fillUnique()
		return nil
	}
	for iter := 0; p.row < p.n; iter++ {
		if iter&1023 == 1023 {
			if err := o.ctx.Err(); err != nil {
				return err
			}
		}
		if len(p.li) >= joinChunkRows {
			return nil
		}
		i := int32(p.row)
		if existence && p.matches[i] > 0 {
			p.row++
			p.mode = candStart
			continue
		}
		if p.mode == candStart {
			switch {
			case !hashed:
				p.mode, p.cand, p.allNull = candAll, 0, false
			case o.nullAware && p.keyNull[i]:
				p.mode, p.cand, p.allNull = candAll, 0, true
			default:
				p.mode, p.cand = candChain, p.heads[i]
			}
		}
		switch p.mode {
		case candChain, candNulls:
			null := p.mode == candNulls
			for p.cand >= 0 && len(p.li) < joinChunkRows {
				p.li = append(p.li, i)
				p.ri = append(p.ri, p.cand)
				p.isNull = append(p.isNull, null)
				p.cand = b.next[p.cand]
			}
			if p.cand >= 0 {
				return nil
			}
			if !null && o.nullAware && b.nullHead >= 0 {
				p.mode, p.cand = candNulls, b.nullHead
				continue
			}
		case candAll:
			for p.cand < rows && len(p.li) < joinChunkRows {
				p.li = append(p.li, i)
				p.ri = append(p.ri, p.cand)
				p.isNull = append(p.isNull, p.allNull)
				p.cand++
			}
			if p.cand < rows {
				return nil
			}
		}
		p.row++
		p.mode = candStart
	}
	return nil
}

// fillUnique is fill for a build side whose keys are unique and never
// NULL: a row's one candidate is its head, so the pairs are the rows with
// a head, collected without a branch on whether each has one. A row whose
// existence is known already (an existence join's matches) has been
// through its one candidate, so it has none left.
func (o *joinOp) fillUnique() {
	p := &o.probe
	end := min(p.n, p.row+joinChunkRows)
	m := end - p.row
	li, ri := resize(p.li, m), resize(p.ri, m)
	n := 0
	for i, h := range p.heads[p.row:end] {
		li[n], ri[n] = int32(p.row+i), h
		n += b2i(h >= 0)
	}
	p.row = end
	p.li, p.ri = li[:n], ri[:n]
	p.isNull = resize(p.isNull, n)
	clear(p.isNull)
}

// matchChunk applies the residual to the chunk's pairs, records the
// matches, and returns the joined rows when the join emits pairs.
func (o *joinOp) matchChunk() (arrow.RecordBatch, error) {
	p := &o.probe
	if len(p.li) == 0 {
		return nil, nil
	}
	emits := !o.existence()
	if err := o.applyResidual(p.cols, o.build.batch.Columns()); err != nil {
		return nil, err
	}
	for j, i := range p.li {
		if p.isNull[j] {
			p.nullHit[i] = true
			continue
		}
		p.matches[i]++
		if o.spec.Single && p.matches[i] > 1 {
			return nil, pgerr.New(pgerr.CardinalityViolation, "more than one row returned by a subquery used as an expression")
		}
		if o.rightMatched != nil {
			o.rightMatched[p.ri[j]] = true
		}
	}
	if !emits || len(p.li) == 0 {
		return nil, nil
	}
	return o.gatherPairs(p.cols, p.li, o.build.batch.Columns(), p.ri, true)
}

// applyResidual keeps the chunk's pairs (p.li rows of the left columns
// lcols, p.ri rows of the right columns rcols) that the residual accepts.
func (o *joinOp) applyResidual(lcols, rcols []arrow.Array) error {
	p := &o.probe
	if o.residual == nil {
		return nil
	}
	if o.pairCmps != nil && o.comparePairs(lcols, rcols) {
		return nil
	}
	pairs, err := o.gatherForResidual(lcols, p.li, rcols, p.ri)
	if err != nil {
		return err
	}
	keep, err := o.residualMask(pairs)
	pairs.Release()
	if err != nil {
		return err
	}
	for j, k := range keep {
		p.li[j], p.ri[j], p.isNull[j] = p.li[k], p.ri[k], p.isNull[k]
	}
	p.li, p.ri, p.isNull = p.li[:len(keep)], p.ri[:len(keep)], p.isNull[:len(keep)]
	return nil
}
