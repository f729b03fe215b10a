package exec

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// hashAggOp is GROUP BY with aggregates. Groups are numbered by a
// groupTable specialised by the key's shape (agg_groups.go), a batch at a
// time and without allocation per row; the key values of each group are
// copied out once, when the group appears. Memory grows with the number
// of groups (and of DISTINCT values), not with the input.
type hashAggOp struct {
	in     engine.Operator
	groups []expr.Program
	aggs   []AggCall
	args   []*expr.Program // nil for count(*)
	// transient[a]: aggregate a's state keeps nothing of its argument
	// past update (agg_transient.go), so the argument is evaluated with
	// EvalTransient and its buffers serve the next batch.
	transient []bool
	share     *argShare        // arguments computed once for the others (agg_shared.go)
	filters   []*expr.Program  // nil without FILTER
	extras    [][]expr.Program // arguments after the first (string_agg's delimiter)
	direct    [][]expr.Program // direct arguments of ordered-set aggregates (constants)
	sortKeys  [][]expr.Program // ORDER BY inside the call / WITHIN GROUP
	argTypes  []arrow.DataType
	resTypes  []arrow.DataType
	schema    *arrow.Schema
	ctx       context.Context

	table    groupTable // nil without groups
	ngroups  int
	expect   int64 // the planner's estimate of the groups, 0 without one
	mem      memAccount
	held     int64 // bytes of the table and the DISTINCT sets accounted in mem
	keyParts [][]arrow.Array
	// keyLevels[j] is how many times keyParts[i][j] was merged (the same
	// for every i): batches' parts are level 0, 64 parts of level l
	// merge into one of level l+1.
	keyLevels []uint8
	states    []aggState
	distinct  []*distinctSet

	// Per-batch buffers, reused.
	gids, rows, newRows []int32
	keys                []arrow.Array

	emit slicer
	done bool

	// Two-phase aggregation (agg_partial.go): partial emits states,
	// final merges them; stateCols[a] are aggregate a's input columns.
	phase     aggPhase
	stateCols [][]int

	// Spilling (agg_spill.go): whether the aggregation may, whether the
	// table passed statement_mem during the batch being added, the
	// partitions written, the bytes written by earlier opens, and how
	// many spilled aggregations this one's partition is under.
	opts     []expr.CompileOptions
	canSpill bool
	overflow bool
	spill    *aggSpill
	spilled  int64
	depth    int

	// Spilling input rows (agg_spill_input.go), for aggregations with an
	// aggregate that has no partial state: the group expressions the
	// partitions' aggregations compile again, whether this one spills
	// rows, and the input batches its table holds the rows of.
	groupExprs []expr.Expr
	byInput    bool
	kept       []arrow.RecordBatch
}

