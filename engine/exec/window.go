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

// FrameMode is how a window frame's bounds are measured: RANGE (by ORDER
// BY value; PostgreSQL's default), ROWS (by position) or GROUPS (by peer
// groups).
type FrameMode int

const (
	FrameRange FrameMode = iota
	FrameRows
	FrameGroups
)

// BoundKind is the kind of one end of a window frame.
type BoundKind int

const (
	UnboundedPreceding BoundKind = iota
	OffsetPreceding
	CurrentRow
	OffsetFollowing
	UnboundedFollowing
)

// FrameBound is one end of a frame. Offset is a constant expression for
// OffsetPreceding / OffsetFollowing: an integer for ROWS and GROUPS; for
// RANGE a value of the single ORDER BY key's family (integers, floats,
// numeric; whole days for a date key).
type FrameBound struct {
	Kind   BoundKind
	Offset expr.Expr
}

// FrameExclude is a frame's EXCLUDE clause.
type FrameExclude int

const (
	ExcludeNoOthers FrameExclude = iota
	ExcludeCurrentRow
	ExcludeGroup
	ExcludeTies
)

// WindowFrame is the frame clause of a window. Its zero value stands for
// DefaultFrame.
type WindowFrame struct {
	Mode       FrameMode
	Start, End FrameBound
	Exclude    FrameExclude
}

// DefaultFrame is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW.
func DefaultFrame() WindowFrame {
	return WindowFrame{Mode: FrameRange, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}}
}

// WindowCall is one window function call of a window.
type WindowCall struct {
	Fn     string      // lower-case name
	Args   []expr.Expr // over the input schema
	Filter expr.Expr   // FILTER (WHERE ...) for aggregates; nil = none
	Frame  WindowFrame
	Name   string
}

// winFn is a window function, resolved once.
type winFn int

const (
	fnRowNumber winFn = iota
	fnRank
	fnDenseRank
	fnPercentRank
	fnCumeDist
	fnNtile
	fnLag
	fnLead
	fnFirstValue
	fnLastValue
	fnNthValue
	fnAggregate
)

var windowFns = map[string]winFn{
	"row_number":   fnRowNumber,
	"rank":         fnRank,
	"dense_rank":   fnDenseRank,
	"percent_rank": fnPercentRank,
	"cume_dist":    fnCumeDist,
	"ntile":        fnNtile,
	"lag":          fnLag,
	"lead":         fnLead,
	"first_value":  fnFirstValue,
	"last_value":   fnLastValue,
	"nth_value":    fnNthValue,
	"count":        fnAggregate,
	"sum":          fnAggregate,
	"avg":          fnAggregate,
	"min":          fnAggregate,
	"max":          fnAggregate,
	"bool_and":     fnAggregate,
	"bool_or":      fnAggregate,
	"every":        fnAggregate,
	"array_agg":    fnAggregate,
	"stddev":       fnAggregate,
	"stddev_samp":  fnAggregate,
	"stddev_pop":   fnAggregate,
	"variance":     fnAggregate,
	"var_samp":     fnAggregate,
	"var_pop":      fnAggregate,
	"string_agg":   fnAggregate,
}

// IsWindowOnly reports whether fn is a window function that is not also an
// aggregate (row_number, rank, lag, ...): it needs OVER.
func IsWindowOnly(fn string) bool {
	kind, ok := windowFns[strings.ToLower(fn)]
	return ok && kind != fnAggregate
}

