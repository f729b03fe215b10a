package write

import (
	"fmt"
	"math/big"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Microseconds per hour and per day.
const (
	microsPerHour = int64(time.Hour / time.Microsecond)
	microsPerDay  = 24 * microsPerHour
)

// PartitionTransform applies one partition field's transform to the rows of
// its source column.
type PartitionTransform struct {
	Transform catalog.Transform
	Source    *catalog.PrimitiveType
	// Result is the type of the transform's values (int for bucket and the
	// time transforms, the source type for identity and truncate).
	Result *catalog.PrimitiveType
}

// NewPartitionTransform checks that transform t applies to a source column
// of type src and returns it. A transform the spec does not define for the
// type is 0A000.
func NewPartitionTransform(t catalog.Transform, src catalog.Type) (*PartitionTransform, error) {
	p := catalog.Primitive(src)
	if p == nil {
		return nil, pgerr.Unsupported("partitioning by a %s column", src)
	}
	bad := func() error {
		return pgerr.Unsupported("partition transform %s on a %s column", transformString(t), p)
	}
	pt := &PartitionTransform{Transform: t, Source: p}
	intResult := &catalog.PrimitiveType{ID: catalog.TInt}
	switch t.Name {
	case "identity":
		switch p.ID {
		case catalog.TVariant, catalog.TGeometry, catalog.TGeography, catalog.TUnknown:
			return nil, bad()
		}
		pt.Result = p
	case "void":
		pt.Result = p
	case "bucket":
		if t.Param <= 0 {
			return nil, bad()
		}
		switch p.ID {
		case catalog.TInt, catalog.TLong, catalog.TDecimal, catalog.TDate, catalog.TTime,
			catalog.TTimestamp, catalog.TTimestamptz, catalog.TTimestampNs, catalog.TTimestamptzNs,
			catalog.TString, catalog.TUUID, catalog.TFixed, catalog.TBinary:
		default:
			return nil, bad()
		}
		pt.Result = intResult
	case "truncate":
		if t.Param <= 0 {
			return nil, bad()
		}
		switch p.ID {
		case catalog.TInt, catalog.TLong, catalog.TDecimal, catalog.TString, catalog.TBinary:
		default:
			return nil, bad()
		}
		pt.Result = p
	case "year", "month", "day":
		switch p.ID {
		case catalog.TDate, catalog.TTimestamp, catalog.TTimestamptz, catalog.TTimestampNs, catalog.TTimestamptzNs:
		default:
			return nil, bad()
		}
		pt.Result = intResult
	case "hour":
		switch p.ID {
		case catalog.TTimestamp, catalog.TTimestamptz, catalog.TTimestampNs, catalog.TTimestamptzNs:
		default:
			return nil, bad()
		}
		pt.Result = intResult
	default:
		return nil, bad()
	}
	return pt, nil
}

func transformString(t catalog.Transform) string {
	switch t.Name {
	case "bucket", "truncate":
		return fmt.Sprintf("%s[%d]", t.Name, t.Param)
	}
	return t.Name
}

// Apply returns the transform of every row of arr (nil for NULL and for
// void), typed per catalog value.go: int32 for bucket and the time
// transforms, the source's Go type for identity and truncate.
func (p *PartitionTransform) Apply(arr arrow.Array) ([]any, error) {
	out := make([]any, arr.Len())
	for i := range out {
		v, err := p.Value(arr, i)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// Value returns the transform of row i of arr.
func (p *PartitionTransform) Value(arr arrow.Array, i int) (any, error) {
	if p.Transform.Name == "void" || arr.IsNull(i) {
		return nil, nil
	}
	switch p.Transform.Name {
	case "identity":
		return arrowValue(arr, i, p.Source)
	case "bucket":
		h, err := p.hash(arr, i)
		if err != nil {
			return nil, err
		}
		return bucketOf(h, p.Transform.Param), nil
	case "truncate":
		return p.truncate(arr, i)
	}
	return p.timeValue(arr, i)
}

// hash is the spec's 32-bit hash of row i (Appendix B).
func (p *PartitionTransform) hash(arr arrow.Array, i int) (uint32, error) {
	switch a := arr.(type) {
	case *array.Int32:
		return hashLong(int64(a.Value(i))), nil
	case *array.Int64:
		return hashLong(a.Value(i)), nil
	case *array.Date32:
		return hashLong(int64(a.Value(i))), nil
	case *array.Time64:
		return hashLong(int64(a.Value(i))), nil
	case *array.Timestamp:
		v := int64(a.Value(i))
		if p.Source.ID == catalog.TTimestampNs || p.Source.ID == catalog.TTimestamptzNs {
			v = floorDiv(v, 1000) // nanosecond timestamps hash as microseconds
		}
		return hashLong(v), nil
	case *array.Decimal128:
		var buf [16]byte
		return murmur3x86_32(decimalBytes(buf[:0], a.Value(i))), nil
	case *array.String:
		return murmur3x86_32(stringBytes(a, i)), nil
	case *array.Binary:
		return murmur3x86_32(a.Value(i)), nil
	case *array.FixedSizeBinary:
		return murmur3x86_32(a.Value(i)), nil
	}
	return 0, fmt.Errorf("bucket of Iceberg type %s from Arrow %s", p.Source, arr.DataType())
}

func (p *PartitionTransform) truncate(arr arrow.Array, i int) (any, error) {
	w := p.Transform.Param
	switch a := arr.(type) {
	case *array.Int32:
		v, w := a.Value(i), int32(w)
		return v - (((v % w) + w) % w), nil
	case *array.Int64:
		v, w := a.Value(i), int64(w)
		return v - (((v % w) + w) % w), nil
	case *array.Decimal128:
		u := a.Value(i).BigInt()
		m := new(big.Int).Mod(u, big.NewInt(int64(w))) // Euclidean: never negative
		return catalog.Decimal{Unscaled: u.Sub(u, m), Scale: p.Source.Scale}, nil
	case *array.String:
		return truncateString(a.Value(i), w), nil
	case *array.Binary:
		b := a.Value(i)
		if len(b) > w {
			b = b[:w]
		}
		return append([]byte{}, b...), nil
	}
	return nil, fmt.Errorf("truncate of Iceberg type %s from Arrow %s", p.Source, arr.DataType())
}

// truncateString keeps the first w code points of s.
func truncateString(s string, w int) string {
	n := 0
	for i := range s {
		if n == w {
			return s[:i]
		}
		n++
	}
	return s
}

// timeValue is year, month, day or hour: whole units since 1970-01-01
// (floor for earlier values).
func (p *PartitionTransform) timeValue(arr arrow.Array, i int) (any, error) {
	var micros int64
	switch a := arr.(type) {
	case *array.Date32:
		micros = int64(a.Value(i)) * microsPerDay
	case *array.Timestamp:
		micros = int64(a.Value(i))
		if p.Source.ID == catalog.TTimestampNs || p.Source.ID == catalog.TTimestamptzNs {
			micros = floorDiv(micros, 1000)
		}
	default:
		return nil, fmt.Errorf("%s of Iceberg type %s from Arrow %s", p.Transform.Name, p.Source, arr.DataType())
	}
	switch p.Transform.Name {
	case "hour":
		return int32(floorDiv(micros, microsPerHour)), nil
	case "day":
		return int32(floorDiv(micros, microsPerDay)), nil
	}
	t := time.Unix(floorDiv(micros, 1_000_000), 0).UTC()
	years := t.Year() - 1970
	if p.Transform.Name == "year" {
		return int32(years), nil
	}
	return int32(years*12 + int(t.Month()) - 1), nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
