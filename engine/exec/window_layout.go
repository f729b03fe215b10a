package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
)

// winLayout describes the sorted rows of a window: where partitions and
// peer groups (rows equal in every ORDER BY key; without ORDER BY a whole
// partition) start.
type winLayout struct {
	ctx        context.Context
	n          int
	partStart  []int32 // start of each partition, then n
	groupOf    []int32 // per row: the index of its peer group
	groupStart []int32 // start of each peer group, then n
	// The single ORDER BY key over the sorted rows (RANGE offsets), nil
	// unless there is exactly one.
	orderKey   arrow.Array
	desc       bool
	nullsFirst bool
}

func (l *winLayout) peerStart(i int) int { return int(l.groupStart[l.groupOf[i]]) }
func (l *winLayout) peerEnd(i int) int   { return int(l.groupStart[l.groupOf[i]+1]) }

func (l *winLayout) release() {
	if l.orderKey != nil {
		l.orderKey.Release()
		l.orderKey = nil
	}
}

// tick checks ctx every 1024 rows.
func (l *winLayout) tick(i int) error {
	if i&1023 == 0 {
		return l.ctx.Err()
	}
	return nil
}

// layout finds the partitions and peer groups of the sorted rows.
func (o *windowOp) layout(sorted arrow.RecordBatch) (*winLayout, error) {
	n := int(sorted.NumRows())
	l := &winLayout{ctx: o.ctx, n: n}
	partEq, err := o.keysEqual(sorted, o.parts)
	if err != nil {
		return nil, err
	}
	orderEq, err := o.keysEqual(sorted, o.orders)
	if err != nil {
		return nil, err
	}
	l.groupOf = make([]int32, n)
	l.partStart = append(l.partStart, 0)
	l.groupStart = append(l.groupStart, 0)
	g := int32(0)
	for i := 1; i < n; i++ {
		if err := l.tick(i); err != nil {
			return nil, err
		}
		switch {
		case partEq != nil && !partEq(i-1, i):
			l.partStart = append(l.partStart, int32(i))
		case orderEq != nil && !orderEq(i-1, i):
		default:
			l.groupOf[i] = g
			continue
		}
		g++
		l.groupStart = append(l.groupStart, int32(i))
		l.groupOf[i] = g
	}
	l.partStart = append(l.partStart, int32(n))
	l.groupStart = append(l.groupStart, int32(n))
	if len(o.orders) == 1 {
		k, err := o.orders[0].Eval(o.ctx, sorted)
		if err != nil {
			return nil, err
		}
		l.orderKey, l.desc, l.nullsFirst = k, o.order[0].Desc, o.order[0].NullsFirst
	}
	return l, nil
}

// keysEqual evaluates keys over b and returns whether two rows are equal
// in all of them (NULLs equal each other; equal as ORDER BY sees it: 0 =
// -0, NaN = NaN, 1.5 = 1.50). nil when there are no keys.
func (o *windowOp) keysEqual(b arrow.RecordBatch, progs []expr.Program) (func(i, j int) bool, error) {
	if len(progs) == 0 {
		return nil, nil
	}
	type keyEq struct {
		cmp   func(i, j int) int
		valid func(i int) bool
	}
	eqs := make([]keyEq, 0, len(progs))
	for _, p := range progs {
		k, err := p.Eval(o.ctx, b)
		if err != nil {
			return nil, err
		}
		// The comparators read the arrays' buffers, which b (or the
		// program's own result, kept alive by the closure) owns for the
		// life of the layout pass.
		if k.DataType().ID() == arrow.NULL {
			k.Release()
			continue
		}
		c, err := expr.Comparator(k, k)
		if err != nil {
			k.Release()
			return nil, err
		}
		e := keyEq{cmp: c}
		if k.NullN() > 0 {
			e.valid = k.IsValid
		}
		eqs = append(eqs, e)
		o.keepAlive(k)
	}
	return func(i, j int) bool {
		for _, e := range eqs {
			if e.valid != nil {
				vi, vj := e.valid(i), e.valid(j)
				if vi != vj {
					return false
				}
				if !vi {
					continue
				}
			}
			if e.cmp(i, j) != 0 {
				return false
			}
		}
		return true
	}, nil
}
