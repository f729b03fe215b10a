package exec

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// intSeries is generate_series over int4 or int8. Like PostgreSQL it stops
// (without error) where the next value would overflow the type.
type intSeries struct {
	b               *intSeriesBuilder
	lo, hi          int64 // the type's range
	cur, stop, step int64
	more            bool
}

type intSeriesBuilder struct {
	i32 *array.Int32Builder
	i64 *array.Int64Builder
}

func newIntSeries(mem memory.Allocator, t arrow.DataType) *intSeries {
	s := &intSeries{b: &intSeriesBuilder{}}
	if t.ID() == arrow.INT32 {
		s.b.i32 = array.NewInt32Builder(mem)
		s.lo, s.hi = math.MinInt32, math.MaxInt32
	} else {
		s.b.i64 = array.NewInt64Builder(mem)
		s.lo, s.hi = math.MinInt64, math.MaxInt64
	}
	return s
}

func (s *intSeries) begin(args []arrow.Array, i int) error {
	s.more = false
	if anyNull(args, i) {
		return nil
	}
	s.cur, s.stop, s.step = intAt(args[0], i), intAt(args[1], i), 1
	if len(args) == 3 {
		s.step = intAt(args[2], i)
	}
	if s.step == 0 {
		return errZeroStep
	}
	s.more = true
	return nil
}

func (s *intSeries) fill(n int) (int, error) {
	k := 0
	for k < n && s.more {
		if s.step > 0 && s.cur > s.stop || s.step < 0 && s.cur < s.stop {
			s.more = false
			break
		}
		if s.b.i32 != nil {
			s.b.i32.Append(int32(s.cur))
		} else {
			s.b.i64.Append(s.cur)
		}
		k++
		// Advance unless that leaves the type's range.
		if s.step > 0 && s.cur > s.hi-s.step || s.step < 0 && s.cur < s.lo-s.step {
			s.more = false
		} else {
			s.cur += s.step
		}
	}
	return k, nil
}

func (s *intSeries) appendNull() {
	if s.b.i32 != nil {
		s.b.i32.AppendNull()
	} else {
		s.b.i64.AppendNull()
	}
}

func (s *intSeries) finish(context.Context) (arrow.Array, error) {
	if s.b.i32 != nil {
		return s.b.i32.NewArray(), nil
	}
	return s.b.i64.NewArray(), nil
}

func (s *intSeries) release() {
	if s.b.i32 != nil {
		s.b.i32.Release()
	} else {
		s.b.i64.Release()
	}
}

// numericSeries is generate_series over numeric: the first value keeps
// the start's display scale, each next one is the exact sum with the
// step (display scale the larger of the two), as in PostgreSQL.
type numericSeries struct {
	b         *expr.NumericBuilder
	cur, stop decimal128.Num
	cs, ss    int32 // scales of cur and stop
	step      decimal128.Num
	st        int32
	more      bool
}

func newNumericSeries(mem memory.Allocator) *numericSeries {
	return &numericSeries{b: expr.NewNumericBuilder(mem)}
}

// decimalAt reads an integer or decimal argument as unscaled value and scale.
func decimalAt(a arrow.Array, i int) (decimal128.Num, int32) {
	switch a.(type) {
	case *array.Int16, *array.Int32, *array.Int64:
		return decimal128.FromI64(intAt(a, i)), 0
	}
	return expr.DecimalValue(a, i)
}

// decCompare compares a*10^-sa with b*10^-sb.
func decCompare(a decimal128.Num, sa int32, b decimal128.Num, sb int32) (int, error) {
	d, _, err := expr.NumericAdd(a, sa, b.Negate(), sb)
	if err != nil {
		return 0, err
	}
	return d.Sign(), nil
}

func (s *numericSeries) begin(args []arrow.Array, i int) error {
	s.more = false
	if anyNull(args, i) {
		return nil
	}
	s.cur, s.cs = decimalAt(args[0], i)
	s.stop, s.ss = decimalAt(args[1], i)
	s.step, s.st = decimal128.FromI64(1), 0
	if len(args) == 3 {
		s.step, s.st = decimalAt(args[2], i)
	}
	if s.step.Sign() == 0 {
		return errZeroStep
	}
	s.more = true
	return nil
}

