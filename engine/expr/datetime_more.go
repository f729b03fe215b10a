package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
)

// The date/time family: interval and the operators and functions over
// date, time, timestamp, timestamptz and interval that the core catalogue
// does not type. Resolve tries it first, so it claims only combinations
// the core rejects.
//
//	operator / function            arguments                        result
//	+                              date, int4 | int4, date          date
//	                               date, interval | interval, date  timestamp (date as timestamp)
//	                               date, time | time, date          timestamp
//	                               timestamp[tz], interval (either order) timestamp[tz] (months and
//	                                                                days in the session TimeZone)
//	                               time, interval (either order)    time
//	                               interval, interval               interval
//	-                              date, int4                       date
//	                               date, date                       int4
//	                               date, interval                   timestamp
//	                               date, time                       timestamp
//	                               timestamp[tz], interval          timestamp[tz]
//	                               timestamp[tz], timestamp[tz]     interval (hours justified to days)
//	                               time, interval                   time
//	                               time, time                       interval
//	                               interval, interval               interval
//	* /                            interval, float8 (* also float8, interval) interval
//	neg                            interval                         interval
//	date_part extract date_trunc   text, interval                   float8 | numeric | interval
//	age                            timestamp[tz], timestamp[tz]     interval
//	make_date                      int4, int4, int4                 date
//	make_time                      int4, int4, float8               time
//	make_timestamp                 int4 x5, float8                  timestamp
//	make_timestamptz               int4 x5, float8 [, text zone]    timestamptz
//	make_interval                  [int4 years, months, weeks, days, hours, mins [, float8 secs]] interval
//	justify_days justify_hours justify_interval interval            interval
//	date_bin                       interval, timestamp[tz], timestamp[tz] timestamp[tz]
//	to_char                        timestamp[tz] | interval | number, text  text
//	to_date                        text, text                       date
//	to_timestamp                   text, text | float8              timestamptz
//
// An untyped argument (arrow.Null) takes the type PostgreSQL would give it:
// timestamp + '1 day' is timestamp + interval, timestamp - '...' is
// timestamp - timestamp; date + unknown is ambiguous (42725).

func isDatetimeKind(k kind) bool {
	return k == kDate || k == kTime || k == kTimestamp || k == kTimestamptz || k == kInterval
}

