package expr

import (
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/icegate/icegate/internal/pgerr"
)

// Casts with PostgreSQL's semantics: float -> int rounds half to even
// (rint), numeric -> int half away from zero, range errors 22003, numeric
// typmod coercion "numeric field overflow", text in and out by type.

func (c *compiler) compileCast(from, to arrow.DataType, arg node) (node, error) {
	if dt, ok := from.(*arrow.DictionaryType); ok {
		from = dt.ValueType
	}
	k, err := castKernel(from, to, c.tz)
	if err != nil {
		return nil, err
	}
	return &callNode{args: []node{arg}, fn: k}, nil
}

func cannotCast(from, to arrow.DataType) *pgerr.Error {
	return pgerr.New(pgerr.UndefinedFunction, "cannot cast type %s to %s", PGTypeName(from), PGTypeName(to))
}

// rowFn produces row i of a cast's output.
type rowFn[T any] func(i int) (T, error)

// fixedCast runs a strict per-row cast into a fixed-width output.
func fixedCast[T any](to arrow.DataType, mk func(v vec) rowFn[T]) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, to, args), nil
		}
		n, c := outLen(ev, args)
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		f := mk(args[0])
		buf, out := outBuf[T](ev.mem, n)
		var zero T
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				out[i] = zero
				continue
			}
			v, err := f(i)
			if err != nil {
				buf.Release()
				if valid != nil {
					valid.Release()
				}
				return vec{}, err
			}
			out[i] = v
		}
		return vec{arr: makeFixed(to, n, valid, nulls, buf), c: c}, nil
	}
}

// numReader reads any number-kind vector as int64, float64 or decimal.
type numReader struct {
	k   kind
	i16 []int16
	i32 []int32
	i64 []int64
	f32 []float32
	f64 []float64
	dec decOf
	m   int
}

func readNum(v vec) numReader {
	r := numReader{k: kindOf(v.arr.DataType()), m: v.idx()}
	switch r.k {
	case kInt2:
		r.i16 = values[int16](v.arr)
	case kInt4:
		r.i32 = values[int32](v.arr)
	case kInt8:
		r.i64 = values[int64](v.arr)
	case kFloat4:
		r.f32 = values[float32](v.arr)
	case kFloat8:
		r.f64 = values[float64](v.arr)
	case kDecimal, kNumeric:
		r.dec = decimalOf(v)
	case kBool:
		// bool -> int reads through boolBits; see castBoolInt.
	}
	return r
}

func (r *numReader) int(i int) int64 {
	i &= r.m
	switch r.k {
	case kInt2:
		return int64(r.i16[i])
	case kInt4:
		return int64(r.i32[i])
	}
	return r.i64[i]
}

func (r *numReader) float(i int) float64 {
	switch r.k {
	case kFloat4:
		return float64(r.f32[i&r.m])
	case kFloat8:
		return r.f64[i&r.m]
	case kDecimal, kNumeric:
		u, s := r.dec.get(i)
		f, _ := strconv.ParseFloat(string(appendDecimal(nil, u, s)), 64)
		return f
	}
	return float64(r.int(i))
}

// toInt converts row i to an integer of kind k (range-checked).
func (r *numReader) toInt(i int, k kind) (int64, error) {
	var v int64
	switch r.k {
	case kInt2, kInt4, kInt8:
		v = r.int(i)
	case kFloat4, kFloat8:
		f := math.RoundToEven(r.float(i))
		if math.IsNaN(f) || f < -9.223372036854775808e18 || f >= 9.223372036854775808e18 {
			return 0, intRangeError(k)
		}
		v = int64(f)
	case kDecimal, kNumeric:
		u, s := r.dec.get(i)
		x, ok := decToInt64(u, s)
		if !ok {
			return 0, intRangeError(k)
		}
		v = x
	}
	switch k {
	case kInt2:
		if v < math.MinInt16 || v > math.MaxInt16 {
			return 0, intRangeError(k)
		}
	case kInt4:
		if v < math.MinInt32 || v > math.MaxInt32 {
			return 0, intRangeError(k)
		}
	}
	return v, nil
}

// toDec converts row i to a decimal with its natural scale.
func (r *numReader) toDec(i int) (decimal128.Num, int32, error) {
	switch r.k {
	case kInt2, kInt4, kInt8:
		return decimal128.FromI64(r.int(i)), 0, nil
	case kFloat4, kFloat8:
		f := r.float(i)
		if math.IsNaN(f) {
			return decimal128.Num{}, 0, pgerr.Unsupported("numeric NaN")
		}
		if math.IsInf(f, 0) {
			return decimal128.Num{}, 0, pgerr.New(pgerr.NumericValueOutOfRange, "cannot convert infinity to numeric")
		}
		digits := 15
		if r.k == kFloat4 {
			digits = 6
		}
		u, s, ok := parseDecimal(strconv.FormatFloat(f, 'g', digits, 64))
		if !ok {
			return u, s, errNumOver
		}
		return u, s, nil
	}
	u, s := r.dec.get(i)
	return u, s, nil
}

