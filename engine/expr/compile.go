package expr

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
)

// CompileOptions are session settings a program depends on.
type CompileOptions struct {
	// TimeZone is the session TimeZone: text output of timestamptz,
	// date_trunc/date_part on timestamptz, timestamp <-> timestamptz casts.
	// nil means UTC.
	TimeZone *time.Location
}

// Program is a compiled expression: Eval runs it over one batch.
type Program struct {
	root node
	t    arrow.DataType
	// pools holds the *bufPool of the evaluations not running (pool.go).
	pools *sync.Pool
}

// Type is the type of the arrays Eval returns.
func (p Program) Type() arrow.DataType { return p.t }

type allocKey struct{}

// WithAllocator returns a context whose programs and operators allocate
// from mem (tests pass a checked allocator). Without it they use
// memory.DefaultAllocator.
func WithAllocator(ctx context.Context, mem memory.Allocator) context.Context {
	return context.WithValue(ctx, allocKey{}, mem)
}

// Allocator returns the allocator of ctx (see WithAllocator).
func Allocator(ctx context.Context) memory.Allocator {
	if m, ok := ctx.Value(allocKey{}).(memory.Allocator); ok {
		return m
	}
	return memory.DefaultAllocator
}

// Compile checks e against the input schema and prepares its kernels. opts
// is at most one CompileOptions.
func Compile(e Expr, in *arrow.Schema, opts ...CompileOptions) (Program, error) {
	c := &compiler{in: in, tz: time.UTC}
	if len(opts) > 0 && opts[0].TimeZone != nil {
		c.tz = opts[0].TimeZone
	}
	n, err := c.compile(fold(e, c.tz))
	if err != nil {
		return Program{}, err
	}
	return Program{root: n, t: e.Type(), pools: &sync.Pool{New: func() any { return newBufPool() }}}, nil
}

// Eval evaluates the program over batch. The caller releases the result,
// which has batch.NumRows() rows.
func (p Program) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	return p.eval(ctx, batch, false)
}

// EvalTransient is Eval for a caller that is done with the result when it
// releases it: it keeps no reference to the result's memory past its
// release (no String.Value kept, no slice of it in another array), so the
// result's buffers return to the program's pool for the next evaluations.
// An aggregate's argument, consumed before the next batch, is one.
func (p Program) EvalTransient(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	return p.eval(ctx, batch, true)
}

func (p Program) eval(ctx context.Context, batch arrow.RecordBatch, transient bool) (arrow.Array, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mem := Allocator(ctx)
	if _, isGo := mem.(*memory.GoAllocator); isGo && mem == memory.DefaultAllocator && p.pools != nil && batch.NumRows() >= poolMinRows {
		bp := p.pools.Get().(*bufPool)
		defer func() {
			if !transient {
				bp.endEval()
			}
			p.pools.Put(bp)
		}()
		mem = bp
	}
	ev := &evalCtx{ctx: ctx, mem: mem, batch: batch, n: int(batch.NumRows()), budget: budgetOf(ctx)}
	v, err := p.root.eval(ev)
	if err != nil {
		return nil, err
	}
	if v.c && ev.n != 1 {
		defer v.arr.Release()
		if err := ev.checkBroadcast(v.arr); err != nil {
			return nil, err
		}
		return broadcast(ev.mem, v.arr, ev.n)
	}
	return v.arr, nil
}

// compiler holds what compilation needs.
type compiler struct {
	in *arrow.Schema
	tz *time.Location
}

// vec is an intermediate result: an array of the batch's length, or (c) a
// constant of length 1 that stands for every row.
type vec struct {
	arr arrow.Array
	c   bool
}

// idx is the row index mask of v: row i of the batch is v.arr at i&v.idx().
func (v vec) idx() int {
	if v.c {
		return 0
	}
	return -1
}

type evalCtx struct {
	ctx   context.Context
	mem   memory.Allocator
	batch arrow.RecordBatch
	n     int
	// budget is the statement's memory limit, nil without one (limits.go);
	// live is what the arguments of the kernels running now take.
	budget MemoryBudget
	live   int64
	// A context over some rows of another (sub): row i is row sel[i] of
	// parent, and the columns are taken from the parent's on first use,
	// kept in cols until release.
	parent *evalCtx
	sel    []int32
	selIdx arrow.Array // sel as an Int32 array, built on first use
	cols   []arrow.Array
}

// node is one compiled expression node.
type node interface {
	eval(ev *evalCtx) (vec, error)
}

func (c *compiler) compile(e Expr) (node, error) {
	switch e := e.(type) {
	case *Col:
		if e.Idx < 0 || e.Idx >= c.in.NumFields() {
			return nil, fmt.Errorf("compile %s: column %d out of range (%d columns)", e.Name, e.Idx, c.in.NumFields())
		}
		ft := c.in.Field(e.Idx).Type
		if dt, ok := ft.(*arrow.DictionaryType); ok {
			return &colNode{idx: e.Idx, decode: true, t: dt.ValueType}, nil
		}
		return &colNode{idx: e.Idx}, nil
	case *Lit:
		return newLitNode(e)
	case *Call:
		args := make([]node, len(e.Args))
		for i, a := range e.Args {
			n, err := c.compile(a)
			if err != nil {
				return nil, err
			}
			args[i] = n
		}
		return c.compileCall(e, args)
	case *Cast:
		arg, err := c.compile(e.Arg)
		if err != nil {
			return nil, err
		}
		return c.compileCast(e.Arg.Type(), e.T, arg)
	case *Case:
		return c.compileCase(e)
	case nil:
		return nil, fmt.Errorf("compile: nil expression")
	}
	return nil, pgerr.Unsupported("expression %T", e)
}

// callNode runs a kernel over its evaluated arguments.
type callNode struct {
	args []node
	fn   func(ev *evalCtx, args []vec) (vec, error)
}

func (n *callNode) eval(ev *evalCtx) (vec, error) {
	vs := make([]vec, len(n.args))
	defer func() {
		for _, v := range vs {
			if v.arr != nil {
				v.arr.Release()
			}
		}
	}()
	var argBytes int64 // counted in ev.live while the kernel runs
	defer func() { ev.live -= argBytes }()
	for i, a := range n.args {
		v, err := a.eval(ev)
		if err != nil {
			return vec{}, err
		}
		vs[i] = v
		if ev.budget != nil {
			b := varBytes(v.arr)
			argBytes += b
			ev.live += b
		}
	}
	out, err := n.fn(ev, vs)
	if err == nil {
		if err = ev.checkOutput(out.arr); err != nil {
			out.arr.Release()
			return vec{}, err
		}
	}
	return out, err
}

// outLen is the length of a kernel's output over args: 1 when all are
// constant, else the batch length.
func outLen(ev *evalCtx, args []vec) (int, bool) {
	for _, a := range args {
		if !a.c {
			return ev.n, false
		}
	}
	return 1, true
}
