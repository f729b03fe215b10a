package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var _ extraArgState = (*stringAggState)(nil)

// extraArgState is an aggState whose calls have arguments after the first
// (string_agg's delimiter): the aggregate calls updateExtra instead of
// update, with the evaluated extra arguments.
type extraArgState interface {
	aggState
	updateExtra(g []int32, arg arrow.Array, extra []arrow.Array) error
}

// stringAggState is string_agg(value, delimiter) over text or bytea: the
// non-NULL values in input order, each but the first preceded by its
// row's delimiter (nothing when that is NULL). No values is NULL.
type stringAggState struct {
	bytea bool
	buf   [][]byte
	seen  []bool
}

func (s *stringAggState) release() {}

func (s *stringAggState) grow(n int) { s.buf, s.seen = growTo(s.buf, n), growTo(s.seen, n) }

func (s *stringAggState) update(g []int32, arg arrow.Array) error {
	return fmt.Errorf("string_agg needs its delimiter argument")
}

// bytesAppender appends row i of a text or bytea array to dst.
func bytesAppender(a arrow.Array) (func(dst []byte, i int) []byte, error) {
	switch a := a.(type) {
	case *array.String:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }, nil
	case *array.Binary:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }, nil
	case *array.Null:
		return func(dst []byte, i int) []byte { return dst }, nil
	}
	return nil, fmt.Errorf("string_agg over %s", a.DataType())
}

func (s *stringAggState) updateExtra(g []int32, arg arrow.Array, extra []arrow.Array) error {
	if len(extra) != 1 {
		return fmt.Errorf("string_agg takes 2 arguments, got %d", 1+len(extra))
	}
	val, err := bytesAppender(arg)
	if err != nil {
		return err
	}
	delim := extra[0]
	sep, err := bytesAppender(delim)
	if err != nil {
		return err
	}
	for i, k := range g {
		if k < 0 || arg.IsNull(i) {
			continue
		}
		if s.seen[k] && delim.IsValid(i) {
			s.buf[k] = sep(s.buf[k], i)
		}
		s.buf[k] = val(s.buf[k], i)
		s.seen[k] = true
	}
	return nil
}

func (s *stringAggState) result(mem memory.Allocator) (arrow.Array, error) {
	t := arrow.BinaryTypes.String
	if s.bytea {
		t = arrow.BinaryTypes.Binary
	}
	b := array.NewBinaryBuilder(mem, t)
	defer b.Release()
	for k, v := range s.buf {
		if s.seen[k] {
			b.Append(v)
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray(), nil
}
