package catalog

import (
	"bytes"
	"math"
	"math/big"
)

// pruneCompare orders two non-null values of one Iceberg type for pruning:
// ints of either width, floats of either width, decimals of any scale,
// strings and binary by unsigned bytes. ok is false when the values cannot
// be compared (different kinds, NaN): pruning then keeps what it tests.
func pruneCompare(a, b any) (c int, ok bool) {
	if x, isInt := asInt64(a); isInt {
		if y, isInt := asInt64(b); isInt {
			return cmpOrdered(x, y), true
		}
		return 0, false
	}
	if x, isFloat := asFloat64(a); isFloat {
		y, isFloat := asFloat64(b)
		if !isFloat || math.IsNaN(x) || math.IsNaN(y) {
			return 0, false
		}
		return cmpOrdered(x, y), true
	}
	switch x := a.(type) {
	case bool:
		if y, isBool := b.(bool); isBool {
			return cmpOrdered(boolInt(x), boolInt(y)), true
		}
	case string:
		switch y := b.(type) {
		case string:
			return cmpOrdered(x, y), true
		case []byte:
			return bytes.Compare([]byte(x), y), true
		}
	case []byte:
		switch y := b.(type) {
		case []byte:
			return bytes.Compare(x, y), true
		case string:
			return bytes.Compare(x, []byte(y)), true
		}
	case [16]byte:
		if y, isUUID := b.([16]byte); isUUID {
			return bytes.Compare(x[:], y[:]), true
		}
	case Decimal:
		if y, isDec := b.(Decimal); isDec && x.Unscaled != nil && y.Unscaled != nil {
			return compareDecimals(x, y), true
		}
	}
	return 0, false
}

// compareDecimals compares two decimals of possibly different scales.
func compareDecimals(x, y Decimal) int {
	if x.Scale == y.Scale {
		return x.Unscaled.Cmp(y.Unscaled)
	}
	a, b := x.Unscaled, y.Unscaled
	if x.Scale < y.Scale {
		a = new(big.Int).Mul(a, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(y.Scale-x.Scale)), nil))
	} else {
		b = new(big.Int).Mul(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.Scale-y.Scale)), nil))
	}
	return a.Cmp(b)
}

func asFloat64(v any) (float64, bool) {
	switch v := v.(type) {
	case float32:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// hasNaN reports whether any of values is a float NaN.
func hasNaN(values []any) bool {
	for _, v := range values {
		if isNaN(v) {
			return true
		}
	}
	return false
}

// bytesOf returns the bytes of a string or binary value.
func bytesOf(v any) ([]byte, bool) {
	switch v := v.(type) {
	case string:
		return []byte(v), true
	case []byte:
		return v, true
	}
	return nil, false
}

// startsWith reports whether v (string or binary) begins with prefix.
func startsWith(v, prefix any) bool {
	a, ok1 := bytesOf(v)
	b, ok2 := bytesOf(prefix)
	return ok1 && ok2 && bytes.HasPrefix(a, b)
}
