package exec

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

var (
	_ partialState = (*countState)(nil)
	_ partialState = (*sumIntState)(nil)
	_ partialState = (*sumFloatState)(nil)
	_ partialState = (*sumDecState)(nil)
	_ partialState = (*minMaxState)(nil)
	_ partialState = (*boolState)(nil)
	_ partialState = (*floatVarState)(nil)
	_ partialState = (*numericVarState)(nil)
)

// Two-phase aggregation for parallel plans: below a Gather, each part runs
// NewHashAggregatePartial, which emits per group the running state of
// every aggregate instead of its result; above it NewHashAggregateFinal
// merges the states of equal groups and emits what NewHashAggregate would
// have. count, sum, avg, min, max, bool_and/bool_or/every and the
// variance family can be split; DISTINCT, ORDER BY inside the call,
// string_agg, array_agg and the ordered-set aggregates cannot (0A000).

type aggPhase int

const (
	phaseWhole aggPhase = iota
	phasePartial
	phaseFinal
)

// partialState is an aggState that can emit its state and merge states.
type partialState interface {
	aggState
	partial(mem memory.Allocator) ([]arrow.Array, error)
	merge(g []int32, cols []arrow.Array) error
}

// partialTypes are the state columns of an aggregate.
func partialTypes(a AggCall, arg, res arrow.DataType) ([]arrow.DataType, error) {
	fn := strings.ToLower(a.Fn)
	if a.Distinct || len(a.OrderBy) > 0 {
		return nil, pgerr.Unsupported("parallel aggregation of %s with DISTINCT or ORDER BY", fn)
	}
	i8, f8 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64
	switch fn {
	case "count":
		return []arrow.DataType{i8}, nil
	case "sum", "avg":
		id := arg.ID()
		switch {
		case id == arrow.INTERVAL_MONTH_DAY_NANO:
			return nil, pgerr.Unsupported("parallel aggregation of %s(interval)", fn)
		case fn == "sum" && (id == arrow.INT16 || id == arrow.INT32):
			return []arrow.DataType{i8}, nil
		case id == arrow.FLOAT32 || id == arrow.FLOAT64:
			return []arrow.DataType{f8, i8}, nil
		case id == arrow.DECIMAL128:
			// Sums of a decimal column, at its scale.
			return []arrow.DataType{&arrow.Decimal128Type{Precision: 38, Scale: arg.(*arrow.Decimal128Type).Scale}, i8}, nil
		default:
			return []arrow.DataType{expr.NumericType(), i8}, nil
		}
	case "min", "max", "bool_and", "bool_or", "every":
		return []arrow.DataType{res}, nil
	case "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		if arg.ID() == arrow.FLOAT32 || arg.ID() == arrow.FLOAT64 {
			return []arrow.DataType{f8, f8, f8}, nil
		}
		// N, then the sums as unscaled decimal text, then their scale.
		return []arrow.DataType{i8, arrow.BinaryTypes.String, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32}, nil
	}
	return nil, pgerr.Unsupported("parallel aggregation of %s", fn)
}

// NewHashAggregatePartial is the per-part phase of a parallel GROUP BY:
// like NewHashAggregate, but after the group keys each aggregate has its
// state columns (named "<name>.state<i>"); FILTER is applied here. Every
// part must use the same groups and aggs, and NewHashAggregateFinal above
// the Gather the same aggs.
func NewHashAggregatePartial(in engine.Operator, groups []expr.Expr, aggs []AggCall, opts ...expr.CompileOptions) (engine.Operator, error) {
	op, err := NewHashAggregate(in, groups, aggs, opts...)
	if err != nil {
		return nil, err
	}
	o := op.(*hashAggOp)
	o.phase = phasePartial
	fields := append([]arrow.Field(nil), o.schema.Fields()[:len(groups)]...)
	for i, a := range aggs {
		ts, err := partialTypes(a, o.argTypes[i], o.resTypes[i])
		if err != nil {
			return nil, err
		}
		name := o.schema.Field(len(groups) + i).Name
		for j, t := range ts {
			fields = append(fields, arrow.Field{Name: fmt.Sprintf("%s.state%d", name, j), Type: t, Nullable: true})
		}
	}
	o.schema = arrow.NewSchema(fields, nil)
	return o, nil
}

