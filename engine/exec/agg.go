package exec

import (
	"context"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// AggCall is one aggregate of a HashAggregate: Fn(Arg, Args...) with
// optional DISTINCT, ORDER BY and FILTER (WHERE Filter). Arg is nil for
// count(*).
//
// Ordered-set aggregates (percentile_cont, percentile_disc, mode) are
// written fn(Args...) WITHIN GROUP (ORDER BY OrderBy[0]): their aggregated
// value is the one ORDER BY key (Arg is nil or the same expression) and
// Args are the direct arguments, which must be constants (the fraction).
type AggCall struct {
	Fn       string
	Arg      expr.Expr
	Distinct bool
	Filter   expr.Expr
	Name     string
	// Args are the arguments after Arg: string_agg's delimiter (any
	// expression), an ordered-set aggregate's direct arguments (constants).
	Args []expr.Expr
	// OrderBy is ORDER BY inside the aggregate (array_agg(x ORDER BY y
	// DESC)) or, for an ordered-set aggregate, its WITHIN GROUP.
	OrderBy []SortKey
}

// isOrderedSet reports whether fn is an ordered-set aggregate (WITHIN GROUP).
func isOrderedSet(fn string) bool {
	switch fn {
	case "percentile_cont", "percentile_disc", "mode":
		return true
	}
	return false
}

// AggResultTypeN is the PostgreSQL result type of aggregate fn over
// arguments of the given types, in the order of the SQL call: Arg then
// Args for ordinary aggregates; for ordered-set aggregates the direct
// arguments then the WITHIN GROUP expression (percentile_cont(fraction,
// x), mode(x)). No arguments is count(*). Unsupported combinations are
// 42883.
func AggResultTypeN(fn string, args []arrow.DataType) (arrow.DataType, error) {
	fn = strings.ToLower(fn)
	plain := make([]arrow.DataType, len(args))
	for i, a := range args {
		plain[i] = plainType(a)
	}
	switch {
	case fn == "count" && len(args) <= 1:
		return arrow.PrimitiveTypes.Int64, nil
	case len(args) == 0:
		return AggResultType(fn, nil)
	}
	undefined := func() error {
		names := make([]string, len(args))
		for i, a := range plain {
			names[i] = expr.PGTypeName(a)
		}
		return pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", fn, strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	a := plain[0]
	switch fn {
	case "sum", "avg", "min", "max":
		if len(args) == 1 {
			return AggResultType(fn, a)
		}
	case "bool_and", "bool_or", "every":
		if len(args) == 1 && a.ID() == arrow.BOOL {
			return arrow.FixedWidthTypes.Boolean, nil
		}
	case "string_agg":
		if len(args) != 2 {
			break
		}
		d := plain[1].ID()
		switch a.ID() {
		case arrow.STRING:
			if d == arrow.STRING || d == arrow.NULL {
				return arrow.BinaryTypes.String, nil
			}
		case arrow.BINARY:
			if d == arrow.BINARY || d == arrow.NULL {
				return arrow.BinaryTypes.Binary, nil
			}
		}
	case "array_agg":
		if len(args) == 1 && isScalarType(a) {
			return arrow.ListOf(a), nil
		}
		if d, leaf := expr.ArrayLeaf(a); len(args) == 1 && d > 0 && d < pgtext.MaxArrayDims && isScalarType(leaf) {
			// array_agg(anyarray): the arrays as sub-arrays of one
			// more dimension.
			return arrow.ListOf(a), nil
		}
	case "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		if len(args) != 1 {
			break
		}
		switch {
		case a.ID() == arrow.FLOAT32 || a.ID() == arrow.FLOAT64:
			return arrow.PrimitiveTypes.Float64, nil
		case isExactNumber(a):
			return expr.NumericType(), nil
		}
	case "percentile_cont":
		if len(args) == 2 && isNumberOrNull(a) && isNumberOrNull(plain[1]) {
			return arrow.PrimitiveTypes.Float64, nil
		}
	case "percentile_disc":
		if len(args) == 2 && isNumberOrNull(a) && isScalarType(plain[1]) {
			return plain[1], nil
		}
	case "mode":
		if len(args) == 1 && isScalarType(a) {
			return a, nil
		}
	}
	return nil, undefined()
}

func isExactNumber(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT16, arrow.INT32, arrow.INT64, arrow.DECIMAL128:
		return true
	}
	return expr.IsNumericType(t)
}

