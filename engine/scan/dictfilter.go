package scan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/engine/expr"
)

// Conjuncts of ScanSpec.Exact that read one column, cannot raise an error
// and cost more per row than a comparison of numbers (text comparisons,
// IN lists and LIKE: a lookup by code is no cheaper than comparing an
// integer or a decimal, measured on TPC-H q06) are evaluated by the Parquet readers once per dictionary entry: a
// bool per entry (and one for NULL), computed when a column chunk's
// dictionary is first used, and rows are judged by their codes as the
// column is decoded. The rows a conjunct drops are not copied out of a
// string dictionary, and the scan's other conjuncts (exec.RowFilter)
// skip them. Rows of pages that are not dictionary-encoded, and columns a
// reader does not decode through its direct path, are judged by the
// conjunct evaluated over the decoded values instead. A row group is not
// decoded when such a column's chunk has only dictionary-encoded data
// pages and no entry of its dictionary passes. Moving such a
// conjunct ahead of the others changes nothing the Filter operator would
// give: it runs the conjuncts that cannot fail first, and the others only
// see the rows those keep.

// colConj is the conjuncts of ScanSpec.Exact judged on one column: their
// AND rewritten over a batch of that column alone.
type colConj struct {
	out    int // the column's position in the scan's output
	field  int // its field id
	pred   expr.Expr
	schema *arrow.Schema
	// unread: nothing but these conjuncts reads the column's values (a
	// filter-only column no other conjunct reads).
	unread bool
}

// splitExact divides the exact conjuncts of a scan producing fieldIDs as
// schema into those judged per column (by dictionary entry where the file
// allows) and the rest.
// everyCost judges cheap conjuncts by code too (tests of the fixed-width
// path).
func splitExact(exact []expr.Expr, fieldIDs []int, schema *arrow.Schema, opts expr.CompileOptions, everyCost bool) (cols []colConj, rest []expr.Expr) {
	parts := expr.Conjuncts(expr.Fold(exactPred(exact), opts))
	byCol := map[int]int{}
	for _, p := range parts {
		out, ok := singleColumn(p)
		if ok {
			cost, fail := expr.PredicateCost(p)
			ok = !fail && (cost >= expr.CostBytes || everyCost) && out < len(fieldIDs) && out < schema.NumFields() &&
				!IsMetadataField(fieldIDs[out]) && !IsLineageField(fieldIDs[out]) &&
				judgedType(schema.Field(out).Type)
		}
		if !ok {
			rest = append(rest, p)
			continue
		}
		one := rebase(p)
		if k, seen := byCol[out]; seen {
			cols[k].pred = &expr.Call{Fn: "and", Args: []expr.Expr{cols[k].pred, one}, T: expr.Bool}
			continue
		}
		byCol[out] = len(cols)
		cols = append(cols, colConj{out: out, field: fieldIDs[out], pred: one,
			schema: arrow.NewSchema([]arrow.Field{schema.Field(out)}, nil)})
	}
	return cols, rest
}

// judgedType reports whether a column of type t may be judged per
// dictionary entry: strings, binaries and fixed-width values.
func judgedType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.BINARY:
		return true
	case arrow.BOOL:
		return false
	}
	_, ok := t.(arrow.FixedWidthDataType)
	return ok
}

// singleColumn reports the one column e reads, when e is made of that
// column, constants, casts and calls only.
func singleColumn(e expr.Expr) (int, bool) {
	col := -1
	var walk func(e expr.Expr) bool
	walk = func(e expr.Expr) bool {
		switch x := e.(type) {
		case *expr.Col:
			if col >= 0 && col != x.Idx {
				return false
			}
			col = x.Idx
			return x.Idx >= 0
		case *expr.Lit:
			return true
		case *expr.Cast:
			return walk(x.Arg)
		case *expr.Call:
			if x.Go != nil {
				return false
			}
			for _, a := range x.Args {
				if !walk(a) {
					return false
				}
			}
			return true
		}
		return false
	}
	if !walk(e) || col < 0 {
		return 0, false
	}
	return col, true
}

