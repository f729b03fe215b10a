package expr

import "github.com/apache/arrow-go/v18/arrow"

// IntervalSum is a + b as PostgreSQL's interval_pl adds them (each field
// on its own), 22008 when a field overflows: the step of sum(interval) and
// avg(interval).
func IntervalSum(a, b arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, error) {
	r, err := addIval(ivalOf(a), ivalOf(b))
	return r.arrow(), err
}

// IntervalDivide is v / n as PostgreSQL's interval_div computes it:
// avg(interval) is the sum divided by the count.
func IntervalDivide(v arrow.MonthDayNanoInterval, n float64) (arrow.MonthDayNanoInterval, error) {
	r, err := divIval(ivalOf(v), n)
	return r.arrow(), err
}
