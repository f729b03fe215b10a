package exec

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// Aggregates over window frames. count, and sum/avg of integers and of
// decimals of up to 28 digits, are exact and invertible: they are read
// off prefix sums, so every frame shape (running, sliding, whole
// partition, with EXCLUDE) costs O(1) a row. The others (float sums,
// numeric of varying scale, min/max, bool_and/bool_or) fold the frame's
// rows in order as PostgreSQL does for aggregates without an inverse:
// continuing while the frame start stays put, restarting when it moves.
// array_agg and the variances run agg.go's aggregate states over the
// frames (winStateAggregate).

// winAggregate computes aggregate fn over every row's frame. arg is nil
// for count(*); filter is the FILTER mask or nil; extra are the arguments
// after the first (string_agg's delimiter).
func winAggregate(ctx context.Context, fr *winFrames, fn string, arg arrow.Array, argT, res arrow.DataType, filter arrow.Array, extra []arrow.Array) (arrow.Array, error) {
	if fn == "every" {
		fn = "bool_and"
	}
	switch fn {
	case "count", "sum", "avg", "min", "max", "bool_and", "bool_or":
	default:
		return winStateAggregate(ctx, fr, fn, arg, argT, res, filter, extra)
	}
	incl, err := winIncludedRows(fr.lay.n, arg, filter)
	if err != nil {
		return nil, err
	}
	if fn == "count" || ((fn == "sum" || fn == "avg") && winPrefixable(argT)) {
		return winPrefixAggregate(ctx, fr, fn, arg, argT, res, incl)
	}
	acc, err := newWinAcc(fn, arg, argT, res)
	if err != nil {
		return nil, err
	}
	return winFoldFrames(ctx, fr, acc, incl)
}

// winPrefixable reports whether sum/avg of t can be read off prefix sums
// exactly (no 128-bit overflow of the running total).
func winPrefixable(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	case arrow.DECIMAL128:
		return t.(*arrow.Decimal128Type).Precision <= 28
	}
	return false
}

// winIncludedRows is whether each row enters the aggregate: FILTER true and
// the argument not NULL. nil means every row.
func winIncludedRows(n int, arg, filter arrow.Array) ([]bool, error) {
	if (arg == nil || arg.NullN() == 0) && filter == nil {
		return nil, nil
	}
	incl := make([]bool, n)
	for i := range incl {
		incl[i] = arg == nil || arg.IsValid(i)
	}
	if filter != nil {
		mask, ok := filter.(*array.Boolean)
		if !ok {
			return nil, fmt.Errorf("FILTER is %s, not boolean", filter.DataType())
		}
		for i := range incl {
			incl[i] = incl[i] && mask.IsValid(i) && mask.Value(i)
		}
	}
	return incl, nil
}