// WindowResultType is the result type of a window function (42883 pgerr
// for unknown fn / arg types).
func WindowResultType(fn string, args []arrow.DataType) (arrow.DataType, error) {
	fn = strings.ToLower(fn)
	args = winPlainTypes(args)
	undefined := func() error {
		names := make([]string, len(args))
		for i, a := range args {
			names[i] = expr.PGTypeName(a)
		}
		return pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", fn, strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	kind, ok := windowFns[fn]
	if !ok {
		if _, err := AggResultTypeN(fn, args); err == nil {
			return nil, pgerr.Unsupported("aggregate %s as a window function", fn)
		}
		return nil, undefined()
	}
	isInt := func(t arrow.DataType) bool {
		switch t.ID() {
		case arrow.INT16, arrow.INT32, arrow.INT64:
			return true
		}
		return false
	}
	switch kind {
	case fnRowNumber, fnRank, fnDenseRank:
		if len(args) == 0 {
			return arrow.PrimitiveTypes.Int64, nil
		}
	case fnPercentRank, fnCumeDist:
		if len(args) == 0 {
			return arrow.PrimitiveTypes.Float64, nil
		}
	case fnNtile:
		if len(args) == 1 && isInt(args[0]) {
			return arrow.PrimitiveTypes.Int32, nil
		}
	case fnLag, fnLead:
		if len(args) >= 1 && len(args) <= 3 && args[0].ID() != arrow.NULL {
			if len(args) >= 2 && !isInt(args[1]) {
				return nil, undefined()
			}
			if len(args) == 3 && args[2].ID() != arrow.NULL && !arrow.TypeEqual(args[2], args[0]) {
				return nil, undefined()
			}
			return args[0], nil
		}
	case fnFirstValue, fnLastValue:
		if len(args) == 1 && args[0].ID() != arrow.NULL {
			return args[0], nil
		}
	case fnNthValue:
		if len(args) == 2 && args[0].ID() != arrow.NULL && isInt(args[1]) {
			return args[0], nil
		}
	case fnAggregate:
		switch {
		case fn == "count" && len(args) == 0:
			return arrow.PrimitiveTypes.Int64, nil
		case fn == "string_agg" && len(args) == 2:
			t, err := AggResultTypeN(fn, args)
			if err != nil {
				return nil, undefined()
			}
			return t, nil
		case len(args) == 1 && fn != "string_agg":
			if fn == "every" {
				fn = "bool_and"
			}
			t, err := AggResultTypeN(fn, args)
			if err != nil {
				return nil, undefined()
			}
			return t, nil
		}
	}
	return nil, undefined()
}

// winPlainTypes replaces dictionary types by their value types (programs
// decode dictionary columns).
func winPlainTypes(ts []arrow.DataType) []arrow.DataType {
	out := make([]arrow.DataType, len(ts))
	for i, t := range ts {
		if dt, ok := t.(*arrow.DictionaryType); ok {
			t = dt.ValueType
		}
		out[i] = t
	}
	return out
}

// windowCall is a WindowCall compiled for one input schema.
type windowCall struct {
	fn       string
	kind     winFn
	args     []expr.Program
	argTypes []arrow.DataType
	filter   *expr.Program
	res      arrow.DataType
	frame    WindowFrame
	start    *expr.Program // constant offset programs; nil without
	end      *expr.Program
	opts     []expr.CompileOptions
}

// windowOp evaluates window functions over one window (PARTITION BY +
// ORDER BY): it reads all input, sorts it by partition and order keys,
// and appends one column per call.
type windowOp struct {
	in     engine.Operator
	mem    memAccount
	parts  []expr.Program
	order  []SortKey
	orders []expr.Program
	calls  []windowCall
	schema *arrow.Schema
	ctx    context.Context

	batches []arrow.RecordBatch
	alive   []arrow.Array // arrays comparators of the layout read
	emit    slicer
	done    bool

	// Spilling (window_spill.go): the definitions a partition's window is
	// built from, whether this window may spill, how many spilled windows
	// it is under, and its partitions once it spilled.
	partExprs []expr.Expr
	callDefs  []WindowCall
	opts      []expr.CompileOptions
	canSpill  bool
	depth     int
	spill     *winSpill
	spilled   int64

	// Computed arguments (window_args.go): their programs, whether the
	// buffered rows count them, and the bytes and rows of the batches
	// they were measured over.
	argProgs          []expr.Program
	countArgs         bool
	argBytes, argRows int64
	argBatches        int
}

// NewWindow evaluates calls over one window: rows partitioned by
// partition, ordered by order within a partition. Output: the input
// columns then one column per call; rows come out grouped by partition
// (partitions in ascending key order, NULLs last) and sorted by order
// (stable), as PostgreSQL's WindowAgg over a sort.
func NewWindow(in engine.Operator, partition []expr.Expr, order []SortKey, calls []WindowCall, opts ...expr.CompileOptions) (engine.Operator, error) {
	o := &windowOp{in: in, order: order, partExprs: partition, callDefs: calls, opts: opts}
	for _, p := range partition {
		prog, err := expr.Compile(p, in.Schema(), opts...)
		if err != nil {
			return nil, err
		}
		o.parts = append(o.parts, prog)
	}
	for _, k := range order {
		prog, err := expr.Compile(k.E, in.Schema(), opts...)
		if err != nil {
			return nil, err
		}
		o.orders = append(o.orders, prog)
	}
	fields := append([]arrow.Field(nil), in.Schema().Fields()...)
	for _, c := range calls {
		wc, err := compileWindowCall(c, in.Schema(), order, opts)
		if err != nil {
			return nil, err
		}
		o.calls = append(o.calls, wc)
		name := c.Name
		if name == "" {
			name = wc.fn
		}
		fields = append(fields, arrow.Field{Name: name, Type: wc.res, Nullable: true})
	}
	o.schema = arrow.NewSchema(fields, nil)
	o.planComputedArgs()
	return o, nil
}

func compileWindowCall(c WindowCall, schema *arrow.Schema, order []SortKey, opts []expr.CompileOptions) (windowCall, error) {
	wc := windowCall{fn: strings.ToLower(c.Fn), frame: c.Frame, opts: opts}
	if f := wc.frame; f.Mode == 0 && f.Start.Kind == 0 && f.End.Kind == 0 && f.Exclude == 0 &&
		f.Start.Offset == nil && f.End.Offset == nil {
		// The zero WindowFrame (its end UNBOUNDED PRECEDING is no frame).
		wc.frame = DefaultFrame()
	}
	types := make([]arrow.DataType, len(c.Args))
	for i, a := range c.Args {
		types[i] = a.Type()
		p, err := expr.Compile(a, schema, opts...)
		if err != nil {
			return wc, err
		}
		wc.args = append(wc.args, p)
	}
	res, err := WindowResultType(wc.fn, types)
	if err != nil {
		return wc, err
	}
	wc.res, wc.kind, wc.argTypes = res, windowFns[wc.fn], winPlainTypes(types)
	if c.Filter != nil {
		if wc.kind != fnAggregate {
			return wc, pgerr.New(pgerr.FeatureNotSupported, "FILTER is not implemented for non-aggregate window functions")
		}
		p, err := expr.Compile(c.Filter, schema, opts...)
		if err != nil {
			return wc, err
		}
		wc.filter = &p
	}
	if err := checkWinFrame(wc.frame, order); err != nil {
		return wc, err
	}
	if wc.start, err = compileWinOffset(wc.frame, wc.frame.Start, order); err != nil {
		return wc, err
	}
	if wc.end, err = compileWinOffset(wc.frame, wc.frame.End, order); err != nil {
		return wc, err
	}
	return wc, nil
}

func (o *windowOp) Open(ctx context.Context) error {
	o.ctx = ctx
	o.closeSpill()
	o.mem.release()
	o.mem = newMemAccount(ctx, "window")
	o.canSpill = o.spillable(ctx)
	o.countArgs = o.canSpill && len(o.argProgs) > 0
	o.argBytes, o.argRows, o.argBatches = 0, 0, 0
	return o.in.Open(ctx)
}

func (o *windowOp) Next() (arrow.RecordBatch, error) {
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

// consume reads the whole input, sorts it and computes every call.
func (o *windowOp) consume() error {
	offsets := make([]winOffsets, len(o.calls))
	for i, c := range o.calls {
		off, err := evalWinOffsets(o.ctx, c)
		if err != nil {
			return err
		}
		offsets[i] = off
	}
	var rows int64
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
		if o.spill != nil {
			if err := o.spillBatch(b); err != nil {
				return err
			}
			continue
		}
		b.Retain()
		o.batches = append(o.batches, b)
		rows += b.NumRows()
		held := batchBytes(b)
		if o.countArgs {
			est, err := o.argEstimate(b)
			if err != nil {
				return err
			}
			held += est
		}
		if err := o.mem.growTo(held, o.canSpill); err != nil {
			if !o.canSpill {
				return err
			}
			if err := o.startSpill(); err != nil {
				return err
			}
		}
	}
	if o.spill != nil {
		return o.finishSpill()
	}
	if rows == 0 {
		return nil
	}
	if rows > 1<<31-2 {
		return pgerr.New(pgerr.ProgramLimitExceeded, "window over %d rows exceeds the limit of %d rows", rows, 1<<31-2)
	}
	mem := expr.Allocator(o.ctx)
	all, err := concatBatches(mem, o.in.Schema(), o.batches)
	if err != nil {
		return err
	}
	o.releaseInput()
	sorted, err := o.sortRows(all)
	all.Release()
	if err != nil {
		return err
	}
	defer sorted.Release()
	lay, err := o.layout(sorted)
	releaseAll(o.alive)
	o.alive = nil
	if err != nil {
		return err
	}
	defer lay.release()
	cols := make([]arrow.Array, 0, o.schema.NumFields())
	defer func() { releaseAll(cols) }()
	if o.countArgs {
		// What was counted for the arguments is theirs now: they are
		// built below.
		o.mem.resize([]arrow.RecordBatch{sorted})
	}
	for _, c := range sorted.Columns() {
		c.Retain()
		cols = append(cols, c)
	}
	for i := range o.calls {
		c, err := o.evalCall(sorted, lay, &o.calls[i], offsets[i])
		if err != nil {
			return fmt.Errorf("window function %s: %w", o.calls[i].fn, err)
		}
		cols = append(cols, c)
	}
	o.emit.set(array.NewRecordBatch(o.schema, cols, sorted.NumRows()))
	return nil
}

// sortRows returns all's rows ordered by partition keys (ascending, NULLs
// last) then order keys, stable.
func (o *windowOp) sortRows(all arrow.RecordBatch) (arrow.RecordBatch, error) {
	if len(o.parts) == 0 && len(o.orders) == 0 {
		all.Retain()
		return all, nil
	}
	progs := append(append([]expr.Program(nil), o.parts...), o.orders...)
	spec := make([]SortKey, len(o.parts), len(progs))
	spec = append(spec, o.order...)
	keys := make([]arrow.Array, len(progs))
	defer releaseAll(keys)
	for i, p := range progs {
		k, err := p.Eval(o.ctx, all)
		if err != nil {
			return nil, err
		}
		keys[i] = k
	}
	idx, err := sortIndices(o.ctx, keys, spec)
	if err != nil {
		return nil, err
	}
	return winTakeBatch(o.ctx, all, idx)
}

// keepAlive holds a until the input is released.
func (o *windowOp) keepAlive(a arrow.Array) { o.alive = append(o.alive, a) }

func (o *windowOp) releaseInput() {
	releaseAll(o.alive)
	o.alive = nil
	for _, b := range o.batches {
		b.Release()
	}
	o.batches = nil
}

func (o *windowOp) Close() error {
	o.closeSpill()
	o.releaseInput()
	o.mem.release()
	o.emit.release()
	return o.in.Close()
}

func (o *windowOp) Schema() *arrow.Schema { return o.schema }
