package expr

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// Spark SQL's built-in functions whose names PostgreSQL does not have (a
// name PostgreSQL has keeps PostgreSQL's meaning), with Spark's semantics:
//
//	function                         arguments                            result
//	year month day dayofmonth hour   date | timestamp | timestamptz        int4 (the field in the
//	minute second dayofweek          (untyped or text: timestamp)         session TimeZone;
//	dayofyear weekofyear quarter                                          dayofweek 1 = Sunday,
//	                                                                      weekofyear ISO 8601)
//	date_format                      date | timestamp[tz], text pattern   text (Spark's datetime
//	                                                                      pattern letters)
//	round                            float8, int4                         float8: HALF_UP on the
//	                                                                      double's shortest decimal
//	                                                                      text, as Spark rounds
//	named_struct map                 text key, json value, ...            json object (the binder,
//	                                                                      spark_func.go, makes the
//	                                                                      values jsonb text and
//	                                                                      checks the keys)
//
// round(float8, int4) is claimed only because PostgreSQL has no such
// function (its round takes numeric); round(float8) stays PostgreSQL's.

// sparkDateFields are the field extractors, by name.
var sparkDateFields = map[string]func(t tm) int32{
	"year":       func(t tm) int32 { return int32(t.y) },
	"month":      func(t tm) int32 { return int32(t.mon) },
	"day":        func(t tm) int32 { return int32(t.d) },
	"dayofmonth": func(t tm) int32 { return int32(t.d) },
	"hour":       func(t tm) int32 { return int32(t.h) },
	"minute":     func(t tm) int32 { return int32(t.mi) },
	"second":     func(t tm) int32 { return int32(t.us / usPerSec) },
	"dayofweek":  func(t tm) int32 { return int32((t.days+4)-floorDiv(t.days+4, 7)*7) + 1 },
	"dayofyear": func(t tm) int32 {
		jan1, _ := civilDays(int32(t.y), 1, 1)
		return int32(t.days-jan1) + 1
	},
	"weekofyear": func(t tm) int32 {
		_, w := time.Date(int(t.y), time.Month(t.mon), t.d, 0, 0, 0, 0, time.UTC).ISOWeek()
		return int32(w)
	},
	"quarter": func(t tm) int32 { return int32((t.mon-1)/3 + 1) },
}

// IsSparkFunction reports whether name is one of the Spark functions
// this file adds (for the binder's messages).
func IsSparkFunction(name string) bool {
	_, ok := sparkDateFields[name]
	return ok || name == "date_format" || name == "named_struct" || name == "map" || name == "struct"
}

// sparkDatetimeArg is the type a date/time argument of a Spark function
// is cast to (ok false when it takes none).
func sparkDatetimeArg(t arrow.DataType) (arrow.DataType, bool) {
	switch kindOf(t) {
	case kDate, kTimestamp, kTimestamptz:
		return t, true
	case kNull, kText:
		return Timestamp, true
	}
	return nil, false
}

