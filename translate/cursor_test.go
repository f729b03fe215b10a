package translate

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// countingRows yields n batches of size rows (values 1, 2, ...) and counts
// the batches read.
type countingRows struct {
	n, size, read int
}

func (r *countingRows) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.read == r.n {
		return nil, nil
	}
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	for i := range r.size {
		b.Append(int64(r.read*r.size + i + 1))
	}
	arr := b.NewArray()
	defer arr.Release()
	r.read++
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(r.size)), nil
}
func (r *countingRows) Tag(int64) string  { return "SELECT" }
func (r *countingRows) Notices() []Notice { return nil }
func (r *countingRows) Close() error      { return nil }

// TestCursorStreams: a FETCH reads only the batches its rows are in, and a
// forward-only cursor keeps only the batch its position is in.
func TestCursorStreams(t *testing.T) {
	ctx := context.Background()
	steps := []struct {
		count      int64
		first      int64 // first value fetched (0: none)
		rows       int64
		batchesNow int // batches read from the query so far
	}{
		{2048, 1, 2048, 3},
		{2048, 2049, 2048, 5},
		{10, 4097, 10, 5},
		{fetchAll, 4107, 5894, 10},
		{5, 0, 0, 10},
	}
	for _, scroll := range []bool{false, true} {
		src := &countingRows{n: 10, size: 1000}
		c := newCursor("c", nil, src, false, scroll, false)
		for i, s := range steps {
			plan, err := c.position(ctx, "forward", s.count, false)
			if err != nil {
				t.Fatal(err)
			}
			moves, execCount, err := c.run(plan.fwd, plan.count)
			if err != nil {
				t.Fatal(err)
			}
			r := &fetchRows{c: c, fwd: plan.fwd, moves: moves, execCount: execCount}
			var n, first int64
			for {
				b, err := r.Next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if b == nil {
					break
				}
				if n == 0 {
					first = b.Column(0).(*array.Int64).Value(0)
				}
				n += b.NumRows()
			}
			r.Close()
			if n != s.rows || first != s.first || src.read != s.batchesNow {
				t.Errorf("scroll %v step %d: %d rows from %d after %d batches, want %d from %d after %d",
					scroll, i, n, first, src.read, s.rows, s.first, s.batchesNow)
			}
			if !scroll && len(c.store) > 1 {
				t.Errorf("step %d: forward-only cursor keeps %d batches", i, len(c.store))
			}
		}
		if scroll && len(c.store) != 10 {
			t.Errorf("scroll cursor keeps %d batches, want 10", len(c.store))
		}
		c.close()
	}
}
