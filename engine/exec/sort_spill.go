package exec

import (
	"container/heap"
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/spill"
)

// An external merge sort: when the rows a sort buffers pass the
// statement's memory limit and the statement may spill, the buffered rows
// are sorted and written to a temporary file as one sorted run (with
// their evaluated sort keys as extra columns), and the buffer starts
// again. At the end of the input the runs are merged: one batch of each
// run in memory at a time, at most mergeFanIn runs at once (more are
// merged into longer runs first). Ties keep input order, as the in-memory
// sort does: runs hold consecutive stretches of the input, and equal rows
// are taken from the earlier run first.

const (
	// spillBatchRows is the rows per batch written to a run.
	spillBatchRows = 4096
	// mergeFanIn bounds the runs merged at once.
	mergeFanIn = 64
)

// spillSchema is the schema of a sort's runs: the input's columns, then
// the sort keys that are not input columns, typed as the first run's
// keys are (the in-memory sort concatenates the keys of all batches, so
// they share one type). It sets o.keyAt: where each key is in a run.
func (o *sortOp) spillSchema(keys []arrow.Array) *arrow.Schema {
	if o.runSchema != nil {
		return o.runSchema
	}
	in := o.in.Schema()
	fields := append([]arrow.Field(nil), in.Fields()...)
	o.keyAt = make([]int, len(keys))
	for i, k := range keys {
		if c, ok := o.keys[i].E.(*expr.Col); ok && c.Idx < in.NumFields() && arrow.TypeEqual(in.Field(c.Idx).Type, k.DataType()) {
			o.keyAt[i] = c.Idx // a column of the input: not written twice
			continue
		}
		o.keyAt[i] = len(fields)
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("sort_key_%d", i), Type: k.DataType(), Nullable: true})
	}
	o.runSchema = arrow.NewSchema(fields, nil)
	return o.runSchema
}