// winPrefixAggregate is count and exact sum/avg from prefix sums.
func winPrefixAggregate(ctx context.Context, fr *winFrames, fn string, arg arrow.Array, argT, res arrow.DataType, incl []bool) (arrow.Array, error) {
	n := fr.lay.n
	cnt := make([]int64, n+1)
	for i := 0; i < n; i++ {
		c := cnt[i]
		if incl == nil || incl[i] {
			c++
		}
		cnt[i+1] = c
	}
	// Integer sums of int2/int4 in int64; others in 128 bits at the
	// argument's scale.
	var isum []int64
	var dsum []decimal128.Num
	var scale int32
	if fn != "count" {
		switch a := arg.(type) {
		case *array.Int16:
			isum = winPrefixInts(a.Int16Values(), incl)
		case *array.Int32:
			isum = winPrefixInts(a.Int32Values(), incl)
		case *array.Int64:
			v := a.Int64Values()
			dsum = make([]decimal128.Num, n+1)
			for i := 0; i < n; i++ {
				s := dsum[i]
				if incl == nil || incl[i] {
					s = s.Add(decimal128.FromI64(v[i]))
				}
				dsum[i+1] = s
			}
		case *array.Decimal128:
			v := a.Values()
			scale = argT.(*arrow.Decimal128Type).Scale
			dsum = make([]decimal128.Num, n+1)
			for i := 0; i < n; i++ {
				s := dsum[i]
				if incl == nil || incl[i] {
					s = s.Add(v[i])
				}
				dsum[i+1] = s
			}
		default:
			return nil, fmt.Errorf("%s over %s from prefix sums", fn, argT)
		}
	}
	mem := expr.Allocator(ctx)
	var segs [3]winSeg
	frame := func(i int) (c int64, is int64, ds decimal128.Num) {
		k := fr.segs(i, &segs)
		for _, s := range segs[:k] {
			c += cnt[s.b] - cnt[s.a]
			if isum != nil {
				is += isum[s.b] - isum[s.a]
			} else if dsum != nil {
				ds = ds.Add(dsum[s.b].Sub(dsum[s.a]))
			}
		}
		return c, is, ds
	}
	// same is whether row i's frame is row i-1's (peers, whole
	// partitions): its value is copied.
	same := func(i int) bool {
		return i > 0 && fr.excl == ExcludeNoOthers && fr.fs[i] == fr.fs[i-1] && fr.fe[i] == fr.fe[i-1]
	}
	switch {
	case fn == "count" || (fn == "sum" && isum != nil):
		out := make([]int64, n)
		var valid []bool
		if fn == "sum" {
			valid = make([]bool, n)
		}
		for i := 0; i < n; i++ {
			if err := fr.lay.tick(i); err != nil {
				return nil, err
			}
			c, s, _ := frame(i)
			if fn == "count" {
				out[i] = c
			} else {
				out[i], valid[i] = s, c > 0
			}
		}
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.AppendValues(out, valid)
		return b.NewArray(), nil
	case fn == "sum":
		dt := res.(*arrow.Decimal128Type)
		out := make([]decimal128.Num, n)
		valid := make([]bool, n)
		for i := 0; i < n; i++ {
			if err := fr.lay.tick(i); err != nil {
				return nil, err
			}
			c, _, s := frame(i)
			if c > 0 && scale != dt.Scale {
				r, err := s.Rescale(scale, dt.Scale)
				if err != nil {
					return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
				}
				s = r
			}
			out[i], valid[i] = s, c > 0
		}
		b := array.NewDecimal128Builder(mem, dt)
		defer b.Release()
		b.AppendValues(out, valid)
		return b.NewArray(), nil
	}
	// avg: numeric division of the sum by the count.
	b := expr.NewNumericBuilder(mem)
	defer b.Release()
	var lastU decimal128.Num
	var lastS int32
	lastNull := true
	for i := 0; i < n; i++ {
		if err := fr.lay.tick(i); err != nil {
			return nil, err
		}
		if !same(i) {
			c, is, ds := frame(i)
			lastNull = c == 0
			if !lastNull {
				if isum != nil {
					ds = decimal128.FromI64(is)
				}
				q, qs, err := expr.NumericDiv(ds, scale, decimal128.FromI64(c), 0)
				if err != nil {
					return nil, err
				}
				lastU, lastS = q, qs
			}
		}
		if lastNull {
			b.AppendNull()
		} else {
			b.Append(lastU, lastS)
		}
	}
	return b.NewArray(), nil
}

func winPrefixInts[T int16 | int32](v []T, incl []bool) []int64 {
	out := make([]int64, len(v)+1)
	for i, x := range v {
		s := out[i]
		if incl == nil || incl[i] {
			s += int64(x)
		}
		out[i+1] = s
	}
	return out
}

// winAcc folds the rows of one frame at a time.
type winAcc interface {
	reset()
	add(r int) error
	// emit appends the aggregate of the rows added since reset.
	emit()
	result(ctx context.Context) (arrow.Array, error)
}

// winFoldFrames runs acc over every row's frame, continuing from the previous
// row's frame while the frame start stays put and nothing is excluded.
func winFoldFrames(ctx context.Context, fr *winFrames, acc winAcc, incl []bool) (arrow.Array, error) {
	l := fr.lay
	var segs [3]winSeg
	for p := 0; p+1 < len(l.partStart); p++ {
		ps, pe := int(l.partStart[p]), int(l.partStart[p+1])
		curFs, curFe := int32(-1), int32(-1)
		for i := ps; i < pe; i++ {
			if err := l.tick(i); err != nil {
				return nil, err
			}
			fs, fe := fr.fs[i], max(fr.fe[i], fr.fs[i])
			if fr.excl == ExcludeNoOthers && fs == curFs && fe >= curFe {
				for r := curFe; r < fe; r++ {
					if incl == nil || incl[r] {
						if err := acc.add(int(r)); err != nil {
							return nil, err
						}
					}
				}
			} else {
				acc.reset()
				k := fr.segs(i, &segs)
				for _, s := range segs[:k] {
					for r := s.a; r < s.b; r++ {
						if incl == nil || incl[r] {
							if err := acc.add(int(r)); err != nil {
								return nil, err
							}
						}
					}
				}
			}
			curFs, curFe = fs, fe
			if fr.excl != ExcludeNoOthers {
				curFs = -1
			}
			acc.emit()
		}
	}
	return acc.result(ctx)
}

