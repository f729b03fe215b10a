package engine

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
)

// Interval columns. Iceberg has no interval type; icegate stores a
// PostgreSQL interval column as a struct of its three parts, as PostgreSQL
// itself keeps them, so that other engines read and compute with plain
// Iceberg values:
//
//	struct<months: int, days: int, microseconds: long>
//
// The engine computes with Arrow's MonthDayNano interval; a scan's struct
// becomes one (IntervalFromParts) and a written interval becomes the struct
// (IntervalToParts). The parts are not normalised: 1 mon, 30 days and
// 720:00:00 stay three different values, as in PostgreSQL.
var intervalPartNames = [3]string{"months", "days", "microseconds"}

// IntervalPartsType is the Iceberg struct an interval column is stored as,
// its fields numbered by next.
func IntervalPartsType(next func() int) *catalog.StructType {
	return &catalog.StructType{Fields: []catalog.NestedField{
		{ID: next(), Name: intervalPartNames[0], Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: next(), Name: intervalPartNames[1], Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: next(), Name: intervalPartNames[2], Type: &catalog.PrimitiveType{ID: catalog.TLong}},
	}}
}

// IsIntervalParts reports whether t is the struct an interval column is
// stored as.
func IsIntervalParts(t catalog.Type) bool {
	st, ok := t.(*catalog.StructType)
	if !ok || len(st.Fields) != 3 {
		return false
	}
	want := [3]catalog.TypeID{catalog.TInt, catalog.TInt, catalog.TLong}
	for i, f := range st.Fields {
		p, ok := f.Type.(*catalog.PrimitiveType)
		if !ok || p.ID != want[i] || f.Name != intervalPartNames[i] {
			return false
		}
	}
	return true
}

// isIntervalPartsArrow reports whether dt is the Arrow type of the struct
// IsIntervalParts accepts.
func isIntervalPartsArrow(dt arrow.DataType) bool {
	st, ok := dt.(*arrow.StructType)
	if !ok || st.NumFields() != 3 {
		return false
	}
	want := [3]arrow.Type{arrow.INT32, arrow.INT32, arrow.INT64}
	for i := range 3 {
		if st.Field(i).Type.ID() != want[i] {
			return false
		}
	}
	return true
}

// IntervalToParts converts a MonthDayNano interval array to the struct
// array of type dt (an interval column's stored type). ok is false when a
// or dt is not of these types.
func IntervalToParts(a arrow.Array, dt arrow.DataType, mem memory.Allocator) (arrow.Array, bool) {
	if l, ok := a.(*array.List); ok {
		// interval[]: lists of the parts, their offsets and validity
		// kept.
		lt, ok := dt.(*arrow.ListType)
		if !ok {
			return nil, false
		}
		parts, ok := IntervalToParts(l.ListValues(), lt.Elem(), mem)
		if !ok {
			return nil, false
		}
		defer parts.Release()
		return relist(l, lt, parts), true
	}
	iv, ok := a.(*array.MonthDayNanoInterval)
	if !ok || !isIntervalPartsArrow(dt) {
		return nil, false
	}
	b := array.NewStructBuilder(mem, dt.(*arrow.StructType))
	defer b.Release()
	months := b.FieldBuilder(0).(*array.Int32Builder)
	days := b.FieldBuilder(1).(*array.Int32Builder)
	micros := b.FieldBuilder(2).(*array.Int64Builder)
	n := iv.Len()
	b.Reserve(n)
	months.Reserve(n)
	days.Reserve(n)
	micros.Reserve(n)
	for i := range n {
		if iv.IsNull(i) {
			b.AppendNull() // and a null to each part
			continue
		}
		v := iv.Value(i)
		b.Append(true)
		months.Append(v.Months)
		days.Append(v.Days)
		micros.Append(v.Nanoseconds / 1000)
	}
	return b.NewArray(), true
}

