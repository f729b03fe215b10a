package expr

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// What a filter needs to order the conjuncts of its predicate: their
// split, a rough per-row cost, and whether evaluating one can raise an
// error (only conjuncts that cannot may be moved or skipped on rows an
// earlier conjunct rejected).

// Cost classes of PredicateCost, cheapest first.
const (
	CostFixed   = 1 // comparisons of integers, dates, timestamps, floats; NULL tests
	CostDecimal = 2 // comparisons of decimals
	CostBytes   = 3 // comparisons and IN over text, bytea, uuid, intervals
	CostOther   = 5 // LIKE, functions, CASE
)

// Conjuncts splits e at its top-level ANDs, nested ones included.
func Conjuncts(e Expr) []Expr {
	if c, ok := e.(*Call); ok && c.Fn == "and" && c.Go == nil {
		var out []Expr
		for _, a := range c.Args {
			out = append(out, Conjuncts(a)...)
		}
		return out
	}
	return []Expr{e}
}

// Fold returns e with its constant subtrees evaluated, as Compile does
// (opts: at most one CompileOptions).
func Fold(e Expr, opts ...CompileOptions) Expr {
	tz := time.UTC
	if len(opts) > 0 && opts[0].TimeZone != nil {
		tz = opts[0].TimeZone
	}
	return fold(e, tz)
}

// PredicateCost estimates the per-row cost of evaluating e (a sum of the
// classes above) and reports whether its evaluation can raise an error:
// only columns, constants, comparisons, IN lists, NULL tests, boolean
// logic, LIKE with a valid constant pattern and widening casts are known
// not to.
func PredicateCost(e Expr) (cost int, canFail bool) {
	switch x := e.(type) {
	case *Col, *Lit:
		return 0, false
	case *Cast:
		c, fail := PredicateCost(x.Arg)
		return c + CostFixed, fail || !safeCast(x.Arg.Type(), x.T)
	case *Call:
		if x.Go != nil {
			return CostOther, true
		}
		cost, canFail := 0, false
		for _, a := range x.Args {
			c, f := PredicateCost(a)
			cost += c
			canFail = canFail || f
		}
		switch x.Fn {
		case "=", "<>", "<", "<=", ">", ">=", "is_distinct_from", "is_not_distinct_from", "in":
			if len(x.Args) == 0 {
				return cost + CostOther, true
			}
			c := compareCost(x.Args[0].Type())
			if x.Fn == "in" {
				c += (len(x.Args) - 2) / 4
			}
			return cost + c, canFail
		case "isnull", "isnotnull":
			return cost + CostFixed, canFail
		case "and", "or", "not":
			return cost + CostFixed, canFail
		case "like", "not_like", "ilike", "not_ilike":
			return cost + CostOther, canFail || !validLikePattern(x)
		}
		return cost + CostOther, true
	}
	return CostOther, true
}

func compareCost(t arrow.DataType) int {
	switch kindOf(t) {
	case kInt2, kInt4, kInt8, kFloat4, kFloat8, kDate, kTime, kTimestamp, kTimestamptz, kBool, kNull:
		return CostFixed
	case kDecimal, kNumeric:
		return CostDecimal
	}
	return CostBytes
}

// validLikePattern reports whether a LIKE's pattern (and escape) are
// constants that compile: the kernel cannot fail then.
func validLikePattern(c *Call) bool {
	if len(c.Args) < 2 {
		return false
	}
	pat, ok := c.Args[1].(*Lit)
	if !ok {
		return false
	}
	esc := '\\'
	if len(c.Args) == 3 {
		l, ok := c.Args[2].(*Lit)
		if !ok {
			return false
		}
		s, ok := l.V.(string)
		if !ok {
			return l.V == nil
		}
		e, err := likeEscape([]byte(s))
		if err != nil {
			return false
		}
		esc = e
	}
	s, ok := pat.V.(string)
	if !ok {
		return pat.V == nil
	}
	_, err := compileLike([]byte(s), esc, c.Fn == "ilike" || c.Fn == "not_ilike")
	return err == nil
}

// safeCast reports whether every value of from converts to to without
// an error: integer widening, integers to double precision or to a
// numeric with room for their digits, numeric to a numeric with room for
// its integer digits and at least its scale.
func safeCast(from, to arrow.DataType) bool {
	if dt, ok := from.(*arrow.DictionaryType); ok {
		from = dt.ValueType
	}
	if arrow.TypeEqual(from, to) {
		return true
	}
	kf, kt := kindOf(from), kindOf(to)
	intDigits := map[kind]int32{kInt2: 5, kInt4: 10, kInt8: 19}
	switch {
	case kf == kNull:
		return true
	case kf.isInt() && kt.isInt():
		return intDigits[kt] >= intDigits[kf]
	case kf.isInt() && kt == kFloat8:
		return true
	case kf.isInt() && kt == kNumeric:
		return true
	case kf.isInt() && kt == kDecimal:
		d := to.(*arrow.Decimal128Type)
		return d.Precision-d.Scale >= intDigits[kf]
	case kf == kDecimal && kt == kDecimal:
		a, b := from.(*arrow.Decimal128Type), to.(*arrow.Decimal128Type)
		return b.Scale >= a.Scale && b.Precision-b.Scale >= a.Precision-a.Scale
	case kf == kFloat4 && kt == kFloat8:
		return true
	}
	return false
}
