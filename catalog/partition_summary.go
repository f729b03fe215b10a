package catalog

import (
	"bytes"
	"fmt"
	"math"
)

// summaryBuilder accumulates the partition field summaries of a manifest.
type summaryBuilder struct {
	types  []*PrimitiveType
	nulls  []bool
	nans   []bool
	lo, hi []any
}

func newSummaryBuilder(types []*PrimitiveType) *summaryBuilder {
	n := len(types)
	return &summaryBuilder{types: types, nulls: make([]bool, n), nans: make([]bool, n), lo: make([]any, n), hi: make([]any, n)}
}

func (s *summaryBuilder) add(part []any) error {
	for i, v := range part {
		switch {
		case v == nil:
			s.nulls[i] = true
			continue
		case isNaN(v):
			s.nans[i] = true
			continue
		}
		if s.lo[i] == nil {
			s.lo[i], s.hi[i] = v, v
			continue
		}
		c, err := compareValues(v, s.lo[i])
		if err != nil {
			return err
		}
		if c < 0 {
			s.lo[i] = v
		}
		if c, _ = compareValues(v, s.hi[i]); c > 0 {
			s.hi[i] = v
		}
	}
	return nil
}

func (s *summaryBuilder) summaries() ([]FieldSummary, error) {
	out := make([]FieldSummary, len(s.types))
	for i, t := range s.types {
		out[i].ContainsNull = s.nulls[i]
		if t.ID == TFloat || t.ID == TDouble {
			nan := s.nans[i]
			out[i].ContainsNaN = &nan
		}
		if s.lo[i] == nil {
			continue
		}
		var err error
		if out[i].LowerBound, err = EncodeValue(t, s.lo[i]); err != nil {
			return nil, err
		}
		if out[i].UpperBound, err = EncodeValue(t, s.hi[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func isNaN(v any) bool {
	switch f := v.(type) {
	case float32:
		return math.IsNaN(float64(f))
	case float64:
		return math.IsNaN(f)
	}
	return false
}

// compareValues orders two non-null values of one type as Iceberg does
// (strings and binary by unsigned bytes, false before true).
func compareValues(a, b any) (int, error) {
	if x, ok := asInt64(a); ok {
		if y, ok := asInt64(b); ok {
			return cmpOrdered(x, y), nil
		}
	}
	switch x := a.(type) {
	case bool:
		if y, ok := b.(bool); ok {
			return cmpOrdered(boolInt(x), boolInt(y)), nil
		}
	case float32:
		if y, ok := b.(float32); ok {
			return cmpOrdered(x, y), nil
		}
	case float64:
		if y, ok := b.(float64); ok {
			return cmpOrdered(x, y), nil
		}
	case string:
		if y, ok := b.(string); ok {
			return cmpOrdered(x, y), nil
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y), nil
		}
	case [16]byte:
		if y, ok := b.([16]byte); ok {
			return bytes.Compare(x[:], y[:]), nil
		}
	case Decimal:
		if y, ok := b.(Decimal); ok && x.Unscaled != nil && y.Unscaled != nil && x.Scale == y.Scale {
			return x.Unscaled.Cmp(y.Unscaled), nil
		}
	}
	return 0, fmt.Errorf("compare %v (%T) with %v (%T): %w", a, a, b, b, ErrDataInvalid)
}

func cmpOrdered[T int64 | float32 | float64 | string | int](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
