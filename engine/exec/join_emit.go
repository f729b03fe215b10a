package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine/expr"
)

// finishBatch emits what the join owes the current left batch once all
// its pairs are known, and moves past it.
func (o *joinOp) finishBatch() (arrow.RecordBatch, error) {
	p := &o.probe
	defer p.release()
	idx := p.sel[:0]
	defer func() { p.sel = idx[:0] }()
	switch o.spec.Type {
	case JoinInner, JoinRight:
		return nil, nil
	case JoinLeft, JoinFull, JoinAnti:
		for i := 0; i < p.n; i++ {
			if p.matches[i] == 0 && !p.nullHit[i] {
				idx = append(idx, int32(i))
			}
		}
	case JoinSemi:
		for i := 0; i < p.n; i++ {
			if p.matches[i] > 0 {
				idx = append(idx, int32(i))
			}
		}
	case JoinMark:
		return o.markBatch()
	}
	if len(idx) == 0 {
		return nil, nil
	}
	mem := expr.Allocator(o.ctx)
	cols := make([]arrow.Array, 0, o.schema.NumFields())
	defer func() { releaseAll(cols) }()
	cols, err := o.emitCols(cols, p.cols, idx, o.skipL, 0)
	if err != nil {
		return nil, err
	}
	if o.spec.Type == JoinLeft || o.spec.Type == JoinFull {
		for _, f := range o.rightSchema.Fields() {
			cols = append(cols, nullArray(mem, f.Type, len(idx)))
		}
	}
	return array.NewRecordBatch(o.schema, cols, int64(len(idx))), nil
}

// markBatch is every left row with its mark.
func (o *joinOp) markBatch() (arrow.RecordBatch, error) {
	p := &o.probe
	mb := array.NewBooleanBuilder(expr.Allocator(o.ctx))
	defer mb.Release()
	mb.Reserve(p.n)
	for i := 0; i < p.n; i++ {
		switch {
		case p.matches[i] > 0:
			mb.UnsafeAppend(true)
		case p.nullHit[i]:
			mb.UnsafeAppendBoolToBitmap(false)
		default:
			mb.UnsafeAppend(false)
		}
	}
	cols := make([]arrow.Array, 0, o.schema.NumFields())
	defer func() { releaseAll(cols) }()
	cols, err := o.emitCols(cols, p.cols, nil, o.skipL, 0)
	if err != nil {
		return nil, err
	}
	cols = append(cols, mb.NewArray())
	return array.NewRecordBatch(o.schema, cols, int64(p.n)), nil
}

// rightTail emits the right rows no left row matched (Right and Full).
func (o *joinOp) rightTail() (arrow.RecordBatch, error) {
	if o.rightMatched == nil {
		return nil, nil
	}
	var idx []int32
	for o.tailPos < len(o.rightMatched) && len(idx) < joinChunkRows {
		if o.tailPos&1023 == 1023 {
			if err := o.ctx.Err(); err != nil {
				return nil, err
			}
		}
		if !o.rightMatched[o.tailPos] {
			idx = append(idx, int32(o.tailPos))
		}
		o.tailPos++
	}
	if len(idx) == 0 {
		return nil, nil
	}
	mem := expr.Allocator(o.ctx)
	cols := make([]arrow.Array, 0, o.schema.NumFields())
	defer func() { releaseAll(cols) }()
	nl := o.pairSchema.NumFields() - o.rightSchema.NumFields()
	for _, f := range o.pairSchema.Fields()[:nl] {
		cols = append(cols, nullArray(mem, f.Type, len(idx)))
	}
	cols, err := o.emitCols(cols, o.build.batch.Columns(), idx, o.skipR, nl)
	if err != nil {
		return nil, err
	}
	return array.NewRecordBatch(o.schema, cols, int64(len(idx))), nil
}
