package scan

import (
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// appendValue appends one Go value (catalog/value.go representation, or
// the Arrow element types the readers produce) of Iceberg type t to b.
// Narrower values of a promoted type are widened (int to long, float to
// double, a decimal of the same scale and smaller precision).
func appendValue(b array.Builder, t catalog.Type, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	bad := func() error { return fmt.Errorf("value %v (%T) cannot be read as %s", v, v, t) }
	switch t := t.(type) {
	case *catalog.StructType:
		m, ok := v.(map[int]any)
		if !ok {
			return bad()
		}
		sb := b.(*array.StructBuilder)
		sb.Append(true)
		for i, f := range t.Fields {
			fv, present := m[f.ID]
			if !present {
				fv = f.InitialDefault
			}
			if err := appendValue(sb.FieldBuilder(i), f.Type, fv); err != nil {
				return err
			}
		}
		return nil
	case *catalog.ListType:
		l, ok := v.([]any)
		if !ok {
			return bad()
		}
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		for _, e := range l {
			if err := appendValue(lb.ValueBuilder(), t.Element, e); err != nil {
				return err
			}
		}
		return nil
	case *catalog.MapType:
		m, ok := v.(catalog.MapValue)
		if !ok {
			if p, isPtr := v.(*catalog.MapValue); isPtr && p != nil {
				m, ok = *p, true
			}
		}
		if !ok || len(m.Keys) != len(m.Values) {
			return bad()
		}
		mb := b.(*array.MapBuilder)
		mb.Append(true)
		for i := range m.Keys {
			if err := appendValue(mb.KeyBuilder(), t.Key, m.Keys[i]); err != nil {
				return err
			}
			if err := appendValue(mb.ItemBuilder(), t.Value, m.Values[i]); err != nil {
				return err
			}
		}
		return nil
	case *catalog.PrimitiveType:
		return appendPrimitive(b, t, v)
	}
	return bad()
}

func appendPrimitive(b array.Builder, t *catalog.PrimitiveType, v any) error {
	bad := func() error { return fmt.Errorf("value %v (%T) cannot be read as %s", v, v, t) }
	switch b := b.(type) {
	case *array.BooleanBuilder:
		x, ok := v.(bool)
		if !ok {
			return bad()
		}
		b.Append(x)
	case *array.Int32Builder:
		x, ok := v.(int32)
		if !ok {
			return bad()
		}
		b.Append(x)
	case *array.Int64Builder:
		switch x := v.(type) {
		case int64:
			b.Append(x)
		case int32:
			b.Append(int64(x))
		default:
			return bad()
		}
	case *array.Float32Builder:
		x, ok := v.(float32)
		if !ok {
			return bad()
		}
		b.Append(x)
	case *array.Float64Builder:
		switch x := v.(type) {
		case float64:
			b.Append(x)
		case float32:
			b.Append(float64(x))
		default:
			return bad()
		}
	case *array.Decimal128Builder:
		switch x := v.(type) {
		case decimal128.Num:
			b.Append(x)
		case catalog.Decimal:
			n, err := decimalToNum(x, t.Scale)
			if err != nil {
				return err
			}
			b.Append(n)
		case *catalog.Decimal:
			n, err := decimalToNum(*x, t.Scale)
			if err != nil {
				return err
			}
			b.Append(n)
		default:
			return bad()
		}
	case *array.Date32Builder:
		switch x := v.(type) {
		case arrow.Date32:
			b.Append(x)
		case int32:
			b.Append(arrow.Date32(x))
		default:
			return bad()
		}
	case *array.Time64Builder:
		switch x := v.(type) {
		case arrow.Time64:
			b.Append(x)
		case int64:
			b.Append(arrow.Time64(x))
		default:
			return bad()
		}
	case *array.TimestampBuilder:
		switch x := v.(type) {
		case arrow.Timestamp:
			b.Append(x)
		case int64:
			b.Append(arrow.Timestamp(x))
		default:
			return bad()
		}
	case *array.StringBuilder:
		switch x := v.(type) {
		case string:
			b.Append(x)
		case []byte:
			b.BinaryBuilder.Append(x)
		default:
			return bad()
		}
	case *array.BinaryBuilder:
		switch x := v.(type) {
		case []byte:
			b.Append(x)
		case string:
			b.AppendString(x)
		case [16]byte:
			b.Append(x[:])
		default:
			return bad()
		}
	case *array.FixedSizeBinaryBuilder:
		switch x := v.(type) {
		case []byte:
			b.Append(x)
		case [16]byte:
			b.Append(x[:])
		default:
			return bad()
		}
	default:
		return fmt.Errorf("no builder for %s (%T)", t, b)
	}
	return nil
}

// decimalToNum converts an exact decimal to the unscaled 128-bit value at
// scale (a value at a smaller scale is rescaled exactly).
func decimalToNum(d catalog.Decimal, scale int) (decimal128.Num, error) {
	if d.Unscaled == nil {
		return decimal128.Num{}, fmt.Errorf("decimal without value")
	}
	u := new(big.Int).Set(d.Unscaled)
	switch {
	case d.Scale < scale:
		u.Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale-d.Scale)), nil))
	case d.Scale > scale:
		return decimal128.Num{}, fmt.Errorf("decimal of scale %d cannot be read at scale %d", d.Scale, scale)
	}
	if u.BitLen() > 127 {
		return decimal128.Num{}, fmt.Errorf("decimal %s does not fit 128 bits", u)
	}
	return decimal128.FromBigInt(u), nil
}

// constantArray returns an array of n copies of v (nil: NULL) typed as the
// Arrow column of field f.
func constantArray(mem memory.Allocator, t catalog.Type, v any, n int) (arrow.Array, error) {
	dt := engine.ArrowType(t)
	if v == nil {
		return array.MakeArrayOfNull(mem, dt, n), nil
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	b.Reserve(n)
	for range n {
		if err := appendValue(b, t, v); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}
