package expr

import (
	"context"
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
)

// colNode reads a column of the batch; dictionary columns are decoded.
type colNode struct {
	idx    int
	decode bool
	t      arrow.DataType
}

func (n *colNode) eval(ev *evalCtx) (vec, error) {
	a, err := ev.column(n.idx)
	if err != nil {
		return vec{}, err
	}
	if n.decode {
		d, ok := a.(*array.Dictionary)
		if !ok {
			return vec{arr: a}, nil
		}
		defer a.Release()
		out, err := compute.TakeArray(compute.WithAllocator(ev.ctx, ev.mem), d.Dictionary(), d.Indices())
		if err != nil {
			return vec{}, fmt.Errorf("decode dictionary column %d: %w", n.idx, err)
		}
		return vec{arr: out}, nil
	}
	return vec{arr: a}, nil
}

// litNode is a constant: its one-row array, built when it is compiled
// (so a value that does not convert fails then), is what every Eval
// returns, retained for the caller; arrays are immutable.
type litNode struct {
	lit *Lit
	arr arrow.Array
}

func newLitNode(l *Lit) (node, error) {
	a, err := LitArray(memory.DefaultAllocator, l)
	if err != nil {
		return nil, err
	}
	return &litNode{lit: l, arr: a}, nil
}

func (n *litNode) eval(ev *evalCtx) (vec, error) {
	n.arr.Retain()
	return vec{arr: n.arr, c: true}, nil
}

// LitArray builds a one-row array holding the literal's value.
func LitArray(mem memory.Allocator, l *Lit) (arrow.Array, error) {
	t := l.T
	if kindOf(t) == kNull || t == nil {
		return array.MakeArrayOfNull(mem, arrow.Null, 1), nil
	}
	if IsNumericType(t) {
		fb := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: numericWidth})
		defer fb.Release()
		nb := newNumericBuilder(fb)
		if l.V == nil {
			nb.AppendNull()
		} else {
			u, s, err := litDecimal(l.V)
			if err != nil {
				return nil, err
			}
			nb.Append(u, s)
		}
		return nb.NewArray(), nil
	}
	b := array.NewBuilder(mem, t)
	defer b.Release()
	if l.V == nil {
		b.AppendNull()
		return b.NewArray(), nil
	}
	if err := appendGo(b, l.V); err != nil {
		return nil, fmt.Errorf("literal %v of type %s: %w", l.V, t, err)
	}
	return b.NewArray(), nil
}

func litDecimal(v any) (decimal128.Num, int32, error) {
	switch v := v.(type) {
	case catalog.Decimal:
		n, ok := bigToDec(v.Unscaled)
		if !ok {
			return n, 0, errNumOver
		}
		return n, int32(v.Scale), nil
	case *catalog.Decimal:
		return litDecimal(*v)
	case decimal128.Num:
		return v, 0, nil
	case int64:
		return decimal128.FromI64(v), 0, nil
	case int32:
		return decimal128.FromI64(int64(v)), 0, nil
	case int:
		return decimal128.FromI64(int64(v)), 0, nil
	case string:
		u, s, ok := parseDecimal(v)
		if !ok {
			return u, 0, invalidInput("numeric", v)
		}
		return u, s, nil
	}
	return decimal128.Num{}, 0, fmt.Errorf("numeric literal of Go type %T", v)
}

