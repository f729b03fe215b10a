package exec

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

var (
	_ aggState = (*percentileContState)(nil)
	_ aggState = (*percentileDiscState)(nil)
	_ aggState = (*modeState)(nil)
)

// The ordered-set aggregates run inside an orderedState: update gets all
// rows at once, sorted by group and then by the WITHIN GROUP key, so each
// group's values form one run in the requested order. NULL values are
// skipped, as in PostgreSQL.

// floatAt reads row i of a number array as float8 (numeric as PostgreSQL
// casts it: the nearest float8 to its decimal value).
func floatAt(a arrow.Array, i int) (float64, error) {
	switch a := a.(type) {
	case *array.Float32:
		return float64(a.Value(i)), nil
	case *array.Float64:
		return a.Value(i), nil
	case *array.Int16, *array.Int32, *array.Int64:
		return float64(intAt(a, i)), nil
	}
	if a.DataType().ID() == arrow.DECIMAL128 || expr.IsNumericType(a.DataType()) {
		return strconv.ParseFloat(string(expr.FormatNumeric(a, i, nil)), 64)
	}
	return 0, fmt.Errorf("float value of %s", a.DataType())
}

// groupRuns calls fn for each run of equal groups in g with the rows of
// the run whose value is not NULL.
func groupRuns(g []int32, arg arrow.Array, fn func(k int32, rows []int) error) error {
	var rows []int
	for i := 0; i < len(g); {
		j := i
		rows = rows[:0]
		for ; j < len(g) && g[j] == g[i]; j++ {
			if arg.IsValid(j) {
				rows = append(rows, j)
			}
		}
		if g[i] >= 0 && len(rows) > 0 {
			if err := fn(g[i], rows); err != nil {
				return err
			}
		}
		i = j
	}
	return nil
}

// pickState is the common part of percentile_disc and mode: each group's
// result is one of its values, kept as (update call, row).
type pickState struct {
	ctx   context.Context
	t     arrow.DataType
	parts []arrow.Array
	base  []int32
	total int32
	pick  []int32 // index over all parts; -1 = NULL
}

func (s *pickState) grow(n int) {
	for len(s.pick) < n {
		s.pick = append(s.pick, -1)
	}
}

func (s *pickState) keepPart(arg arrow.Array) int32 {
	arg.Retain()
	s.parts = append(s.parts, arg)
	s.base = append(s.base, s.total)
	s.total += int32(arg.Len())
	return s.base[len(s.base)-1]
}

func (s *pickState) result(mem memory.Allocator) (arrow.Array, error) {
	if len(s.parts) == 0 {
		return nullArray(mem, s.t, len(s.pick)), nil
	}
	all, err := concatArrays(mem, s.parts)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	b := array.NewInt32Builder(mem)
	defer b.Release()
	for _, p := range s.pick {
		if p < 0 {
			b.AppendNull()
		} else {
			b.Append(p)
		}
	}
	idx := b.NewArray()
	defer idx.Release()
	return expr.TakeArray(expr.WithAllocator(s.ctx, mem), all, idx)
}

func (s *pickState) release() {
	releaseAll(s.parts)
	s.parts = nil
}

// percentile is the fraction of percentile_cont/disc: NULL makes every
// result NULL; out of [0, 1] is an error once a group is computed.
type percentile struct {
	v    float64
	null bool
}

func newPercentile(direct []arrow.Array) (percentile, error) {
	if len(direct) != 1 || direct[0].Len() < 1 {
		return percentile{}, fmt.Errorf("percentile needs one constant fraction")
	}
	a := direct[0]
	if a.IsNull(0) {
		return percentile{null: true}, nil
	}
	v, err := floatAt(a, 0)
	if err != nil {
		return percentile{}, err
	}
	return percentile{v: v}, nil
}

func (p percentile) check() error {
	if p.null || p.v >= 0 && p.v <= 1 {
		return nil
	}
	return pgerr.New(pgerr.NumericValueOutOfRange, "percentile value %s is not between 0 and 1",
		expr.AppendFloat(nil, p.v, 64))
}

