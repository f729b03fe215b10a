package opt

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// Constants and date comparisons.
//
// fold_constants computes every expression whose inputs are constants
// once, before execution, with the engine's own evaluation (expr.Fold):
// the same kernels, casts and errors as when a row evaluates it. The
// binder has already made the values that are constant for a statement
// literals (now(), current_date, current_setting, and the parameters $n,
// which a statement binds again with their values at each Execute), and
// expr.Fold never computes a volatile function (random(), nextval...) or
// a row function that may read the catalog. An expression whose
// evaluation fails (1/0, an overflow) is left as it is: it raises its
// error when, and only if, a row evaluates it, so a CASE branch or a
// COALESCE argument that never runs never fails.
//
// date_comparisons then turns `d::timestamp OP c`, where d is a date
// expression and c a constant timestamp (how the binder compares a date
// column with date '1994-01-01' + interval '1' year), into `d OP' D`
// where D is a date constant: a scan prunes files and row groups on d's
// statistics, and compares 4-byte dates. A date becomes midnight of its
// day, so with D the day of c (c's date rounded down) and c exactly
// midnight or not:
//
//	d::ts <  c   d <  D when c is midnight, else d <= D
//	d::ts <= c   d <= D
//	d::ts >  c   d >  D
//	d::ts >= c   d >= D when c is midnight, else d >  D
//	d::ts =  c   d =  D when c is midnight, else false (NULL for a NULL d)
//	d::ts <> c   d <> D when c is midnight, else true  (NULL for a NULL d)
//
// Infinite timestamps become infinite dates (which cast back to them).
// The same holds for timestamp with time zone, a date's midnight being
// that of the session's TimeZone: D is c's local day, and the rewrite is
// made only when the engine's cast of D and D+1 brackets c (D's midnight
// <= c < D+1's midnight), which also checks the rounding of every other
// case.

// foldConstants is the pass fold_constants.
func foldConstants(r plan.Rel, cfg Config) plan.Rel {
	opts := expr.CompileOptions{TimeZone: cfg.TimeZone}
	return mapExprs(r, func(e expr.Expr) expr.Expr { return expr.Fold(e, opts) })
}

// dateComparisons is the pass date_comparisons.
func dateComparisons(r plan.Rel, cfg Config) plan.Rel {
	opts := expr.CompileOptions{TimeZone: cfg.TimeZone}
	return mapExprs(r, func(e expr.Expr) expr.Expr {
		out, _ := plan.RewriteExpr(e, func(e expr.Expr) (expr.Expr, error) {
			if c, ok := e.(*expr.Call); ok {
				if n, ok := dateComparison(c, opts); ok {
					return n, nil
				}
			}
			return e, nil
		})
		return out
	})
}

// mapExprs applies fn to every expression of every node of r. The bodies
// of shared WITH queries and the plans of subqueries are not entered:
// Statement optimizes each of them once.
func mapExprs(r plan.Rel, fn func(expr.Expr) expr.Expr) plan.Rel {
	var walk func(plan.Rel) plan.Rel
	walk = func(r plan.Rel) plan.Rel { return plan.Map(r, walk, fn) }
	return walk(r)
}

const (
	microsPerDay = 86400 * 1000 * 1000
	maxDays      = math.MaxInt64/microsPerDay - 2
)

// dateComparison rewrites c when it compares a date cast to a timestamp
// with a constant timestamp (either side), per the table above.
func dateComparison(c *expr.Call, opts expr.CompileOptions) (expr.Expr, bool) {
	if c.Go != nil || len(c.Args) != 2 {
		return nil, false
	}
	op := c.Fn
	switch op {
	case "=", "<>", "<", "<=", ">", ">=":
	default:
		return nil, false
	}
	cast, lit, ok := castAndConst(c.Args[0], c.Args[1])
	if !ok {
		if cast, lit, ok = castAndConst(c.Args[1], c.Args[0]); !ok {
			return nil, false
		}
		op = flippedOp[op]
	}
	day, midnight, ok := dayOf(lit, cast.T.(*arrow.TimestampType), opts)
	if !ok {
		return nil, false
	}
	d := cast.Arg
	cmp := func(op string) expr.Expr {
		return &expr.Call{Fn: op, Args: []expr.Expr{d, &expr.Lit{V: day, T: expr.Date}}, T: expr.Bool}
	}
	if midnight {
		return cmp(op), true
	}
	null := &expr.Lit{V: nil, T: expr.Bool}
	switch op {
	case "<", "<=":
		return cmp("<="), true
	case ">", ">=":
		return cmp(">"), true
	case "=": // false, or NULL when d is NULL
		return &expr.Call{Fn: "and", Args: []expr.Expr{&expr.Call{Fn: "isnull", Args: []expr.Expr{d}, T: expr.Bool}, null}, T: expr.Bool}, true
	default: // "<>": true, or NULL when d is NULL
		return &expr.Call{Fn: "or", Args: []expr.Expr{&expr.Call{Fn: "isnotnull", Args: []expr.Expr{d}, T: expr.Bool}, null}, T: expr.Bool}, true
	}
}