// NewHashAggregate returns GROUP BY groups computing aggs over in. The
// output has the group keys, then one column per aggregate. Without
// groups it yields exactly one row, also for empty input. opts are the
// session's compile options.
func NewHashAggregate(in engine.Operator, groups []expr.Expr, aggs []AggCall, opts ...expr.CompileOptions) (engine.Operator, error) {
	o := &hashAggOp{in: in, aggs: aggs, opts: opts}
	var fields []arrow.Field
	var argExprs []expr.Expr
	for i, g := range groups {
		p, err := expr.Compile(g, in.Schema(), opts...)
		if err != nil {
			return nil, err
		}
		o.groups = append(o.groups, p)
		o.groupExprs = append(o.groupExprs, g)
		t := g.Type()
		if dt, ok := t.(*arrow.DictionaryType); ok {
			t = dt.ValueType
		}
		name := g.String()
		if name == "" {
			name = fmt.Sprintf("group%d", i+1)
		}
		fields = append(fields, arrow.Field{Name: name, Type: t, Nullable: true})
	}
	for _, a := range aggs {
		fn := strings.ToLower(a.Fn)
		arg := a.Arg
		if isOrderedSet(fn) {
			if len(a.OrderBy) != 1 {
				return nil, pgerr.New(pgerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", fn)
			}
			if arg == nil {
				arg = a.OrderBy[0].E
			}
		}
		var argT arrow.DataType
		var argP, filterP *expr.Program
		if arg != nil {
			argT = plainType(arg.Type())
			p, err := expr.Compile(arg, in.Schema(), opts...)
			if err != nil {
				return nil, err
			}
			argP = &p
		} else if fn != "count" {
			return nil, fmt.Errorf("aggregate %s needs an argument", fn)
		}
		if a.Filter != nil {
			p, err := expr.Compile(a.Filter, in.Schema(), opts...)
			if err != nil {
				return nil, err
			}
			filterP = &p
		}
		var extras, direct, keys []expr.Program
		var types []arrow.DataType
		for _, e := range a.Args {
			types = append(types, e.Type())
			if isOrderedSet(fn) {
				p, err := expr.Compile(e, emptySchema, opts...)
				if err != nil {
					return nil, pgerr.Unsupported("%s with a direct argument that is not a constant", fn)
				}
				direct = append(direct, p)
				continue
			}
			p, err := expr.Compile(e, in.Schema(), opts...)
			if err != nil {
				return nil, err
			}
			extras = append(extras, p)
		}
		if argT != nil {
			if isOrderedSet(fn) {
				types = append(types, argT)
			} else {
				types = append([]arrow.DataType{argT}, types...)
			}
		}
		for _, k := range a.OrderBy {
			p, err := expr.Compile(k.E, in.Schema(), opts...)
			if err != nil {
				return nil, err
			}
			keys = append(keys, p)
		}
		rt, err := AggResultTypeN(fn, types)
		if err != nil {
			return nil, err
		}
		o.args = append(o.args, argP)
		argExprs = append(argExprs, arg)
		o.filters = append(o.filters, filterP)
		o.extras = append(o.extras, extras)
		o.direct = append(o.direct, direct)
		o.sortKeys = append(o.sortKeys, keys)
		o.argTypes = append(o.argTypes, argT)
		o.resTypes = append(o.resTypes, rt)
		name := a.Name
		if name == "" {
			name = fn
		}
		fields = append(fields, arrow.Field{Name: name, Type: rt, Nullable: true})
	}
	o.schema = arrow.NewSchema(fields, nil)
	o.transient = make([]bool, len(aggs))
	for a := range aggs {
		o.transient[a] = o.argTransient(a)
	}
	if err := o.shareArgs(argExprs, in.Schema(), opts); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *hashAggOp) Open(ctx context.Context) error {
	o.releaseKept()
	o.closeSpill()
	o.ctx = ctx
	o.mem.release()
	o.mem = newMemAccount(ctx, "hash aggregation")
	o.canSpill, o.overflow = o.spillable(ctx), false
	if err := o.reset(ctx); err != nil {
		return err
	}
	if len(o.groups) == 0 {
		o.grow(1)
	}
	return o.in.Open(ctx)
}

// reset empties the table: no groups, no states, nothing accounted.
func (o *hashAggOp) reset(ctx context.Context) error {
	for _, parts := range o.keyParts {
		releaseAll(parts)
	}
	for _, s := range o.states {
		if s != nil {
			s.release()
		}
	}
	o.mem.release()
	o.table, o.held, o.ngroups = nil, 0, 0
	if len(o.groups) > 0 {
		types := make([]arrow.DataType, len(o.groups))
		for i, p := range o.groups {
			types[i] = p.Type()
		}
		o.table = newGroupTable(types)
	}
	o.keyParts = make([][]arrow.Array, len(o.groups))
	o.keyLevels = o.keyLevels[:0]
	o.states = make([]aggState, len(o.aggs))
	o.distinct = make([]*distinctSet, len(o.aggs))
	for i, a := range o.aggs {
		s, err := o.newState(ctx, i)
		if err != nil {
			return err
		}
		o.states[i] = s
		if a.Distinct {
			o.distinct[i] = newDistinctSet()
		}
	}
	o.reserve(ctx)
	return nil
}

// GroupSizer is an aggregation that takes the planner's estimate of how
// many groups it will find.
type GroupSizer interface {
	// ExpectGroups sets the estimate (<= 0: none), before Open.
	ExpectGroups(n int64)
}

// ExpectGroups sizes the group table and the aggregates' states for n
// groups at Open, so that they do not grow (zeroing and rehashing) a
// doubling at a time. The estimate is only a size: more groups still
// grow the table, fewer waste the room.
func (o *hashAggOp) ExpectGroups(n int64) { o.expect = n }

// reserveBytesPerGroup is about what a group takes in the table (a slot
// of 16 bytes at most three quarters full, and its key) besides its
// aggregates' states.
const reserveBytesPerGroup = 32

// maxReservedGroups bounds the room an estimate reserves without a
// memory limit.
const maxReservedGroups = 1 << 22

// reserve makes room for the expected groups, within a quarter of what
// statement_mem leaves and never after a spill (the groups then go to
// partitions as the table fills).
func (o *hashAggOp) reserve(ctx context.Context) {
	if o.expect <= 0 || o.table == nil || o.spill != nil {
		return
	}
	n := min(o.expect, maxReservedGroups)
	per := int64(reserveBytesPerGroup + 16*len(o.aggs))
	if lim := memoryLimitOf(ctx); lim != nil && lim.limit > 0 {
		n = min(n, max(lim.limit-lim.Used(), 0)/4/per)
	}
	if n < 1024 {
		return
	}
	if r, ok := o.table.(reserver); ok {
		r.reserve(int(n))
	}
	for _, s := range o.states {
		if r, ok := s.(reserver); ok {
			r.reserve(int(n))
		}
	}
}

// reserver is a group table or aggregate state that can make room for n
// groups ahead.
type reserver interface{ reserve(n int) }

// reserveCap returns s with room for n elements.
func reserveCap[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s
	}
	t := make([]T, len(s), n)
	copy(t, s)
	return t
}

