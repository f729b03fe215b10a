package exec

import (
	"context"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// checkWinFrame rejects the frames PostgreSQL's parser rejects (42P20).
func checkWinFrame(f WindowFrame, order []SortKey) error {
	bad := func(msg string) error { return pgerr.New(pgerr.WindowingError, "%s", msg) }
	switch {
	case f.Start.Kind == UnboundedFollowing:
		return bad("frame start cannot be UNBOUNDED FOLLOWING")
	case f.End.Kind == UnboundedPreceding:
		return bad("frame end cannot be UNBOUNDED PRECEDING")
	case f.Start.Kind == CurrentRow && f.End.Kind == OffsetPreceding:
		return bad("frame starting from current row cannot have preceding rows")
	case f.Start.Kind == OffsetFollowing && (f.End.Kind == OffsetPreceding || f.End.Kind == CurrentRow):
		return bad("frame starting from following row cannot have preceding rows")
	case f.Mode == FrameGroups && len(order) == 0:
		return bad("GROUPS mode requires an ORDER BY clause")
	case f.Mode == FrameRange && (isOffsetBound(f.Start) || isOffsetBound(f.End)) && len(order) != 1:
		return bad("RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
	case f.Mode < FrameRange || f.Mode > FrameGroups || f.Exclude < ExcludeNoOthers || f.Exclude > ExcludeTies:
		return bad("invalid window frame")
	}
	return nil
}

func isOffsetBound(b FrameBound) bool { return b.Kind == OffsetPreceding || b.Kind == OffsetFollowing }

// winKeyFamily is the family of a RANGE key type for offset arithmetic.
type winKeyFamily int

const (
	winFamNone winKeyFamily = iota
	winFamInt
	winFamFloat
	winFamDecimal
	// winFamTime: RANGE over date / timestamp keys with interval offsets.
	winFamTime
	winFamInterval
)

func winFamilyOf(t arrow.DataType) winKeyFamily {
	switch t.ID() {
	case arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32:
		return winFamInt
	case arrow.FLOAT32, arrow.FLOAT64:
		return winFamFloat
	case arrow.DECIMAL128:
		return winFamDecimal
	case arrow.TIMESTAMP:
		return winFamTime
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return winFamInterval
	}
	if expr.IsNumericType(t) {
		return winFamDecimal
	}
	return winFamNone
}

// compileWinOffset compiles the offset of bound b (nil for other kinds) and
// checks its type against the frame mode and the ORDER BY key.
func compileWinOffset(f WindowFrame, b FrameBound, order []SortKey) (*expr.Program, error) {
	if !isOffsetBound(b) {
		return nil, nil
	}
	if b.Offset == nil {
		return nil, pgerr.New(pgerr.WindowingError, "frame offset is missing")
	}
	ot := b.Offset.Type()
	if f.Mode == FrameRange {
		kt := winPlainTypes([]arrow.DataType{order[0].E.Type()})[0]
		kf, of := winFamilyOf(kt), winFamilyOf(ot)
		// Integer keys take integer offsets; float keys any number;
		// numeric keys integers and numerics; date and timestamp keys
		// intervals.
		ok := of != winFamNone && ot.ID() != arrow.DATE32
		if of == winFamInterval {
			kf = winFamTime
			ok = kt.ID() == arrow.DATE32 || kt.ID() == arrow.TIMESTAMP
		}
		switch kf {
		case winFamNone:
			ok = false
		case winFamInt:
			ok = ok && of == winFamInt
		case winFamDecimal:
			ok = ok && of != winFamFloat
		case winFamTime:
			ok = ok && of == winFamInterval
		}
		if !ok {
			return nil, pgerr.New(pgerr.FeatureNotSupported,
				"RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s",
				expr.PGTypeName(kt), expr.PGTypeName(ot))
		}
	} else if winFamilyOf(ot) != winFamInt || ot.ID() == arrow.DATE32 {
		mode := "ROWS"
		if f.Mode == FrameGroups {
			mode = "GROUPS"
		}
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument of %s must be type bigint, not type %s", mode, expr.PGTypeName(ot))
	}
	p, err := expr.Compile(b.Offset, arrow.NewSchema(nil, nil))
	if err != nil {
		return nil, pgerr.New(pgerr.WindowingError, "frame offset must be a constant: %v", err)
	}
	return &p, nil
}

// winOffset is an evaluated frame offset.
type winOffset struct {
	i     int64 // integer offsets (ROWS, GROUPS, RANGE over integers)
	f     float64
	d     decimal128.Num
	scale int32
	fam   winKeyFamily
	bad   bool // negative or NaN RANGE offset: an error once a value is compared
	// An interval offset (RANGE over date / timestamp keys) and the
	// session's compile options its arithmetic needs (time zone).
	iv   arrow.MonthDayNanoInterval
	opts []expr.CompileOptions
}

type winOffsets struct{ start, end winOffset }

// evalWinOffsets evaluates a call's frame offsets (PostgreSQL does so before
// reading rows: a bad ROWS offset fails also over no rows).
func evalWinOffsets(ctx context.Context, c windowCall) (winOffsets, error) {
	var out winOffsets
	var err error
	if c.start != nil {
		if out.start, err = evalWinOffset(ctx, c.frame.Mode, *c.start, "starting"); err != nil {
			return out, err
		}
	}
	if c.end != nil {
		if out.end, err = evalWinOffset(ctx, c.frame.Mode, *c.end, "ending"); err != nil {
			return out, err
		}
	}
	out.start.opts, out.end.opts = c.opts, c.opts
	return out, nil
}

func evalWinOffset(ctx context.Context, mode FrameMode, p expr.Program, which string) (winOffset, error) {
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	a, err := p.Eval(ctx, one)
	if err != nil {
		return winOffset{}, err
	}
	defer a.Release()
	if a.IsNull(0) {
		return winOffset{}, pgerr.New(pgerr.NullValueNotAllowed, "frame %s offset must not be null", which)
	}
	var v winOffset
	v.fam = winFamilyOf(a.DataType())
	switch v.fam {
	case winFamInt:
		v.i, _ = winIntAt(a, 0)
		v.f = float64(v.i)
		v.d = decimal128.FromI64(v.i)
		v.bad = v.i < 0
	case winFamFloat:
		if f, ok := a.(*array.Float32); ok {
			v.f = float64(f.Value(0))
		} else {
			v.f = a.(*array.Float64).Value(0)
		}
		v.bad = v.f < 0 || math.IsNaN(v.f)
	case winFamDecimal:
		v.d, v.scale = expr.DecimalValue(a, 0)
		v.f = v.d.ToFloat64(v.scale)
		v.bad = v.d.Sign() < 0
	case winFamInterval:
		v.iv = a.(*array.MonthDayNanoInterval).Value(0)
		// PostgreSQL compares the interval with zero as a whole (a month
		// is 30 days).
		v.bad = (int64(v.iv.Months)*30+int64(v.iv.Days))*86400e9+v.iv.Nanoseconds < 0
	}
	if mode != FrameRange && v.bad {
		return v, pgerr.New(pgerr.InvalidPrecedingOrFollowingSize, "frame %s offset must not be negative", which)
	}
	return v, nil
}

// winIntAt reads row i of an integer or date array as int64; ok is false for
// NULL.
func winIntAt(a arrow.Array, i int) (int64, bool) {
	if a.IsNull(i) {
		return 0, false
	}
	switch a := a.(type) {
	case *array.Int16:
		return int64(a.Value(i)), true
	case *array.Int32:
		return int64(a.Value(i)), true
	case *array.Int64:
		return a.Value(i), true
	case *array.Date32:
		return int64(a.Value(i)), true
	}
	return 0, false
}

// winFrames is the frame of every sorted row: rows fs[i] <= r < fe[i]
// (empty when fe[i] <= fs[i]) less the rows EXCLUDE removes.
type winFrames struct {
	lay    *winLayout
	fs, fe []int32
	excl   FrameExclude
}

// seg is a range of rows [a, b).
type winSeg struct{ a, b int32 }

// segs writes the rows of row i's frame as up to three ranges in row
// order and returns how many.
func (f *winFrames) segs(i int, out *[3]winSeg) int {
	fs, fe := f.fs[i], f.fe[i]
	if fe <= fs {
		return 0
	}
	if f.excl == ExcludeNoOthers {
		out[0] = winSeg{fs, fe}
		return 1
	}
	xs, xe := int32(i), int32(i+1)
	if f.excl != ExcludeCurrentRow {
		xs, xe = int32(f.lay.peerStart(i)), int32(f.lay.peerEnd(i))
	}
	k := 0
	add := func(a, b int32) {
		a, b = max(a, fs), min(b, fe)
		if a < b {
			out[k] = winSeg{a, b}
			k++
		}
	}
	add(fs, xs)
	if f.excl == ExcludeTies {
		add(int32(i), int32(i+1))
	}
	add(xe, fe)
	return k
}

// frames computes the frame bounds of every row for frame fr.
func (l *winLayout) frames(fr WindowFrame, off winOffsets) (*winFrames, error) {
	f := &winFrames{lay: l, fs: make([]int32, l.n), fe: make([]int32, l.n), excl: fr.Exclude}
	var rs, re *winRangeBound
	if fr.Mode == FrameRange {
		var err error
		if isOffsetBound(fr.Start) {
			if rs, err = l.newRangeBound(fr.Start, off.start, true); err != nil {
				return nil, err
			}
		}
		if isOffsetBound(fr.End) {
			if re, err = l.newRangeBound(fr.End, off.end, false); err != nil {
				return nil, err
			}
		}
	}
	for p := 0; p+1 < len(l.partStart); p++ {
		ps, pe := int(l.partStart[p]), int(l.partStart[p+1])
		if rs != nil || re != nil {
			if err := l.rangePartition(ps, pe, rs, re); err != nil {
				return nil, err
			}
		}
		g0, g1 := int64(l.groupOf[ps]), int64(l.groupOf[pe-1])
		for i := ps; i < pe; i++ {
			if err := l.tick(i); err != nil {
				return nil, err
			}
			f.fs[i] = int32(l.startOf(fr, off.start.i, rs, i, ps, pe, g0, g1))
			f.fe[i] = int32(l.endOf(fr, off.end.i, re, i, ps, pe, g0, g1))
		}
	}
	return f, nil
}

// startOf is the first row of row i's frame.
func (l *winLayout) startOf(fr WindowFrame, off int64, rb *winRangeBound, i, ps, pe int, g0, g1 int64) int {
	switch fr.Start.Kind {
	case UnboundedPreceding:
		return ps
	case CurrentRow:
		if fr.Mode == FrameRows {
			return i
		}
		return l.peerStart(i)
	}
	if fr.Mode == FrameRange {
		return rb.find(i)
	}
	preceding := fr.Start.Kind == OffsetPreceding
	if fr.Mode == FrameRows {
		if preceding {
			if off > int64(i-ps) {
				return ps
			}
			return i - int(off)
		}
		if off >= int64(pe-i) {
			return pe
		}
		return i + int(off)
	}
	g := int64(l.groupOf[i])
	if preceding {
		if off > g-g0 {
			return ps
		}
		return int(l.groupStart[g-off])
	}
	if off > g1-g {
		return pe
	}
	return int(l.groupStart[g+off])
}

// endOf is one past the last row of row i's frame.
func (l *winLayout) endOf(fr WindowFrame, off int64, rb *winRangeBound, i, ps, pe int, g0, g1 int64) int {
	switch fr.End.Kind {
	case UnboundedFollowing:
		return pe
	case CurrentRow:
		if fr.Mode == FrameRows {
			return i + 1
		}
		return l.peerEnd(i)
	}
	if fr.Mode == FrameRange {
		return rb.find(i)
	}
	preceding := fr.End.Kind == OffsetPreceding
	if fr.Mode == FrameRows {
		if preceding {
			if off > int64(i-ps) {
				return ps
			}
			return i - int(off) + 1
		}
		if off >= int64(pe-i-1) {
			return pe
		}
		return i + int(off) + 1
	}
	g := int64(l.groupOf[i])
	if preceding {
		if off > g-g0 {
			return ps
		}
		return int(l.groupStart[g-off+1])
	}
	if off >= g1-g {
		return pe
	}
	return int(l.groupStart[g+off+1])
}

// winRangeBound finds one RANGE offset bound: for the frame start the first
// row at or after it, for the end the first row past it. NULL keys are
// peers of each other and lie beyond any offset of a non-NULL key.
type winRangeBound struct {
	start    bool
	in       func(r, c int) bool // PostgreSQL's in_range of row r for current row c
	bad      bool
	key      arrow.Array
	nullsLo  bool // NULLs sort before the non-NULL keys
	ps, pe   int  // the current partition
	nn0, nn1 int  // its rows with non-NULL keys
}

// newRangeBound prepares the in_range test of a RANGE bound with offset
// off over the single ORDER BY key.
func (l *winLayout) newRangeBound(b FrameBound, off winOffset, start bool) (*winRangeBound, error) {
	// PostgreSQL's flags: subtract the offset for PRECEDING, and the
	// frame start wants rows >= the bound; a descending key flips both.
	sub := b.Kind == OffsetPreceding
	less := !start
	if l.desc {
		sub, less = !sub, !less
	}
	rb := &winRangeBound{start: start, bad: off.bad, key: l.orderKey, nullsLo: l.nullsFirst}
	if off.fam == winFamInterval {
		in, err := winInRangeTime(l.ctx, l.orderKey, off, sub, less)
		if err != nil {
			return nil, err
		}
		rb.in = in
		return rb, nil
	}
	in, err := winInRange(l.orderKey, off, sub, less)
	if err != nil {
		return nil, err
	}
	rb.in = in
	return rb, nil
}

// rangePartition points the bounds at partition [ps, pe) and finds its
// non-NULL keys.
func (l *winLayout) rangePartition(ps, pe int, bounds ...*winRangeBound) error {
	key := l.orderKey
	nn0, nn1 := ps, pe
	if key.NullN() > 0 {
		if l.nullsFirst {
			nn0 = ps + sort.Search(pe-ps, func(k int) bool { return key.IsValid(ps + k) })
		} else {
			nn1 = ps + sort.Search(pe-ps, func(k int) bool { return key.IsNull(ps + k) })
		}
	}
	for _, b := range bounds {
		if b == nil {
			continue
		}
		if b.bad && nn0 < nn1 {
			return pgerr.New(pgerr.InvalidPrecedingOrFollowingSize, "invalid preceding or following size in window function")
		}
		b.ps, b.pe, b.nn0, b.nn1 = ps, pe, nn0, nn1
	}
	return nil
}

func (b *winRangeBound) find(c int) int {
	if b.key.IsNull(c) {
		// The frame bound of a NULL key is its peer group of NULLs.
		if b.start {
			if b.nullsLo {
				return b.ps
			}
			return b.nn1
		}
		if b.nullsLo {
			return b.nn0
		}
		return b.pe
	}
	// Only the non-NULL rows need testing: NULLs before them are before
	// the bound, NULLs after them after it.
	lo, hi := b.nn0, b.nn1
	if b.start {
		return lo + sort.Search(hi-lo, func(k int) bool { return b.in(lo+k, c) })
	}
	return lo + sort.Search(hi-lo, func(k int) bool { return !b.in(lo+k, c) })
}

// winInRange returns PostgreSQL's in_range(val = row r, base = row c,
// offset, sub, less): whether r's key is >= (or, with less, <=) c's key
// minus (sub) or plus the offset. A bound past the type's range counts as
// infinitely far.
func winInRange(key arrow.Array, off winOffset, sub, less bool) (func(r, c int) bool, error) {
	// The answer when base ± offset overflows: the true bound is beyond
	// every value.
	overflow := less
	if sub {
		overflow = !less
	}
	switch winFamilyOf(key.DataType()) {
	case winFamInt:
		get, _ := intValues(key)
		o := off.i
		return func(r, c int) bool {
			base, val := get(c), get(r)
			var bound int64
			if sub {
				bound = base - o
				if bound > base {
					return overflow
				}
			} else {
				bound = base + o
				if bound < base {
					return overflow
				}
			}
			if less {
				return val <= bound
			}
			return val >= bound
		}, nil
	case winFamFloat:
		var get func(i int) float64
		switch a := key.(type) {
		case *array.Float32:
			v := a.Float32Values()
			get = func(i int) float64 { return float64(v[i]) }
		case *array.Float64:
			v := a.Float64Values()
			get = func(i int) float64 { return v[i] }
		}
		o := off.f
		return func(r, c int) bool {
			val, base := get(r), get(c)
			switch {
			case math.IsNaN(val) && math.IsNaN(base):
				return true
			case math.IsNaN(val):
				return !less
			case math.IsNaN(base):
				return less
			}
			// +inf infinitely precedes +inf, -inf infinitely follows -inf.
			if math.IsInf(o, 0) && math.IsInf(base, 0) && ((sub && base > 0) || (!sub && base < 0)) {
				return true
			}
			bound := base + o
			if sub {
				bound = base - o
			}
			if less {
				return val <= bound
			}
			return val >= bound
		}, nil
	case winFamDecimal:
		o, os := off.d, off.scale
		if sub {
			o = o.Negate()
		}
		return func(r, c int) bool {
			bu, bs := expr.DecimalValue(key, c)
			b, s, err := expr.NumericAdd(bu, bs, o, os)
			if err != nil {
				return overflow
			}
			vu, vs := expr.DecimalValue(key, r)
			d, _, err := expr.NumericAdd(vu, vs, b.Negate(), s)
			if err != nil {
				// The difference overflows: its sign is the value's.
				if less {
					return vu.Sign() < 0
				}
				return vu.Sign() > 0
			}
			if less {
				return d.Sign() <= 0
			}
			return d.Sign() >= 0
		}, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s",
		expr.PGTypeName(key.DataType()))
}

// winInRangeTime is in_range for a date or timestamp key and an interval
// offset: each row's bound is its key plus or minus the interval, with the
// engine's date/time arithmetic (months and days in the session's time
// zone for timestamptz; a date's bound is a timestamp), computed once per
// row; a row is compared with the bound in microseconds.
func winInRangeTime(ctx context.Context, key arrow.Array, off winOffset, sub, less bool) (func(r, c int) bool, error) {
	kt := key.DataType()
	if kt.ID() != arrow.DATE32 && kt.ID() != arrow.TIMESTAMP {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type interval",
			expr.PGTypeName(kt))
	}
	op := "+"
	if sub {
		op = "-"
	}
	bt := arrow.DataType(&arrow.TimestampType{Unit: arrow.Microsecond})
	if ts, ok := kt.(*arrow.TimestampType); ok {
		bt = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: ts.TimeZone}
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "key", Type: kt, Nullable: true}}, nil)
	var base expr.Expr = &expr.Col{Idx: 0, Name: "key", T: kt}
	if kt.ID() == arrow.DATE32 {
		base = &expr.Cast{Arg: base, T: bt} // date ± interval is a timestamp
	}
	e := &expr.Call{Fn: op, Args: []expr.Expr{base,
		&expr.Lit{V: off.iv, T: arrow.FixedWidthTypes.MonthDayNanoInterval}}, T: bt}
	p, err := expr.Compile(e, schema, off.opts...)
	if err != nil {
		return nil, err
	}
	batch := array.NewRecordBatch(schema, []arrow.Array{key}, int64(key.Len()))
	defer batch.Release()
	bounds, err := p.Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer bounds.Release()
	bv := bounds.(*array.Timestamp).TimestampValues()
	bound := make([]int64, len(bv))
	for i, v := range bv {
		bound[i] = int64(v)
	}
	val, err := winMicros(key)
	if err != nil {
		return nil, err
	}
	return func(r, c int) bool {
		if less {
			return val(r) <= bound[c]
		}
		return val(r) >= bound[c]
	}, nil
}

// winMicros reads a date or timestamp key as microseconds since the epoch.
func winMicros(key arrow.Array) (func(i int) int64, error) {
	switch a := key.(type) {
	case *array.Date32:
		v := a.Date32Values()
		return func(i int) int64 { return int64(v[i]) * 86400e6 }, nil
	case *array.Timestamp:
		v := a.TimestampValues()
		switch a.DataType().(*arrow.TimestampType).Unit {
		case arrow.Second:
			return func(i int) int64 { return int64(v[i]) * 1e6 }, nil
		case arrow.Millisecond:
			return func(i int) int64 { return int64(v[i]) * 1e3 }, nil
		case arrow.Nanosecond:
			return func(i int) int64 { return int64(v[i]) / 1e3 }, nil
		}
		return func(i int) int64 { return int64(v[i]) }, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "RANGE offsets over %s", expr.PGTypeName(key.DataType()))
}