// NewHashAggregateFinal merges the output of NewHashAggregatePartial (in,
// usually a Gather of the parts): its first ngroups columns are the group
// keys, then the states of aggs, the same calls the parts ran. The output
// is NewHashAggregate's: the group keys, then one result per aggregate.
func NewHashAggregateFinal(in engine.Operator, ngroups int, aggs []AggCall, opts ...expr.CompileOptions) (engine.Operator, error) {
	s := in.Schema()
	if ngroups > s.NumFields() {
		return nil, fmt.Errorf("final aggregate: %d groups but %d input columns", ngroups, s.NumFields())
	}
	o := &hashAggOp{in: in, aggs: aggs, phase: phaseFinal, opts: opts}
	fields := append([]arrow.Field(nil), s.Fields()[:ngroups]...)
	for i := range fields {
		f := fields[i]
		p, err := expr.Compile(&expr.Col{Idx: i, Name: f.Name, T: f.Type}, s, opts...)
		if err != nil {
			return nil, err
		}
		o.groups = append(o.groups, p)
		fields[i].Type = plainType(f.Type)
	}
	next := ngroups
	for _, a := range aggs {
		fn := strings.ToLower(a.Fn)
		var argT arrow.DataType
		var types []arrow.DataType
		if a.Arg != nil {
			argT = plainType(a.Arg.Type())
			types = append(types, argT)
		}
		for _, e := range a.Args {
			types = append(types, e.Type())
		}
		rt, err := AggResultTypeN(fn, types)
		if err != nil {
			return nil, err
		}
		ts, err := partialTypes(a, argT, rt)
		if err != nil {
			return nil, err
		}
		var cols []int
		for _, t := range ts {
			if next >= s.NumFields() || !arrow.TypeEqual(s.Field(next).Type, t) {
				return nil, fmt.Errorf("final aggregate: %s needs a %s state at column %d", fn, t, next)
			}
			cols = append(cols, next)
			next++
		}
		o.stateCols = append(o.stateCols, cols)
		o.args = append(o.args, nil)
		o.filters = append(o.filters, nil)
		o.extras = append(o.extras, nil)
		o.direct = append(o.direct, nil)
		o.sortKeys = append(o.sortKeys, nil)
		o.argTypes = append(o.argTypes, argT)
		o.resTypes = append(o.resTypes, rt)
		name := a.Name
		if name == "" {
			name = fn
		}
		fields = append(fields, arrow.Field{Name: name, Type: rt, Nullable: true})
	}
	if next != s.NumFields() {
		return nil, fmt.Errorf("final aggregate: %d input columns, the states end at %d", s.NumFields(), next)
	}
	o.schema = arrow.NewSchema(fields, nil)
	return o, nil
}

// merge folds one batch of partial states into the groups.
func (o *hashAggOp) merge(b arrow.RecordBatch, gids []int32) error {
	for a, st := range o.states {
		ps, ok := st.(partialState)
		if !ok {
			return pgerr.Unsupported("parallel aggregation of %s", o.aggs[a].Fn)
		}
		cols := make([]arrow.Array, len(o.stateCols[a]))
		for j, c := range o.stateCols[a] {
			cols[j] = b.Column(c)
		}
		if err := ps.merge(gids, cols); err != nil {
			return err
		}
	}
	return o.account()
}

func int64Col(mem memory.Allocator, v []int64, valid []bool) arrow.Array {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.AppendValues(v, valid)
	return b.NewArray()
}

func float64Col(mem memory.Allocator, v []float64, valid []bool) arrow.Array {
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	b.AppendValues(v, valid)
	return b.NewArray()
}

func (s *countState) partial(mem memory.Allocator) ([]arrow.Array, error) {
	return []arrow.Array{int64Col(mem, s.n, nil)}, nil
}

func (s *countState) merge(g []int32, cols []arrow.Array) error {
	v := cols[0].(*array.Int64)
	for i, k := range g {
		if k >= 0 && v.IsValid(i) {
			s.n[k] += v.Value(i)
		}
	}
	return nil
}

func (s *sumIntState) partial(mem memory.Allocator) ([]arrow.Array, error) {
	return []arrow.Array{int64Col(mem, s.sum, s.seen)}, nil
}