func newWinAcc(fn string, arg arrow.Array, argT, res arrow.DataType) (winAcc, error) {
	switch fn {
	case "sum", "avg":
		switch a := arg.(type) {
		case *array.Float32:
			v := a.Float32Values()
			return &winFloatAcc{get: func(i int) float64 { return float64(v[i]) }, f32: fn == "sum", avg: fn == "avg"}, nil
		case *array.Float64:
			v := a.Float64Values()
			return &winFloatAcc{get: func(i int) float64 { return v[i] }, avg: fn == "avg"}, nil
		}
		return &winDecAcc{arg: arg, avg: fn == "avg", res: res}, nil
	case "min", "max":
		cmp, err := expr.Comparator(arg, arg)
		if err != nil {
			return nil, err
		}
		return &winExtremeAcc{arg: arg, cmp: cmp, max: fn == "max", best: -1}, nil
	case "bool_and", "bool_or":
		a, ok := arg.(*array.Boolean)
		if !ok {
			return nil, fmt.Errorf("%s over %s", fn, arg.DataType())
		}
		return &winBoolAcc{arg: a, and: fn == "bool_and"}, nil
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", fn)
}

// winFloatAcc is sum(float4) (accumulated in float4), sum(float8) and
// avg(float4|float8) (in float8).
type winFloatAcc struct {
	get      func(i int) float64
	f32, avg bool
	sum      float64
	cnt      int64
	out      []float64
	valid    []bool
}

func (a *winFloatAcc) reset() { a.sum, a.cnt = 0, 0 }

func (a *winFloatAcc) add(r int) error {
	x, y := a.sum, a.get(r)
	s := x + y
	switch {
	case a.cnt == 0 && !a.avg:
		// sum starts from its first value (-0 stays -0); avg from 0.
		s = y
	case a.f32:
		s = float64(float32(x) + float32(y))
	}
	if math.IsInf(s, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
	}
	a.sum = s
	a.cnt++
	return nil
}

func (a *winFloatAcc) emit() {
	v := a.sum
	if a.avg && a.cnt > 0 {
		v /= float64(a.cnt)
	}
	a.out, a.valid = append(a.out, v), append(a.valid, a.cnt > 0)
}

func (a *winFloatAcc) result(ctx context.Context) (arrow.Array, error) {
	mem := expr.Allocator(ctx)
	if a.f32 {
		return winFloat32Array(mem, a.out, a.valid), nil
	}
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	b.AppendValues(a.out, a.valid)
	return b.NewArray(), nil
}

func winFloat32Array(mem memory.Allocator, vs []float64, valid []bool) arrow.Array {
	b := array.NewFloat32Builder(mem)
	defer b.Release()
	for i, v := range vs {
		if valid[i] {
			b.Append(float32(v))
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray()
}

// winDecAcc is exact sum/avg over numerics of varying scale and wide
// decimals.
type winDecAcc struct {
	arg   arrow.Array
	avg   bool
	res   arrow.DataType
	sum   decimal128.Num
	scale int32
	cnt   int64
	outU  []decimal128.Num
	outS  []int32
	outN  []int64
}

func (a *winDecAcc) reset() { a.sum, a.scale, a.cnt = decimal128.Num{}, 0, 0 }

func (a *winDecAcc) add(r int) error {
	// Integers always take the prefix path: only decimals come here.
	u, s := expr.DecimalValue(a.arg, r)
	sum, sc, err := expr.NumericAdd(a.sum, a.scale, u, s)
	if err != nil {
		return err
	}
	a.sum, a.scale = sum, sc
	a.cnt++
	return nil
}

func (a *winDecAcc) emit() {
	a.outU, a.outS, a.outN = append(a.outU, a.sum), append(a.outS, a.scale), append(a.outN, a.cnt)
}

func (a *winDecAcc) result(ctx context.Context) (arrow.Array, error) {
	return decimalSums(expr.Allocator(ctx), a.res, a.avg, a.outU, a.outS, a.outN)
}

// winExtremeAcc is min/max: the row of the best value, the later of equal
// ones (as PostgreSQL's smaller/larger keep it).
type winExtremeAcc struct {
	arg  arrow.Array
	cmp  func(i, j int) int
	max  bool
	best int
	out  []int32
	ok   []bool
}

func (a *winExtremeAcc) reset() { a.best = -1 }

func (a *winExtremeAcc) add(r int) error {
	if a.best < 0 {
		a.best = r
		return nil
	}
	c := a.cmp(r, a.best)
	if (a.max && c >= 0) || (!a.max && c <= 0) {
		a.best = r
	}
	return nil
}

func (a *winExtremeAcc) emit() {
	a.out, a.ok = append(a.out, int32(max(a.best, 0))), append(a.ok, a.best >= 0)
}

func (a *winExtremeAcc) result(ctx context.Context) (arrow.Array, error) {
	b := array.NewInt32Builder(expr.Allocator(ctx))
	defer b.Release()
	b.AppendValues(a.out, a.ok)
	idx := b.NewArray()
	defer idx.Release()
	return expr.TakeArray(ctx, a.arg, idx)
}

// winBoolAcc is bool_and / bool_or.
type winBoolAcc struct {
	arg   *array.Boolean
	and   bool
	v     bool
	cnt   int64
	out   []bool
	valid []bool
}

func (a *winBoolAcc) reset() { a.v, a.cnt = a.and, 0 }

func (a *winBoolAcc) add(r int) error {
	if a.cnt == 0 {
		a.v = a.and
	}
	if a.and {
		a.v = a.v && a.arg.Value(r)
	} else {
		a.v = a.v || a.arg.Value(r)
	}
	a.cnt++
	return nil
}

func (a *winBoolAcc) emit() { a.out, a.valid = append(a.out, a.v), append(a.valid, a.cnt > 0) }

func (a *winBoolAcc) result(ctx context.Context) (arrow.Array, error) {
	b := array.NewBooleanBuilder(expr.Allocator(ctx))
	defer b.Release()
	b.AppendValues(a.out, a.valid)
	return b.NewArray(), nil
}

// winStateAggregate runs any other aggregate of agg.go (array_agg,
// string_agg, the variances) over the frames with its aggregate state: each run of rows
// sharing one frame is a group, fed its frame's rows in order (the rows
// are gathered in chunks). Whole-partition frames cost O(rows); frames
// that move cost the sum of their sizes.
func winStateAggregate(ctx context.Context, fr *winFrames, fn string, arg arrow.Array, argT, res arrow.DataType, filter arrow.Array, extra []arrow.Array) (arrow.Array, error) {
	incl, err := winIncludedRows(fr.lay.n, nil, filter) // the state skips NULLs as the aggregate does
	if err != nil {
		return nil, err
	}
	st, err := newAggState(ctx, fn, argT, res)
	if err != nil {
		return nil, err
	}
	defer st.release()
	// A state that keeps values keeps them for every frame: the sum of
	// the frames' sizes, charged to the statement's memory limit.
	acct := newMemAccount(ctx, "window aggregate")
	defer acct.release()
	held, _ := st.(heldState)
	n := fr.lay.n
	mem := expr.Allocator(ctx)
	rowGroup := make([]int32, n)
	var rows, groups []int32 // the rows fed and their groups, one chunk
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if held != nil {
			if err := acct.grow(held.held() - acct.held); err != nil {
				return err
			}
		}
		ia := int32Array(mem, rows)
		defer ia.Release()
		vals, err := expr.TakeArray(ctx, arg, ia)
		if err != nil {
			return err
		}
		defer vals.Release()
		if xs, ok := st.(extraArgState); ok {
			ex := make([]arrow.Array, len(extra))
			defer releaseAll(ex)
			for j, e := range extra {
				if ex[j], err = expr.TakeArray(ctx, e, ia); err != nil {
					return err
				}
			}
			err = xs.updateExtra(groups, vals, ex)
			rows, groups = rows[:0], groups[:0]
			return err
		}
		err = st.update(groups, vals)
		rows, groups = rows[:0], groups[:0]
		return err
	}
	ngroups := int32(0)
	var segs [3]winSeg
	for i := 0; i < n; i++ {
		if i > 0 && fr.excl == ExcludeNoOthers && fr.fs[i] == fr.fs[i-1] && fr.fe[i] == fr.fe[i-1] {
			rowGroup[i] = rowGroup[i-1]
			continue
		}
		g := ngroups
		ngroups++
		st.grow(int(ngroups))
		rowGroup[i] = g
		k := fr.segs(i, &segs)
		for _, s := range segs[:k] {
			for r := s.a; r < s.b; r++ {
				if incl == nil || incl[r] {
					rows, groups = append(rows, r), append(groups, g)
				}
			}
		}
		if len(rows) >= 1<<16 {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if held != nil {
		if err := acct.grow(held.held() - acct.held); err != nil {
			return nil, err
		}
	}
	per, err := st.result(mem)
	if err != nil {
		return nil, err
	}
	defer per.Release()
	ia := int32Array(mem, rowGroup)
	defer ia.Release()
	return expr.TakeArray(ctx, per, ia)
}
