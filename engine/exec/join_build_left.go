package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// A join that builds on its left input (JoinSpec.BuildLeft) serves EXISTS,
// IN, NOT EXISTS and NOT IN (semi, anti and mark joins) and scalar
// subqueries (single left joins) whose outer side is much smaller than the
// subquery: the left rows are held in memory and indexed by their keys,
// the right rows stream past them, and every left row records whether it
// found a partner (and, for NOT IN, whether a comparison was NULL). Once
// the right input is done, the left rows come out with what they found.

// buildLeftState is what the left (build) rows found so far.
type buildLeftState struct {
	hits    []uint8 // partners of each build row, counted up to 2
	nullHit []bool  // null-aware: a comparison of the row was NULL
	matched int     // build rows with a partner

	rightSeen    bool // the right input had a row
	rightNullKey bool // null-aware: a right row had a NULL key
	rightDone    bool
	tailPos      int // next build row the output looks at
}

// buildsLeft reports whether a join of spec's type can build on its left
// input.
func buildsLeft(spec JoinSpec) bool {
	switch spec.Type {
	case JoinSemi, JoinAnti, JoinMark:
		return true
	case JoinLeft:
		return spec.Single
	}
	return false
}

// openBuildLeft reads and indexes the left input, then opens the right.
func (o *joinOp) openBuildLeft() error {
	if err := o.left.Open(o.ctx); err != nil {
		return err
	}
	if err := o.buildSide(); err != nil {
		return err
	}
	if o.grace != nil {
		// The left side spilled: so does the right (join_spill.go).
		if err := o.right.Open(o.ctx); err != nil {
			return err
		}
		return o.spillProbe()
	}
	n := o.build.rows
	if err := o.build.mem.growTo(2*int64(n), o.canSpill(o.ctx)); err != nil {
		if !o.canSpill(o.ctx) {
			return err
		}
		if err := o.spillBuilt(); err != nil {
			return err
		}
		if err := o.right.Open(o.ctx); err != nil {
			return err
		}
		return o.spillProbe()
	}
	o.bl = buildLeftState{hits: make([]uint8, n), nullHit: make([]bool, n)}
	// No left rows: nothing to emit, the right is not read.
	o.bl.rightDone = n == 0
	return o.right.Open(o.ctx)
}

// produceBuildLeft streams the right input past the left rows, then emits
// the left rows; nil at the end. Only a single left join emits while
// streaming (the pairs that matched).
func (o *joinOp) produceBuildLeft() (arrow.RecordBatch, error) {
	p := &o.probe
	s := &o.bl
	for {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		if s.rightDone {
			p.release()
			if o.shared != nil {
				if last, err := o.endSharedProbe(); !last || err != nil {
					return nil, err
				}
			}
			return o.leftTail()
		}
		if p.batch == nil {
			rb, err := o.right.Next()
			if err != nil {
				return nil, err
			}
			if rb == nil {
				o.endRight()
				continue
			}
			if err := o.startRightBatch(rb); err != nil {
				return nil, err
			}
		}
		if p.row < p.n {
			if err := o.fillBuildLeft(); err != nil {
				return nil, err
			}
			out, err := o.matchBuildLeft()
			if err != nil || out != nil {
				return out, err
			}
			continue
		}
		p.release()
		if o.existence() && s.matched == o.build.rows {
			// Every left row has a partner: the rest of the right input
			// changes nothing.
			o.endRight()
		}
	}
}

// endRight settles what the end of the right input decides: without a
// residual, NOT IN's NULL rule needs only whether the right side had rows
// and whether one had a NULL key.
func (o *joinOp) endRight() {
	s := &o.bl
	s.rightDone = true
	if !o.nullAware || o.residual != nil || !s.rightSeen {
		return
	}
	if s.rightNullKey {
		for r := range s.nullHit {
			s.nullHit[r] = true
		}
		return
	}
	for r := o.build.nullHead; r >= 0; r = o.build.next[r] {
		s.nullHit[r] = true
	}
}

