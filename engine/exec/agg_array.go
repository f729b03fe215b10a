package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

var _ aggState = (*arrayAggState)(nil)

// arrayAggState is array_agg(x): each group's values (NULLs included) in
// input order as an Arrow list; a group without rows is NULL. The rows of
// each batch are copied out, so memory follows the aggregated rows.
type arrayAggState struct {
	ctx    context.Context
	elem   arrow.DataType
	n      int
	parts  []arrow.Array // kept rows of each batch
	groups []int32       // group of each kept row, over all parts
	// Each group's elements and their bytes, against PostgreSQL's limits
	// of one array (maxArrayElems, expr.MaxValueBytes).
	count, size []int64
	// arrays is array_agg of arrays: the result's sub-arrays must be
	// neither NULL nor empty and have one shape (expr.CheckAccumulated).
	arrays bool
}

// maxArrayElems is PostgreSQL's MaxArraySize: the most elements an array
// has (1GB of 8-byte values).
const maxArrayElems = 134217727

// errArrayTooLarge is PostgreSQL's error for an array past one of its
// limits.
func errArrayTooLarge(limit int64) error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", limit)
}

func (s *arrayAggState) grow(n int) { s.n, s.count, s.size = n, growTo(s.count, n), growTo(s.size, n) }

// elemBytes returns the bytes of row i of a: its value's length for text
// and bytea, its width for fixed-width types, 8 for others.
func elemBytes(a arrow.Array) func(i int) int64 {
	switch a := a.(type) {
	case *array.String:
		return func(i int) int64 { return int64(a.ValueLen(i)) }
	case *array.Binary:
		return func(i int) int64 { return int64(a.ValueLen(i)) }
	}
	w := int64(8)
	if fw, ok := a.DataType().(arrow.FixedWidthDataType); ok {
		w = int64(max(fw.BitWidth()/8, 1))
	}
	return func(int) int64 { return w }
}

// countElems counts the elements of the rows of arg that have a group,
// stopping at PostgreSQL's limits of one array (maxElems, maxBytes).
func (s *arrayAggState) countElems(g []int32, arg arrow.Array, maxElems, maxBytes int64) error {
	size := elemBytes(arg)
	for i, k := range g {
		if k < 0 {
			continue
		}
		s.count[k]++
		s.size[k] += size(i)
		if s.count[k] > maxElems {
			return errArrayTooLarge(maxElems)
		}
		if s.size[k] > maxBytes {
			return errArrayTooLarge(maxBytes)
		}
	}
	return nil
}

func (s *arrayAggState) update(g []int32, arg arrow.Array) error {
	if err := s.countElems(g, arg, maxArrayElems, expr.MaxValueBytes); err != nil {
		return err
	}
	var idx []int32
	for i, k := range g {
		if k >= 0 {
			idx = append(idx, int32(i))
			s.groups = append(s.groups, k)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	if len(idx) == arg.Len() {
		arg.Retain()
		s.parts = append(s.parts, arg)
	} else {
		ia := int32Array(expr.Allocator(s.ctx), idx)
		defer ia.Release()
		t, err := expr.TakeArray(s.ctx, arg, ia)
		if err != nil {
			return err
		}
		s.parts = append(s.parts, t)
	}
	if len(s.parts) >= 64 {
		all, err := concatArrays(expr.Allocator(s.ctx), s.parts)
		if err != nil {
			return err
		}
		releaseAll(s.parts)
		s.parts = []arrow.Array{all}
	}
	return nil
}

func (s *arrayAggState) result(mem memory.Allocator) (arrow.Array, error) {
	// Counting sort of the rows by group keeps input order within a group.
	offsets := make([]int32, s.n+1)
	for _, k := range s.groups {
		offsets[k+1]++
	}
	for k := 0; k < s.n; k++ {
		offsets[k+1] += offsets[k]
	}
	pos := append([]int32(nil), offsets[:s.n]...)
	order := make([]int32, len(s.groups))
	for r, k := range s.groups {
		order[pos[k]] = int32(r)
		pos[k]++
	}
	var values arrow.Array
	if len(s.parts) == 0 {
		values = nullArray(mem, s.elem, 0)
	} else {
		all, err := concatArrays(mem, s.parts)
		if err != nil {
			return nil, err
		}
		defer all.Release()
		ia := int32Array(mem, order)
		defer ia.Release()
		if values, err = expr.TakeArray(expr.WithAllocator(s.ctx, mem), all, ia); err != nil {
			return nil, err
		}
	}
	defer values.Release()
	valid := make([]byte, bitutil.BytesForBits(int64(s.n)))
	nulls := 0
	for k := 0; k < s.n; k++ {
		if offsets[k+1] > offsets[k] {
			bitutil.SetBit(valid, k)
		} else {
			nulls++
		}
	}
	data := array.NewData(arrow.ListOf(s.elem), s.n,
		[]*memory.Buffer{memory.NewBufferBytes(valid), memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))},
		[]arrow.ArrayData{values.Data()}, nulls, 0)
	defer data.Release()
	out := array.NewListData(data)
	if s.arrays {
		if err := expr.CheckAccumulated(out); err != nil {
			out.Release()
			return nil, err
		}
	}
	return out, nil
}

func (s *arrayAggState) release() {
	releaseAll(s.parts)
	s.parts, s.groups = nil, nil
}

func (s *arrayAggState) held() int64 { return partsBytes(s.parts) + 4*int64(len(s.groups)) }
