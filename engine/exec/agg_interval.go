package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// sumIntervalState is sum(interval) and avg(interval): the fields added as
// PostgreSQL's interval_pl adds them (22008 on overflow), avg dividing the
// sum by the count as interval_div does.
type sumIntervalState struct {
	avg bool
	sum []arrow.MonthDayNanoInterval
	n   []int64
}

func (s *sumIntervalState) release() {}

func (s *sumIntervalState) grow(n int) { s.sum, s.n = growTo(s.sum, n), growTo(s.n, n) }

func (s *sumIntervalState) update(g []int32, arg arrow.Array) error {
	a := arg.(*array.MonthDayNanoInterval)
	nulls := a.NullN() > 0
	for i, k := range g {
		if k < 0 || nulls && a.IsNull(i) {
			continue
		}
		r, err := expr.IntervalSum(s.sum[k], a.Value(i))
		if err != nil {
			return err
		}
		s.sum[k] = r
		s.n[k]++
	}
	return nil
}

func (s *sumIntervalState) result(mem memory.Allocator) (arrow.Array, error) {
	b := array.NewMonthDayNanoIntervalBuilder(mem)
	defer b.Release()
	for k, v := range s.sum {
		if s.n[k] == 0 {
			b.AppendNull()
			continue
		}
		if s.avg {
			r, err := expr.IntervalDivide(v, float64(s.n[k]))
			if err != nil {
				return nil, err
			}
			v = r
		}
		b.Append(v)
	}
	return b.NewArray(), nil
}
