package exec

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// filterOp keeps the rows where the predicate is TRUE.
//
// The predicate's top-level AND is split into conjuncts, each compiled on
// its own and evaluated in turn: the cheap ones first (integer and date
// comparisons before decimals, before text, before LIKE and functions),
// and once a conjunct has rejected enough rows, the batch is compacted
// so that the next conjuncts run on the survivors only. Only conjuncts
// that cannot raise an error move: they run first, the others keep their
// written order after them and only ever see rows every earlier conjunct
// accepted (the order PostgreSQL may pick when it evaluates the cheap
// conditions first).
type filterOp struct {
	in    engine.Operator
	conj  []filterConj
	ctx   context.Context
	out   arrow.RecordBatch
	alive []uint64 // scratch: rows still alive, as bits
	mask  []uint64 // scratch: rows the current conjunct keeps
	idx   []int32  // scratch: row positions
	// When to compact (see worthCompacting): at least minSaved rows
	// dropped, at most 1/below alive (1/belowCostly before costly
	// conjuncts).
	minSaved, below, belowCostly int
	// gatherMem, when set, holds the buffers of the batches of kept rows
	// the filter returns (RowFilter.GatherInto); else they come from the
	// context's allocator.
	gatherMem memory.Allocator
}

// filterConj is one conjunct of the predicate.
type filterConj struct {
	prog expr.Program
	cost int
	safe bool // evaluating it cannot raise an error
	// compacted is the schema of a batch compacted before this conjunct:
	// the columns this and the later conjuncts read, the others Null.
	// Built on first use: most filters never compact before most of
	// their conjuncts, and one compiled per statement (a point query's)
	// would pay for schemas it never uses.
	compacted *nullSchemaOnce
	keep      []bool // the columns of compacted that are not Null
}

// nullSchemaOnce is nullSchema(base, keep), built once when first asked
// for (by any of the goroutines sharing the conjunct).
type nullSchemaOnce struct {
	once sync.Once
	base *arrow.Schema
	keep []bool
	s    *arrow.Schema
}

func (n *nullSchemaOnce) get() *arrow.Schema {
	n.once.Do(func() { n.s = nullSchema(n.base, n.keep) })
	return n.s
}

// NewFilter returns WHERE pred over in: rows where pred is TRUE pass, FALSE
// and NULL drop. opts are the session's compile options.
func NewFilter(in engine.Operator, pred expr.Expr, opts ...expr.CompileOptions) (engine.Operator, error) {
	conj, err := compileConjuncts(in.Schema(), pred, opts...)
	if err != nil {
		return nil, err
	}
	return &filterOp{in: in, conj: conj, minSaved: compactMinRowsSaved, below: compactBelow, belowCostly: compactBelowCostly}, nil
}

// compileConjuncts compiles pred's conjuncts over schema in the order
// the filter evaluates them, each with the columns it and the later
// ones read.
func compileConjuncts(schema *arrow.Schema, pred expr.Expr, opts ...expr.CompileOptions) ([]filterConj, error) {
	if id := pred.Type().ID(); id != arrow.BOOL && id != arrow.NULL {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument of WHERE must be type boolean, not type %s", expr.PGTypeName(pred.Type()))
	}
	// Compile the whole predicate first: its errors (unknown operator...)
	// are those of the statement, whatever the conjuncts. A predicate of
	// one conjunct is that conjunct, compiled below.
	parts := expr.Conjuncts(expr.Fold(pred, opts...))
	if len(parts) > 1 {
		if _, err := expr.Compile(pred, schema, opts...); err != nil {
			return nil, err
		}
	}
	conj := make([]filterConj, len(parts))
	refs := make([][]bool, len(parts))
	for i, p := range parts {
		prog, err := expr.Compile(p, schema, opts...)
		if err != nil {
			return nil, err
		}
		cost, canFail := expr.PredicateCost(p)
		conj[i] = filterConj{prog: prog, cost: cost, safe: !canFail}
		refs[i] = columnsRead(p, schema.NumFields())
	}
	order := conjunctOrder(conj)
	sorted := make([]filterConj, len(conj))
	for i, k := range order {
		sorted[i] = conj[k]
	}
	// The columns conjunct k and the later ones read.
	need := make([]bool, schema.NumFields())
	for i := len(order) - 1; i >= 0; i-- {
		for j, r := range refs[order[i]] {
			need[j] = need[j] || r
		}
		sorted[i].keep = slices.Clone(need)
		sorted[i].compacted = &nullSchemaOnce{base: schema, keep: sorted[i].keep}
	}
	return sorted, nil
}