func (s *sumIntState) merge(g []int32, cols []arrow.Array) error {
	v := cols[0].(*array.Int64)
	for i, k := range g {
		if k < 0 || v.IsNull(i) {
			continue
		}
		x, y := s.sum[k], v.Value(i)
		r := x + y
		if (x >= 0) == (y >= 0) && (r >= 0) != (x >= 0) {
			return pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
		}
		s.sum[k], s.seen[k] = r, true
	}
	return nil
}

func (s *sumFloatState) partial(mem memory.Allocator) ([]arrow.Array, error) {
	return []arrow.Array{float64Col(mem, s.sum, s.seen), int64Col(mem, s.cnt, nil)}, nil
}

func (s *sumFloatState) merge(g []int32, cols []arrow.Array) error {
	sum, cnt := cols[0].(*array.Float64), cols[1].(*array.Int64)
	for i, k := range g {
		if k < 0 || sum.IsNull(i) {
			continue
		}
		x, y := s.sum[k], sum.Value(i)
		r := x + y
		if s.f32 {
			r = float64(float32(x) + float32(y))
		}
		if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
		}
		s.sum[k], s.seen[k] = r, true
		s.cnt[k] += cnt.Value(i)
	}
	return nil
}

func (s *sumDecState) partial(mem memory.Allocator) ([]arrow.Array, error) {
	if s.decArg != nil {
		t := &arrow.Decimal128Type{Precision: 38, Scale: s.decArg.Scale}
		valid := make([]bool, len(s.sum))
		sums := s.sum
		if s.mode != sumFixed {
			sums = make([]decimal128.Num, len(s.sum))
		}
		for k, v := range s.sum {
			if s.cnt[k] == 0 {
				continue
			}
			valid[k] = true
			if s.mode == sumFixed {
				continue
			}
			if s.scale[k] != t.Scale {
				r, err := v.Rescale(s.scale[k], t.Scale)
				if err != nil {
					return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
				}
				v = r
			}
			sums[k] = v
		}
		b := array.NewDecimal128Builder(mem, t)
		defer b.Release()
		b.AppendValues(sums, valid)
		return []arrow.Array{b.NewArray(), int64Col(mem, s.cnt, nil)}, nil
	}
	s.settle()
	b := expr.NewNumericBuilder(mem)
	defer b.Release()
	for k, v := range s.sum {
		if s.cnt[k] == 0 {
			b.AppendNull()
		} else {
			b.Append(v, s.scale[k])
		}
	}
	return []arrow.Array{b.NewArray(), int64Col(mem, s.cnt, nil)}, nil
}

func (s *sumDecState) merge(g []int32, cols []arrow.Array) error {
	sum, cnt := cols[0], cols[1].(*array.Int64)
	if d, ok := sum.(*array.Decimal128); ok {
		if done, err := s.mergeFixed(g, d, cnt); done || err != nil {
			return err
		}
	}
	s.settle()
	for i, k := range g {
		if k < 0 || sum.IsNull(i) {
			continue
		}
		u, sc := expr.DecimalValue(sum, i)
		r, rs, err := expr.NumericAdd(s.sum[k], s.scale[k], u, sc)
		if err != nil {
			return err
		}
		s.sum[k], s.scale[k] = r, rs
		s.cnt[k] += cnt.Value(i)
	}
	return nil
}

// mergeFixed merges sums of a decimal column at the fixed scale, or
// reports false, merging nothing, when the state is at another scale.
// A sum past 128 bits, which no result could hold, is an error.
func (s *sumDecState) mergeFixed(g []int32, d *array.Decimal128, cnt *array.Int64) (bool, error) {
	sc := d.DataType().(*arrow.Decimal128Type).Scale
	if s.mode == sumUnknown {
		s.mode, s.fixScale, s.scale = sumFixed, sc, nil
	}
	if s.mode != sumFixed || s.fixScale != sc {
		return false, nil
	}
	// Merged sums can be of any size: no more unchecked updates.
	s.rows = 1 << 62
	vals, counts := d.Values()[:len(g)], cnt.Int64Values()[:len(g)]
	nulls := d.NullN() > 0
	for i, k := range g {
		if k < 0 || nulls && d.IsNull(i) {
			continue
		}
		a, b := s.sum[k], vals[i]
		r := a.Add(b)
		if a.HighBits()^b.HighBits() >= 0 && a.HighBits()^r.HighBits() < 0 {
			return true, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
		}
		s.sum[k] = r
		s.cnt[k] += counts[i]
	}
	return true, nil
}