func (o *hashAggOp) grow(n int) {
	o.ngroups = n
	for _, s := range o.states {
		s.grow(n)
	}
}

func (o *hashAggOp) Next() (arrow.RecordBatch, error) {
	if !o.done {
		if err := o.consume(); err != nil {
			return nil, err
		}
		o.done = true
	}
	if o.spill != nil {
		return o.nextSpilled()
	}
	return o.emit.next(o.ctx)
}

func (o *hashAggOp) consume() error {
	for {
		if err := o.ctx.Err(); err != nil {
			return err
		}
		b, err := o.in.Next()
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		if o.byInput {
			if err := o.addInput(b); err != nil {
				return err
			}
			continue
		}
		if err := o.add(b); err != nil {
			return err
		}
		if o.overflow {
			// Past statement_mem: the groups go to the partitions.
			o.overflow = false
			if err := o.flushSpill(); err != nil {
				return err
			}
		}
	}
	if o.spill != nil {
		if o.byInput {
			return o.finishInputSpill()
		}
		return o.finishSpill()
	}
	o.releaseKept()
	return o.finish()
}

// add folds one batch into the groups.
func (o *hashAggOp) add(b arrow.RecordBatch) error {
	n := int(b.NumRows())
	o.gids = growLen(o.gids, n)
	gids := o.gids
	if len(o.groups) == 0 {
		clear(gids)
	} else {
		if err := o.assignGroups(b, gids); err != nil {
			return err
		}
	}
	if o.phase == phaseFinal {
		return o.merge(b, gids)
	}
	argsIn := b // the batch the arguments read
	var shared []arrow.Array
	if o.share != nil {
		shared = make([]arrow.Array, len(o.aggs))
		defer releaseAll(shared)
		ext, err := o.evalShared(b, shared)
		if err != nil {
			return err
		}
		defer ext.Release()
		argsIn = ext
	}
	for a := range o.aggs {
		var arg arrow.Array
		switch {
		case shared != nil && shared[a] != nil:
			arg = shared[a]
			arg.Retain()
		case o.args[a] != nil:
			v, err := o.evalArg(o.args[a], o.transient[a], argsIn)
			if err != nil {
				return err
			}
			arg = v
		}
		err := func() error {
			if arg != nil {
				defer arg.Release()
			}
			rows := gids
			if o.filters[a] != nil || o.distinct[a] != nil {
				o.rows = append(o.rows[:0], gids...)
				rows = o.rows
			}
			if o.filters[a] != nil {
				if err := o.applyFilter(a, b, rows); err != nil {
					return err
				}
			}
			if o.distinct[a] != nil && arg != nil {
				if err := o.applyDistinct(a, arg, rows); err != nil {
					return err
				}
			}
			return o.update(a, b, rows, arg)
		}()
		if err != nil {
			return err
		}
	}
	return o.account()
}

