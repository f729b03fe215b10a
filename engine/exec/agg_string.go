package exec

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
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
//
// A group's value grows in buf by append until it holds stringAggChunk
// bytes; from then on a full buffer moves to the group's chunks and a new
// one of stringAggChunk bytes starts. Growing a long value by
// reallocation would leave each smaller copy behind until the collector
// runs - four times the value for append's growth by a quarter - while
// the statement's memory limit sees only the last copy.
type stringAggState struct {
	bytea  bool
	buf    [][]byte
	seen   []bool
	chunks map[int32]*stringChunks // the full buffers of long values
	bytes  int64                   // capacity of the buffers, for held
}

// stringChunks are the full buffers of a long value, in order, and their
// length.
type stringChunks struct {
	full [][]byte
	n    int64
}

// stringAggChunk is the size from which a value grows by chunks.
const stringAggChunk = 1 << 20

// held is the memory the buffers take.
func (s *stringAggState) held() int64 { return s.bytes + int64(len(s.buf))*25 }

func (s *stringAggState) release() {}

func (s *stringAggState) grow(n int) { s.buf, s.seen = growTo(s.buf, n), growTo(s.seen, n) }

// appendTo adds v to group k's value.
func (s *stringAggState) appendTo(k int32, v []byte) {
	buf := s.buf[k]
	if len(buf)+len(v) > cap(buf) && cap(buf) >= stringAggChunk {
		if s.chunks == nil {
			s.chunks = map[int32]*stringChunks{}
		}
		c := s.chunks[k]
		if c == nil {
			c = &stringChunks{}
			s.chunks[k] = c
		}
		c.full, c.n = append(c.full, buf), c.n+int64(len(buf))
		buf = make([]byte, 0, max(stringAggChunk, len(v)))
		s.bytes += int64(cap(buf))
	}
	before := cap(buf)
	buf = append(buf, v...)
	s.bytes += int64(cap(buf) - before)
	s.buf[k] = buf
}

// length is the length of group k's value.
func (s *stringAggState) length(k int32) int64 {
	n := int64(len(s.buf[k]))
	if c := s.chunks[k]; c != nil {
		n += c.n
	}
	return n
}

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
		if more, n := len(d)+len(v), s.length(k); n+int64(more) > expr.MaxValueBytes {
			// PostgreSQL's string buffers stop at 1GB.
			return pgerr.New(pgerr.ProgramLimitExceeded, "out of memory").
				WithDetail("Cannot enlarge string buffer containing %d bytes by %d more bytes.", n, more)
		}
		s.appendTo(k, d)
		s.appendTo(k, v)
		s.seen[k] = true
	}
	return nil
}

// result builds the values' array in place: offsets, then the bytes of
// each value's chunks and buffer, copied once.
func (s *stringAggState) result(mem memory.Allocator) (arrow.Array, error) {
	t := arrow.BinaryTypes.String
	if s.bytea {
		t = arrow.BinaryTypes.Binary
	}
	n := len(s.buf)
	var total int64
	for k := range n {
		total += s.length(int32(k))
	}
	if total > math.MaxInt32 {
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "out of memory").
			WithDetail("string_agg's values in one batch of groups take %d bytes, more than %d.", total, math.MaxInt32)
	}
	valid := memory.NewResizableBuffer(mem)
	defer valid.Release()
	valid.Resize(int(bitutil.BytesForBits(int64(n))))
	offsets := memory.NewResizableBuffer(mem)
	defer offsets.Release()
	offsets.Resize(arrow.Int32Traits.BytesRequired(n + 1))
	data := memory.NewResizableBuffer(mem)
	defer data.Release()
	data.Resize(int(total))

	bits, offs, out := valid.Bytes(), arrow.Int32Traits.CastFromBytes(offsets.Bytes()), data.Bytes()
	clear(bits)
	pos, nulls := 0, 0
	for k, buf := range s.buf {
		offs[k] = int32(pos)
		if !s.seen[k] {
			nulls++
			continue
		}
		bitutil.SetBit(bits, k)
		if c := s.chunks[int32(k)]; c != nil {
			for _, part := range c.full {
				pos += copy(out[pos:], part)
			}
		}
		pos += copy(out[pos:], buf)
	}
	offs[n] = int32(pos)
	d := array.NewData(t, n, []*memory.Buffer{valid, offsets, data}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}
