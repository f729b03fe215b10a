package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
)

var _ aggState = (*orderedState)(nil)

// orderedState runs an aggregate over its rows in the order of ORDER BY
// inside the call (array_agg(x ORDER BY y DESC), string_agg(s, ',' ORDER
// BY s), and WITHIN GROUP of ordered-set aggregates). It keeps the rows
// each group gets (arguments and sort keys), and at the end sorts them by
// group, then keys, then arrival, and feeds the inner aggregate once,
// with every group's rows together and in order.
type orderedState struct {
	ctx    context.Context
	inner  aggState
	spec   []SortKey
	n      int
	groups []int32
	arg    []arrow.Array   // parts of the argument (nil parts for count(*))
	extra  [][]arrow.Array // per extra argument, its parts
	keys   [][]arrow.Array // per sort key, its parts
}

func newOrderedState(ctx context.Context, inner aggState, spec []SortKey, nextra int) *orderedState {
	return &orderedState{ctx: ctx, inner: inner, spec: spec, extra: make([][]arrow.Array, nextra), keys: make([][]arrow.Array, len(spec))}
}

func (s *orderedState) grow(n int) { s.n = n }

func (s *orderedState) update(g []int32, arg arrow.Array) error {
	return fmt.Errorf("ordered aggregate without its sort keys")
}

// keep copies the rows of a that have a group.
func (s *orderedState) keep(a arrow.Array, idx arrow.Array, all bool) (arrow.Array, error) {
	if a == nil {
		return nil, nil
	}
	if all {
		a.Retain()
		return a, nil
	}
	return expr.TakeArray(s.ctx, a, idx)
}

// updateOrdered buffers one batch's rows.
func (s *orderedState) updateOrdered(g []int32, arg arrow.Array, extra, keys []arrow.Array) error {
	var rows []int32
	for i, k := range g {
		if k >= 0 {
			rows = append(rows, int32(i))
			s.groups = append(s.groups, k)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	all := len(rows) == len(g)
	idx := int32Array(expr.Allocator(s.ctx), rows)
	defer idx.Release()
	a, err := s.keep(arg, idx, all)
	if err != nil {
		return err
	}
	s.arg = append(s.arg, a)
	for j, e := range extra {
		c, err := s.keep(e, idx, all)
		if err != nil {
			return err
		}
		s.extra[j] = append(s.extra[j], c)
	}
	for j, k := range keys {
		c, err := s.keep(k, idx, all)
		if err != nil {
			return err
		}
		s.keys[j] = append(s.keys[j], c)
	}
	if len(s.arg) >= 64 {
		return s.compact()
	}
	return nil
}

// compact merges the buffered parts, so many small batches do not pile
// up as many small arrays.
func (s *orderedState) compact() error {
	mem := expr.Allocator(s.ctx)
	merge := func(parts []arrow.Array) ([]arrow.Array, error) {
		a, err := concatParts(mem, parts)
		if err != nil {
			return parts, err
		}
		if a == nil { // count(*): no argument to keep
			return parts[:1], nil
		}
		releaseAll(parts)
		return []arrow.Array{a}, nil
	}
	var err error
	if s.arg, err = merge(s.arg); err != nil {
		return err
	}
	for j := range s.extra {
		if s.extra[j], err = merge(s.extra[j]); err != nil {
			return err
		}
	}
	for j := range s.keys {
		if s.keys[j], err = merge(s.keys[j]); err != nil {
			return err
		}
	}
	return nil
}

// concatParts concatenates parts (nil when they are nil: count(*)).
func concatParts(mem memory.Allocator, parts []arrow.Array) (arrow.Array, error) {
	if len(parts) == 0 || parts[0] == nil {
		return nil, nil
	}
	return concatArrays(mem, parts)
}

func (s *orderedState) result(mem memory.Allocator) (arrow.Array, error) {
	s.inner.grow(s.n)
	if len(s.groups) > 0 {
		if err := s.replay(mem); err != nil {
			return nil, err
		}
	}
	return s.inner.result(mem)
}

// replay sorts the buffered rows and feeds them to the inner aggregate.
func (s *orderedState) replay(mem memory.Allocator) error {
	ctx := expr.WithAllocator(s.ctx, mem)
	var owned []arrow.Array
	defer func() { releaseAll(owned) }()
	cat := func(parts []arrow.Array) (arrow.Array, error) {
		a, err := concatParts(mem, parts)
		if a != nil {
			owned = append(owned, a)
		}
		return a, err
	}
	keys := make([]arrow.Array, len(s.keys))
	for j, parts := range s.keys {
		k, err := cat(parts)
		if err != nil {
			return err
		}
		keys[j] = k
	}
	cmp, err := rowOrder(keys, s.spec)
	if err != nil {
		return err
	}
	order := make([]int32, len(s.groups))
	for i := range order {
		order[i] = int32(i)
	}
	if err := sortFuncCtx(s.ctx, order, func(a, b int32) int {
		if ga, gb := s.groups[a], s.groups[b]; ga != gb {
			return int(ga - gb)
		}
		if c := cmp(int(a), int(b)); c != 0 {
			return c
		}
		return int(a - b)
	}); err != nil {
		return err
	}
	idx := int32Array(mem, order)
	defer idx.Release()
	take := func(parts []arrow.Array) (arrow.Array, error) {
		a, err := cat(parts)
		if err != nil || a == nil {
			return nil, err
		}
		t, err := expr.TakeArray(ctx, a, idx)
		if t != nil {
			owned = append(owned, t)
		}
		return t, err
	}
	g := make([]int32, len(order))
	for i, r := range order {
		g[i] = s.groups[r]
	}
	arg, err := take(s.arg)
	if err != nil {
		return err
	}
	if x, ok := s.inner.(extraArgState); ok {
		extra := make([]arrow.Array, len(s.extra))
		for j, parts := range s.extra {
			if extra[j], err = take(parts); err != nil {
				return err
			}
		}
		return x.updateExtra(g, arg, extra)
	}
	return s.inner.update(g, arg)
}

func (s *orderedState) release() {
	releaseAll(s.arg)
	for _, p := range s.extra {
		releaseAll(p)
	}
	for _, p := range s.keys {
		releaseAll(p)
	}
	s.arg, s.groups = nil, nil
	s.inner.release()
}

func (s *orderedState) held() int64 {
	n := partsBytes(s.arg) + 4*int64(len(s.groups))
	for _, e := range s.extra {
		n += partsBytes(e)
	}
	for _, k := range s.keys {
		n += partsBytes(k)
	}
	if h, ok := s.inner.(heldState); ok {
		n += h.held()
	}
	return n
}
