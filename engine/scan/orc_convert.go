package scan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/scan/orcfile"
	"github.com/icegate/icegate/internal/pgerr"
)

// appendORC appends rows [lo,hi) of an ORC vector, read as Iceberg type t,
// to b.
func appendORC(b array.Builder, t catalog.Type, n *orcNode, v *orcfile.Vector, lo, hi int) error {
	switch t := t.(type) {
	case *catalog.StructType:
		if v.Type.Kind != orcfile.Struct {
			return fmt.Errorf("ORC %s column read as a struct", v.Type.Kind)
		}
		return appendORCStruct(b.(*array.StructBuilder), t, n, v, lo, hi)
	case *catalog.ListType:
		if v.Type.Kind != orcfile.List {
			return fmt.Errorf("ORC %s column read as a list", v.Type.Kind)
		}
		lb := b.(*array.ListBuilder)
		for i := lo; i < hi; i++ {
			if v.IsNull(i) {
				lb.AppendNull()
				continue
			}
			lb.Append(true)
			if err := appendORC(lb.ValueBuilder(), t.Element, n.children[0], v.Children[0],
				int(v.Offsets[i]), int(v.Offsets[i+1])); err != nil {
				return err
			}
		}
		return nil
	case *catalog.MapType:
		if v.Type.Kind != orcfile.Map {
			return fmt.Errorf("ORC %s column read as a map", v.Type.Kind)
		}
		mb := b.(*array.MapBuilder)
		for i := lo; i < hi; i++ {
			if v.IsNull(i) {
				mb.AppendNull()
				continue
			}
			mb.Append(true)
			s, e := int(v.Offsets[i]), int(v.Offsets[i+1])
			if err := appendORC(mb.KeyBuilder(), t.Key, n.children[0], v.Children[0], s, e); err != nil {
				return err
			}
			if err := appendORC(mb.ItemBuilder(), t.Value, n.children[1], v.Children[1], s, e); err != nil {
				return err
			}
		}
		return nil
	case *catalog.PrimitiveType:
		return appendORCPrimitive(b, t, v, lo, hi)
	}
	return fmt.Errorf("cannot read ORC %s as %s", v.Type.Kind, t)
}

func appendORCStruct(sb *array.StructBuilder, t *catalog.StructType, n *orcNode, v *orcfile.Vector, lo, hi int) error {
	// A null struct row appends nulls to the field builders itself, so the
	// fields are appended run by run of non-null rows.
	for i := lo; i < hi; {
		if v.IsNull(i) {
			sb.AppendNull()
			i++
			continue
		}
		j := i + 1
		for j < hi && !v.IsNull(j) {
			j++
		}
		for range j - i {
			sb.Append(true)
		}
		if err := appendORCFields(sb, t, n, v, i, j); err != nil {
			return err
		}
		i = j
	}
	return nil
}

func appendORCFields(sb *array.StructBuilder, t *catalog.StructType, n *orcNode, v *orcfile.Vector, lo, hi int) error {
	for fi, f := range t.Fields {
		fb := sb.FieldBuilder(fi)
		ci := n.childByID(f.ID)
		if ci < 0 {
			for range hi - lo {
				if err := appendValue(fb, f.Type, f.InitialDefault); err != nil {
					return fmt.Errorf("field %q: %w", f.Name, err)
				}
			}
			continue
		}
		if err := appendORC(fb, f.Type, n.children[ci], v.Children[ci], lo, hi); err != nil {
			return fmt.Errorf("field %q: %w", f.Name, err)
		}
	}
	return nil
}

// validity returns the Arrow validity of rows [lo,hi) (nil: all valid).
func validity(v *orcfile.Vector, lo, hi int) []bool {
	if v.Nulls == nil {
		return nil
	}
	valid := make([]bool, hi-lo)
	for i := range valid {
		valid[i] = !v.Nulls[lo+i]
	}
	return valid
}