func resolveSpark(fn string, args []arrow.DataType) (Resolved, bool, error) {
	if r, ok, err := resolveJSONB(fn, args); ok { // jsonb_order.go
		return r, ok, err
	}
	n := len(args)
	notFound := func() (Resolved, bool, error) {
		return Resolved{}, true, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if _, ok := sparkDateFields[fn]; ok {
		if n != 1 {
			return notFound()
		}
		t, ok := sparkDatetimeArg(args[0])
		if !ok {
			return notFound()
		}
		return Resolved{Args: []arrow.DataType{t}, Result: Int4}, true, nil
	}
	switch fn {
	case "date_format":
		if n != 2 {
			return notFound()
		}
		t, ok := sparkDatetimeArg(args[0])
		if k := kindOf(args[1]); !ok || k != kText && k != kNull {
			return notFound()
		}
		return Resolved{Args: []arrow.DataType{t, Text}, Result: Text}, true, nil
	case "round":
		if n == 2 && kindOf(args[0]).isFloat() && castsImplicitly(args[1], Int4) {
			return Resolved{Args: []arrow.DataType{Float8, Int4}, Result: Float8}, true, nil
		}
	}
	return Resolved{}, false, nil
}

func kernelSpark(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	if k, ok, err := kernelJSONB(c, fn, ts, res); ok {
		return k, ok, err
	}
	if f, ok := sparkDateFields[fn]; ok && len(ts) == 1 {
		get, ok := c.sparkLocalTime(kindOf(ts[0]))
		if !ok {
			return nil, true, wrongArgs(fn, ts)
		}
		return dtRows[int32](Int4, func(args []vec) rowFn[int32] {
			x := get(args[0])
			return func(i int) (int32, error) { return f(breakDown(x(i).local)), nil }
		}), true, nil
	}
	switch fn {
	case "date_format":
		get, ok := c.sparkLocalTime(kindOf(ts[0]))
		if len(ts) != 2 || !ok || kindOf(ts[1]) != kText {
			return nil, true, wrongArgs(fn, ts)
		}
		loc := c.tz
		return dtTextRows(func(args []vec) func(dst []byte, i int) ([]byte, error) {
			x, pat := get(args[0]), dtText(args[1])
			var lastPat string
			var items []sparkPatItem
			var perr error
			return func(dst []byte, i int) ([]byte, error) {
				p := pat(i)
				if items == nil && perr == nil || p != lastPat {
					items, perr = parseSparkPattern(p)
					lastPat = p
				}
				if perr != nil {
					return nil, perr
				}
				return appendSparkDatetime(dst, x(i), items, loc), nil
			}
		}), true, nil
	case "round":
		if len(ts) == 2 && kindOf(ts[0]) == kFloat8 && kindOf(ts[1]) == kInt4 {
			return dtRows[float64](Float8, func(args []vec) rowFn[float64] {
				x, s := dtF64(args[0]), dtI32(args[1])
				return func(i int) (float64, error) { return SparkRoundHalfUp(x(i), s(i)), nil }
			}), true, nil
		}
	case "named_struct", "map", "spark_struct":
		for _, t := range ts {
			if k := kindOf(t); k != kText && k != kNull {
				return nil, true, wrongArgs(fn, ts)
			}
		}
		if len(ts)%2 != 0 {
			return nil, true, wrongArgs(fn, ts)
		}
		return sparkObjectKernel(fn == "map"), true, nil
	}
	return nil, false, nil
}

// sparkTime is a date/time value as Spark's functions see it: the local
// time in the session TimeZone and the zone's offset then.
type sparkTime struct {
	local  int64 // µs since the epoch, local
	offset int   // seconds east of UTC
}

// sparkLocalTime reads a date, timestamp or timestamptz argument as local
// time in the session TimeZone.
func (c *compiler) sparkLocalTime(k kind) (func(v vec) func(i int) sparkTime, bool) {
	loc := c.tz
	switch k {
	case kDate:
		return func(v vec) func(i int) sparkTime {
			x := dtI32(v)
			return func(i int) sparkTime {
				l := int64(x(i)) * usPerDay
				return sparkTime{local: l, offset: zoneOffset(l, loc)}
			}
		}, true
	case kTimestamp:
		return func(v vec) func(i int) sparkTime {
			x := dtI64(v)
			return func(i int) sparkTime { return sparkTime{local: x(i), offset: zoneOffset(x(i), loc)} }
		}, true
	case kTimestamptz:
		return func(v vec) func(i int) sparkTime {
			x := dtI64(v)
			return func(i int) sparkTime {
				off := zoneOffset(x(i), loc)
				return sparkTime{local: x(i) + int64(off)*usPerSec, offset: off}
			}
		}, true
	}
	return nil, false
}

// SparkRoundHalfUp is Spark's round(double, scale): the double's shortest
// decimal text (Java's Double.toString digits) rounded half up at scale
// digits after the point (a negative scale rounds left of it). NaN and
// infinities are returned as they are.
func SparkRoundHalfUp(x float64, scale int32) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return x
	}
	s := strconv.FormatFloat(math.Abs(x), 'e', -1, 64) // d.ddddde±XX
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	// value = 0.digits × 10^(exp+1); keep exp+1+scale digits.
	keep := exp + 1 + int(scale)
	if keep >= len(digits) {
		return x
	}
	if keep < 0 {
		return 0
	}
	kept := []byte("0" + digits[:keep])
	if digits[keep] >= '5' {
		for k := len(kept) - 1; k >= 0; k-- {
			if kept[k] == '9' {
				kept[k] = '0'
				continue
			}
			kept[k]++
			break
		}
	}
	out, err := strconv.ParseFloat(string(kept)+"e"+strconv.Itoa(exp+1-keep), 64)
	if err != nil {
		return x
	}
	if x < 0 && out != 0 {
		out = -out
	}
	return out
}

// sparkObjectKernel builds a JSON object from (key, value) pairs of JSON
// text: named_struct's fields or map's entries. A map refuses a NULL key
// and a key given twice, as Spark does by default
// (spark.sql.mapKeyDedupPolicy EXCEPTION).
func sparkObjectKernel(isMap bool) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, c := outLen(ev, args)
		pairs := len(args) / 2
		keyOf := make([]func(i int) ([]byte, bool), pairs)
		valOf := make([]func(i int) ([]byte, bool), pairs)
		reader := func(v vec) func(i int) ([]byte, bool) { return readArrText(v).get }
		for p := 0; p < pairs; p++ {
			keyOf[p], valOf[p] = reader(args[2*p]), reader(args[2*p+1])
		}
		b := array.NewStringBuilder(ev.mem)
		defer b.Release()
		b.Reserve(n)
		keys := make([][]byte, pairs)
		vals := make([]*pgtext.JSON, pairs)
		var buf []byte
		for i := 0; i < n; i++ {
			for p := 0; p < pairs; p++ {
				k, ok := keyOf[p](i)
				if !ok {
					return vec{}, pgerr.New(pgerr.NullValueNotAllowed, "cannot use null as map key")
				}
				if isMap {
					for q := 0; q < p; q++ {
						if string(keys[q]) == string(k) {
							return vec{}, pgerr.New(sparkDuplicateMapKey, "duplicate map key %s was found", k).
								WithHint("Set spark.sql.mapKeyDedupPolicy to LAST_WIN in Spark to keep the last one; icegate always refuses duplicate keys.")
						}
					}
				}
				keys[p] = append([]byte(nil), k...)
				v, ok := valOf[p](i)
				if !ok {
					vals[p] = pgtext.JSONNullValue()
					continue
				}
				j, err := pgtext.ParseJSONB(v)
				if err != nil {
					return vec{}, err
				}
				vals[p] = j
			}
			buf = pgtext.AppendJSONB(buf[:0], pgtext.NewJSONObject(keys, vals))
			b.BinaryBuilder.Append(buf)
		}
		return vec{arr: b.NewArray(), c: c}, nil
	}
}

// sparkDuplicateMapKey is Spark's SQLSTATE for DUPLICATED_MAP_KEY
// (unique_violation).
const sparkDuplicateMapKey = pgerr.UniqueViolation
