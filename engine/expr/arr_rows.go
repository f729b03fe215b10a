package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// Row-at-a-time result builders of the array and JSON kernels, whose work
// per row (a walk over a list or a JSON document) dwarfs the dispatch.

// arrBoolRows builds a bool result of n rows from f (ok false = NULL).
func arrBoolRows(ev *evalCtx, n int, c bool, f func(i int) (v, ok bool)) vec {
	out := newBoolOut(ev.mem, n)
	valid := newBoolOut(ev.mem, n)
	nulls := 0
	for i := 0; i < n; i++ {
		v, ok := f(i)
		if !ok {
			nulls++
			continue
		}
		valid.set(i)
		if v {
			out.set(i)
		}
	}
	if nulls == 0 {
		valid.buf.Release()
		return vec{arr: out.finish(n, nil, 0), c: c}
	}
	return vec{arr: out.finish(n, valid.buf, nulls), c: c}
}

// arrInt4Rows builds an int4 result of n rows from f (ok false = NULL).
func arrInt4Rows(ev *evalCtx, n int, c bool, f func(i int) (v int32, ok bool)) vec {
	b := array.NewInt32Builder(ev.mem)
	defer b.Release()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		if v, ok := f(i); ok {
			b.UnsafeAppend(v)
		} else {
			b.UnsafeAppendBoolToBitmap(false)
		}
	}
	return vec{arr: b.NewArray(), c: c}
}

// arrTextRows builds a text result of n rows from f (ok false = NULL); f
// appends to dst.
func arrTextRows(ev *evalCtx, n int, c bool, f func(i int, dst []byte) ([]byte, bool, error)) (vec, error) {
	b := array.NewStringBuilder(ev.mem)
	defer b.Release()
	b.Reserve(n)
	var buf []byte
	for i := 0; i < n; i++ {
		var ok bool
		var err error
		buf, ok, err = f(i, buf[:0])
		if err != nil {
			return vec{}, err
		}
		if !ok {
			b.AppendNull()
			continue
		}
		b.BinaryBuilder.Append(buf)
	}
	return vec{arr: b.NewArray(), c: c}, nil
}

// arrInt4 reads an int4 (or Null-typed) argument by row.
type arrInt4 struct {
	v     []int32
	valid bitmap
	m     int
	null  bool
}

func readArrInt4(v vec) arrInt4 {
	if v.arr.DataType().ID() == arrow.NULL {
		return arrInt4{null: true}
	}
	return arrInt4{v: values[int32](v.arr), valid: validityOf(v), m: v.idx()}
}

func (a arrInt4) get(i int) (int32, bool) {
	if a.null || !a.valid.valid(i) {
		return 0, false
	}
	return a.v[i&a.m], true
}

// arrText reads a text (or Null-typed) argument by row.
type arrText struct {
	s     bytesOf
	valid bitmap
	null  bool
}

func readArrText(v vec) arrText {
	if v.arr.DataType().ID() == arrow.NULL {
		return arrText{null: true}
	}
	return arrText{s: binaryOf(v), valid: validityOf(v)}
}

func (a arrText) get(i int) ([]byte, bool) {
	if a.null || !a.valid.valid(i) {
		return nil, false
	}
	return a.s.get(i), true
}

// elemComparer is the three-way comparison of element j of a with row k
// of b (neither NULL), for arrays of the same element type.
func elemComparer(a, b arrow.Array) (func(j, k int) int, error) {
	if a.DataType().ID() == arrow.NULL || b.DataType().ID() == arrow.NULL {
		return func(int, int) int { return 0 }, nil
	}
	cmp, err := Comparator(a, b)
	if err != nil {
		return nil, pgerr.Unsupported("comparing array elements of type %s", arrTypeName(a.DataType()))
	}
	return cmp, nil
}

// comparableElem checks at compile time that elements of t can be
// compared.
func comparableElem(t arrow.DataType) error {
	switch kindOf(t) {
	case kInvalid:
		return pgerr.Unsupported("comparing array elements of type %s", arrTypeName(t))
	}
	return nil
}