// flippedOp is the comparison with its operands exchanged.
var flippedOp = map[string]string{"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

// castAndConst recognizes a date cast to a microsecond timestamp and a
// non-NULL constant of that timestamp type.
func castAndConst(a, b expr.Expr) (*expr.Cast, *expr.Lit, bool) {
	cast, ok := a.(*expr.Cast)
	if !ok || cast.Arg.Type().ID() != arrow.DATE32 {
		return nil, nil, false
	}
	ts, ok := cast.T.(*arrow.TimestampType)
	if !ok || ts.Unit != arrow.Microsecond {
		return nil, nil, false
	}
	lit, ok := b.(*expr.Lit)
	if !ok || lit.V == nil || !arrow.TypeEqual(lit.T, cast.T) {
		return nil, nil, false
	}
	if _, ok := lit.V.(int64); !ok {
		return nil, nil, false
	}
	return cast, lit, true
}

// dayOf returns the date D whose midnight is the latest at or before the
// timestamp lit (of type ts) and whether that midnight is lit itself.
// The engine's cast of D and of D+1 must bracket lit, else false.
func dayOf(lit *expr.Lit, ts *arrow.TimestampType, opts expr.CompileOptions) (int32, bool, bool) {
	us := lit.V.(int64)
	switch us {
	case math.MaxInt64: // infinity: infinite dates cast to infinite timestamps
		return math.MaxInt32, castDate(math.MaxInt32, ts, opts) == lit.V, true
	case math.MinInt64:
		return math.MinInt32, castDate(math.MinInt32, ts, opts) == lit.V, true
	}
	var days int64
	if ts.TimeZone == "" {
		days = floorDiv(us, microsPerDay)
	} else {
		loc := opts.TimeZone
		if loc == nil {
			loc = time.UTC
		}
		y, m, dd := time.UnixMicro(us).In(loc).Date()
		days = floorDiv(time.Date(y, m, dd, 0, 0, 0, 0, time.UTC).UnixMicro(), microsPerDay)
	}
	// Only days whose midnights (and the next ones) are well inside the
	// range of int64 microseconds.
	if days <= -maxDays || days >= maxDays {
		return 0, false, false
	}
	lo, hi := castDate(int32(days), ts, opts), castDate(int32(days+1), ts, opts)
	l, lok := lo.(int64)
	h, hok := hi.(int64)
	if !lok || !hok || l > us || us >= h {
		return 0, false, false
	}
	return int32(days), l == us, true
}

// castDate is the engine's cast of date d to ts: its int64 microseconds,
// or nil when the cast fails (a date out of the timestamp's range).
func castDate(d int32, ts *arrow.TimestampType, opts expr.CompileOptions) any {
	f, ok := expr.Fold(&expr.Cast{Arg: &expr.Lit{V: d, T: expr.Date}, T: ts}, opts).(*expr.Lit)
	if !ok {
		return nil
	}
	return f.V
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// FoldValues applies the passes whose result depends on constants' values
// (fold_constants, date_comparisons, as cfg enables them) to one
// expression. A prepared statement's plan optimized with its parameters
// opaque gets them so once its values are in place: every other pass
// depends only on the tree.
func FoldValues(e expr.Expr, cfg Config) expr.Expr {
	opts := expr.CompileOptions{TimeZone: cfg.TimeZone}
	if !cfg.Disabled["fold_constants"] {
		e = expr.Fold(e, opts)
	}
	if !cfg.Disabled["date_comparisons"] {
		e, _ = plan.RewriteExpr(e, func(e expr.Expr) (expr.Expr, error) {
			if c, ok := e.(*expr.Call); ok {
				if n, ok := dateComparison(c, opts); ok {
					return n, nil
				}
			}
			return e, nil
		})
	}
	return e
}
