package catalog

// ColumnBounds is what is known about one column's values in a set of rows
// (a data file, a manifest's partitions, a Parquet row group): inclusive
// lower and upper bounds (nil when unknown; NaN never counts as a bound)
// and whether nulls and NaNs may occur.
//
// Unless HiExact, a string or binary upper bound may be a truncated prefix
// of the true maximum written without the increment the spec asks for, so
// any value beginning with it may also be present.
type ColumnBounds struct {
	Lo, Hi  any
	HiExact bool
	// MayNull: a null may be present; AllNull: every value is null.
	MayNull, AllNull bool
	// MayNaN: a float NaN may be present (false for other types).
	MayNaN bool
}

// MayMatch reports whether some row described by b may satisfy op over
// values under PostgreSQL's semantics (see Predicate). It answers true
// whenever it cannot rule rows out.
func (b ColumnBounds) MayMatch(op string, values []any) bool {
	b.dropInverted()
	switch op {
	case OpIsNull:
		return b.MayNull
	case OpIsNotNull:
		return !b.AllNull
	}
	if b.AllNull {
		return false // a comparison with NULL is never true
	}
	if hasNaN(values) {
		return true
	}
	switch op {
	case OpEq:
		return len(values) != 1 || b.mayEqual(values[0])
	case OpIn:
		for _, v := range values {
			if v == nil {
				continue // x IN (NULL) is never true
			}
			if b.mayEqual(v) {
				return true
			}
		}
		return false
	case OpLt, OpLtEq:
		if len(values) != 1 || b.Lo == nil || isNaN(b.Lo) {
			return true
		}
		c, ok := pruneCompare(b.Lo, values[0])
		return !ok || c < 0 || (op == OpLtEq && c == 0)
	case OpGt, OpGtEq:
		if len(values) != 1 {
			return true
		}
		if b.MayNaN {
			return true // NaN sorts above every value
		}
		return b.mayReach(values[0], op == OpGtEq)
	}
	return true // "<>" and anything unknown
}

// mayEqual reports whether v may lie within the bounds.
func (b *ColumnBounds) mayEqual(v any) bool {
	if v == nil {
		return false
	}
	if b.Lo != nil && !isNaN(b.Lo) {
		if c, ok := pruneCompare(v, b.Lo); ok && c < 0 {
			return false
		}
	}
	return b.mayReach(v, true)
}

// mayReach reports whether a value above v (or equal, when orEqual) may be
// present given the upper bound.
func (b *ColumnBounds) mayReach(v any, orEqual bool) bool {
	if b.Hi == nil || isNaN(b.Hi) {
		return true
	}
	c, ok := pruneCompare(b.Hi, v)
	if !ok || c > 0 || (orEqual && c == 0) {
		return true
	}
	// Hi <= v: a value beginning with an inexact Hi may still exceed v.
	return !b.HiExact && startsWith(v, b.Hi)
}

// exactBounds describes a single known value (a partition value).
func exactBounds(v any) ColumnBounds {
	if v == nil {
		return ColumnBounds{MayNull: true, AllNull: true}
	}
	if isNaN(v) {
		return ColumnBounds{MayNaN: true}
	}
	return ColumnBounds{Lo: v, Hi: v, HiExact: true}
}

// dropInverted forgets bounds whose lower lies above the upper: bounds
// ordered the wrong way (decimals compared as unsigned bytes by some
// writers) bound nothing.
func (b *ColumnBounds) dropInverted() {
	if b.Lo == nil || b.Hi == nil {
		return
	}
	if c, ok := pruneCompare(b.Lo, b.Hi); !ok || c > 0 {
		b.Lo, b.Hi = nil, nil
	}
}