func resolveDatetime(fn string, args []arrow.DataType) (Resolved, bool, error) {
	n := len(args)
	res := func(result arrow.DataType, as ...arrow.DataType) (Resolved, bool, error) {
		return Resolved{Args: as, Result: result}, true, nil
	}
	switch fn {
	case "+", "-", "*", "/":
		if n != 2 {
			return Resolved{}, false, nil
		}
		return resolveDatetimeOp(fn, args[0], args[1])
	case "neg":
		if n == 1 && kindOf(args[0]) == kInterval {
			return res(Interval, Interval)
		}
		return Resolved{}, false, nil
	case "date_part", "extract", "date_trunc":
		if n == 2 && isTextish(args[0]) && kindOf(args[1]) == kInterval {
			switch fn {
			case "date_part":
				return res(Float8, Text, Interval)
			case "extract":
				return res(NumericType(), Text, Interval)
			}
			return res(Interval, Text, Interval)
		}
		return Resolved{}, false, nil
	case "age":
		if n == 2 {
			if t, ok := tsPair(args[0], args[1]); ok {
				return res(Interval, t, t)
			}
		}
		if n == 1 && isTimestampish(kindOf(args[0])) {
			return Resolved{}, true, pgerr.Unsupported("age with one argument (use age(current_date, x))")
		}
	case "make_date":
		if n == 3 && allCast(args, Int4) {
			return res(Date, Int4, Int4, Int4)
		}
	case "make_time":
		if n == 3 && allCast(args[:2], Int4) && numberish(args[2]) {
			return res(Time, Int4, Int4, Float8)
		}
	case "make_timestamp", "make_timestamptz":
		out := Timestamp
		if fn == "make_timestamptz" {
			out = Timestamptz
		}
		if n == 6 && allCast(args[:5], Int4) && numberish(args[5]) {
			return res(out, Int4, Int4, Int4, Int4, Int4, Float8)
		}
		if n == 7 && fn == "make_timestamptz" && allCast(args[:5], Int4) && numberish(args[5]) && isTextish(args[6]) {
			return res(out, Int4, Int4, Int4, Int4, Int4, Float8, Text)
		}
	case "make_interval":
		if n <= 7 && (n < 7 && allCast(args, Int4) || n == 7 && allCast(args[:6], Int4) && numberish(args[6])) {
			as := make([]arrow.DataType, n)
			for i := range as {
				as[i] = Int4
			}
			if n == 7 {
				as[6] = Float8
			}
			return res(Interval, as...)
		}
	case "justify_days", "justify_hours", "justify_interval":
		if n == 1 && (kindOf(args[0]) == kInterval || kindOf(args[0]) == kNull) {
			return res(Interval, Interval)
		}
	case "date_bin":
		if n == 3 && (kindOf(args[0]) == kInterval || kindOf(args[0]) == kNull) {
			if t, ok := tsPair(args[1], args[2]); ok {
				return res(t, Interval, t, t)
			}
		}
	case "to_char":
		if n == 2 && isTextish(args[1]) {
			switch k := kindOf(args[0]); {
			case k == kTimestamp || k == kTimestamptz || k == kInterval:
				return res(Text, args[0], Text)
			case k == kDate:
				return res(Text, Timestamptz, Text)
			case k.isNumber():
				return res(Text, args[0], Text)
			}
		}
	case "to_date":
		if n == 2 && isTextish(args[0]) && isTextish(args[1]) {
			return res(Date, Text, Text)
		}
	case "timezone":
		// x AT TIME ZONE zone: a wall-clock timestamp read in zone gives a
		// timestamptz; a timestamptz gives the wall clock in zone.
		if n == 2 && isTextish(args[0]) {
			switch kindOf(args[1]) {
			case kTimestamp:
				return res(Timestamptz, Text, args[1])
			case kTimestamptz:
				return res(Timestamp, Text, args[1])
			}
		}
	case "to_timestamp":
		if n == 2 && isTextish(args[0]) && isTextish(args[1]) {
			return res(Timestamptz, Text, Text)
		}
		if n == 1 && numberish(args[0]) {
			return res(Timestamptz, Float8)
		}
	default:
		return Resolved{}, false, nil
	}
	switch fn {
	case "age", "make_date", "make_time", "make_timestamp", "make_timestamptz", "make_interval",
		"justify_days", "justify_hours", "justify_interval", "date_bin", "to_char", "to_date", "to_timestamp", "timezone":
		return Resolved{}, true, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	return Resolved{}, false, nil
}

func isTimestampish(k kind) bool { return k == kDate || k == kTimestamp || k == kTimestamptz }

// tsPair is the type two timestamp-like arguments meet in: timestamptz
// when either is one, or when neither is a timestamp (dates and untyped:
// PostgreSQL's preferred type), else timestamp.
func tsPair(a, b arrow.DataType) (arrow.DataType, bool) {
	ka, kb := kindOf(a), kindOf(b)
	if !(isTimestampish(ka) || ka == kNull) || !(isTimestampish(kb) || kb == kNull) {
		return nil, false
	}
	if ka == kTimestamptz || kb == kTimestamptz || (ka != kTimestamp && kb != kTimestamp) {
		return Timestamptz, true
	}
	return Timestamp, true
}

func allCast(ts []arrow.DataType, to arrow.DataType) bool {
	for _, t := range ts {
		if !castsImplicitly(t, to) {
			return false
		}
	}
	return true
}

// numberish is a type PostgreSQL casts to float8 implicitly.
func numberish(t arrow.DataType) bool {
	k := kindOf(t)
	return k.isNumber() || k == kNull
}

func ambiguousOp(fn string, l, r arrow.DataType) *pgerr.Error {
	return pgerr.New(pgerr.AmbiguousFunction, "operator is not unique: %s %s %s", PGTypeName(l), fn, PGTypeName(r)).
		WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
}

// resolveDatetimeOp types + - * / when a side is a date/time/interval.
func resolveDatetimeOp(fn string, l, r arrow.DataType) (Resolved, bool, error) {
	kl, kr := kindOf(l), kindOf(r)
	if !isDatetimeKind(kl) && !isDatetimeKind(kr) {
		return Resolved{}, false, nil
	}
	res := func(result arrow.DataType, a, b arrow.DataType) (Resolved, bool, error) {
		return Resolved{Args: []arrow.DataType{a, b}, Result: result}, true, nil
	}
	isInt4 := func(t arrow.DataType) bool { return castsImplicitly(t, Int4) && kindOf(t) != kNull }
	switch fn {
	case "*":
		switch {
		case kl == kInterval && numberish(r):
			return res(Interval, Interval, Float8)
		case numberish(l) && kr == kInterval:
			return res(Interval, Float8, Interval)
		}
	case "/":
		if kl == kInterval && numberish(r) {
			return res(Interval, Interval, Float8)
		}
	case "+":
		switch {
		case kl == kDate && isInt4(r):
			return res(Date, Date, Int4)
		case isInt4(l) && kr == kDate:
			return res(Date, Int4, Date)
		case kl == kDate && kr == kNull, kl == kNull && kr == kDate:
			return Resolved{}, true, ambiguousOp(fn, l, r)
		case kl == kDate && kr == kInterval:
			return res(Timestamp, Timestamp, Interval)
		case kl == kInterval && kr == kDate:
			return res(Timestamp, Interval, Timestamp)
		case kl == kDate && kr == kTime, kl == kTime && kr == kDate:
			return res(Timestamp, l, r)
		case (kl == kTimestamp || kl == kTimestamptz || kl == kTime) && (kr == kInterval || kr == kNull):
			return res(l, l, Interval)
		case (kl == kInterval || kl == kNull) && (kr == kTimestamp || kr == kTimestamptz || kr == kTime):
			return res(r, Interval, r)
		case kl == kInterval && (kr == kInterval || kr == kNull), kl == kNull && kr == kInterval:
			return res(Interval, Interval, Interval)
		}
	case "-":
		switch {
		case kl == kDate && isInt4(r):
			return res(Date, Date, Int4)
		case kl == kDate && (kr == kDate || kr == kNull), kl == kNull && kr == kDate:
			return res(Int4, Date, Date)
		case kl == kDate && kr == kInterval:
			return res(Timestamp, Timestamp, Interval)
		case kl == kDate && kr == kTime:
			return res(Timestamp, Date, Time)
		case (kl == kTimestamp || kl == kTimestamptz || kl == kTime) && kr == kInterval:
			return res(l, l, Interval)
		case kl == kTime && (kr == kTime || kr == kNull), kl == kNull && kr == kTime:
			return res(Interval, Time, Time)
		case kl == kInterval && (kr == kInterval || kr == kNull), kl == kNull && kr == kInterval:
			return res(Interval, Interval, Interval)
		}
		if t, ok := tsPair(l, r); ok && (kl == kTimestamp || kl == kTimestamptz || kr == kTimestamp || kr == kTimestamptz) {
			return res(Interval, t, t)
		}
	}
	return Resolved{}, false, nil
}

// kernelDatetime picks the kernels of the family; the core asks it first
// for every call, so it claims only what resolveDatetime types.
func kernelDatetime(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	n := len(ts)
	ks := make([]kind, n)
	for i, t := range ts {
		ks[i] = kindOf(t)
	}
	switch fn {
	case "+", "-", "*", "/":
		if n != 2 || !(isDatetimeKind(ks[0]) || isDatetimeKind(ks[1])) {
			return nil, false, nil
		}
		k, err := datetimeOpKernel(c, fn, ks[0], ks[1], res)
		return k, true, err
	case "neg":
		if n == 1 && ks[0] == kInterval {
			return ivalMap(func(v ival) (ival, error) { return v.neg() }), true, nil
		}
		return nil, false, nil
	case "date_part", "extract":
		if n == 2 && ks[0] == kText && ks[1] == kInterval {
			return intervalPartKernel(fn == "extract"), true, nil
		}
		return nil, false, nil
	case "date_trunc":
		if n == 2 && ks[0] == kText && ks[1] == kInterval {
			return intervalTruncKernel(), true, nil
		}
		return nil, false, nil
	}
	k, ok := datetimeFuncKernel(c, fn, ks, res)
	if !ok {
		return nil, false, nil
	}
	if k == nil {
		return nil, true, wrongArgs(fn, ts)
	}
	return k, true, nil
}