// startRightBatch takes right batch rb as the current one and looks its
// keys up among the left rows. Without a residual an existence join is
// done with the batch here: a key's chain of left rows matches as a whole.
func (o *joinOp) startRightBatch(rb arrow.RecordBatch) error {
	p := &o.probe
	b := &o.build
	s := &o.bl
	n := int(rb.NumRows())
	cols := make([]arrow.Array, rb.NumCols())
	for j := range cols {
		cols[j] = rb.Column(j)
		cols[j].Retain()
	}
	p.batch, p.n, p.cols = rb, n, cols
	p.row, p.mode = 0, candStart
	p.heads = resize(p.heads, n)
	p.keyNull = resize(p.keyNull, n)
	clear(p.keyNull)
	if n > 0 {
		s.rightSeen = true
	}
	hashed := len(o.probeKeys) > 0
	if hashed {
		for i := range p.heads {
			p.heads[i] = -1
		}
		if err := o.lookup(rb); err != nil {
			return err
		}
	}
	if o.residual != nil || !o.existence() {
		return nil
	}
	p.row = n
	if !hashed {
		if n > 0 {
			for r := range s.hits {
				s.hits[r] = 1
			}
			s.matched = b.rows
		}
		return nil
	}
	for i := 0; i < n; i++ {
		if p.keyNull[i] {
			s.rightNullKey = true
			continue
		}
		h := p.heads[i]
		if h < 0 || s.hits[h] > 0 {
			continue
		}
		for r := h; r >= 0; r = b.next[r] {
			s.hits[r] = 1
			s.matched++
		}
	}
	return nil
}