// rebase rewrites e (see singleColumn) to read its column as column 0.
func rebase(e expr.Expr) expr.Expr {
	switch x := e.(type) {
	case *expr.Col:
		c := *x
		c.Idx = 0
		return &c
	case *expr.Cast:
		c := *x
		c.Arg = rebase(x.Arg)
		return &c
	case *expr.Call:
		c := *x
		c.Args = make([]expr.Expr, len(x.Args))
		for i, a := range x.Args {
			c.Args[i] = rebase(a)
		}
		return &c
	}
	return e
}

// colCond is one colConj as a reader judges it, compiled for one worker.
type colCond struct {
	colConj
	prog expr.Program
	// dict is the dictionary pass was computed for; pass[k] tells whether
	// entry k passes, nullPass whether NULL does.
	dict     any
	pass     []bool
	nullPass bool
	// fail[k] is 1 when entry k does not pass, else 0.
	fail []byte
	// handled: a reader judged this batch's rows itself, but for those in
	// pending (values that were not dictionary codes).
	handled bool
	pending []rowSpan
	// skip: the reader leaves the values of the rows it judges by code
	// out of the array (empty or zero, valid): the column is unread and
	// the current file's equality deletes do not compare it.
	skip bool
}

// rowSel is the selection of one batch by the per-column conjuncts.
type rowSel struct {
	ctx   context.Context
	mem   memory.Allocator
	conds []*colCond
	// drop marks the rows of the batch a conjunct does not keep, as bits
	// (row i is bit i%64 of drop[i/64]); n is the batch's length (0
	// before a reader started it).
	drop []uint64
	n    int
	// byCode counts the rows judged by code since the last flush to
	// counters.
	byCode   int64
	counters *scanCounters
}

func newRowSel(cols []colConj, opts expr.CompileOptions) (*rowSel, error) {
	s := &rowSel{}
	for _, c := range cols {
		prog, err := expr.Compile(c.pred, c.schema, opts)
		if err != nil {
			return nil, err
		}
		s.conds = append(s.conds, &colCond{colConj: c, prog: prog})
	}
	return s, nil
}

// skipValues sets which conditions' readers leave out the values of the
// rows judged by code, for a file whose equality deletes compare the
// fields eqIDs.
func (s *rowSel) skipValues(eqIDs func(id int) bool) {
	for _, c := range s.conds {
		c.skip = c.unread && !eqIDs(c.field)
	}
}

// reset forgets the last batch.
func (s *rowSel) reset(ctx context.Context) {
	s.ctx, s.n = ctx, 0
}

// begin starts a batch of n rows, none judged yet.
func (s *rowSel) begin(n int) {
	nw := (n + 63) / 64
	if cap(s.drop) < nw {
		s.drop = make([]uint64, nw)
	}
	s.drop = s.drop[:nw]
	clear(s.drop)
	s.n = n
	for _, c := range s.conds {
		c.handled, c.pending = false, c.pending[:0]
	}
}

// finish judges the rows of the batch no reader judged, over the decoded
// columns (cols[index[field]]), and returns how many rows it drops.
func (s *rowSel) finish(cols []arrow.Array, index map[int]int, n int) (int, error) {
	if s.n != n {
		s.begin(n)
	}
	if s.byCode > 0 && s.counters != nil {
		s.counters.byCode.Add(s.byCode)
		s.byCode = 0
	}
	for _, c := range s.conds {
		col := cols[index[c.field]]
		if !c.handled {
			if err := c.judge(s.ctx, col, 0, n, s.drop); err != nil {
				return 0, err
			}
			continue
		}
		for _, sp := range c.pending {
			if err := c.judge(s.ctx, col, int(sp.lo), int(sp.hi), s.drop); err != nil {
				return 0, err
			}
		}
	}
	return expr.CountWords(s.drop), nil
}

// judge evaluates the conjuncts over rows [lo, hi) of col, marking in drop
// (bits) those it does not keep.
func (c *colCond) judge(ctx context.Context, col arrow.Array, lo, hi int, drop []uint64) error {
	if hi <= lo {
		return nil
	}
	part := array.NewSlice(col, int64(lo), int64(hi))
	defer part.Release()
	keep, err := c.eval(ctx, part)
	if err != nil {
		return err
	}
	for i, k := range keep {
		if !k {
			drop[(lo+i)>>6] |= 1 << (uint(lo+i) & 63)
		}
	}
	return nil
}