// coerceDecimal fits u*10^-s into Decimal128(P,S) as numeric(P,S) would.
func coerceDecimal(u decimal128.Num, s int32, t *arrow.Decimal128Type) (decimal128.Num, error) {
	r, ok := decRescale(u, s, t.Scale)
	if !ok || (t.Precision < 38 && !r.FitsInPrecision(t.Precision)) {
		maxDigits := t.Precision - t.Scale
		e := pgerr.New(pgerr.NumericValueOutOfRange, "numeric field overflow")
		if maxDigits > 0 {
			return r, e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", t.Precision, t.Scale, maxDigits)
		}
		return r, e.WithDetail("A field with precision %d, scale %d must round to an absolute value less than 1.", t.Precision, t.Scale)
	}
	return r, nil
}

// castKernel returns the kernel of a cast from one type to another.
func castKernel(from, to arrow.DataType, loc *time.Location) (kernelFn, error) {
	kf, kt := kindOf(from), kindOf(to)
	if kf == kNull {
		return func(ev *evalCtx, args []vec) (vec, error) { return nullResult(ev, to, args), nil }, nil
	}
	if arrow.TypeEqual(from, to) {
		return func(ev *evalCtx, args []vec) (vec, error) {
			args[0].arr.Retain()
			return args[0], nil
		}, nil
	}
	if k, ok, err := jsonCastKernel(from, to, loc); ok {
		return k, err
	}
	if k, ok, err := listCastKernel(from, to, loc); ok {
		return k, err
	}
	if tt, ok := from.(*arrow.TimestampType); ok && tt.Unit == arrow.Nanosecond {
		us := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: tt.TimeZone}
		inner, err := castKernel(us, to, loc)
		if err != nil {
			return nil, err
		}
		return func(ev *evalCtx, args []vec) (vec, error) {
			v, err := fixedCast[int64](us, func(v vec) rowFn[int64] {
				a, m := values[int64](v.arr), v.idx()
				return func(i int) (int64, error) { return floorDiv(a[i&m], 1000), nil }
			})(ev, args)
			if err != nil {
				return v, err
			}
			defer v.arr.Release()
			return inner(ev, []vec{v})
		}, nil
	}
	switch {
	case kt == kText:
		return castToText(loc), nil
	case kf == kText:
		return castFromText(to, loc)
	case kf.isNumber() && kt.isNumber():
		return castNumber(kt, to), nil
	case kf == kBool && kt.isInt():
		return fixedCastInt(to, kt, func(v vec) func(i int) int64 {
			b := boolsOf(v)
			return func(i int) int64 {
				if b.get(i) {
					return 1
				}
				return 0
			}
		}), nil
	case kf.isInt() && kt == kBool:
		return func(ev *evalCtx, args []vec) (vec, error) {
			if constNull(args) {
				return nullResult(ev, to, args), nil
			}
			n, c := outLen(ev, args)
			valid, nulls := andValidity(ev.mem, n, args)
			r := readNum(args[0])
			out := newBoolOut(ev.mem, n)
			for i := 0; i < n; i++ {
				if r.int(i) != 0 {
					out.set(i)
				}
			}
			return vec{arr: out.finish(n, valid, nulls), c: c}, nil
		}, nil
	case (kf == kDate || kf == kTimestamp || kf == kTimestamptz) && (kt == kDate || kt == kTimestamp || kt == kTimestamptz || kt == kTime):
		return castDatetime(kf, kt, to, loc), nil
	case (kf == kBytea || kf == kFixed) && (kt == kBytea || kt == kFixed):
		return castBinary(to), nil
	case kf == kTime && kt == kInterval:
		return fixedCast[arrow.MonthDayNanoInterval](to, func(v vec) rowFn[arrow.MonthDayNanoInterval] {
			a, m := values[int64](v.arr), v.idx()
			return func(i int) (arrow.MonthDayNanoInterval, error) { return ival{us: a[i&m]}.arrow(), nil }
		}), nil
	case kf == kInterval && kt == kTime:
		return fixedCast[int64](to, func(v vec) rowFn[int64] {
			a, m := values[arrow.MonthDayNanoInterval](v.arr), v.idx()
			return func(i int) (int64, error) {
				us := ivalOf(a[i&m]).us % usPerDay
				if us < 0 {
					us += usPerDay
				}
				return us, nil
			}
		}), nil
	}
	return nil, cannotCast(from, to)
}