func (s *minMaxState) partial(mem memory.Allocator) ([]arrow.Array, error) {
	a, err := s.result(mem)
	return []arrow.Array{a}, err
}

func (s *minMaxState) merge(g []int32, cols []arrow.Array) error { return s.update(g, cols[0]) }

func (s *boolState) partial(mem memory.Allocator) ([]arrow.Array, error) {
	a, err := s.result(mem)
	return []arrow.Array{a}, err
}

func (s *boolState) merge(g []int32, cols []arrow.Array) error { return s.update(g, cols[0]) }

func (s *floatVarState) partial(mem memory.Allocator) ([]arrow.Array, error) {
	return []arrow.Array{float64Col(mem, s.n, nil), float64Col(mem, s.sx, nil), float64Col(mem, s.sxx, nil)}, nil
}

// merge combines states as PostgreSQL's float8_combine does.
func (s *floatVarState) merge(g []int32, cols []arrow.Array) error {
	n2c, sx2c, sxx2c := cols[0].(*array.Float64), cols[1].(*array.Float64), cols[2].(*array.Float64)
	overflow := pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
	for i, k := range g {
		if k < 0 {
			continue
		}
		n1, sx1, sxx1 := s.n[k], s.sx[k], s.sxx[k]
		n2, sx2, sxx2 := n2c.Value(i), sx2c.Value(i), sxx2c.Value(i)
		switch {
		case n2 == 0:
			continue
		case n1 == 0:
			s.n[k], s.sx[k], s.sxx[k] = n2, sx2, sxx2
			continue
		}
		n := n1 + n2
		sx := sx1 + sx2
		if math.IsInf(sx, 0) && !math.IsInf(sx1, 0) && !math.IsInf(sx2, 0) {
			return overflow
		}
		t := sx1/n1 - sx2/n2
		sxx := sxx1 + sxx2 + n1*n2*t*t/n
		if math.IsInf(sxx, 0) && !math.IsInf(sxx1, 0) && !math.IsInf(sxx2, 0) {
			return overflow
		}
		s.n[k], s.sx[k], s.sxx[k] = n, sx, sxx
	}
	return nil
}

func (s *numericVarState) partial(mem memory.Allocator) ([]arrow.Array, error) {
	sx := array.NewStringBuilder(mem)
	defer sx.Release()
	sxx := array.NewStringBuilder(mem)
	defer sxx.Release()
	sc := array.NewInt32Builder(mem)
	defer sc.Release()
	for k := range s.n {
		sx.Append(s.sx[k].String())
		sxx.Append(s.sxx[k].String())
		sc.Append(s.sc[k])
	}
	return []arrow.Array{int64Col(mem, s.n, nil), sx.NewArray(), sxx.NewArray(), sc.NewArray()}, nil
}

func (s *numericVarState) merge(g []int32, cols []arrow.Array) error {
	nc, sxc, sxxc, scc := cols[0].(*array.Int64), cols[1].(*array.String), cols[2].(*array.String), cols[3].(*array.Int32)
	var sx, sxx big.Int
	for i, k := range g {
		if k < 0 || nc.Value(i) == 0 {
			continue
		}
		if _, ok := sx.SetString(sxc.Value(i), 10); !ok {
			return fmt.Errorf("variance state %q", sxc.Value(i))
		}
		if _, ok := sxx.SetString(sxxc.Value(i), 10); !ok {
			return fmt.Errorf("variance state %q", sxxc.Value(i))
		}
		sc := scc.Value(i)
		switch {
		case sc > s.sc[k]:
			d := sc - s.sc[k]
			s.sx[k].Mul(s.sx[k], pow10Big(d))
			s.sxx[k].Mul(s.sxx[k], pow10Big(2*d))
			s.sc[k] = sc
		case sc < s.sc[k]:
			d := s.sc[k] - sc
			sx.Mul(&sx, pow10Big(d))
			sxx.Mul(&sxx, pow10Big(2*d))
		}
		s.sx[k].Add(s.sx[k], &sx)
		s.sxx[k].Add(s.sxx[k], &sxx)
		s.n[k] += nc.Value(i)
	}
	return nil
}