// spillRun sorts the buffered rows and writes them to a new run.
func (o *sortOp) spillRun() error {
	if o.rows == 0 {
		return nil
	}
	if err := o.sortBuffered(-1); err != nil {
		return err
	}
	b, keys := o.batches[0], o.keyCols[0]
	schema := o.spillSchema(keys)
	cols := append([]arrow.Array(nil), b.Columns()...)
	for i, k := range keys {
		if o.keyAt[i] >= len(b.Columns()) {
			cols = append(cols, k)
		}
	}
	whole := array.NewRecordBatch(schema, cols, b.NumRows())
	defer whole.Release()
	run, err := o.writeRun(func(w *spill.Writer) error {
		for start := int64(0); start < whole.NumRows(); start += spillBatchRows {
			if err := o.ctx.Err(); err != nil {
				return err
			}
			s := whole.NewSlice(start, min(start+spillBatchRows, whole.NumRows()))
			err := w.Write(s)
			s.Release()
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	o.runs = append(o.runs, run)
	o.releaseBuffered()
	o.mem.resize(nil)
	return nil
}

// writeRun makes a temporary file and fills it with fill.
func (o *sortOp) writeRun(fill func(w *spill.Writer) error) (*spill.File, error) {
	f, err := o.tmp.Create()
	if err != nil {
		return nil, err
	}
	w := spill.NewWriter(f, o.runSchema, expr.Allocator(o.ctx))
	if err := fill(w); err != nil {
		f.Close()
		return nil, err
	}
	if err := w.Finish(); err != nil {
		f.Close()
		return nil, err
	}
	o.spilled += f.Size()
	return f, nil
}

// startMerge spills what is still buffered, merges runs until at most
// mergeFanIn are left, and starts the final merge.
func (o *sortOp) startMerge() error {
	if err := o.spillRun(); err != nil {
		return err
	}
	fanIn := mergeFanIn
	if o.fanIn > 1 {
		fanIn = o.fanIn
	}
	for len(o.runs) > fanIn {
		m, err := newRunMerger(o.ctx, o.runs[:fanIn], o.runSchema, o.keys, o.keyAt)
		if err != nil {
			return err
		}
		run, err := o.writeRun(func(w *spill.Writer) error {
			for {
				b, err := m.next()
				if err != nil || b == nil {
					return err
				}
				err = w.Write(b)
				b.Release()
				if err != nil {
					return err
				}
			}
		})
		m.close()
		if err != nil {
			return err
		}
		for _, f := range o.runs[:fanIn] {
			f.Close()
		}
		// The merged run holds the earliest rows: it goes first, for
		// ties to keep input order.
		o.runs = append([]*spill.File{run}, o.runs[fanIn:]...)
	}
	m, err := newRunMerger(o.ctx, o.runs, o.runSchema, o.keys, o.keyAt)
	if err != nil {
		return err
	}
	o.merger = m
	return nil
}

// nextMerged is the next batch of the final merge, without the key
// columns.
func (o *sortOp) nextMerged() (arrow.RecordBatch, error) {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	b, err := o.merger.next()
	if err != nil || b == nil {
		return nil, err
	}
	defer b.Release()
	n := o.in.Schema().NumFields()
	o.out = array.NewRecordBatch(o.in.Schema(), b.Columns()[:n], b.NumRows())
	return o.out, nil
}

// closeSpill removes the sort's runs.
func (o *sortOp) closeSpill() {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	if o.merger != nil {
		o.merger.close()
		o.merger = nil
	}
	for _, f := range o.runs {
		f.Close()
	}
	o.runs = nil
}

// SpilledBytes is what the sort wrote to temporary files (EXPLAIN
// ANALYZE's "Disk").
func (o *sortOp) SpilledBytes() int64 { return o.spilled }

// runCursor is one run being merged: its current batch and row.
type runCursor struct {
	r    *spill.Reader
	b    arrow.RecordBatch // retained here
	keys []arrow.Array     // b's key columns
	row  int
	ord  int // the run's place in input order
	gen  int // bumped with each batch, to renew comparators
	pend int // b's index in the merger's pending batches, -1 when not there
}

// runMerger merges sorted runs into batches of outBatchRows rows with
// every column of the runs.
type runMerger struct {
	ctx   context.Context
	spec  []SortKey
	keyAt []int // each key's column in the runs
	curs  []*runCursor
	files []*spill.File
	h     cursorHeap
	// cmps[i*n+j] compares a row of cursor i with one of cursor j, for
	// the batches they held when it was made.
	cmps []crossCmp
	err  error
}

type crossCmp struct {
	gi, gj int
	f      func(i, j int) int
}

func newRunMerger(ctx context.Context, runs []*spill.File, schema *arrow.Schema, spec []SortKey, keyAt []int) (*runMerger, error) {
	m := &runMerger{ctx: ctx, spec: spec, keyAt: keyAt, files: runs}
	m.h.m = m
	for i, f := range runs {
		r, err := spill.NewReader(f, schema, expr.Allocator(ctx))
		if err != nil {
			m.close()
			return nil, err
		}
		c := &runCursor{r: r, ord: i, pend: -1}
		m.curs = append(m.curs, c)
		ok, err := m.advance(c)
		if err != nil {
			m.close()
			return nil, err
		}
		if ok {
			m.h.idx = append(m.h.idx, i)
		}
	}
	m.cmps = make([]crossCmp, len(m.curs)*len(m.curs))
	for i := range m.cmps {
		m.cmps[i].gi = -1
	}
	heap.Init(&m.h)
	if m.err != nil {
		m.close()
		return nil, m.err
	}
	return m, nil
}

// advance loads c's next batch: false at the end of its run.
func (m *runMerger) advance(c *runCursor) (bool, error) {
	if c.b != nil {
		c.b.Release()
		c.b = nil
	}
	b, err := c.r.Next()
	if err != nil || b == nil {
		return false, err
	}
	b.Retain()
	c.b, c.row, c.pend = b, 0, -1
	c.gen++
	c.keys = c.keys[:0]
	for _, at := range m.keyAt {
		c.keys = append(c.keys, b.Column(at))
	}
	return true, nil
}

// less orders the current rows of cursors i and j; equal rows go by run.
func (m *runMerger) less(i, j int) bool {
	ci, cj := m.curs[i], m.curs[j]
	cc := &m.cmps[i*len(m.curs)+j]
	if cc.gi != ci.gen || cc.gj != cj.gen || cc.f == nil {
		f, err := rowOrder2(ci.keys, cj.keys, m.spec)
		if err != nil {
			if m.err == nil {
				m.err = err
			}
			return ci.ord < cj.ord
		}
		*cc = crossCmp{gi: ci.gen, gj: cj.gen, f: f}
	}
	if c := cc.f(ci.row, cj.row); c != 0 {
		return c < 0
	}
	return ci.ord < cj.ord
}

// next is the next merged batch (the caller releases it), nil at the end.
func (m *runMerger) next() (arrow.RecordBatch, error) {
	if err := m.ctx.Err(); err != nil {
		return nil, err
	}
	var (
		pending []arrow.RecordBatch
		srcs    []int32 // per output row: index in pending
		rows    [][]int32
	)
	defer func() {
		for _, b := range pending {
			b.Release()
		}
	}()
	for len(srcs) < outBatchRows && m.h.Len() > 0 {
		c := m.curs[m.h.idx[0]]
		if c.pend < 0 {
			c.b.Retain()
			c.pend = len(pending)
			pending = append(pending, c.b)
			rows = append(rows, nil)
		}
		srcs = append(srcs, int32(c.pend))
		rows[c.pend] = append(rows[c.pend], int32(c.row))
		c.row++
		if c.row < int(c.b.NumRows()) {
			heap.Fix(&m.h, 0)
		} else {
			ok, err := m.advance(c)
			if err != nil {
				return nil, err
			}
			if ok {
				heap.Fix(&m.h, 0)
			} else {
				heap.Pop(&m.h)
			}
		}
		if m.err != nil {
			return nil, m.err
		}
	}
	for _, c := range m.curs {
		c.pend = -1
	}
	if len(srcs) == 0 {
		return nil, nil
	}
	return gatherPicks(m.ctx, pending, rows, srcs)
}

// gatherPicks builds the batch whose row r is row rows[s][k] of
// pending[s], where s = srcs[r] and k counts srcs[:r] equal to s.
func gatherPicks(ctx context.Context, pending []arrow.RecordBatch, rows [][]int32, srcs []int32) (arrow.RecordBatch, error) {
	if len(pending) == 1 {
		rs := rows[0]
		if int(rs[len(rs)-1]-rs[0]) == len(rs)-1 {
			return pending[0].NewSlice(int64(rs[0]), int64(rs[len(rs)-1])+1), nil
		}
		return takeBatch(ctx, pending[0], rs)
	}
	parts := make([]arrow.RecordBatch, len(pending))
	defer func() {
		for _, p := range parts {
			if p != nil {
				p.Release()
			}
		}
	}()
	offs := make([]int32, len(pending))
	var at int32
	for s, b := range pending {
		rs := rows[s]
		var err error
		if int(rs[len(rs)-1]-rs[0]) == len(rs)-1 {
			parts[s] = b.NewSlice(int64(rs[0]), int64(rs[len(rs)-1])+1)
		} else if parts[s], err = takeBatch(ctx, b, rs); err != nil {
			return nil, err
		}
		offs[s] = at
		at += int32(len(rs))
	}
	all, err := concatBatches(expr.Allocator(ctx), pending[0].Schema(), parts)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	perm := make([]int32, len(srcs))
	for r, s := range srcs {
		perm[r] = offs[s]
		offs[s]++
	}
	return takeBatch(ctx, all, perm)
}

func (m *runMerger) close() {
	for _, c := range m.curs {
		if c.b != nil {
			c.b.Release()
			c.b = nil
		}
		c.r.Close()
	}
	m.curs = nil
}

// cursorHeap is a min-heap of cursor indexes by their current rows.
type cursorHeap struct {
	m   *runMerger
	idx []int
}

func (h *cursorHeap) Len() int           { return len(h.idx) }
func (h *cursorHeap) Less(a, b int) bool { return h.m.less(h.idx[a], h.idx[b]) }
func (h *cursorHeap) Swap(a, b int)      { h.idx[a], h.idx[b] = h.idx[b], h.idx[a] }
func (h *cursorHeap) Push(x any)         { h.idx = append(h.idx, x.(int)) }
func (h *cursorHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}