// eval evaluates the conjuncts over the values of a and reports for each
// whether it is kept (TRUE; FALSE and NULL are not).
func (c *colCond) eval(ctx context.Context, a arrow.Array) ([]bool, error) {
	b := array.NewRecordBatch(c.schema, []arrow.Array{a}, int64(a.Len()))
	defer b.Release()
	m, err := c.prog.Eval(ctx, b)
	if err != nil {
		return nil, err
	}
	defer m.Release()
	keep := make([]bool, a.Len())
	switch r := m.(type) {
	case *array.Boolean:
		for i := range keep {
			keep[i] = r.IsValid(i) && r.Value(i)
		}
	case *array.Null:
	default:
		return nil, fmt.Errorf("condition gave %s", m.DataType())
	}
	return keep, nil
}

// dictArray is the dictionary vals as an array of type dt with one NULL
// after the values; nil when the reader's values are not laid out as dt's.
func dictArray[T any](mem memory.Allocator, dt arrow.DataType, vals []T) arrow.Array {
	n := len(vals)
	if bv, ok := any(vals).([][]byte); ok {
		switch dt.ID() {
		case arrow.STRING:
			b := array.NewStringBuilder(mem)
			defer b.Release()
			for _, v := range bv {
				b.BinaryBuilder.Append(v)
			}
			b.AppendNull()
			return b.NewArray()
		case arrow.BINARY:
			b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
			defer b.Release()
			for _, v := range bv {
				b.Append(v)
			}
			b.AppendNull()
			return b.NewArray()
		}
		return nil
	}
	fw, ok := dt.(arrow.FixedWidthDataType)
	var zero T
	width := int(unsafe.Sizeof(zero))
	if !ok || fw.BitWidth() != 8*width || dt.ID() == arrow.BOOL {
		return nil
	}
	data := memory.NewResizableBuffer(mem)
	data.Resize((n + 1) * width)
	if n > 0 {
		copy(data.Bytes(), unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(vals))), n*width))
	}
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(n + 1))))
	clear(valid.Bytes())
	bitutil.SetBitsTo(valid.Bytes(), 0, int64(n), true)
	d := array.NewData(dt, n+1, []*memory.Buffer{valid, data}, nil, 1, 0)
	a := array.MakeFromData(d)
	d.Release()
	data.Release()
	valid.Release()
	return a
}

// table makes pass and nullPass for the dictionary dict (values vals, of
// type dt) unless they are already its; false when it cannot.
func tableFor[T any](c *colCond, ctx context.Context, mem memory.Allocator, dt arrow.DataType, dict any, vals []T) bool {
	if c.dict == dict && c.pass != nil {
		return true
	}
	a := dictArray(mem, dt, vals)
	if a == nil {
		return false
	}
	defer a.Release()
	keep, err := c.eval(ctx, a)
	if err != nil {
		return false // a conjunct that cannot fail did: judge the values instead
	}
	c.pass, c.nullPass, c.dict = keep[:len(vals)], keep[len(vals)], dict
	c.fail = c.fail[:0]
	for _, k := range c.pass {
		var f byte
		if !k {
			f = 1
		}
		c.fail = append(c.fail, f)
	}
	return true
}

// condReader is a direct leaf reader that can judge conjuncts on its
// column by dictionary code.
type condReader interface {
	setCond(c *colCond, sel *rowSel, dt arrow.DataType)
	// rulesOut reports whether no row of the column chunk it started,
	// every data page of which is dictionary-encoded, can pass: it loads
	// the chunk's first page (which the next read then starts from).
	rulesOut() (bool, error)
}