// assignGroups finds or creates the group of every row.
func (o *hashAggOp) assignGroups(b arrow.RecordBatch, gids []int32) error {
	keys := o.keys[:0]
	defer func() {
		releaseAll(keys)
		clear(keys)
		o.keys = keys[:0]
	}()
	for _, p := range o.groups {
		// The table copies the keys it keeps, and so does TakeArray.
		k, err := p.EvalTransient(o.ctx, b)
		if err != nil {
			return err
		}
		keys = append(keys, k)
	}
	newRows, err := o.table.assign(keys, gids, o.newRows[:0])
	o.newRows = newRows
	if err != nil {
		return err
	}
	if err := o.account(); err != nil {
		return err
	}
	if len(newRows) == 0 {
		return nil
	}
	var idx arrow.Array // newRows as an array, for the generic take
	defer func() {
		if idx != nil {
			idx.Release()
		}
	}()
	var keyBytes int64
	for i, k := range keys {
		t, err := takeTyped(o.ctx, k, newRows, &idx)
		if err != nil {
			return err
		}
		keyBytes += arrayBytes(t)
		o.keyParts[i] = append(o.keyParts[i], t)
	}
	if err := o.mergeKeyParts(); err != nil {
		return err
	}
	// The groups' key columns, and their aggregates' states: about this
	// much (a state is one to three 8-byte values in most aggregates).
	if err := o.mem.growTo(keyBytes+int64(len(newRows))*int64(16*len(o.aggs)), o.canSpill); err != nil {
		if !o.canSpill {
			return err
		}
		o.overflow = true
	}
	o.grow(o.ngroups + len(newRows))
	return nil
}

// mergeKeyParts merges the key parts of the last 64 batches that
// brought groups into one, and 64 such merged parts into one, and so on:
// many batches each bringing a few groups make few arrays, and a key is
// copied once a level (a level holds 64 times the groups of the one
// below) rather than again at every merge.
func (o *hashAggOp) mergeKeyParts() error {
	o.keyLevels = append(o.keyLevels, 0)
	for {
		n := len(o.keyLevels)
		if n < 64 || o.keyLevels[n-64] != o.keyLevels[n-1] {
			return nil
		}
		for i, parts := range o.keyParts {
			merged, err := concatArrays(expr.Allocator(o.ctx), parts[n-64:])
			if err != nil {
				return err
			}
			releaseAll(parts[n-64:])
			clear(parts[n-63:])
			parts[n-64] = merged
			o.keyParts[i] = parts[:n-63]
		}
		o.keyLevels = append(o.keyLevels[:n-64], o.keyLevels[n-1]+1)
	}
}

// account brings the memory accounted for the group table, the DISTINCT
// sets and the aggregates that keep values up to what they hold.
func (o *hashAggOp) account() error {
	var n int64
	if o.table != nil {
		n += o.table.size()
	}
	for _, d := range o.distinct {
		if d != nil {
			n += d.size()
		}
	}
	for _, s := range o.states {
		if h, ok := s.(heldState); ok {
			n += h.held()
		}
	}
	if n <= o.held {
		return nil
	}
	if err := o.mem.growTo(n-o.held, o.canSpill); err != nil {
		if !o.canSpill {
			return err
		}
		o.overflow = true
		return nil
	}
	o.held = n
	return nil
}

func (o *hashAggOp) applyFilter(a int, b arrow.RecordBatch, rows []int32) error {
	m, err := o.filters[a].EvalTransient(o.ctx, b) // read here only
	if err != nil {
		return err
	}
	defer m.Release()
	mask, ok := m.(*array.Boolean)
	if !ok {
		return fmt.Errorf("FILTER of %s is %s, not boolean", o.aggs[a].Fn, m.DataType())
	}
	for i := range rows {
		if mask.IsNull(i) || !mask.Value(i) {
			rows[i] = -1
		}
	}
	return nil
}

