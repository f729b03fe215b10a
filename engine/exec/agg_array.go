package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
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
}

func (s *arrayAggState) grow(n int) { s.n = n }

func (s *arrayAggState) update(g []int32, arg arrow.Array) error {
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
	return array.NewListData(data), nil
}

func (s *arrayAggState) release() {
	releaseAll(s.parts)
	s.parts, s.groups = nil, nil
}

func (s *arrayAggState) held() int64 { return partsBytes(s.parts) + 4*int64(len(s.groups)) }