// percentileDiscState is percentile_disc(f) WITHIN GROUP (ORDER BY x): the
// first value whose position in the order is at least f of the values.
type percentileDiscState struct {
	pickState
	p percentile
}

func (s *percentileDiscState) update(g []int32, arg arrow.Array) error {
	if s.p.null {
		return nil
	}
	if err := s.p.check(); err != nil {
		return err
	}
	base := int32(-1)
	return groupRuns(g, arg, func(k int32, rows []int) error {
		if base < 0 {
			base = s.keepPart(arg)
		}
		r := int(math.Ceil(s.p.v * float64(len(rows))))
		s.pick[k] = base + int32(rows[max(r, 1)-1])
		return nil
	})
}

func (s *percentileDiscState) result(mem memory.Allocator) (arrow.Array, error) {
	if len(s.pick) > 0 {
		if err := s.p.check(); err != nil {
			return nil, err
		}
	}
	return s.pickState.result(mem)
}

// modeState is mode() WITHIN GROUP (ORDER BY x): the most frequent value,
// the first in the order among equally frequent ones.
type modeState struct{ pickState }

func (s *modeState) update(g []int32, arg arrow.Array) error {
	eq, err := expr.Comparator(arg, arg)
	if err != nil {
		return err
	}
	base := int32(-1)
	return groupRuns(g, arg, func(k int32, rows []int) error {
		if base < 0 {
			base = s.keepPart(arg)
		}
		best, bestN := rows[0], 0
		for i := 0; i < len(rows); {
			j := i + 1
			for j < len(rows) && eq(rows[j], rows[i]) == 0 {
				j++
			}
			if j-i > bestN {
				best, bestN = rows[i], j-i
			}
			i = j
		}
		s.pick[k] = base + int32(best)
		return nil
	})
}

// percentileContState is percentile_cont(f) WITHIN GROUP (ORDER BY x) over
// float8 values: linear interpolation between the two values around
// position f*(N-1), as PostgreSQL computes it.
type percentileContState struct {
	p     percentile
	res   []float64
	valid []bool
}

func (s *percentileContState) release() {}

func (s *percentileContState) grow(n int) { s.res, s.valid = growTo(s.res, n), growTo(s.valid, n) }

func (s *percentileContState) update(g []int32, arg arrow.Array) error {
	if s.p.null {
		return nil
	}
	if err := s.p.check(); err != nil {
		return err
	}
	return groupRuns(g, arg, func(k int32, rows []int) error {
		pos := s.p.v * float64(len(rows)-1)
		first, second := math.Floor(pos), math.Ceil(pos)
		lo, err := floatAt(arg, rows[int(first)])
		if err != nil {
			return err
		}
		v := lo
		if second > first {
			hi, err := floatAt(arg, rows[int(second)])
			if err != nil {
				return err
			}
			v = lo + (hi-lo)*(pos-first)
		}
		s.res[k], s.valid[k] = v, true
		return nil
	})
}

func (s *percentileContState) result(mem memory.Allocator) (arrow.Array, error) {
	if len(s.res) > 0 {
		if err := s.p.check(); err != nil {
			return nil, err
		}
	}
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	b.AppendValues(s.res, s.valid)
	return b.NewArray(), nil
}

// newOrderedSetState makes the inner state of an ordered-set aggregate
// (run by an orderedState); direct holds its evaluated direct arguments.
func newOrderedSetState(ctx context.Context, fn string, arg, res arrow.DataType, direct []arrow.Array) (aggState, error) {
	switch fn {
	case "mode":
		return &modeState{pickState{ctx: ctx, t: res}}, nil
	case "percentile_disc", "percentile_cont":
		p, err := newPercentile(direct)
		if err != nil {
			return nil, err
		}
		if fn == "percentile_cont" {
			return &percentileContState{p: p}, nil
		}
		return &percentileDiscState{pickState: pickState{ctx: ctx, t: res}, p: p}, nil
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", fn)
}

func (s *pickState) held() int64 { return partsBytes(s.parts) + 4*int64(len(s.pick)+len(s.base)) }
