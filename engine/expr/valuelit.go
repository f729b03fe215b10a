package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// ValueLit returns row i of a as a constant of its type (dictionary
// arrays as their value type): how a subquery's single value enters the
// statement that uses it.
func ValueLit(a arrow.Array, i int) (*Lit, error) {
	t := a.DataType()
	if d, ok := a.(*array.Dictionary); ok {
		return ValueLit(d.Dictionary(), d.GetValueIndex(i))
	}
	if a.IsNull(i) {
		return &Lit{V: nil, T: t}, nil
	}
	if IsNumericType(t) || t.ID() == arrow.DECIMAL128 {
		u, s := DecimalValue(a, i)
		return &Lit{V: catalog.Decimal{Unscaled: u.BigInt(), Scale: int(s)}, T: t}, nil
	}
	var v any
	switch a := a.(type) {
	case *array.Boolean:
		v = a.Value(i)
	case *array.Int16:
		v = a.Value(i)
	case *array.Int32:
		v = a.Value(i)
	case *array.Int64:
		v = a.Value(i)
	case *array.Float32:
		v = a.Value(i)
	case *array.Float64:
		v = a.Value(i)
	case *array.String:
		v = a.Value(i)
	case *array.LargeString:
		v = a.Value(i)
	case *array.Binary:
		v = append([]byte(nil), a.Value(i)...)
	case *array.FixedSizeBinary:
		v = append([]byte(nil), a.Value(i)...)
	case *array.Date32:
		v = int32(a.Value(i))
	case *array.Time64:
		v = int64(a.Value(i))
	case *array.Timestamp:
		v = int64(a.Value(i))
	case *array.MonthDayNanoInterval:
		v = a.Value(i)
	case *array.List:
		// An array value (ARRAY(subquery)): its elements as Go values.
		x, err := goValue(a, i)
		if err != nil {
			return nil, err
		}
		v = x
	default:
		return nil, pgerr.Unsupported("a subquery value of type %s", t)
	}
	return &Lit{V: v, T: t}, nil
}