// conjunctOrder is the evaluation order of the conjuncts: those that
// cannot fail by cost (stable), then the others as written.
func conjunctOrder(conj []filterConj) []int {
	var safe, rest []int
	for i, c := range conj {
		if c.safe {
			safe = append(safe, i)
		} else {
			rest = append(rest, i)
		}
	}
	slices.SortStableFunc(safe, func(a, b int) int { return conj[a].cost - conj[b].cost })
	return append(safe, rest...)
}

// columnsRead marks the input columns e reads.
func columnsRead(e expr.Expr, n int) []bool {
	out := make([]bool, n)
	var walk func(e expr.Expr) bool
	walk = func(e expr.Expr) bool {
		switch x := e.(type) {
		case *expr.Col:
			if x.Idx >= 0 && x.Idx < n {
				out[x.Idx] = true
			}
		case *expr.Lit:
		case *expr.Cast:
			return walk(x.Arg)
		case *expr.Call:
			for _, a := range x.Args {
				if !walk(a) {
					return false
				}
			}
		case *expr.Case:
			for _, w := range x.Whens {
				if !walk(w.Cond) || !walk(w.Then) {
					return false
				}
			}
			if x.Else != nil {
				return walk(x.Else)
			}
		default:
			return false
		}
		return true
	}
	if !walk(e) {
		for i := range out {
			out[i] = true
		}
	}
	return out
}

// nullSchema is schema with the columns not in keep typed Null.
func nullSchema(schema *arrow.Schema, keep []bool) *arrow.Schema {
	fs := slices.Clone(schema.Fields())
	for i := range fs {
		if !keep[i] {
			fs[i] = arrow.Field{Name: fs[i].Name, Type: arrow.Null, Nullable: true}
		}
	}
	return arrow.NewSchema(fs, nil)
}

func (o *filterOp) Open(ctx context.Context) error {
	o.ctx = ctx
	return o.in.Open(ctx)
}

func (o *filterOp) Next() (arrow.RecordBatch, error) {
	o.release()
	for {
		if err := o.ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.in.Next()
		if err != nil || b == nil {
			return nil, err
		}
		out, err := o.apply(b)
		if err != nil {
			return nil, err
		}
		if out == nil {
			continue
		}
		if out != b {
			o.out = out
		}
		return out, nil
	}
}

// compactBelow: the batch is compacted before the next conjunct when at
// most 1/compactBelow of its rows are alive (1/compactBelowCostly when a
// later conjunct is costlier than integer comparisons).
const (
	compactBelow        = 4
	compactBelowCostly  = 2
	compactMinRowsSaved = 256
)

// apply returns the rows of b that pass every conjunct: b itself when all
// do, nil when none does, else a new batch.
func (o *filterOp) apply(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	idx, all, err := o.keptRows(b, nil)
	return o.keptBatch(b, idx, all, err)
}

// keptBatch is what the filter returns for b given keptRows' answer: b
// itself when every row is kept, nil when none is, else a new batch of
// the rows idx.
func (o *filterOp) keptBatch(b arrow.RecordBatch, idx []int32, all bool, err error) (arrow.RecordBatch, error) {
	switch {
	case err != nil:
		return nil, err
	case all:
		return b, nil
	case len(idx) == 0:
		return nil, nil
	}
	return gatherBatch(o.ctx, o.gatherAllocator(), b, idx, b.Schema(), nil)
}

// gatherAllocator is the allocator of the batches of kept rows.
func (o *filterOp) gatherAllocator() memory.Allocator {
	if o.gatherMem != nil {
		return o.gatherMem
	}
	return expr.Allocator(o.ctx)
}

// keptRows evaluates the conjuncts on the rows of b whose skip flag is
// false (all rows when skip is nil) and returns the rows every conjunct
// keeps, in order (a scratch slice, valid until the next call), or all
// when that is every row of b.
func (o *filterOp) keptRows(b arrow.RecordBatch, skip []bool) (kept []int32, all bool, err error) {
	if skip != nil {
		o.alive = skipWords(o.alive, skip)
	}
	return o.keptAlive(b, skip != nil)
}

