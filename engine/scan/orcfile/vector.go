package orcfile

import "github.com/apache/arrow-go/v18/arrow/decimal128"

// Vector is n decoded values of one column. Slots of null rows hold zero
// values. Which slice is set depends on the kind:
//
//   - boolean (0/1), tinyint, smallint, int, bigint, date (days): Ints
//   - float, double: Floats
//   - string, varchar, char, binary: Bytes
//   - decimal: Decimals, unscaled at the type's scale
//   - timestamp: Ints (seconds since the epoch; for TIMESTAMP the writer's
//     wall clock read as UTC, for TIMESTAMP_INSTANT the instant) and Nanos
//   - list, map: Offsets (n+1 entries into the child vectors)
//   - struct, list, map: Children (struct children have n rows)
type Vector struct {
	Type     *Type
	N        int
	Nulls    []bool // nil: no nulls
	Ints     []int64
	Nanos    []int64
	Floats   []float64
	Bytes    [][]byte
	Decimals []decimal128.Num
	Offsets  []int32
	Children []*Vector
}

// IsNull reports whether row i is null.
func (v *Vector) IsNull(i int) bool { return v.Nulls != nil && v.Nulls[i] }

// spread moves the first len(vals)-nulls dense values to the non-null
// rows of vals, zeroing the null rows.
func spread[T any](vals []T, nulls []bool, dense int) {
	if nulls == nil || dense == len(vals) {
		return
	}
	j := dense - 1
	var zero T
	for i := len(vals) - 1; i >= 0; i-- {
		if nulls[i] {
			vals[i] = zero
			continue
		}
		vals[i] = vals[j]
		j--
	}
}