// IntervalFromParts converts an interval column's stored struct array to
// MonthDayNano intervals. A row whose struct is null, or any of whose
// parts is (written by another engine), is null.
func IntervalFromParts(a arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	if l, ok := a.(*array.List); ok {
		// An interval[] column: lists of the parts.
		iv, err := IntervalFromParts(l.ListValues(), mem)
		if err != nil {
			return nil, err
		}
		defer iv.Release()
		return relist(l, arrow.ListOf(iv.DataType()), iv), nil
	}
	st, ok := a.(*array.Struct)
	if !ok || !isIntervalPartsArrow(a.DataType()) {
		return nil, fmt.Errorf("interval column stored as %s, not struct<months: int, days: int, microseconds: long>", a.DataType())
	}
	months := st.Field(0).(*array.Int32)
	days := st.Field(1).(*array.Int32)
	micros := st.Field(2).(*array.Int64)
	b := array.NewMonthDayNanoIntervalBuilder(mem)
	defer b.Release()
	n := st.Len()
	b.Reserve(n)
	for i := range n {
		if st.IsNull(i) || months.IsNull(i) || days.IsNull(i) || micros.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.Append(arrow.MonthDayNanoInterval{Months: months.Value(i), Days: days.Value(i), Nanoseconds: micros.Value(i) * 1000})
	}
	return b.NewArray(), nil
}

// IntervalColumns wraps in, converting the stored interval structs of the
// columns at positions cols to MonthDayNano intervals.
func IntervalColumns(in Operator, cols []int) Operator {
	fields := append([]arrow.Field(nil), in.Schema().Fields()...)
	for _, c := range cols {
		fields[c].Type = IntervalOfParts(fields[c].Type)
	}
	md := in.Schema().Metadata()
	return &intervalColumns{in: in, cols: cols, schema: arrow.NewSchema(fields, &md)}
}

type intervalColumns struct {
	in     Operator
	cols   []int
	schema *arrow.Schema
	cur    arrow.RecordBatch
}

func (o *intervalColumns) Schema() *arrow.Schema          { return o.schema }
func (o *intervalColumns) Open(ctx context.Context) error { return o.in.Open(ctx) }

func (o *intervalColumns) Next() (arrow.RecordBatch, error) {
	o.release()
	b, err := o.in.Next()
	if err != nil || b == nil {
		return nil, err
	}
	cols := make([]arrow.Array, b.NumCols())
	var made []arrow.Array
	defer func() {
		for _, a := range made {
			a.Release()
		}
	}()
	copy(cols, b.Columns())
	for _, c := range o.cols {
		a, err := IntervalFromParts(cols[c], memory.DefaultAllocator)
		if err != nil {
			return nil, err
		}
		made = append(made, a)
		cols[c] = a
	}
	o.cur = array.NewRecordBatch(o.schema, cols, b.NumRows())
	return o.cur, nil
}

func (o *intervalColumns) release() {
	if o.cur != nil {
		o.cur.Release()
		o.cur = nil
	}
}

func (o *intervalColumns) Close() error {
	o.release()
	return o.in.Close()
}

// relist is the list l with its values replaced by vals (of the element
// type of lt), its offsets and validity kept.
func relist(l *array.List, lt *arrow.ListType, vals arrow.Array) arrow.Array {
	ld := l.Data()
	d := array.NewData(lt, ld.Len(), ld.Buffers(), []arrow.ArrayData{vals.Data()}, ld.NullN(), ld.Offset())
	defer d.Release()
	return array.MakeFromData(d)
}

// IntervalOfParts is the Arrow type a column stored as interval parts (or lists
// of them, interval[]) is read as: MonthDayNano intervals (or lists of
// them).
func IntervalOfParts(dt arrow.DataType) arrow.DataType {
	if lt, ok := dt.(*arrow.ListType); ok {
		return arrow.ListOf(IntervalOfParts(lt.Elem()))
	}
	return arrow.FixedWidthTypes.MonthDayNanoInterval
}