func appendORCPrimitive(b array.Builder, t *catalog.PrimitiveType, v *orcfile.Vector, lo, hi int) error {
	k := v.Type.Kind
	bad := func() error { return fmt.Errorf("cannot read ORC %s as %s", k, t) }
	valid := validity(v, lo, hi)
	isInt := k == orcfile.Byte || k == orcfile.Short || k == orcfile.Int || k == orcfile.Long
	isBytes := k == orcfile.String || k == orcfile.Varchar || k == orcfile.Char || k == orcfile.Binary
	switch t.ID {
	case catalog.TBoolean:
		if k != orcfile.Boolean {
			return bad()
		}
		bb := b.(*array.BooleanBuilder)
		for i := lo; i < hi; i++ {
			if v.IsNull(i) {
				bb.AppendNull()
			} else {
				bb.Append(v.Ints[i] != 0)
			}
		}
	case catalog.TInt:
		if !isInt {
			return bad()
		}
		ib := b.(*array.Int32Builder)
		for i := lo; i < hi; i++ {
			if v.IsNull(i) {
				ib.AppendNull()
			} else {
				ib.Append(int32(v.Ints[i]))
			}
		}
	case catalog.TLong, catalog.TTime:
		if !isInt {
			return bad()
		}
		if t.ID == catalog.TTime {
			tb := b.(*array.Time64Builder)
			for i := lo; i < hi; i++ {
				if v.IsNull(i) {
					tb.AppendNull()
				} else {
					tb.Append(arrow.Time64(v.Ints[i]))
				}
			}
			return nil
		}
		b.(*array.Int64Builder).AppendValues(v.Ints[lo:hi], valid)
	case catalog.TFloat:
		if k != orcfile.Float {
			return bad()
		}
		fb := b.(*array.Float32Builder)
		for i := lo; i < hi; i++ {
			if v.IsNull(i) {
				fb.AppendNull()
			} else {
				fb.Append(float32(v.Floats[i]))
			}
		}
	case catalog.TDouble:
		if k != orcfile.Float && k != orcfile.Double {
			return bad()
		}
		b.(*array.Float64Builder).AppendValues(v.Floats[lo:hi], valid)
	case catalog.TDecimal:
		if k != orcfile.Decimal {
			return bad()
		}
		db := b.(*array.Decimal128Builder)
		d := int32(t.Scale - v.Type.Scale)
		for i := lo; i < hi; i++ {
			switch {
			case v.IsNull(i):
				db.AppendNull()
			case d > 0:
				db.Append(v.Decimals[i].IncreaseScaleBy(d))
			case d < 0:
				x := v.Decimals[i].ReduceScaleBy(-d, false)
				if x.IncreaseScaleBy(-d) != v.Decimals[i] {
					return fmt.Errorf("ORC decimal %s cannot be read at scale %d",
						v.Decimals[i].ToString(int32(v.Type.Scale)), t.Scale)
				}
				db.Append(x)
			default:
				db.Append(v.Decimals[i])
			}
		}
	case catalog.TDate:
		if k != orcfile.Date {
			return bad()
		}
		db := b.(*array.Date32Builder)
		for i := lo; i < hi; i++ {
			if v.IsNull(i) {
				db.AppendNull()
			} else {
				db.Append(arrow.Date32(v.Ints[i]))
			}
		}
	case catalog.TTimestamp, catalog.TTimestamptz, catalog.TTimestampNs, catalog.TTimestamptzNs:
		if k != orcfile.Timestamp && k != orcfile.TimestampInstant {
			return bad()
		}
		nanos := t.ID == catalog.TTimestampNs || t.ID == catalog.TTimestamptzNs
		tb := b.(*array.TimestampBuilder)
		for i := lo; i < hi; i++ {
			switch {
			case v.IsNull(i):
				tb.AppendNull()
			case nanos:
				tb.Append(arrow.Timestamp(v.Ints[i]*1_000_000_000 + v.Nanos[i]))
			default:
				tb.Append(arrow.Timestamp(v.Ints[i]*1_000_000 + v.Nanos[i]/1000))
			}
		}
	case catalog.TString, catalog.TBinary, catalog.TGeometry, catalog.TGeography:
		if !isBytes {
			return bad()
		}
		size := 0
		for _, x := range v.Bytes[lo:hi] {
			size += len(x)
		}
		if sb, ok := b.(*array.StringBuilder); ok {
			sb.ReserveData(size)
			for i := lo; i < hi; i++ {
				if v.IsNull(i) {
					sb.AppendNull()
				} else {
					sb.BinaryBuilder.Append(v.Bytes[i])
				}
			}
			return nil
		}
		bb := b.(*array.BinaryBuilder)
		bb.ReserveData(size)
		bb.AppendValues(v.Bytes[lo:hi], valid)
	case catalog.TUUID, catalog.TFixed:
		if k != orcfile.Binary {
			return bad()
		}
		fb := b.(*array.FixedSizeBinaryBuilder)
		width := fb.Type().(*arrow.FixedSizeBinaryType).ByteWidth
		for i := lo; i < hi; i++ {
			if v.IsNull(i) {
				fb.AppendNull()
				continue
			}
			if len(v.Bytes[i]) != width {
				return fmt.Errorf("ORC binary value of %d bytes read as %s", len(v.Bytes[i]), t)
			}
			fb.Append(v.Bytes[i])
		}
	case catalog.TUnknown:
		for range hi - lo {
			b.AppendNull()
		}
	case catalog.TVariant:
		return pgerr.Unsupported("reading variant columns from ORC files")
	default:
		return bad()
	}
	return nil
}