func fixedCastInt(to arrow.DataType, kt kind, mk func(v vec) func(i int) int64) kernelFn {
	switch kt {
	case kInt2:
		return fixedCast[int16](to, func(v vec) rowFn[int16] {
			f := mk(v)
			return func(i int) (int16, error) { return int16(f(i)), nil }
		})
	case kInt4:
		return fixedCast[int32](to, func(v vec) rowFn[int32] {
			f := mk(v)
			return func(i int) (int32, error) { return int32(f(i)), nil }
		})
	}
	return fixedCast[int64](to, func(v vec) rowFn[int64] {
		f := mk(v)
		return func(i int) (int64, error) { return f(i), nil }
	})
}

func castNumber(kt kind, to arrow.DataType) kernelFn {
	switch kt {
	case kInt2:
		return fixedCast[int16](to, func(v vec) rowFn[int16] {
			r := readNum(v)
			return func(i int) (int16, error) { x, err := r.toInt(i, kt); return int16(x), err }
		})
	case kInt4:
		return fixedCast[int32](to, func(v vec) rowFn[int32] {
			r := readNum(v)
			return func(i int) (int32, error) { x, err := r.toInt(i, kt); return int32(x), err }
		})
	case kInt8:
		return fixedCast[int64](to, func(v vec) rowFn[int64] {
			r := readNum(v)
			return func(i int) (int64, error) { return r.toInt(i, kt) }
		})
	case kFloat4:
		return fixedCast[float32](to, func(v vec) rowFn[float32] {
			r := readNum(v)
			return func(i int) (float32, error) {
				if r.k.isDecimal() {
					// Parse the decimal text straight to float4, as PostgreSQL's strtof.
					u, s := r.dec.get(i)
					g, err := strconv.ParseFloat(string(appendDecimal(nil, u, s)), 32)
					if err != nil {
						return 0, errFloatOverflow
					}
					return float32(g), nil
				}
				f := r.float(i)
				g := float32(f)
				if math.IsInf(float64(g), 0) && !math.IsInf(f, 0) {
					return 0, errFloatOverflow
				}
				if g == 0 && f != 0 {
					return 0, errFloatUnderflow
				}
				return g, nil
			}
		})
	case kFloat8:
		return fixedCast[float64](to, func(v vec) rowFn[float64] {
			r := readNum(v)
			return func(i int) (float64, error) { return r.float(i), nil }
		})
	}
	// To a decimal.
	dt, _ := to.(*arrow.Decimal128Type)
	return decimalCast(to, func(v vec) decRowFn {
		r := readNum(v)
		return func(i int) (decimal128.Num, int32, error) {
			u, sc, err := r.toDec(i)
			if err == nil && dt != nil {
				u, err = coerceDecimal(u, sc, dt)
				sc = dt.Scale
			}
			return u, sc, err
		}
	})
}

// decRowFn converts row i of a cast's input into a decimal (unscaled and
// display scale).
type decRowFn func(i int) (decimal128.Num, int32, error)

// decimalCast is the kernel of a cast to Decimal128 or NumericType: the
// validity of the input, one decRowFn call per valid row, and the output
// array; the first error releases everything.
func decimalCast(to arrow.DataType, mk func(v vec) decRowFn) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, to, args), nil
		}
		n, c := outLen(ev, args)
		valid, nulls := andValidity(ev.mem, n, args)
		vb := bitmap{m: -1}
		if valid != nil {
			vb.b = valid.Bytes()
		}
		row := mk(args[0])
		out := newDecOut(ev.mem, to, n)
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				out.zero(i)
				continue
			}
			u, sc, err := row(i)
			if err == nil {
				err = out.set(i, u, sc)
			}
			if err != nil {
				out.release()
				if valid != nil {
					valid.Release()
				}
				return vec{}, err
			}
		}
		return vec{arr: out.finish(n, valid, nulls), c: c}, nil
	}
}

// castToText prints every value with AppendText.
func castToText(loc *time.Location) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Text, args), nil
		}
		n, c := outLen(ev, args)
		a, m := args[0].arr, args[0].idx()
		b := array.NewStringBuilder(ev.mem)
		defer b.Release()
		b.Reserve(n)
		var buf []byte
		for i := 0; i < n; i++ {
			if a.IsNull(i & m) {
				b.AppendNull()
				continue
			}
			buf = AppendText(buf[:0], a, i&m, loc)
			b.BinaryBuilder.Append(buf)
		}
		return vec{arr: b.NewArray(), c: c}, nil
	}
}

