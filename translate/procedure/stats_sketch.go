package procedure

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/theta"
)

// sketchableType reports whether values of a primitive type are sketched:
// those with a single-value serialization (variant, geometry, geography
// and unknown have none).
func sketchableType(p *catalog.PrimitiveType) bool {
	switch p.ID {
	case catalog.TBoolean, catalog.TInt, catalog.TLong, catalog.TFloat, catalog.TDouble, catalog.TDecimal,
		catalog.TDate, catalog.TTime, catalog.TTimestamp, catalog.TTimestamptz, catalog.TTimestampNs,
		catalog.TTimestamptzNs, catalog.TString, catalog.TUUID, catalog.TFixed, catalog.TBinary:
		return true
	}
	return false
}

// sketchSnapshot reads the rows of a snapshot (deletes applied) and returns
// a theta sketch of each column's non-null values, each value given to the
// sketch in Iceberg's single-value serialization (as Iceberg's Spark
// action does through Conversions.toByteBuffer).
func sketchSnapshot(ctx context.Context, t *catalog.Table, snap *catalog.Snapshot, schema *catalog.Schema, cols []statsColumn) ([]*theta.Sketch, error) {
	sketches := make([]*theta.Sketch, len(cols))
	var ids []int       // top-level fields to read
	at := map[int]int{} // top-level field id -> column of the batches
	for i, c := range cols {
		sketches[i] = theta.NewDefault()
		if _, ok := at[c.top]; !ok {
			at[c.top] = len(ids)
			ids = append(ids, c.top)
		}
	}
	if len(cols) == 0 {
		return sketches, nil
	}
	tasks, err := catalog.PlanFiles(ctx, t, snap)
	if err != nil {
		return nil, fmt.Errorf("plan files of snapshot %d: %w", snap.SnapshotID, err)
	}
	op := scan.New(engine.ScanSpec{Table: t, Tasks: tasks, Schema: schema, FieldIDs: ids}, scan.Options{})
	if err := op.Open(ctx); err != nil {
		return nil, err
	}
	defer op.Close()
	var buf []byte
	var ancestors []arrow.Array
	for {
		rec, err := op.Next()
		if err != nil {
			return nil, err
		}
		if rec == nil {
			return sketches, nil
		}
		for i, c := range cols {
			arr := rec.Column(at[c.top])
			ancestors = ancestors[:0]
			for _, p := range c.path {
				st, ok := arr.(*array.Struct)
				if !ok {
					return nil, fmt.Errorf("column %s: %s is not a struct", c.name, arr.DataType())
				}
				ancestors = append(ancestors, st)
				arr = st.Field(p)
			}
			buf, err = sketchColumn(sketches[i], arr, ancestors, buf)
			if err != nil {
				return nil, fmt.Errorf("column %s: %w", c.name, err)
			}
		}
	}
}

// sketchColumn adds a column's non-null values to s: those of rows where
// the column and each of its enclosing structs (ancestors) are not null.
// buf is scratch space, returned for reuse.
func sketchColumn(s *theta.Sketch, col arrow.Array, ancestors []arrow.Array, buf []byte) ([]byte, error) {
	n := col.Len()
	isValid := func(i int) bool {
		if col.IsNull(i) {
			return false
		}
		for _, a := range ancestors {
			if a.IsNull(i) {
				return false
			}
		}
		return true
	}
	switch a := col.(type) {
	case *array.Boolean:
		for i := 0; i < n; i++ {
			if isValid(i) {
				b := byte(0)
				if a.Value(i) {
					b = 1
				}
				s.Update([]byte{b})
			}
		}
	case *array.Int32:
		for i, v := range a.Int32Values() {
			if isValid(i) {
				buf = binary.LittleEndian.AppendUint32(buf[:0], uint32(v))
				s.Update(buf)
			}
		}
	case *array.Date32:
		for i, v := range a.Date32Values() {
			if isValid(i) {
				buf = binary.LittleEndian.AppendUint32(buf[:0], uint32(v))
				s.Update(buf)
			}
		}
	case *array.Int64:
		for i, v := range a.Int64Values() {
			if isValid(i) {
				buf = binary.LittleEndian.AppendUint64(buf[:0], uint64(v))
				s.Update(buf)
			}
		}
	case *array.Time64:
		for i, v := range a.Time64Values() {
			if isValid(i) {
				buf = binary.LittleEndian.AppendUint64(buf[:0], uint64(v))
				s.Update(buf)
			}
		}
	case *array.Timestamp:
		for i, v := range a.TimestampValues() {
			if isValid(i) {
				buf = binary.LittleEndian.AppendUint64(buf[:0], uint64(v))
				s.Update(buf)
			}
		}
	case *array.Float32:
		for i, v := range a.Float32Values() {
			if isValid(i) {
				buf = binary.LittleEndian.AppendUint32(buf[:0], math.Float32bits(v))
				s.Update(buf)
			}
		}
	case *array.Float64:
		for i, v := range a.Float64Values() {
			if isValid(i) {
				buf = binary.LittleEndian.AppendUint64(buf[:0], math.Float64bits(v))
				s.Update(buf)
			}
		}
	case *array.Decimal128:
		for i := 0; i < n; i++ {
			if isValid(i) {
				d := a.Value(i)
				buf = append(buf[:0], catalog.TwosComplement(d.BigInt(), 0)...)
				s.Update(buf)
			}
		}
	case *array.String:
		offs, data := a.ValueOffsets(), a.ValueBytes()
		for i := 0; i < n; i++ {
			if isValid(i) {
				s.Update(data[offs[i]-offs[0] : offs[i+1]-offs[0]])
			}
		}
	case *array.Binary:
		for i := 0; i < n; i++ {
			if isValid(i) {
				s.Update(a.Value(i))
			}
		}
	case *array.FixedSizeBinary:
		for i := 0; i < n; i++ {
			if isValid(i) {
				s.Update(a.Value(i))
			}
		}
	default:
		return buf, fmt.Errorf("no single-value serialization for Arrow type %s", col.DataType())
	}
	return buf, nil
}
