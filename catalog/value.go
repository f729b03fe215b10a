package catalog

import "math/big"

// Values of Iceberg primitive types in Go, as decoded from partition tuples
// (Avro), single-value bounds (binary) and JSON defaults, and as handed to
// the engine:
//
//	boolean          bool
//	int, date        int32 (date: days since 1970-01-01)
//	long             int64
//	float            float32
//	double           float64
//	decimal(P,S)     Decimal
//	time             int64 microseconds since midnight
//	timestamp[tz]    int64 microseconds since the epoch (UTC for tz)
//	timestamp[tz]_ns int64 nanoseconds since the epoch
//	string           string
//	uuid             [16]byte
//	fixed, binary    []byte
//
// Struct defaults are map[int]any keyed by field id; list defaults []any;
// map defaults are MapValue. A nil interface is NULL.

// Decimal is an exact decimal: Unscaled * 10^-Scale.
type Decimal struct {
	Unscaled *big.Int
	Scale    int
}

// MapValue is a map default: parallel key and value slices.
type MapValue struct {
	Keys   []any
	Values []any
}
