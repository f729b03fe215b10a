package expr

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// rowFnNode evaluates a Call whose Go function runs row by row.
type rowFnNode struct {
	args []node
	fn   RowFn
	t    arrow.DataType
	name string
}

func (n *rowFnNode) eval(ev *evalCtx) (vec, error) {
	vs := make([]vec, len(n.args))
	defer func() {
		for _, v := range vs {
			if v.arr != nil {
				v.arr.Release()
			}
		}
	}()
	for i, a := range n.args {
		v, err := a.eval(ev)
		if err != nil {
			return vec{}, err
		}
		vs[i] = v
	}
	rows, c := outLen(ev, vs)
	if c && volatile[n.name] {
		// A volatile function (nextval, gen_random_uuid) gives each row
		// its own value even when its arguments are constants.
		rows, c = ev.n, false
	}
	b := array.NewBuilder(ev.mem, n.t)
	defer b.Release()
	vals := make([]any, len(vs))
	left := &rowsLeft{}
	ctx := context.WithValue(ev.ctx, rowsLeftKey{}, left)
	for i := 0; i < rows; i++ {
		left.n = rows - i
		if i&1023 == 0 {
			if err := ev.ctx.Err(); err != nil {
				return vec{}, err
			}
		}
		for j, v := range vs {
			x, err := goValue(v.arr, i&v.idx())
			if err != nil {
				return vec{}, fmt.Errorf("%s argument %d: %w", n.name, j+1, err)
			}
			vals[j] = x
		}
		r, err := n.fn(ctx, vals)
		if err != nil {
			return vec{}, err
		}
		if r == nil {
			b.AppendNull()
			continue
		}
		if err := appendGo(b, r); err != nil {
			return vec{}, fmt.Errorf("%s result %v: %w", n.name, r, err)
		}
	}
	return vec{arr: b.NewArray(), c: c}, nil
}

type rowsLeftKey struct{}

type rowsLeft struct{ n int }

// RowsLeft is, inside a row-by-row Go function (Call.Go), how many rows of
// the batch being evaluated are left, the current one included; 1 outside
// one. A function that takes something per row from a shared source (a
// sequence's nextval) takes the batch's share at once.
func RowsLeft(ctx context.Context) int {
	if l, ok := ctx.Value(rowsLeftKey{}).(*rowsLeft); ok && l.n > 0 {
		return l.n
	}
	return 1
}

// goValue returns row i of a in its Go form (nil for NULL; lists as []any).
func goValue(a arrow.Array, i int) (any, error) {
	if a.IsNull(i) {
		return nil, nil
	}
	switch a := a.(type) {
	case *array.Null:
		return nil, nil
	case *array.List:
		start, end := a.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for j := int(start); j < int(end); j++ {
			v, err := goValue(a.ListValues(), j)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	l, err := ValueLit(a, i)
	if err != nil {
		return nil, err
	}
	return l.V, nil
}
