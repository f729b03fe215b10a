package write

import (
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/internal/pgerr"
)

// shred appends to the leaves of top-level field n the Parquet values of
// the rows sel of column arr, with their repetition and definition levels.
// Top-level primitives take a typed loop; nested fields walk each row.
func shred(n *schemaNode, arr arrow.Array, sel []int) error {
	for _, l := range n.leaves {
		l.vals = l.vals[:0]
		l.scratch = l.scratch[:0]
	}
	if n.kind == kindPrimitive {
		return shredFlat(n.leaf, arr, sel, n.optional)
	}
	for _, i := range sel {
		if err := shredValue(n, arr, i, 0, 0); err != nil {
			return err
		}
	}
	return nil
}

// shredValue is the record shredding of one value at index i of arr.
func shredValue(n *schemaNode, arr arrow.Array, i, rep, def int) error {
	if arr.IsNull(i) {
		if !n.optional {
			return notNullViolation(n.name)
		}
		appendNulls(n, rep, def)
		return nil
	}
	if n.optional {
		def++
	}
	switch n.kind {
	case kindPrimitive:
		v, err := leafValue(n.leaf, arr, i)
		if err != nil {
			return err
		}
		n.leaf.vals = append(n.leaf.vals, v.Level(rep, def, n.leaf.col))
	case kindStruct:
		sa := arr.(*array.Struct)
		for k, c := range n.children {
			if err := shredValue(c, sa.Field(k), i, rep, def); err != nil {
				return err
			}
		}
	case kindList:
		la := arr.(*array.List)
		start, end := la.ValueOffsets(i)
		if start == end {
			appendNulls(n, rep, def)
			return nil
		}
		vals := la.ListValues()
		for j := start; j < end; j++ {
			r := n.repLevel
			if j == start {
				r = rep
			}
			if err := shredValue(n.children[0], vals, int(j), r, def+1); err != nil {
				return err
			}
		}
	case kindMap:
		ma := arr.(*array.Map)
		start, end := ma.ValueOffsets(i)
		if start == end {
			appendNulls(n, rep, def)
			return nil
		}
		keys, items := ma.Keys(), ma.Items()
		for j := start; j < end; j++ {
			r := n.repLevel
			if j == start {
				r = rep
			}
			if err := shredValue(n.children[0], keys, int(j), r, def+1); err != nil {
				return err
			}
			if err := shredValue(n.children[1], items, int(j), r, def+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendNulls records a value missing at definition level def in every
// leaf under n.
func appendNulls(n *schemaNode, rep, def int) {
	for _, l := range n.leaves {
		l.vals = append(l.vals, parquet.NullValue().Level(rep, def, l.col))
	}
}

func notNullViolation(column string) error {
	return pgerr.New(pgerr.NotNullViolation, "null value in column %q violates not-null constraint", column)
}

// leafValue is the Parquet value of row i of a primitive column (not NULL).
func leafValue(l *leafColumn, arr arrow.Array, i int) (parquet.Value, error) {
	switch a := arr.(type) {
	case *array.Boolean:
		return parquet.BooleanValue(a.Value(i)), nil
	case *array.Int32:
		return parquet.Int32Value(a.Value(i)), nil
	case *array.Date32:
		return parquet.Int32Value(int32(a.Value(i))), nil
	case *array.Int64:
		return parquet.Int64Value(a.Value(i)), nil
	case *array.Time64:
		return parquet.Int64Value(int64(a.Value(i))), nil
	case *array.Timestamp:
		return parquet.Int64Value(int64(a.Value(i))), nil
	case *array.Float32:
		return parquet.FloatValue(a.Value(i)), nil
	case *array.Float64:
		return parquet.DoubleValue(a.Value(i)), nil
	case *array.Decimal128:
		d := a.Value(i)
		switch {
		case l.fixedLen > 0:
			// each value gets its own bytes: scratch may grow while values
			// already point into it
			return parquet.FixedLenByteArrayValue(decimalFixedBytes(make([]byte, 0, l.fixedLen), d, l.fixedLen)), nil
		case l.prim.Precision <= 9:
			return parquet.Int32Value(int32(d.LowBits())), nil
		default:
			return parquet.Int64Value(int64(d.LowBits())), nil
		}
	case *array.String:
		return parquet.ByteArrayValue(stringBytes(a, i)), nil
	case *array.Binary:
		return parquet.ByteArrayValue(a.Value(i)), nil
	case *array.FixedSizeBinary:
		return parquet.FixedLenByteArrayValue(a.Value(i)), nil
	}
	return parquet.Value{}, fmt.Errorf("write column %q of type %s from Arrow %s", l.name, l.prim, arr.DataType())
}

// shredFlat is shred for a top-level primitive column: one typed loop per
// Arrow type.
func shredFlat(l *leafColumn, arr arrow.Array, sel []int, optional bool) error {
	nulls := arr.NullN() > 0
	if nulls && !optional {
		for _, i := range sel {
			if arr.IsNull(i) {
				return notNullViolation(l.name)
			}
		}
	}
	def := 0
	if optional {
		def = 1
	}
	// Each typed loop writes the values of rows sel straight into the
	// slots of out, levels set; NULL rows are overwritten after.
	base := len(l.vals)
	vals := slices.Grow(l.vals, len(sel))[:base+len(sel)]
	out := vals[base:]
	col := l.col
	switch a := arr.(type) {
	case *array.Boolean:
		for k, i := range sel {
			out[k] = parquet.BooleanValue(a.Value(i)).Level(0, def, col)
		}
	case *array.Int32:
		raw := a.Int32Values()
		for k, i := range sel {
			out[k] = parquet.Int32Value(raw[i]).Level(0, def, col)
		}
	case *array.Date32:
		raw := a.Date32Values()
		for k, i := range sel {
			out[k] = parquet.Int32Value(int32(raw[i])).Level(0, def, col)
		}
	case *array.Int64:
		raw := a.Int64Values()
		for k, i := range sel {
			out[k] = parquet.Int64Value(raw[i]).Level(0, def, col)
		}
	case *array.Time64:
		raw := a.Time64Values()
		for k, i := range sel {
			out[k] = parquet.Int64Value(int64(raw[i])).Level(0, def, col)
		}
	case *array.Timestamp:
		raw := a.TimestampValues()
		for k, i := range sel {
			out[k] = parquet.Int64Value(int64(raw[i])).Level(0, def, col)
		}
	case *array.Float32:
		raw := a.Float32Values()
		for k, i := range sel {
			out[k] = parquet.FloatValue(raw[i]).Level(0, def, col)
		}
	case *array.Float64:
		raw := a.Float64Values()
		for k, i := range sel {
			out[k] = parquet.DoubleValue(raw[i]).Level(0, def, col)
		}
	case *array.Decimal128:
		raw := a.Values()
		switch {
		case l.fixedLen > 0:
			if need := len(sel) * l.fixedLen; cap(l.scratch) < need {
				l.scratch = make([]byte, 0, need)
			}
			for k, i := range sel {
				start := len(l.scratch)
				l.scratch = decimalFixedBytes(l.scratch, raw[i], l.fixedLen)
				out[k] = parquet.FixedLenByteArrayValue(l.scratch[start:len(l.scratch):len(l.scratch)]).Level(0, def, col)
			}
		case l.prim.Precision <= 9:
			for k, i := range sel {
				out[k] = parquet.Int32Value(int32(raw[i].LowBits())).Level(0, def, col)
			}
		default:
			for k, i := range sel {
				out[k] = parquet.Int64Value(int64(raw[i].LowBits())).Level(0, def, col)
			}
		}
	case *array.String:
		offs := a.ValueOffsets()
		var data []byte
		if b := a.Data().Buffers()[2]; b != nil {
			data = b.Bytes()
		}
		for k, i := range sel {
			out[k] = parquet.ByteArrayValue(data[offs[i]:offs[i+1]:offs[i+1]]).Level(0, def, col)
		}
	case *array.Binary:
		for k, i := range sel {
			out[k] = parquet.ByteArrayValue(a.Value(i)).Level(0, def, col)
		}
	case *array.FixedSizeBinary:
		for k, i := range sel {
			out[k] = parquet.FixedLenByteArrayValue(a.Value(i)).Level(0, def, col)
		}
	default:
		return fmt.Errorf("write column %q of type %s from Arrow %s", l.name, l.prim, arr.DataType())
	}
	if nulls {
		null := parquet.NullValue().Level(0, 0, col)
		for k, i := range sel {
			if arr.IsNull(i) {
				out[k] = null
			}
		}
	}
	l.vals = vals
	return nil
}