// dictRulesOut reports whether the conjuncts judged by code rule out
// every row of the current row group (started): a column chunk whose
// data pages are all dictionary-encoded has no dictionary entry that
// passes, and NULL does not pass or the column has none.
func (r *parquetReader) dictRulesOut() (bool, error) {
	groups := r.pf.Metadata().RowGroups
	if r.rg >= len(groups) {
		return false, nil
	}
	chunks := groups[r.rg].Columns
	for _, c := range r.cols {
		fc, ok := c.(*flatColumn)
		if !ok || !fc.direct || fc.node.leaf < 0 || fc.node.leaf >= len(chunks) {
			continue
		}
		cr, ok := fc.leaf.(condReader)
		if !ok || !allDictionaryPages(chunks[fc.node.leaf].MetaData.EncodingStats) {
			continue
		}
		if out, err := cr.rulesOut(); out || err != nil {
			return out, err
		}
	}
	return false, nil
}

// allDictionaryPages reports whether encoding statistics say that every
// data page of a column chunk is dictionary-encoded.
func allDictionaryPages(stats []format.PageEncodingStats) bool {
	data := false
	for _, es := range stats {
		if es.PageType != format.DataPage && es.PageType != format.DataPageV2 {
			continue
		}
		if es.Encoding != format.RLEDictionary && es.Encoding != format.PlainDictionary {
			return false
		}
		data = data || es.Count > 0
	}
	return data
}

func (r *flatReader[T]) rulesOut() (bool, error) {
	c := r.cond
	if c == nil || r.sel == nil {
		return false, nil
	}
	if err := r.loadPage(); err != nil {
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, err
	}
	if r.lazy != lazyDict || !tableFor(c, r.sel.ctx, r.sel.mem, r.condType, r.dict, r.dictVals) {
		return false, nil
	}
	if c.nullPass && r.cur.maxDef > 0 {
		return false, nil
	}
	return !slices.Contains(c.pass, true), nil
}

func (r *flatReader[T]) setCond(c *colCond, sel *rowSel, dt arrow.DataType) {
	r.cond, r.sel, r.condType = c, sel, dt
}

// markRun judges the k rows from row at of the batch, whose present
// values start at the page's value d (nn of them; defs their definition
// levels, nil when all are present): by their dictionary codes when the
// page has them, else they are left for finish to judge by value. It
// reports whether the values of those rows may be left out of the
// batch's array (judged by code, colCond.skip).
func (r *flatReader[T]) markRun(at, k, d, nn int, defs []byte, maxDef byte) bool {
	c, sel := r.cond, r.sel
	if c == nil || sel == nil || sel.n < at+k {
		return false
	}
	if r.lazy != lazyDict || !tableFor(c, sel.ctx, sel.mem, r.condType, r.dict, r.dictVals) {
		if n := len(c.pending); n > 0 && c.pending[n-1].hi == int64(at) {
			c.pending[n-1].hi = int64(at + k)
		} else {
			c.pending = append(c.pending, rowSpan{int64(at), int64(at + k)})
		}
		return false
	}
	sel.byCode += int64(k)
	// bits (fail is 0 or 1) or-ed without a branch per row: which rows
	// pass is often close to random
	drop := sel.drop
	fail := c.fail
	idx := r.idx[d : d+nn]
	if defs == nil || nn == k {
		for j, code := range idx {
			// codes out of range are reported when the values are gathered
			if x := uint(uint32(code)); x < uint(len(fail)) {
				row := uint(at + j)
				drop[row>>6] |= uint64(fail[x]) << (row & 63)
			}
		}
		return c.skip
	}
	var nullFail byte
	if !c.nullPass {
		nullFail = 1
	}
	i := 0
	for j, def := range defs {
		row := uint(at + j)
		if def == maxDef {
			if x := uint(uint32(idx[i])); x < uint(len(fail)) {
				drop[row>>6] |= uint64(fail[x]) << (row & 63)
			}
			i++
		} else {
			drop[row>>6] |= uint64(nullFail) << (row & 63)
		}
	}
	return c.skip
}

// judged records that the reader judged the n rows of the batch it read
// (but for its pending ones).
func (r *flatReader[T]) judged(n int) {
	if r.cond != nil && r.sel != nil && r.sel.n == n {
		r.cond.handled = true
	}
}

// condOf is the conjuncts on field id, nil when none.
func (s *rowSel) condOf(id int) *colCond {
	for _, c := range s.conds {
		if c.field == id {
			return c
		}
	}
	return nil
}
