package expr

import (
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// Infinite dates and timestamps. PostgreSQL's 'infinity' and '-infinity'
// are the largest and smallest values of the type (pgtext.DateInfinity...,
// int32 and int64 bounds): they compare, sort and print as PostgreSQL's,
// and the operations below keep them infinite as PostgreSQL does rather
// than computing with the sentinels as if they were dates.

func infDate(d int32) bool { return d == pgtext.DateInfinity || d == pgtext.DateMinusInfinity }

func infTS(x int64) bool { return x == pgtext.TSInfinity || x == pgtext.TSMinusInfinity }

// infDateTS is the timestamp of an infinite date.
func infDateTS(d int32) int64 {
	if d == pgtext.DateInfinity {
		return pgtext.TSInfinity
	}
	return pgtext.TSMinusInfinity
}

// infTSDate is the date of an infinite timestamp.
func infTSDate(x int64) int32 {
	if x == pgtext.TSInfinity {
		return pgtext.DateInfinity
	}
	return pgtext.DateMinusInfinity
}

func subtractInfinite(what string) error {
	return pgerr.New(pgerr.DatetimeFieldOverflow, "cannot subtract infinite %s", what)
}

// infiniteUnsupported is the error of the operations icegate does not
// define on infinite values (PostgreSQL gives NULL or Infinity there).
func infiniteUnsupported(what string) error {
	return pgerr.Unsupported("%s of an infinite date or timestamp", what)
}

// hasInfinite reports whether a date or timestamp argument holds an
// infinite value in a valid row.
func hasInfinite(v vec, k kind) bool {
	if v.arr == nil {
		return false
	}
	n := v.arr.Len()
	switch k {
	case kDate:
		a := values[int32](v.arr)
		for i := range n {
			if infDate(a[i]) && v.arr.IsValid(i) {
				return true
			}
		}
	case kTimestamp, kTimestamptz:
		a := values[int64](v.arr)
		for i := range n {
			if infTS(a[i]) && v.arr.IsValid(i) {
				return true
			}
		}
	}
	return false
}