// keptAlive is keptRows over the rows of b whose bit is set in o.alive
// when masked, over every row of b otherwise.
func (o *filterOp) keptAlive(b arrow.RecordBatch, masked bool) (kept []int32, all bool, err error) {
	mem := expr.Allocator(o.ctx)
	cur := b                    // the batch the conjuncts run on
	var rows []int32            // rows of b that cur's rows are; nil: cur is b
	alive, all := o.alive, true // rows of cur still alive (all: every one)
	defer func() {
		if cur != b {
			cur.Release()
		}
	}()
	if masked {
		switch live := expr.CountWords(alive); live {
		case 0:
			return nil, false, nil
		case int(b.NumRows()):
		default:
			all = false
		}
	}
	for k := range o.conj {
		c := &o.conj[k]
		n := int(cur.NumRows())
		if !all {
			live := expr.CountWords(alive)
			if !c.safe || o.worthCompacting(k, live, n) {
				o.idx = expr.AppendSetRows(o.idx[:0], alive)
				next, err := compact(o.ctx, mem, cur, o.idx, c.compacted.get(), c.keep)
				if err != nil {
					return nil, false, err
				}
				if rows == nil {
					rows = slices.Clone(o.idx)
				} else {
					for i, x := range o.idx {
						rows[i] = rows[x]
					}
					rows = rows[:len(o.idx)]
				}
				if cur != b {
					cur.Release()
				}
				cur, all = next, true
				n = len(rows)
			}
		}
		m, err := c.prog.Eval(o.ctx, cur)
		if err != nil {
			return nil, false, err
		}
		if all {
			alive = expr.TrueWords(alive, m)
			o.alive = alive
		} else {
			o.mask = expr.TrueWords(o.mask, m)
			for i, w := range o.mask {
				alive[i] &= w
			}
		}
		m.Release()
		live := expr.CountWords(alive)
		switch {
		case live == 0:
			return nil, false, nil
		case live == n:
			all = true
		default:
			all = false
		}
	}
	if rows == nil && all {
		return nil, true, nil
	}
	idx := rows
	if !all {
		o.idx = expr.AppendSetRows(o.idx[:0], alive)
		if rows != nil {
			for i, x := range o.idx {
				o.idx[i] = rows[x]
			}
		}
		idx = o.idx
	}
	return idx, false, nil
}

// skipWords is the bit words of the rows whose skip flag is false.
func skipWords(dst []uint64, skip []bool) []uint64 {
	nw := (len(skip) + 63) / 64
	if cap(dst) < nw {
		dst = make([]uint64, nw)
	}
	dst = dst[:nw]
	clear(dst)
	for i, s := range skip {
		var b uint64 // set without a branch: the flags are often random
		if !s {
			b = 1
		}
		dst[i>>6] |= b << (uint(i) & 63)
	}
	return dst
}

// worthCompacting reports whether gathering the live rows before
// conjunct k saves more than it costs.
func (o *filterOp) worthCompacting(k, live, n int) bool {
	if n-live < o.minSaved {
		return false
	}
	below := o.below
	for _, c := range o.conj[k:] {
		if c.cost > expr.CostFixed {
			below = o.belowCostly
			break
		}
	}
	return live*below <= n
}

// compact gathers rows idx of the columns of b in keep into a batch of
// schema s (the other columns Null).
func compact(ctx context.Context, mem memory.Allocator, b arrow.RecordBatch, idx []int32, s *arrow.Schema, keep []bool) (arrow.RecordBatch, error) {
	return gatherBatch(ctx, mem, b, idx, s, keep)
}

// gatherBatch keeps rows idx of b, as a batch of schema s: the columns in
// keep (all when keep is nil) are gathered, the others are Null.
// Fixed-width and text columns take the typed gathers of join_take.go
// (by runs of consecutive rows when the rows kept form long ones,
// filter_runs.go),
// others the take kernel (arrow-go's filter kernel mishandles booleans
// with NULLs).
func gatherBatch(ctx context.Context, mem memory.Allocator, b arrow.RecordBatch, idx []int32, s *arrow.Schema, keep []bool) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, b.NumCols())
	release := func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}
	var ia arrow.Array
	defer func() {
		if ia != nil {
			ia.Release()
		}
	}()
	runs := runsOf(idx)
	for j := range cols {
		if keep != nil && !keep[j] {
			cols[j] = array.NewNull(len(idx))
			continue
		}
		c := b.Column(j)
		if runs != nil {
			if cols[j] = takeFixedRuns(mem, c, runs, idx); cols[j] != nil {
				continue
			}
			if cols[j] = takeBinaryRuns(mem, c, runs, idx); cols[j] != nil {
				continue
			}
		}
		if cols[j] = takeFixed(mem, c, idx); cols[j] != nil {
			continue
		}
		if cols[j] = takeBinary(mem, c, idx); cols[j] != nil {
			continue
		}
		if ia == nil {
			ia = int32Array(expr.Allocator(ctx), idx)
		}
		t, err := expr.TakeArray(ctx, c, ia)
		if err != nil {
			release()
			return nil, fmt.Errorf("filter: %w", err)
		}
		cols[j] = t
	}
	out := array.NewRecordBatch(s, cols, int64(len(idx)))
	release()
	return out, nil
}

func (o *filterOp) release() {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
}

func (o *filterOp) Close() error {
	o.release()
	return o.in.Close()
}

func (o *filterOp) Schema() *arrow.Schema { return o.in.Schema() }