// appendGo appends a Go value (catalog/value.go's forms) to b.
func appendGo(b array.Builder, v any) error {
	switch b := b.(type) {
	case *array.BooleanBuilder:
		if x, ok := v.(bool); ok {
			b.Append(x)
			return nil
		}
	case *array.Int16Builder:
		if x, ok := asInt64(v); ok {
			b.Append(int16(x))
			return nil
		}
	case *array.Int32Builder:
		if x, ok := asInt64(v); ok {
			b.Append(int32(x))
			return nil
		}
	case *array.Int64Builder:
		if x, ok := asInt64(v); ok {
			b.Append(x)
			return nil
		}
	case *array.Float32Builder:
		switch x := v.(type) {
		case float32:
			b.Append(x)
			return nil
		case float64:
			b.Append(float32(x))
			return nil
		}
	case *array.Float64Builder:
		switch x := v.(type) {
		case float64:
			b.Append(x)
			return nil
		case float32:
			b.Append(float64(x))
			return nil
		}
	case *array.StringBuilder:
		switch x := v.(type) {
		case string:
			b.Append(x)
			return nil
		case []byte:
			b.BinaryBuilder.Append(x)
			return nil
		}
	case *array.BinaryBuilder:
		switch x := v.(type) {
		case []byte:
			b.Append(x)
			return nil
		case string:
			b.AppendString(x)
			return nil
		}
	case *array.FixedSizeBinaryBuilder:
		switch x := v.(type) {
		case []byte:
			b.Append(x)
			return nil
		case [16]byte:
			b.Append(x[:])
			return nil
		}
	case *array.Decimal128Builder:
		u, s, err := litDecimal(v)
		if err != nil {
			return err
		}
		ts := b.Type().(*arrow.Decimal128Type).Scale
		r, ok := decRescale(u, s, ts)
		if !ok {
			return errNumOver
		}
		b.Append(r)
		return nil
	case *array.Date32Builder:
		if x, ok := asInt64(v); ok {
			b.Append(arrow.Date32(x))
			return nil
		}
	case *array.Time64Builder:
		if x, ok := asInt64(v); ok {
			b.Append(arrow.Time64(x))
			return nil
		}
	case *array.TimestampBuilder:
		if x, ok := asInt64(v); ok {
			b.Append(arrow.Timestamp(x))
			return nil
		}
	case *array.ListBuilder:
		return appendGoList(b, v)
	case *array.MonthDayNanoIntervalBuilder:
		if x, ok := v.(arrow.MonthDayNanoInterval); ok {
			b.Append(x)
			return nil
		}
	}
	return fmt.Errorf("cannot hold Go %T", v)
}

// appendGoList appends a list given as []any (nil elements are NULLs),
// []string, []int16, []int32 or []int64.
func appendGoList(b *array.ListBuilder, v any) error {
	var elems []any
	switch x := v.(type) {
	case []any:
		elems = x
	case []string:
		for _, e := range x {
			elems = append(elems, e)
		}
	case []int16:
		for _, e := range x {
			elems = append(elems, e)
		}
	case []int32:
		for _, e := range x {
			elems = append(elems, e)
		}
	case []int64:
		for _, e := range x {
			elems = append(elems, e)
		}
	default:
		return fmt.Errorf("cannot hold Go %T in a list", v)
	}
	b.Append(true)
	vb := b.ValueBuilder()
	for _, e := range elems {
		if e == nil {
			vb.AppendNull()
			continue
		}
		if err := appendGo(vb, e); err != nil {
			return err
		}
	}
	return nil
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint32:
		return int64(x), true
	case *big.Int:
		if x.IsInt64() {
			return x.Int64(), true
		}
	}
	return 0, false
}

// broadcast repeats the single value of a to n rows.
func broadcast(mem memory.Allocator, a arrow.Array, n int) (arrow.Array, error) {
	if n == 0 {
		return array.MakeArrayOfNull(mem, a.DataType(), 0), nil
	}
	if a.IsNull(0) {
		return makeNulls(mem, a.DataType(), n), nil
	}
	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	ib.AppendValues(make([]int32, n), nil)
	idx := ib.NewArray()
	defer idx.Release()
	return takeArray(context.Background(), mem, a, idx)
}

// makeNulls is an all-NULL array of type t.
func makeNulls(mem memory.Allocator, t arrow.DataType, n int) arrow.Array {
	if IsNumericType(t) {
		st := array.MakeArrayOfNull(mem, &arrow.FixedSizeBinaryType{ByteWidth: numericWidth}, n)
		defer st.Release()
		return array.NewExtensionArrayWithStorage(theNumericType, st)
	}
	return array.MakeArrayOfNull(mem, t, n)
}
