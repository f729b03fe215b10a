package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

// concatArrays concatenates arrays of one type (NumericType included).
func concatArrays(mem memory.Allocator, parts []arrow.Array) (arrow.Array, error) {
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	if _, ok := parts[0].(*expr.NumericArray); ok {
		st := make([]arrow.Array, len(parts))
		for i, p := range parts {
			st[i] = p.(*expr.NumericArray).Storage()
		}
		s, err := array.Concatenate(st, mem)
		if err != nil {
			return nil, err
		}
		defer s.Release()
		return array.NewExtensionArrayWithStorage(expr.NumericType().(arrow.ExtensionType), s), nil
	}
	return array.Concatenate(parts, mem)
}

// nullArray is an all-NULL array of type t.
func nullArray(mem memory.Allocator, t arrow.DataType, n int) arrow.Array {
	if expr.IsNumericType(t) {
		st := array.MakeArrayOfNull(mem, &arrow.FixedSizeBinaryType{ByteWidth: 17}, n)
		defer st.Release()
		return array.NewExtensionArrayWithStorage(expr.NumericType().(arrow.ExtensionType), st)
	}
	return array.MakeArrayOfNull(mem, t, n)
}

// concatBatches concatenates batches of one schema into one batch.
func concatBatches(mem memory.Allocator, schema *arrow.Schema, bs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	if len(bs) == 1 {
		bs[0].Retain()
		return bs[0], nil
	}
	cols := make([]arrow.Array, schema.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	var n int64
	for _, b := range bs {
		n += b.NumRows()
	}
	for j := range cols {
		parts := make([]arrow.Array, len(bs))
		for i, b := range bs {
			parts[i] = b.Column(j)
		}
		c, err := concatArrays(mem, parts)
		if err != nil {
			return nil, err
		}
		cols[j] = c
	}
	return array.NewRecordBatch(schema, cols, n), nil
}

// int32Array wraps indexes in an Int32 array.
func int32Array(mem memory.Allocator, idx []int32) arrow.Array {
	b := array.NewInt32Builder(mem)
	defer b.Release()
	b.AppendValues(idx, nil)
	return b.NewArray()
}

// takeBatch gathers rows idx of b.
func takeBatch(ctx context.Context, b arrow.RecordBatch, idx []int32) (arrow.RecordBatch, error) {
	var ia arrow.Array
	cols := make([]arrow.Array, b.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
		if ia != nil {
			ia.Release()
		}
	}()
	for j := range cols {
		c, err := takeTyped(ctx, b.Column(j), idx, &ia)
		if err != nil {
			return nil, err
		}
		cols[j] = c
	}
	return array.NewRecordBatch(b.Schema(), cols, int64(len(idx))), nil
}

// takeTyped gathers rows idx (none negative) of a: numbers, dates and
// texts by a loop of their own (takeFixed, takeBinary), other types by
// Arrow's take kernel, which runs each call on a goroutine behind its
// dispatch, over *ia: idx as an array, made on first need (the caller
// releases it).
func takeTyped(ctx context.Context, a arrow.Array, idx []int32, ia *arrow.Array) (arrow.Array, error) {
	mem := expr.Allocator(ctx)
	if t := takeFixed(mem, a, idx); t != nil {
		return t, nil
	}
	if t := takeBinary(mem, a, idx); t != nil {
		return t, nil
	}
	if *ia == nil {
		*ia = int32Array(mem, idx)
	}
	return expr.TakeArray(ctx, a, *ia)
}