func (s *numericSeries) fill(n int) (int, error) {
	k := 0
	for k < n && s.more {
		c, err := decCompare(s.cur, s.cs, s.stop, s.ss)
		if err != nil {
			return k, err
		}
		if s.step.Sign() > 0 && c > 0 || s.step.Sign() < 0 && c < 0 {
			s.more = false
			break
		}
		s.b.Append(s.cur, s.cs)
		k++
		if s.cur, s.cs, err = expr.NumericAdd(s.cur, s.cs, s.step, s.st); err != nil {
			return k, err
		}
	}
	return k, nil
}

func (s *numericSeries) appendNull() { s.b.AppendNull() }

func (s *numericSeries) finish(context.Context) (arrow.Array, error) { return s.b.NewArray(), nil }

func (s *numericSeries) release() { s.b.Release() }

// unnestGen is unnest(array): the elements of a list, in order; a NULL
// or empty list makes no rows.
type unnestGen struct {
	list     array.ListLike
	pos, end int64
	idx      []int32 // positions in the list's values; -1 = NULL (outer)
}

func (u *unnestGen) begin(args []arrow.Array, i int) error {
	u.pos, u.end = 0, 0
	// The batch's list array, also for a NULL row: finish takes from it.
	l, ok := args[0].(array.ListLike)
	if !ok {
		return errNotList(args[0])
	}
	u.list = l
	if l.IsNull(i) {
		return nil
	}
	u.pos, u.end = l.ValueOffsets(i)
	return nil
}

func (u *unnestGen) fill(n int) (int, error) {
	k := 0
	for k < n && u.pos < u.end {
		u.idx = append(u.idx, int32(u.pos))
		u.pos++
		k++
	}
	return k, nil
}

func (u *unnestGen) appendNull() { u.idx = append(u.idx, -1) }

func (u *unnestGen) finish(ctx context.Context) (arrow.Array, error) {
	mem := expr.Allocator(ctx)
	b := array.NewInt32Builder(mem)
	defer b.Release()
	for _, j := range u.idx {
		if j < 0 {
			b.AppendNull()
		} else {
			b.Append(j)
		}
	}
	u.idx = u.idx[:0]
	ia := b.NewArray()
	defer ia.Release()
	return expr.TakeArray(ctx, u.list.ListValues(), ia)
}

func (u *unnestGen) release() { u.list = nil }

// subscriptsGen is generate_subscripts(array, dim [, reverse]): lower
// bounds are 1, so dimension d yields 1..its length (an array of several
// dimensions is nested lists), nothing past the array's dimensions.
type subscriptsGen struct {
	b        *array.Int32Builder
	cur, end int32
	step     int32
}

func newSubscripts(mem memory.Allocator) *subscriptsGen {
	return &subscriptsGen{b: array.NewInt32Builder(mem)}
}

func (s *subscriptsGen) begin(args []arrow.Array, i int) error {
	s.cur, s.end, s.step = 1, 0, 1
	if args[0].IsNull(i) || args[1].IsNull(i) || intAt(args[1], i) < 1 {
		return nil
	}
	l, ok := args[0].(array.ListLike)
	if !ok {
		return errNotList(args[0])
	}
	a, b := l.ValueOffsets(i)
	// Dimension d of an array of several dimensions (nested lists, all
	// sub-lists of a level as long): the length of the first list d-1
	// levels down.
	for d := intAt(args[1], i); d > 1; d-- {
		inner, nested := l.ListValues().(array.ListLike)
		if !nested || a == b {
			return nil
		}
		l = inner
		a, b = l.ValueOffsets(int(a))
	}
	s.end = int32(b - a)
	if len(args) == 3 && args[2].IsValid(i) && args[2].(*array.Boolean).Value(i) {
		s.cur, s.end, s.step = s.end, 1, -1
		if s.cur == 0 {
			s.end = 1 // empty: nothing
		}
	}
	return nil
}

func (s *subscriptsGen) fill(n int) (int, error) {
	k := 0
	for k < n && s.cur >= 1 && (s.step > 0 && s.cur <= s.end || s.step < 0 && s.cur >= s.end) {
		s.b.Append(s.cur)
		s.cur += s.step
		k++
	}
	return k, nil
}

func (s *subscriptsGen) appendNull() { s.b.AppendNull() }

func (s *subscriptsGen) finish(context.Context) (arrow.Array, error) { return s.b.NewArray(), nil }

func (s *subscriptsGen) release() { s.b.Release() }
