package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Kernels of the system catalog's helper functions that work on whole
// arrays rather than row values. They have no entry in Resolve: the binder
// builds their Calls with the result type itself (only for the spellings
// PostgreSQL accepts, such as information_schema._pg_expandarray).
//
//	_pg_expandarray   list<T>                  list<struct<x T, n int4>>: each element with its
//	                                           1-based position (unnest it for the rows)
//	_record_field     struct, int4 (constant)  the field at that index (0-based)

// ExpandArrayType is the result type of _pg_expandarray over lists of
// elem.
func ExpandArrayType(elem arrow.DataType) arrow.DataType {
	return arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "x", Type: elem, Nullable: true},
		arrow.Field{Name: "n", Type: Int4, Nullable: true}))
}

func kernelSys(_ *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	switch fn {
	case "_pg_expandarray":
		l, ok := ts[0].(*arrow.ListType)
		if len(ts) != 1 || !ok || !arrow.TypeEqual(res, ExpandArrayType(l.Elem())) {
			return nil, true, wrongArgs(fn, ts)
		}
		return expandArrayKernel(res), true, nil
	case "_record_field":
		st, ok := ts[0].(*arrow.StructType)
		if len(ts) != 2 || !ok || kindOf(ts[1]) != kInt4 {
			return nil, true, wrongArgs(fn, ts)
		}
		return recordFieldKernel(st, res), true, nil
	}
	return nil, false, nil
}

// expandArrayKernel pairs each list element with its position: the
// result shares the input's offsets and validity, its child is a struct of
// the input's values and the positions.
func expandArrayKernel(res arrow.DataType) kernelFn {
	st := res.(*arrow.ListType).Elem().(*arrow.StructType)
	return func(ev *evalCtx, args []vec) (vec, error) {
		l, ok := args[0].arr.(*array.List)
		if !ok {
			return vec{}, fmt.Errorf("_pg_expandarray of %s", args[0].arr.DataType())
		}
		values := l.ListValues()
		ords := make([]int32, values.Len())
		for i := 0; i < l.Len(); i++ {
			if l.IsNull(i) {
				continue
			}
			s, e := l.ValueOffsets(i)
			for j := s; j < e; j++ {
				ords[j] = int32(j - s + 1)
			}
		}
		nb := array.NewInt32Builder(ev.mem)
		defer nb.Release()
		nb.AppendValues(ords, nil)
		n := nb.NewArray()
		defer n.Release()
		pairs, err := array.NewStructArrayWithFields([]arrow.Array{values, n}, st.Fields())
		if err != nil {
			return vec{}, fmt.Errorf("_pg_expandarray: %w", err)
		}
		defer pairs.Release()
		in := l.Data()
		data := array.NewData(res, in.Len(), []*memory.Buffer{in.Buffers()[0], in.Buffers()[1]},
			[]arrow.ArrayData{pairs.Data()}, in.NullN(), in.Offset())
		defer data.Release()
		return vec{arr: array.MakeFromData(data), c: args[0].c}, nil
	}
}

// recordFieldKernel selects one field of a struct.
func recordFieldKernel(st *arrow.StructType, res arrow.DataType) kernelFn {
	return func(_ *evalCtx, args []vec) (vec, error) {
		s, ok := args[0].arr.(*array.Struct)
		idx, ok2 := args[1].arr.(*array.Int32)
		if !ok || !ok2 || idx.Len() == 0 || idx.IsNull(0) {
			return vec{}, fmt.Errorf("_record_field of %s", args[0].arr.DataType())
		}
		i := int(idx.Value(0))
		if i < 0 || i >= st.NumFields() || !arrow.TypeEqual(st.Field(i).Type, res) {
			return vec{}, fmt.Errorf("_record_field %d of %s", i, st)
		}
		f := s.Field(i)
		f.Retain()
		return vec{arr: f, c: args[0].c}, nil
	}
}