// fillBuildLeft collects the next chunk of candidate pairs of the current
// right batch: p.li are left (build) rows, p.ri right rows. An existence
// join skips the left rows whose answer is already known.
func (o *joinOp) fillBuildLeft() error {
	p := &o.probe
	b := &o.build
	s := &o.bl
	p.li, p.ri, p.isNull = p.li[:0], p.ri[:0], p.isNull[:0]
	hashed := len(o.probeKeys) > 0
	existence := o.existence()
	rows := int32(b.rows)
	if hashed && !o.nullAware {
		return o.fillBuildLeftChains()
	}
	add := func(l, r int32, null bool) {
		if existence && (s.hits[l] > 0 || null && s.nullHit[l]) {
			return
		}
		p.li = append(p.li, l)
		p.ri = append(p.ri, r)
		p.isNull = append(p.isNull, null)
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
		if p.mode == candStart {
			switch {
			case !hashed:
				p.mode, p.cand, p.allNull = candAll, 0, false
			case p.keyNull[i] && o.nullAware:
				// A NULL right key compares as NULL with every left row.
				p.mode, p.cand, p.allNull = candAll, 0, true
			default:
				p.mode, p.cand = candChain, p.heads[i]
			}
		}
		switch p.mode {
		case candChain, candNulls:
			null := p.mode == candNulls
			for p.cand >= 0 && len(p.li) < joinChunkRows {
				add(p.cand, i, null)
				p.cand = b.next[p.cand]
			}
			if p.cand >= 0 {
				return nil
			}
			if !null && o.nullAware && b.nullHead >= 0 {
				// The left rows with a NULL key compare as NULL.
				p.mode, p.cand = candNulls, b.nullHead
				continue
			}
		case candAll:
			for p.cand < rows && len(p.li) < joinChunkRows {
				add(p.cand, i, p.allNull)
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

// fillBuildLeftChains is fillBuildLeft for a join that is not null-aware,
// with keys: each right row's candidates are the chain of its key, the
// pairs written in place. An existence join passes over (and unlinks) the
// left rows it has settled.
func (o *joinOp) fillBuildLeftChains() error {
	p := &o.probe
	b := &o.build
	s := &o.bl
	li, ri := resize(p.li, joinChunkRows), resize(p.ri, joinChunkRows)
	next, heads := b.next, p.heads
	existence := o.existence()
	n := 0
	for iter := 0; p.row < p.n; iter++ {
		if iter&1023 == 1023 {
			if err := o.ctx.Err(); err != nil {
				return err
			}
		}
		i := int32(p.row)
		if p.mode == candStart {
			p.mode, p.cand = candChain, heads[i]
		}
		c := p.cand
		if existence {
			// A left row whose partner is found is settled: it is
			// unlinked from its chain as it is passed, so the right rows
			// after this one walk only the rows still unsettled.
			// The chains of a shared build side are only read: its
			// parts settle rows apart.
			unlink := o.shared == nil
			prev := int32(-1)
			for c >= 0 && n < joinChunkRows {
				nx := next[c]
				if s.hits[c] != 0 {
					if prev >= 0 && unlink {
						next[prev] = nx
					}
					c = nx
					continue
				}
				li[n], ri[n] = c, i
				n++
				prev, c = c, nx
			}
		} else {
			for c >= 0 && n < joinChunkRows {
				li[n], ri[n] = c, i
				n++
				c = next[c]
			}
		}
		p.cand = c
		if c >= 0 {
			break // the chunk is full
		}
		p.row++
		p.mode = candStart
		if n >= joinChunkRows {
			break
		}
	}
	p.li, p.ri = li[:n], ri[:n]
	p.isNull = resize(p.isNull, n)
	clear(p.isNull)
	return nil
}

// matchBuildLeft applies the residual to the chunk's pairs and records
// what the left rows found; a single left join returns the matched pairs.
func (o *joinOp) matchBuildLeft() (arrow.RecordBatch, error) {
	p := &o.probe
	s := &o.bl
	if len(p.li) == 0 {
		return nil, nil
	}
	lcols := o.build.batch.Columns()
	if err := o.applyResidual(lcols, p.cols); err != nil {
		return nil, err
	}
	for j, l := range p.li {
		if p.isNull[j] {
			s.nullHit[l] = true
			continue
		}
		switch s.hits[l] {
		case 0:
			s.hits[l] = 1
			s.matched++
		case 1:
			if o.spec.Single {
				return nil, pgerr.New(pgerr.CardinalityViolation, "more than one row returned by a subquery used as an expression")
			}
			s.hits[l] = 2
		}
	}
	if o.existence() || len(p.li) == 0 {
		return nil, nil
	}
	return o.gatherPairs(lcols, p.li, p.cols, p.ri, true)
}

// leftTail emits the left rows with what they found, a chunk at a time;
// nil at the end.
func (o *joinOp) leftTail() (arrow.RecordBatch, error) {
	s := &o.bl
	p := &o.probe
	rows := o.build.rows
	for s.tailPos < rows {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		start := s.tailPos
		end := min(start+joinChunkRows, rows)
		s.tailPos = end
		if o.spec.Type == JoinMark {
			return o.markTail(start, end)
		}
		idx := p.sel[:0]
		for r := start; r < end; r++ {
			var keep bool
			if o.spec.Type == JoinSemi {
				keep = s.hits[r] > 0
			} else { // Anti, and Left's unmatched rows
				keep = s.hits[r] == 0 && !s.nullHit[r]
			}
			if keep {
				idx = append(idx, int32(r))
			}
		}
		p.sel = idx[:0]
		if len(idx) == 0 {
			continue
		}
		cols, err := o.buildRows(start, end, idx)
		if err != nil {
			return nil, err
		}
		if o.spec.Type == JoinLeft {
			mem := expr.Allocator(o.ctx)
			for _, f := range o.rightSchema.Fields() {
				cols = append(cols, nullArray(mem, f.Type, len(idx)))
			}
		}
		out := array.NewRecordBatch(o.schema, cols, int64(len(idx)))
		releaseAll(cols)
		return out, nil
	}
	return nil, nil
}

// buildRows returns rows idx (all within start..end, ascending; nil = all
// of them) of the build side's columns, those nothing reads all NULL; the
// caller releases them. A run of every row of the range is sliced, not
// copied.
func (o *joinOp) buildRows(start, end int, idx []int32) ([]arrow.Array, error) {
	src := o.build.batch.Columns()
	if idx == nil || len(idx) == end-start {
		cols := make([]arrow.Array, len(src))
		for j, c := range src {
			if o.skipL != nil && o.skipL[j] {
				cols[j] = o.nullColumn(j, end-start)
				continue
			}
			cols[j] = array.NewSlice(c, int64(start), int64(end))
		}
		return cols, nil
	}
	cols, err := o.emitCols(make([]arrow.Array, 0, len(src)+o.rightSchema.NumFields()), src, idx, o.skipL, 0)
	if err != nil {
		releaseAll(cols)
		return nil, err
	}
	return cols, nil
}

// markTail is left rows start..end with their marks.
func (o *joinOp) markTail(start, end int) (arrow.RecordBatch, error) {
	s := &o.bl
	mb := array.NewBooleanBuilder(expr.Allocator(o.ctx))
	defer mb.Release()
	mb.Reserve(end - start)
	for r := start; r < end; r++ {
		switch {
		case s.hits[r] > 0:
			mb.UnsafeAppend(true)
		case s.nullHit[r]:
			mb.UnsafeAppendBoolToBitmap(false)
		default:
			mb.UnsafeAppend(false)
		}
	}
	cols, err := o.buildRows(start, end, nil)
	if err != nil {
		return nil, err
	}
	cols = append(cols, mb.NewArray())
	defer releaseAll(cols)
	return array.NewRecordBatch(o.schema, cols, int64(end-start)), nil
}