func isNumberOrNull(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.NULL, arrow.FLOAT32, arrow.FLOAT64:
		return true
	}
	return isExactNumber(t)
}

// isScalarType reports whether values of t can be aggregated into arrays,
// sorted and compared (every type of expr but the untyped NULL).
func isScalarType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.BOOL, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128,
		arrow.STRING, arrow.BINARY, arrow.FIXED_SIZE_BINARY, arrow.DATE32, arrow.TIME64, arrow.TIMESTAMP:
		return true
	}
	return expr.IsNumericType(t)
}

// AggResultType is the PostgreSQL result type of an aggregate over an
// argument type (arg nil for count(*)). Unsupported combinations are 42883.
// Aggregates of more than one argument need AggResultTypeN.
func AggResultType(fn string, arg arrow.DataType) (arrow.DataType, error) {
	fn = strings.ToLower(fn)
	switch fn {
	case "count":
		return arrow.PrimitiveTypes.Int64, nil
	case "sum", "avg", "min", "max":
	default:
		if arg != nil {
			return AggResultTypeN(fn, []arrow.DataType{arg})
		}
	}
	if arg == nil {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s(*) does not exist", fn)
	}
	undefined := pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", fn, expr.PGTypeName(arg)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	id := arg.ID()
	switch fn {
	case "sum":
		switch {
		case id == arrow.INT16 || id == arrow.INT32:
			return arrow.PrimitiveTypes.Int64, nil
		case id == arrow.INT64:
			return &arrow.Decimal128Type{Precision: 38, Scale: 0}, nil
		case id == arrow.FLOAT32 || id == arrow.FLOAT64:
			return arg, nil
		case id == arrow.DECIMAL128:
			return &arrow.Decimal128Type{Precision: 38, Scale: arg.(*arrow.Decimal128Type).Scale}, nil
		case expr.IsNumericType(arg):
			return arg, nil
		case id == arrow.INTERVAL_MONTH_DAY_NANO:
			return arg, nil
		}
	case "avg":
		switch {
		case id == arrow.INTERVAL_MONTH_DAY_NANO:
			return arg, nil
		case id == arrow.INT16 || id == arrow.INT32 || id == arrow.INT64 || id == arrow.DECIMAL128 || expr.IsNumericType(arg):
			return expr.NumericType(), nil
		case id == arrow.FLOAT32 || id == arrow.FLOAT64:
			return arrow.PrimitiveTypes.Float64, nil
		}
	case "min", "max":
		switch id {
		case arrow.BOOL:
			// PostgreSQL has no min/max(boolean) (bool_and/bool_or instead).
		case arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128,
			arrow.STRING, arrow.BINARY, arrow.FIXED_SIZE_BINARY, arrow.DATE32, arrow.TIME64, arrow.TIMESTAMP,
			arrow.INTERVAL_MONTH_DAY_NANO:
			return arg, nil
		case arrow.EXTENSION:
			if expr.IsNumericType(arg) {
				return arg, nil
			}
		}
	}
	return nil, undefined
}

// aggState accumulates one aggregate for every group. update folds the
// rows of one batch: g[i] is row i's group, < 0 to skip the row.
type aggState interface {
	grow(n int)
	update(g []int32, arg arrow.Array) error
	result(mem memory.Allocator) (arrow.Array, error)
	release()
}

