package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// slicer emits a materialized result (of a sort or an aggregation) as
// slices of at most outBatchRows rows. The slice handed out is valid until
// the next call to next or release.
type slicer struct {
	result arrow.RecordBatch // owned; nil when there is none
	pos    int64
	out    arrow.RecordBatch
}

// set takes ownership of the result to emit.
func (s *slicer) set(result arrow.RecordBatch) { s.result, s.pos = result, 0 }

// next returns the next slice, nil at the end.
func (s *slicer) next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.out != nil {
		s.out.Release()
		s.out = nil
	}
	if s.result == nil || s.pos >= s.result.NumRows() {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	end := min(s.pos+outBatchRows, s.result.NumRows())
	s.out = s.result.NewSlice(s.pos, end)
	s.pos = end
	return s.out, nil
}

// release frees the last slice and the result.
func (s *slicer) release() {
	if s.out != nil {
		s.out.Release()
		s.out = nil
	}
	if s.result != nil {
		s.result.Release()
		s.result = nil
	}
}
