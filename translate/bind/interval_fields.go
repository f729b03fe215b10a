package bind

import (
	"regexp"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// The field form of interval: interval '90' day, '3' month, '1' year,
// '1-2' year to month, '10:30' hour to minute. PostgreSQL's grammar gives
// the type a typmod holding a mask of the fields (INTERVAL_MASK of
// datetime.h); a bare number in the literal counts in the last field, and
// the value is truncated below it.

// Bits of the interval field mask (datetime.h: MONTH 1, YEAR 2, DAY 3,
// HOUR 10, MINUTE 11, SECOND 12).
const (
	ivMonth     = 1 << 1
	ivYear      = 1 << 2
	ivDay       = 1 << 3
	ivHour      = 1 << 10
	ivMinute    = 1 << 11
	ivSecond    = 1 << 12
	ivFullRange = 0x7fff
)

// intervalFieldsType is interval with the field mask mods[0] kept as its
// typmod (mods as the grammar gives them: [mask] or [mask, precision]).
func intervalFieldsType(mods []int) (plan.Type, error) {
	if len(mods) > 1 || len(mods) == 1 && mods[0] == ivFullRange {
		return plan.Type{}, pgerr.NotYet("interval precision")
	}
	mask := mods[0]
	if intervalLastField(mask) == "" {
		return plan.Type{}, pgerr.New(pgerr.SyntaxError, "invalid INTERVAL type modifier")
	}
	return plan.Type{OID: pgtypes.Interval, Typmod: int32(mask)}, nil
}

// intervalLastField is the smallest field of mask, as a unit name.
func intervalLastField(mask int) string {
	switch {
	case mask&ivSecond != 0:
		return "second"
	case mask&ivMinute != 0:
		return "minute"
	case mask&ivHour != 0:
		return "hour"
	case mask&ivDay != 0:
		return "day"
	case mask&ivMonth != 0:
		return "month"
	case mask&ivYear != 0:
		return "year"
	}
	return ""
}

var bareNumber = regexp.MustCompile(`^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$`)

// intervalFieldsCast is arg::interval <fields> (t.Typmod the field mask).
func (b *Binder) intervalFieldsCast(arg Bound, t plan.Type, loc int32) (Bound, error) {
	unit := intervalLastField(int(t.Typmod))
	var e expr.Expr
	switch {
	case arg.null:
		return Bound{E: &expr.Lit{V: nil, T: plan.ArrowOf(plan.TInterval)}, T: plan.TInterval}, nil
	case arg.lit != nil && arg.param == 0:
		s := *arg.lit
		if bareNumber.MatchString(s) {
			s += " " + unit
		}
		lit := arg
		lit.lit = &s
		e = b.Coerce(lit, plan.ArrowOf(plan.TInterval))
	case !arg.Unknown() && arg.T.OID == pgtypes.Interval:
		e = arg.E
	default:
		return Bound{}, b.ErrAt(pgerr.NotYet("casting "+arg.T.String()+" to interval with fields"), loc)
	}
	if unit != "second" {
		e = &expr.Call{Fn: "date_trunc", Args: []expr.Expr{&expr.Lit{V: unit, T: expr.Text}, e}, T: plan.ArrowOf(plan.TInterval)}
	}
	return Bound{E: e, T: plan.TInterval}, nil
}