func newAggState(ctx context.Context, fn string, arg arrow.DataType, res arrow.DataType) (aggState, error) {
	switch fn {
	case "count":
		return &countState{}, nil
	case "sum", "avg":
		id := arg.ID()
		switch {
		case id == arrow.INTERVAL_MONTH_DAY_NANO:
			return &sumIntervalState{avg: fn == "avg"}, nil
		case fn == "sum" && (id == arrow.INT16 || id == arrow.INT32):
			return &sumIntState{}, nil
		case id == arrow.FLOAT32 && fn == "sum":
			return &sumFloatState{f32: true}, nil
		case id == arrow.FLOAT32 || id == arrow.FLOAT64:
			return &sumFloatState{avg: fn == "avg"}, nil
		default:
			s := &sumDecState{avg: fn == "avg", res: res}
			s.decArg, _ = arg.(*arrow.Decimal128Type)
			return s, nil
		}
	case "min", "max":
		return &minMaxState{max: fn == "max", t: arg, ctx: ctx}, nil
	case "bool_and", "every", "bool_or":
		return &boolState{or: fn == "bool_or"}, nil
	case "string_agg":
		return &stringAggState{bytea: arg.ID() == arrow.BINARY}, nil
	case "array_agg":
		d, _ := expr.ArrayLeaf(arg)
		return &arrayAggState{ctx: ctx, elem: arg, arrays: d > 0}, nil
	case "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		kind := newVarianceKind(fn)
		if arg.ID() == arrow.FLOAT32 || arg.ID() == arrow.FLOAT64 {
			return &floatVarState{kind: kind}, nil
		}
		return &numericVarState{kind: kind}, nil
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", fn)
}

// countState is count(*) / count(x).
type countState struct{ n []int64 }

func (s *countState) release() {}

func (s *countState) grow(n int) { s.n = growTo(s.n, n) }

func (s *countState) reserve(n int) { s.n = reserveCap(s.n, n) }

func (s *countState) update(g []int32, arg arrow.Array) error {
	if arg == nil || arg.NullN() == 0 {
		for _, k := range g {
			if k >= 0 {
				s.n[k]++
			}
		}
		return nil
	}
	for i, k := range g {
		if k >= 0 && arg.IsValid(i) {
			s.n[k]++
		}
	}
	return nil
}

func (s *countState) result(mem memory.Allocator) (arrow.Array, error) {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.AppendValues(s.n, nil)
	return b.NewArray(), nil
}

// growTo extends s with zero values to length n (at least doubling its
// capacity when it must move).
func growTo[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	if n > cap(s) {
		t := make([]T, n, max(n, 2*cap(s)))
		copy(t, s)
		return t
	}
	m := len(s)
	s = s[:n]
	clear(s[m:])
	return s
}

// sumIntState is sum(int2|int4) -> int8.
type sumIntState struct {
	sum  []int64
	seen []bool
}

func (s *sumIntState) release() {}

func (s *sumIntState) grow(n int) { s.sum, s.seen = growTo(s.sum, n), growTo(s.seen, n) }

func (s *sumIntState) reserve(n int) { s.sum, s.seen = reserveCap(s.sum, n), reserveCap(s.seen, n) }

func (s *sumIntState) update(g []int32, arg arrow.Array) error {
	var get func(i int) int64
	switch a := arg.(type) {
	case *array.Int16:
		v := a.Int16Values()
		get = func(i int) int64 { return int64(v[i]) }
	case *array.Int32:
		v := a.Int32Values()
		get = func(i int) int64 { return int64(v[i]) }
	}
	nulls := arg.NullN() > 0
	for i, k := range g {
		if k < 0 || nulls && arg.IsNull(i) {
			continue
		}
		x, y := s.sum[k], get(i)
		r := x + y
		if (x >= 0) == (y >= 0) && (r >= 0) != (x >= 0) {
			return pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
		}
		s.sum[k], s.seen[k] = r, true
	}
	return nil
}

func (s *sumIntState) result(mem memory.Allocator) (arrow.Array, error) {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.AppendValues(s.sum, s.seen)
	return b.NewArray(), nil
}

// sumFloatState is sum(float4) (accumulated in float4), sum(float8) and
// avg(float4|float8) (accumulated in float8).
type sumFloatState struct {
	f32  bool
	avg  bool
	sum  []float64
	cnt  []int64
	seen []bool
}

func (s *sumFloatState) release() {}

func (s *sumFloatState) grow(n int) {
	s.sum, s.cnt, s.seen = growTo(s.sum, n), growTo(s.cnt, n), growTo(s.seen, n)
}

func (s *sumFloatState) reserve(n int) {
	s.sum, s.cnt, s.seen = reserveCap(s.sum, n), reserveCap(s.cnt, n), reserveCap(s.seen, n)
}

func (s *sumFloatState) update(g []int32, arg arrow.Array) error {
	var get func(i int) float64
	switch a := arg.(type) {
	case *array.Float32:
		v := a.Float32Values()
		get = func(i int) float64 { return float64(v[i]) }
	case *array.Float64:
		v := a.Float64Values()
		get = func(i int) float64 { return v[i] }
	}
	nulls := arg.NullN() > 0
	for i, k := range g {
		if k < 0 || nulls && arg.IsNull(i) {
			continue
		}
		x, y := s.sum[k], get(i)
		var r float64
		if s.f32 {
			r = float64(float32(x) + float32(y))
		} else {
			r = x + y
		}
		if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
		}
		s.sum[k], s.seen[k] = r, true
		s.cnt[k]++
	}
	return nil
}

