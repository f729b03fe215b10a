package exec

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
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
	bytes int64 // capacity of the buffers, for held
}

// held is the memory the buffers take.
func (s *stringAggState) held() int64 { return s.bytes + int64(len(s.buf))*25 }

func (s *stringAggState) release() {}

func (s *stringAggState) grow(n int) { s.buf, s.seen = growTo(s.buf, n), growTo(s.seen, n) }

func (s *stringAggState) update(g []int32, arg arrow.Array) error {
	return fmt.Errorf("string_agg needs its delimiter argument")
}

// bytesValue returns row i of a text or bytea array.
func bytesValue(a arrow.Array) (func(i int) []byte, error) {
	switch a := a.(type) {
	case *array.String:
		return func(i int) []byte { return unsafe.Slice(unsafe.StringData(a.Value(i)), len(a.Value(i))) }, nil
	case *array.Binary:
		return a.Value, nil
	case *array.Null:
		return func(i int) []byte { return nil }, nil
	}
	return nil, fmt.Errorf("string_agg over %s", a.DataType())
}

func (s *stringAggState) updateExtra(g []int32, arg arrow.Array, extra []arrow.Array) error {
	if len(extra) != 1 {
		return fmt.Errorf("string_agg takes 2 arguments, got %d", 1+len(extra))
	}
	val, err := bytesValue(arg)
	if err != nil {
		return err
	}
	delim := extra[0]
	sep, err := bytesValue(delim)
	if err != nil {
		return err
	}
	for i, k := range g {
		if k < 0 || arg.IsNull(i) {
			continue
		}
		v, d := val(i), []byte(nil)
		if s.seen[k] && delim.IsValid(i) {
			d = sep(i)
		}
		buf := s.buf[k]
		if more := len(d) + len(v); int64(len(buf))+int64(more) > expr.MaxValueBytes {
			// PostgreSQL's string buffers stop at 1GB.
			return pgerr.New(pgerr.ProgramLimitExceeded, "out of memory").
				WithDetail("Cannot enlarge string buffer containing %d bytes by %d more bytes.", len(buf), more)
		}
		before := cap(buf)
		buf = append(append(buf, d...), v...)
		s.bytes += int64(cap(buf) - before)
		s.buf[k] = buf
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