// castFromText parses text with the target type's input rules.
func castFromText(to arrow.DataType, loc *time.Location) (kernelFn, error) {
	kt := kindOf(to)
	text := func(v vec) bytesOf { return binaryOf(v) }
	switch kt {
	case kText:
		return func(ev *evalCtx, args []vec) (vec, error) {
			args[0].arr.Retain()
			return args[0], nil
		}, nil
	case kBool:
		return func(ev *evalCtx, args []vec) (vec, error) {
			if constNull(args) {
				return nullResult(ev, to, args), nil
			}
			n, c := outLen(ev, args)
			valid, nulls := andValidity(ev.mem, n, args)
			vb := bitmap{m: -1}
			if valid != nil {
				vb.b = valid.Bytes()
			}
			s := text(args[0])
			out := newBoolOut(ev.mem, n)
			for i := 0; i < n; i++ {
				if !vb.valid(i) {
					continue
				}
				v, err := parseBool(string(s.get(i)))
				if err != nil {
					out.buf.Release()
					if valid != nil {
						valid.Release()
					}
					return vec{}, err
				}
				if v {
					out.set(i)
				}
			}
			return vec{arr: out.finish(n, valid, nulls), c: c}, nil
		}, nil
	case kInt2:
		return fixedCast[int16](to, func(v vec) rowFn[int16] {
			s := text(v)
			return func(i int) (int16, error) { x, err := parseIntBytes(s.get(i), 16, "smallint"); return int16(x), err }
		}), nil
	case kInt4:
		return fixedCast[int32](to, func(v vec) rowFn[int32] {
			s := text(v)
			return func(i int) (int32, error) { x, err := parseIntBytes(s.get(i), 32, "integer"); return int32(x), err }
		}), nil
	case kInt8:
		return fixedCast[int64](to, func(v vec) rowFn[int64] {
			s := text(v)
			return func(i int) (int64, error) { return parseIntBytes(s.get(i), 64, "bigint") }
		}), nil
	case kFloat4:
		return fixedCast[float32](to, func(v vec) rowFn[float32] {
			s := text(v)
			return func(i int) (float32, error) { x, err := parseFloat(string(s.get(i)), 32); return float32(x), err }
		}), nil
	case kFloat8:
		return fixedCast[float64](to, func(v vec) rowFn[float64] {
			s := text(v)
			return func(i int) (float64, error) { return parseFloat(string(s.get(i)), 64) }
		}), nil
	case kDate:
		return fixedCast[int32](to, func(v vec) rowFn[int32] {
			s := text(v)
			return func(i int) (int32, error) { return parseDateBytes(s.get(i)) }
		}), nil
	case kTime:
		return fixedCast[int64](to, func(v vec) rowFn[int64] {
			s := text(v)
			return func(i int) (int64, error) { return parseTime(string(s.get(i))) }
		}), nil
	case kTimestamp, kTimestamptz:
		return fixedCast[int64](to, func(v vec) rowFn[int64] {
			s := text(v)
			return func(i int) (int64, error) { return parseTimestamp(string(s.get(i)), kt == kTimestamptz, loc) }
		}), nil
	case kInterval:
		return fixedCast[arrow.MonthDayNanoInterval](to, func(v vec) rowFn[arrow.MonthDayNanoInterval] {
			s := text(v)
			return func(i int) (arrow.MonthDayNanoInterval, error) {
				iv, err := parseInterval(string(s.get(i)))
				return iv.arrow(), err
			}
		}), nil
	case kDecimal, kNumeric:
		dt, _ := to.(*arrow.Decimal128Type)
		return decimalCast(to, func(v vec) decRowFn {
			s := text(v)
			return func(i int) (decimal128.Num, int32, error) {
				if u, sc, ok := plainDecimal(s.get(i)); ok {
					if dt != nil {
						u, err := coerceDecimal(u, sc, dt)
						return u, dt.Scale, err
					}
					return u, sc, nil
				}
				str := string(s.get(i))
				u, sc, ok := parseDecimal(str)
				switch {
				case !ok && numericSyntaxOK(str):
					u, err := overlongNumericInput(str, dt)
					if dt != nil {
						sc = dt.Scale
					}
					return u, sc, err
				case !ok:
					return u, sc, invalidInput("numeric", str)
				case dt != nil:
					u, err := coerceDecimal(u, sc, dt)
					return u, dt.Scale, err
				}
				return u, sc, nil
			}
		}), nil
	case kBytea, kFixed:
		return func(ev *evalCtx, args []vec) (vec, error) {
			if constNull(args) {
				return nullResult(ev, to, args), nil
			}
			n, c := outLen(ev, args)
			vb := validityOf(args[0])
			s := text(args[0])
			b := array.NewBuilder(ev.mem, to)
			defer b.Release()
			for i := 0; i < n; i++ {
				if !vb.valid(i) {
					b.AppendNull()
					continue
				}
				str := string(s.get(i))
				var v []byte
				var err error
				if kt == kFixed && to.(*arrow.FixedSizeBinaryType).ByteWidth == 16 {
					v, err = parseUUID(str)
				} else {
					v, err = parseBytea(str)
				}
				if err == nil && kt == kFixed && len(v) != to.(*arrow.FixedSizeBinaryType).ByteWidth {
					err = invalidInput(PGTypeName(to), str)
				}
				if err != nil {
					return vec{}, err
				}
				switch bb := b.(type) {
				case *array.BinaryBuilder:
					bb.Append(v)
				case *array.FixedSizeBinaryBuilder:
					bb.Append(v)
				}
			}
			return vec{arr: b.NewArray(), c: c}, nil
		}, nil
	}
	return nil, cannotCast(Text, to)
}