func (s *sumFloatState) result(mem memory.Allocator) (arrow.Array, error) {
	if s.f32 {
		b := array.NewFloat32Builder(mem)
		defer b.Release()
		for k, v := range s.sum {
			if s.seen[k] {
				b.Append(float32(v))
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray(), nil
	}
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	for k, v := range s.sum {
		switch {
		case !s.seen[k]:
			b.AppendNull()
		case s.avg:
			b.Append(v / float64(s.cnt[k]))
		default:
			b.Append(v)
		}
	}
	return b.NewArray(), nil
}

// sumDecState is sum(int8|numeric) and avg(int*|numeric), exact.
//
// Over a Decimal128 column (money and its products) the state starts
// fixed at the column's scale: every group's sum is at that scale (0
// without values) and scale is not kept, so a batch is added by one
// loop of unchecked 128-bit additions whenever its values cannot
// overflow them (checked per batch: few enough rows so far, values of
// at most 28 digits or that fit 64 bits). Anything else - another scale,
// a numeric, a partial state to merge - leaves the fixed mode for the
// per-value paths, which keep each group's scale.
type sumDecState struct {
	avg   bool
	res   arrow.DataType
	sum   []decimal128.Num
	scale []int32 // nil while fixed
	cnt   []int64

	decArg   *arrow.Decimal128Type // the argument's type when a decimal column: partial states are its sums
	mode     int8                  // sumUnknown until the first update, then sumFixed or sumGeneral
	fixScale int32
	rows     int64 // rows fed to the fixed mode, a bound on any group's count
}

const (
	sumUnknown = iota
	sumFixed
	sumGeneral
)

func (s *sumDecState) release() {}

func (s *sumDecState) grow(n int) {
	s.sum, s.cnt = growTo(s.sum, n), growTo(s.cnt, n)
	if s.mode != sumFixed {
		s.scale = growTo(s.scale, n)
	}
}

func (s *sumDecState) reserve(n int) { s.sum, s.cnt = reserveCap(s.sum, n), reserveCap(s.cnt, n) }

// settle leaves the fixed mode: every group gets its scale.
func (s *sumDecState) settle() {
	if s.mode == sumFixed {
		s.scale = make([]int32, len(s.sum))
		for k := range s.scale {
			s.scale[k] = s.fixScale
		}
	}
	s.mode = sumGeneral
}

func (s *sumDecState) update(g []int32, arg arrow.Array) error {
	if d, ok := arg.(*array.Decimal128); ok {
		t := d.DataType().(*arrow.Decimal128Type)
		if s.mode == sumUnknown {
			s.mode, s.fixScale, s.scale = sumFixed, t.Scale, nil
		}
		if s.mode == sumFixed && t.Scale == s.fixScale && s.addFixed(g, d, t.Precision) {
			return nil
		}
		s.settle()
		if t.Precision <= 28 {
			return s.updateSmall(g, d, t.Scale)
		}
		return s.updateWide(g, d, t.Scale)
	}
	s.settle()
	var get func(i int) (decimal128.Num, int32)
	switch a := arg.(type) {
	case *array.Int16:
		v := a.Int16Values()
		get = func(i int) (decimal128.Num, int32) { return decimal128.FromI64(int64(v[i])), 0 }
	case *array.Int32:
		v := a.Int32Values()
		get = func(i int) (decimal128.Num, int32) { return decimal128.FromI64(int64(v[i])), 0 }
	case *array.Int64:
		v := a.Int64Values()
		get = func(i int) (decimal128.Num, int32) { return decimal128.FromI64(v[i]), 0 }
	default:
		get = func(i int) (decimal128.Num, int32) { return expr.DecimalValue(arg, i) }
	}
	nulls := arg.NullN() > 0
	for i, k := range g {
		if k < 0 || nulls && arg.IsNull(i) {
			continue
		}
		u, sc := get(i)
		r, rs, err := expr.NumericAdd(s.sum[k], s.scale[k], u, sc)
		if err != nil {
			return err
		}
		s.sum[k], s.scale[k] = r, rs
		s.cnt[k]++
	}
	return nil
}

// addFixed adds a batch at the fixed scale with unchecked 128-bit
// additions, or reports false, adding nothing, when they could overflow:
// values of at most 28 digits are safe for 10^9 rows, values that fit 64
// bits for 2^62.
func (s *sumDecState) addFixed(g []int32, d *array.Decimal128, precision int32) bool {
	n := len(g)
	vals := d.Values()[:n]
	if precision <= 28 {
		if s.rows+int64(n) >= 1e9 {
			return false
		}
	} else {
		if s.rows+int64(n) >= 1<<62 {
			return false
		}
		// NULL slots count too: garbage there only costs the fast path.
		var wide int64
		for _, v := range vals {
			wide |= v.HighBits() ^ int64(v.LowBits())>>63
		}
		if wide != 0 {
			return false
		}
	}
	s.rows += int64(n)
	sum, cnt := s.sum, s.cnt
	if d.NullN() == 0 {
		for i, k := range g {
			if k < 0 {
				continue
			}
			sum[k] = sum[k].Add(vals[i])
			cnt[k]++
		}
		return true
	}
	bm, off := d.NullBitmapBytes(), d.Data().Offset()
	for i, k := range g {
		if k < 0 || !bitutil.BitIsSet(bm, off+i) {
			continue
		}
		sum[k] = sum[k].Add(vals[i])
		cnt[k]++
	}
	return true
}

// updateSmall is update over decimals of at most 28 digits at one scale
// (money columns and their products): 128-bit additions straight from
// the values, which cannot pass 38 digits before 10^10 rows; a group
// that large goes on with checked additions.
func (s *sumDecState) updateSmall(g []int32, d *array.Decimal128, scale int32) error {
	vals := d.Values()
	nulls := d.NullN() > 0
	for i, k := range g {
		if k < 0 || nulls && d.IsNull(i) {
			continue
		}
		switch {
		case s.cnt[k] == 0:
			s.sum[k], s.scale[k] = vals[i], scale
		case s.scale[k] == scale && s.cnt[k] < 1e9:
			s.sum[k] = s.sum[k].Add(vals[i])
		default:
			r, rs, err := expr.NumericAdd(s.sum[k], s.scale[k], vals[i], scale)
			if err != nil {
				return err
			}
			s.sum[k], s.scale[k] = r, rs
		}
		s.cnt[k]++
	}
	return nil
}

// updateWide is update over a Decimal128 column whose type allows 38
// digits (products of money columns are typed so) but whose values mostly
// fit 64 bits: those are added to the group's 128-bit sum unchecked (2^62
// of them cannot overflow it); others, a group's first value and scale
// changes take the checked path. The sum's range is checked by result.
func (s *sumDecState) updateWide(g []int32, d *array.Decimal128, scale int32) error {
	vals := d.Values()
	nulls := d.NullN() > 0
	for i, k := range g {
		if k < 0 || nulls && d.IsNull(i) {
			continue
		}
		v := vals[i]
		if s.cnt[k] > 0 && s.scale[k] == scale && s.cnt[k] < 1<<62 && v.HighBits() == int64(v.LowBits())>>63 {
			s.sum[k] = s.sum[k].Add(v)
			s.cnt[k]++
			continue
		}
		if s.cnt[k] == 0 {
			s.sum[k], s.scale[k] = v, scale
			s.cnt[k]++
			continue
		}
		r, rs, err := expr.NumericAdd(s.sum[k], s.scale[k], v, scale)
		if err != nil {
			return err
		}
		s.sum[k], s.scale[k] = r, rs
		s.cnt[k]++
	}
	return nil
}

func (s *sumDecState) result(mem memory.Allocator) (arrow.Array, error) {
	if dt, ok := s.res.(*arrow.Decimal128Type); ok && s.mode == sumFixed && !s.avg && dt.Scale == s.fixScale {
		// Every sum is at the result's scale already: the sums are the
		// result's values, copied once.
		var valid []bool
		for k, v := range s.sum {
			if s.cnt[k] == 0 {
				if valid == nil {
					valid = make([]bool, len(s.sum))
					for j := range k {
						valid[j] = true
					}
				}
				continue
			}
			if valid != nil {
				valid[k] = true
			}
			if !v.FitsInPrecision(38) {
				return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
			}
		}
		b := array.NewDecimal128Builder(mem, dt)
		defer b.Release()
		b.AppendValues(s.sum, valid)
		return b.NewArray(), nil
	}
	s.settle()
	for k, v := range s.sum {
		if s.cnt[k] > 0 && !v.FitsInPrecision(38) {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
		}
	}
	return decimalSums(mem, s.res, s.avg, s.sum, s.scale, s.cnt)
}

// decimalSums is the result of sum or avg over decimals: for each k,
// sums[k] at scales[k] over counts[k] values (none: NULL), as res, a
// numeric or a Decimal128 type. Aggregation and window aggregates share it.
func decimalSums(mem memory.Allocator, res arrow.DataType, avg bool, sums []decimal128.Num, scales []int32, counts []int64) (arrow.Array, error) {
	if expr.IsNumericType(res) {
		b := expr.NewNumericBuilder(mem)
		defer b.Release()
		for k, v := range sums {
			switch {
			case counts[k] == 0:
				b.AppendNull()
			case avg:
				q, qs, err := expr.NumericDiv(v, scales[k], decimal128.FromI64(counts[k]), 0)
				if err != nil {
					return nil, err
				}
				b.Append(q, qs)
			default:
				b.Append(v, scales[k])
			}
		}
		return b.NewArray(), nil
	}
	dt := res.(*arrow.Decimal128Type)
	b := array.NewDecimal128Builder(mem, dt)
	defer b.Release()
	b.Reserve(len(sums))
	for k, v := range sums {
		if counts[k] == 0 {
			b.AppendNull()
			continue
		}
		// Values of a Decimal128 input all have the column's scale.
		if scales[k] != dt.Scale {
			r, err := v.Rescale(scales[k], dt.Scale)
			if err != nil {
				return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
			}
			v = r
		}
		b.Append(v)
	}
	return b.NewArray(), nil
}

// minMaxState keeps the smallest or largest value of each group: it stores
// for each group the index of its best value in a growing values array,
// appended to only when a group's best changes.
type minMaxState struct {
	ctx  context.Context
	max  bool
	t    arrow.DataType
	best []int32 // index into vals; -1 = none yet
	// Candidate values accumulate in parts; compacted on result.
	parts []arrow.Array
	base  []int // start of each part in the virtual concatenation
	total int
	// For comparisons of a batch value with a group's current best, the
	// best's (part, row).
	bestPart []int32
	bestRow  []int32
	scratch  []int32
	touched  []int32
}

func (s *minMaxState) reserve(n int) {
	s.best, s.bestPart, s.bestRow = reserveCap(s.best, n), reserveCap(s.bestPart, n), reserveCap(s.bestRow, n)
}

func (s *minMaxState) grow(n int) {
	for len(s.best) < n {
		s.best = append(s.best, -1)
		s.bestPart = append(s.bestPart, -1)
		s.bestRow = append(s.bestRow, -1)
	}
}

func (s *minMaxState) update(g []int32, arg arrow.Array) error {
	self, err := expr.Comparator(arg, arg)
	if err != nil {
		return err
	}
	// First the best row of this batch per group (scratch[g] = row, -1 =
	// none; touched lists the groups to visit and reset).
	for len(s.scratch) < len(s.best) {
		s.scratch = append(s.scratch, -1)
	}
	s.touched = s.touched[:0]
	nulls := arg.NullN() > 0
	for i, k := range g {
		if k < 0 || nulls && arg.IsNull(i) {
			continue
		}
		j := s.scratch[k]
		if j < 0 {
			s.scratch[k] = int32(i)
			s.touched = append(s.touched, k)
			continue
		}
		// PostgreSQL's smaller/larger functions keep the later of equal
		// values (it shows: 0 and -0, 1.5 and 1.50).
		c := self(i, int(j))
		if (s.max && c >= 0) || (!s.max && c <= 0) {
			s.scratch[k] = int32(i)
		}
	}
	if len(s.touched) == 0 {
		return nil
	}
	// Then against the stored best; keep the batch only if it improves one.
	cmps := make([]func(i, j int) int, len(s.parts))
	improved := false
	for _, k := range s.touched {
		i := s.scratch[k]
		s.scratch[k] = -1
		p := s.bestPart[k]
		if p >= 0 {
			if cmps[p] == nil {
				c, err := expr.Comparator(arg, s.parts[p])
				if err != nil {
					return err
				}
				cmps[p] = c
			}
			c := cmps[p](int(i), int(s.bestRow[k]))
			if !((s.max && c >= 0) || (!s.max && c <= 0)) {
				continue
			}
		}
		s.bestPart[k] = int32(len(s.parts))
		s.bestRow[k] = i
		improved = true
	}
	if improved {
		arg.Retain()
		s.parts = append(s.parts, arg)
		s.base = append(s.base, s.total)
		s.total += arg.Len()
		if len(s.parts) >= 64 {
			return s.compact()
		}
	}
	return nil
}

// compact copies the current best values into one array, dropping the
// batches they came from, so memory follows the number of groups.
func (s *minMaxState) compact() error {
	arr, err := s.gather(expr.Allocator(s.ctx))
	if err != nil {
		return err
	}
	s.release()
	s.parts = []arrow.Array{arr}
	s.base = []int{0}
	s.total = arr.Len()
	for k := range s.bestPart {
		if s.bestPart[k] >= 0 {
			s.bestPart[k], s.bestRow[k] = 0, int32(k)
		}
	}
	return nil
}

// gather returns the best value of every group (NULL where none).
func (s *minMaxState) gather(mem memory.Allocator) (arrow.Array, error) {
	if len(s.parts) == 0 {
		return nullArray(mem, s.t, len(s.best)), nil
	}
	all, err := concatArrays(mem, s.parts)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	b := array.NewInt32Builder(mem)
	defer b.Release()
	for k := range s.bestPart {
		if p := s.bestPart[k]; p >= 0 {
			b.Append(int32(s.base[p]) + s.bestRow[k])
		} else {
			b.AppendNull()
		}
	}
	idx := b.NewArray()
	defer idx.Release()
	return expr.TakeArray(expr.WithAllocator(s.ctx, mem), all, idx)
}

func (s *minMaxState) result(mem memory.Allocator) (arrow.Array, error) {
	return s.gather(mem)
}

func (s *minMaxState) release() {
	for _, p := range s.parts {
		p.Release()
	}
	s.parts, s.base, s.total = nil, nil, 0
}

// heldState is an aggState that keeps values as it goes - string_agg's
// text, array_agg's and the ordered-set aggregates' rows -: held is the
// memory it keeps now, which the aggregation charges to the statement's
// memory limit with its groups.
type heldState interface {
	held() int64
}

// partsBytes is the memory of kept arrays.
func partsBytes(parts []arrow.Array) int64 {
	var n int64
	for _, p := range parts {
		if p != nil {
			n += arrayBytes(p)
		}
	}
	return n
}
