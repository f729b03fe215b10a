package changelog

import (
	"context"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// Lower makes the operator that reads a change log: the table columns
// need asks for, then the change columns it asks for.
func (x *Rel) Lower(_ context.Context, need plan.ColSet) (engine.Operator, []plan.ColID, error) {
	n := len(x.FieldIDs)
	var ids []int
	var layout []plan.ColID
	for i := 0; i < n; i++ {
		if need.Has(x.Cols[i]) {
			ids = append(ids, x.FieldIDs[i])
			layout = append(layout, x.Cols[i])
		}
	}
	var extras []int
	for k := range Columns {
		if id := x.Cols[n+k]; need.Has(id) {
			extras = append(extras, k)
			layout = append(layout, id)
		}
	}
	probe := scan.New(engine.ScanSpec{Table: x.Table, Schema: x.Schema, FieldIDs: ids}, scan.Options{})
	if iv := plan.IntervalPositions(x.Table, x.Schema, ids); len(iv) > 0 {
		probe = engine.IntervalColumns(probe, iv) // stored as their parts
	}
	fields := append([]arrow.Field(nil), probe.Schema().Fields()...)
	for _, k := range extras {
		fields = append(fields, arrow.Field{Name: Columns[k].Name, Type: plan.ArrowOf(Columns[k].Typ), Nullable: true})
	}
	op := &changesOp{
		rel:     x,
		ids:     ids,
		extras:  extras,
		schema:  arrow.NewSchema(fields, nil),
		planner: &changePlanner{table: x.Table, schema: x.Schema},
	}
	return op, layout, nil
}

// changesOp yields the change log step by step: each step is planned
// when the one before it has been read.
type changesOp struct {
	rel     *Rel
	ids     []int // table columns read
	extras  []int // change columns produced (indexes into changeCols)
	schema  *arrow.Schema
	planner *changePlanner

	ctx   context.Context
	mem   memory.Allocator
	next  int // the next step to plan
	queue []changePart
	cur   changePart
	sc    engine.Operator
	out   arrow.RecordBatch
}

var _ engine.Operator = (*changesOp)(nil)

func (o *changesOp) Schema() *arrow.Schema { return o.schema }

func (o *changesOp) Open(ctx context.Context) error {
	o.ctx, o.mem = ctx, expr.Allocator(ctx)
	return nil
}

func (o *changesOp) Next() (arrow.RecordBatch, error) {
	o.release()
	for {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		if o.sc != nil {
			b, err := o.sc.Next()
			if err != nil {
				return nil, err
			}
			if b == nil {
				err := o.sc.Close()
				o.sc = nil
				if err != nil {
					return nil, err
				}
				continue
			}
			out, err := o.convert(b)
			if err != nil {
				return nil, err
			}
			if out == nil {
				continue
			}
			o.out = out
			return out, nil
		}
		if len(o.queue) > 0 {
			o.cur, o.queue = o.queue[0], o.queue[1:]
			fids := append(append([]int(nil), o.ids...), scan.FieldIDFile, scan.FieldIDPos)
			o.sc = scan.New(engine.ScanSpec{Table: o.rel.Table, Tasks: o.cur.tasks, Schema: o.rel.Schema, FieldIDs: fids}, scan.Options{Alloc: o.mem})
			if iv := plan.IntervalPositions(o.rel.Table, o.rel.Schema, fids); len(iv) > 0 {
				o.sc = engine.IntervalColumns(o.sc, iv) // stored as their parts
			}
			if err := o.sc.Open(o.ctx); err != nil {
				return nil, err
			}
			continue
		}
		if o.next >= len(o.rel.Steps) {
			return nil, nil
		}
		parts, err := o.planner.parts(o.ctx, o.rel.Steps[o.next])
		if err != nil {
			return nil, err
		}
		o.next++
		o.queue = parts
	}
}

// convert keeps the rows of b (table columns, _file, _pos) whose
// position the part does not skip and adds the change columns; nil when
// no row is kept.
func (o *changesOp) convert(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := len(o.ids)
	rows := int(b.NumRows())
	type run struct{ from, to int }
	runs := []run{{0, rows}}
	if len(o.cur.skip) > 0 {
		files, ok1 := b.Column(n).(*array.String)
		pos, ok2 := b.Column(n + 1).(*array.Int64)
		if !ok1 || !ok2 {
			return nil, pgerr.New(pgerr.InternalError, "change log: _file/_pos columns are %s/%s", b.Column(n).DataType(), b.Column(n+1).DataType())
		}
		runs = runs[:0]
		var bm *roaring64.Bitmap
		var bmFile string
		skipped := func(i int) bool {
			if f := files.Value(i); f != bmFile || i == 0 {
				bmFile, bm = f, o.cur.skip[f]
			}
			return bm != nil && bm.Contains(uint64(pos.Value(i)))
		}
		for i := 0; i < rows; {
			if skipped(i) {
				i++
				continue
			}
			j := i + 1
			for j < rows && !skipped(j) {
				j++
			}
			runs = append(runs, run{i, j})
			i = j
		}
	}
	kept := 0
	for _, r := range runs {
		kept += r.to - r.from
	}
	if kept == 0 {
		return nil, nil
	}
	cols := make([]arrow.Array, 0, n+len(o.extras))
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for c := 0; c < n; c++ {
		col := b.Column(c)
		if len(runs) == 1 {
			cols = append(cols, array.NewSlice(col, int64(runs[0].from), int64(runs[0].to)))
			continue
		}
		pieces := make([]arrow.Array, len(runs))
		for i, r := range runs {
			pieces[i] = array.NewSlice(col, int64(r.from), int64(r.to))
		}
		joined, err := array.Concatenate(pieces, o.mem)
		for _, p := range pieces {
			p.Release()
		}
		if err != nil {
			return nil, pgerr.Wrap(err, pgerr.InternalError, "change log: %v", err)
		}
		cols = append(cols, joined)
	}
	for _, k := range o.extras {
		cols = append(cols, o.constant(k, kept))
	}
	return array.NewRecordBatch(o.schema, cols, int64(kept)), nil
}

// constant is change column k for rows rows of the current part.
func (o *changesOp) constant(k, rows int) arrow.Array {
	switch k {
	case 0:
		bld := array.NewStringBuilder(o.mem)
		defer bld.Release()
		bld.Reserve(rows)
		for range rows {
			bld.Append(o.cur.kind)
		}
		return bld.NewArray()
	case 1:
		bld := array.NewInt32Builder(o.mem)
		defer bld.Release()
		bld.Reserve(rows)
		for range rows {
			bld.UnsafeAppend(o.cur.step.ordinal)
		}
		return bld.NewArray()
	}
	bld := array.NewInt64Builder(o.mem)
	defer bld.Release()
	bld.Reserve(rows)
	for range rows {
		bld.UnsafeAppend(o.cur.step.snap.SnapshotID)
	}
	return bld.NewArray()
}

func (o *changesOp) release() {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
}

func (o *changesOp) Close() error {
	o.release()
	if o.sc != nil {
		err := o.sc.Close()
		o.sc = nil
		return err
	}
	return nil
}