// applyDistinct drops rows whose (group, value) was seen before. NULL is
// one value too (array_agg(DISTINCT x) keeps one NULL; the other
// aggregates skip NULLs anyway).
func (o *hashAggOp) applyDistinct(a int, arg arrow.Array, rows []int32) error {
	if err := o.distinct[a].filter(arg, rows); err != nil {
		return err
	}
	return o.account()
}

// finish builds the result batch.
func (o *hashAggOp) finish() error {
	if o.ngroups == 0 {
		return nil
	}
	mem := expr.Allocator(o.ctx)
	cols := make([]arrow.Array, 0, o.schema.NumFields())
	defer func() { releaseAll(cols) }()
	for i := range o.groups {
		c, err := concatArrays(mem, o.keyParts[i])
		if err != nil {
			return err
		}
		cols = append(cols, c)
	}
	for _, s := range o.states {
		if o.phase == phasePartial {
			cs, err := s.(partialState).partial(mem)
			cols = append(cols, cs...)
			if err != nil {
				return err
			}
			continue
		}
		c, err := s.result(mem)
		if err != nil {
			return err
		}
		cols = append(cols, c)
	}
	o.emit.set(array.NewRecordBatch(o.schema, cols, int64(o.ngroups)))
	return nil
}

func (o *hashAggOp) Close() error {
	o.releaseKept()
	o.closeSpill()
	o.emit.release()
	o.mem.release()
	for _, parts := range o.keyParts {
		releaseAll(parts)
	}
	o.keyParts = nil
	for _, s := range o.states {
		if s != nil {
			s.release()
		}
	}
	o.states = nil
	o.table, o.distinct = nil, nil
	return o.in.Close()
}

func (o *hashAggOp) Schema() *arrow.Schema { return o.schema }

// newState makes the state of aggregate i: ordered-set aggregates and
// those with ORDER BY run inside an orderedState.
func (o *hashAggOp) newState(ctx context.Context, i int) (aggState, error) {
	fn := strings.ToLower(o.aggs[i].Fn)
	if isOrderedSet(fn) {
		direct, err := evalConstants(ctx, o.direct[i])
		defer releaseAll(direct)
		if err != nil {
			return nil, err
		}
		inner, err := newOrderedSetState(ctx, fn, o.argTypes[i], o.resTypes[i], direct)
		if err != nil {
			return nil, err
		}
		return newOrderedState(ctx, inner, o.aggs[i].OrderBy, 0), nil
	}
	s, err := newAggState(ctx, fn, o.argTypes[i], o.resTypes[i])
	if err != nil {
		return nil, err
	}
	if len(o.aggs[i].OrderBy) > 0 {
		return newOrderedState(ctx, s, o.aggs[i].OrderBy, len(o.extras[i])), nil
	}
	return s, nil
}

// evalConstants evaluates constant expressions to one-row arrays.
func evalConstants(ctx context.Context, progs []expr.Program) ([]arrow.Array, error) {
	one := array.NewRecordBatch(emptySchema, nil, 1)
	defer one.Release()
	out := make([]arrow.Array, len(progs))
	for i, p := range progs {
		a, err := p.Eval(ctx, one)
		if err != nil {
			return out, err
		}
		out[i] = a
	}
	return out, nil
}

// update feeds the rows of batch b (rows[i] = group, < 0 to skip) to
// aggregate a, with its extra arguments and sort keys evaluated.
func (o *hashAggOp) update(a int, b arrow.RecordBatch, rows []int32, arg arrow.Array) error {
	st := o.states[a]
	os, ordered := st.(*orderedState)
	xs, hasExtra := st.(extraArgState)
	if !ordered && !hasExtra {
		return st.update(rows, arg)
	}
	evalAll := func(progs []expr.Program) ([]arrow.Array, error) {
		out := make([]arrow.Array, len(progs))
		for i, p := range progs {
			v, err := p.Eval(o.ctx, b)
			if err != nil {
				return out, err
			}
			out[i] = v
		}
		return out, nil
	}
	extra, err := evalAll(o.extras[a])
	defer releaseAll(extra)
	if err != nil {
		return err
	}
	if !ordered {
		return xs.updateExtra(rows, arg, extra)
	}
	keys, err := evalAll(o.sortKeys[a])
	defer releaseAll(keys)
	if err != nil {
		return err
	}
	return os.updateOrdered(rows, arg, extra, keys)
}
