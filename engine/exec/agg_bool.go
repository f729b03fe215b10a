package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// boolState is bool_and / every (or false) and bool_or (or true): NULLs
// are skipped; a group without a non-NULL value is NULL.
type boolState struct {
	or   bool
	v    []bool
	seen []bool
}

func (s *boolState) release() {}

func (s *boolState) grow(n int) { s.v, s.seen = growTo(s.v, n), growTo(s.seen, n) }

func (s *boolState) update(g []int32, arg arrow.Array) error {
	a, ok := arg.(*array.Boolean)
	if !ok {
		return fmt.Errorf("bool aggregate over %s", arg.DataType())
	}
	for i, k := range g {
		if k < 0 || a.IsNull(i) {
			continue
		}
		x := a.Value(i)
		if !s.seen[k] {
			s.v[k], s.seen[k] = x, true
		} else if s.or {
			s.v[k] = s.v[k] || x
		} else {
			s.v[k] = s.v[k] && x
		}
	}
	return nil
}

func (s *boolState) result(mem memory.Allocator) (arrow.Array, error) {
	b := array.NewBooleanBuilder(mem)
	defer b.Release()
	b.AppendValues(s.v, s.seen)
	return b.NewArray(), nil
}