// castDatetime converts among date, timestamp, timestamptz and to time.
func castDatetime(kf, kt kind, to arrow.DataType, loc *time.Location) kernelFn {
	if kt == kDate {
		return fixedCast[int32](to, func(v vec) rowFn[int32] {
			if kf == kDate {
				a, m := values[int32](v.arr), v.idx()
				return func(i int) (int32, error) { return a[i&m], nil }
			}
			a, m := values[int64](v.arr), v.idx()
			return func(i int) (int32, error) {
				us := a[i&m]
				if infTS(us) {
					return infTSDate(us), nil
				}
				if kf == kTimestamptz {
					us += int64(zoneOffset(us, loc)) * usPerSec
				}
				return int32(floorDiv(us, usPerDay)), nil
			}
		})
	}
	return fixedCast[int64](to, func(v vec) rowFn[int64] {
		var get func(i int) int64
		var dates []int32
		var dm int
		if kf == kDate {
			a, m := values[int32](v.arr), v.idx()
			dates, dm = a, m
			get = func(i int) int64 {
				if d := a[i&m]; infDate(d) {
					return infDateTS(d)
				}
				return int64(a[i&m]) * usPerDay
			}
		} else {
			a, m := values[int64](v.arr), v.idx()
			get = func(i int) int64 { return a[i&m] }
		}
		// get yields a local wall time for date/timestamp, an instant for timestamptz.
		return func(i int) (int64, error) {
			// Dates run far past the last timestamp (5874897 against 294247).
			if dates != nil && int64(dates[i&dm]) > math.MaxInt64/usPerDay && !infDate(dates[i&dm]) {
				return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range for timestamp")
			}
			x := get(i)
			switch {
			case infTS(x) && kt == kTime:
				return 0, infiniteUnsupported("the time")
			case infTS(x):
				return x, nil
			case kt == kTime:
				if kf == kTimestamptz {
					x += int64(zoneOffset(x, loc)) * usPerSec
				}
				return x - floorDiv(x, usPerDay)*usPerDay, nil
			case kt == kTimestamptz && kf != kTimestamptz:
				return localToUTC(x, loc), nil
			case kt == kTimestamp && kf == kTimestamptz:
				return x + int64(zoneOffset(x, loc))*usPerSec, nil
			}
			return x, nil
		}
	})
}

func castBinary(to arrow.DataType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, to, args), nil
		}
		n, c := outLen(ev, args)
		a, m := args[0].arr, args[0].idx()
		b := array.NewBuilder(ev.mem, to)
		defer b.Release()
		for i := 0; i < n; i++ {
			if a.IsNull(i & m) {
				b.AppendNull()
				continue
			}
			var v []byte
			switch x := a.(type) {
			case *array.Binary:
				v = x.Value(i & m)
			case *array.FixedSizeBinary:
				v = x.Value(i & m)
			}
			switch bb := b.(type) {
			case *array.BinaryBuilder:
				bb.Append(v)
			case *array.FixedSizeBinaryBuilder:
				if len(v) != to.(*arrow.FixedSizeBinaryType).ByteWidth {
					return vec{}, pgerr.New(pgerr.InvalidBinaryRepresentation, "cannot cast %d bytes to %s", len(v), to)
				}
				bb.Append(v)
			}
		}
		return vec{arr: b.NewArray(), c: c}, nil
	}
}
