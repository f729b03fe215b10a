package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// filterOp keeps the rows where the predicate is TRUE.
type filterOp struct {
	in   engine.Operator
	pred expr.Program
	ctx  context.Context
	out  arrow.RecordBatch
}

// NewFilter returns WHERE pred over in: rows where pred is TRUE pass, FALSE
// and NULL drop. opts are the session's compile options.
func NewFilter(in engine.Operator, pred expr.Expr, opts ...expr.CompileOptions) (engine.Operator, error) {
	if id := pred.Type().ID(); id != arrow.BOOL && id != arrow.NULL {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument of WHERE must be type boolean, not type %s", expr.PGTypeName(pred.Type()))
	}
	p, err := expr.Compile(pred, in.Schema(), opts...)
	if err != nil {
		return nil, err
	}
	return &filterOp{in: in, pred: p}, nil
}

func (o *filterOp) Open(ctx context.Context) error {
	o.ctx = ctx
	return o.in.Open(ctx)
}

func (o *filterOp) Next() (arrow.RecordBatch, error) {
	o.release()
	for {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.in.Next()
		if err != nil || b == nil {
			return nil, err
		}
		mask, err := o.pred.Eval(o.ctx, b)
		if err != nil {
			return nil, err
		}
		m, ok := mask.(*array.Boolean)
		if !ok { // an untyped NULL predicate keeps nothing
			mask.Release()
			continue
		}
		kept := countTrue(m)
		switch {
		case kept == 0:
			mask.Release()
			continue
		case kept == m.Len():
			mask.Release()
			return b, nil
		}
		out, err := filterBatch(o.ctx, b, m)
		mask.Release()
		if err != nil {
			return nil, err
		}
		o.out = out
		return out, nil
	}
}

// countTrue counts the rows that are TRUE (valid and set).
func countTrue(m *array.Boolean) int {
	if m.NullN() == 0 {
		return bitutil.CountSetBits(m.Data().Buffers()[1].Bytes(), m.Data().Offset(), m.Len())
	}
	n := 0
	for i := 0; i < m.Len(); i++ {
		if m.IsValid(i) && m.Value(i) {
			n++
		}
	}
	return n
}

// filterBatch keeps the rows of b where mask is TRUE by gathering them by
// index (arrow-go's filter kernel mishandles booleans with NULLs):
// fixed-width and text columns take the typed gathers of join_take.go,
// others the take kernel.
func filterBatch(ctx context.Context, b arrow.RecordBatch, mask *array.Boolean) (arrow.RecordBatch, error) {
	idx := make([]int32, 0, mask.Len())
	for i := 0; i < mask.Len(); i++ {
		if mask.IsValid(i) && mask.Value(i) {
			idx = append(idx, int32(i))
		}
	}
	mem := expr.Allocator(ctx)
	cols := make([]arrow.Array, b.NumCols())
	release := func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}
	var ia arrow.Array
	defer func() {
		if ia != nil {
			ia.Release()
		}
	}()
	for j := range cols {
		c := b.Column(j)
		if cols[j] = takeFixed(mem, c, idx); cols[j] != nil {
			continue
		}
		if cols[j] = takeBinary(mem, c, idx); cols[j] != nil {
			continue
		}
		if ia == nil {
			ia = int32Array(mem, idx)
		}
		t, err := expr.TakeArray(ctx, c, ia)
		if err != nil {
			release()
			return nil, fmt.Errorf("filter: %w", err)
		}
		cols[j] = t
	}
	out := array.NewRecordBatch(b.Schema(), cols, int64(len(idx)))
	release()
	return out, nil
}

func (o *filterOp) release() {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
}

func (o *filterOp) Close() error {
	o.release()
	return o.in.Close()
}

func (o *filterOp) Schema() *arrow.Schema { return o.in.Schema() }
