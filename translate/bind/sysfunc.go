package bind

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
)

// The binder's side of the system catalog functions (format_type,
// pg_get_indexdef, has_table_privilege...; their definitions are package
// translate/sysfunc, found through Env.SysFuncs): the call site a definition
// binds, and the API it binds with. A definition checks the arity
// (SysArity), coerces the arguments to the types PostgreSQL declares
// (SysArg, SysArgs) and returns SysCall's expr.Call, whose Go function runs
// row by row; the functions that read the warehouse take the statement's
// catalog snapshot (Env.SysSnapshot) inside that function, so a prepared
// statement sees the warehouse of each execution. A call of a function that
// does not read the snapshot, with constant arguments, is folded to a
// constant here.

// SysFuncDef describes one catalog function.
type SysFuncDef struct {
	// Bind checks the arity and argument types and returns the call.
	Bind func(b *Binder, c *SysCallSite) (Bound, error)
}

// SysCallSite is a catalog function call being bound.
type SysCallSite struct {
	// Name is the function called; Args its arguments, bound.
	Name string
	fc   *pg.FuncCall
	Args []Bound
}

// Loc is the call's byte offset in the statement (for error positions).
func (c *SysCallSite) Loc() int32 { return c.fc.Location }

// SysFuncs are the catalog functions by name. Package translate/sysfunc
// builds them; the binder finds them through Env.SysFuncs.
type SysFuncs map[string]SysFuncDef

// sysFunc binds fc when it names a catalog function (unqualified, or
// qualified by pg_catalog; information_schema for its helper functions).
// ok is false for any other function.
func (b *Binder) sysFunc(fc *pg.FuncCall) (r Bound, ok bool, err error) {
	name := funcName(fc)
	def, found := b.env.SysFuncs()[name]
	if !found && !setReturningSysFuncs[name] || fc.Over != nil || fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 {
		return Bound{}, false, nil
	}
	switch len(fc.Funcname) {
	case 1:
		if name == "_pg_expandarray" {
			return Bound{}, false, nil // information_schema is not on the search path
		}
	case 2:
		schema := fc.Funcname[0].GetString_().GetSval()
		if schema != "pg_catalog" && !(schema == "information_schema" && name == "_pg_expandarray") {
			return Bound{}, false, nil
		}
	default:
		return Bound{}, false, nil
	}
	if fc.FuncVariadic {
		return Bound{}, true, b.ErrAt(pgerr.NotYet("VARIADIC"), fc.Location)
	}
	if name == "_pg_expandarray" {
		r, err := b.expandArraySRF(fc)
		return r, true, err
	}
	if setReturningSysFuncs[name] {
		// In FROM they are bound by bindRangeFunction (tablefunc.go);
		// a select list would need their composite results.
		return Bound{}, true, b.ErrAt(pgerr.NotYet(name+" in a select list"), fc.Location)
	}
	args, err := b.exprs(fc.Args)
	if err != nil {
		return Bound{}, true, err
	}
	r, err = def.Bind(b, &SysCallSite{Name: name, fc: fc, Args: args})
	if err != nil {
		return Bound{}, true, err
	}
	r.Name, r.strong = name, true
	return r, true, nil
}

// SysFn computes a catalog function on one row's argument values (their Go
// forms: int64 for the oid family, int32, int16, string, bool; nil for
// NULL). snap is nil for functions that do not read the warehouse.
type SysFn func(ctx context.Context, snap *syscat.Snapshot, args []any) (any, error)

// SysCallOpts says how a call is evaluated.
type SysCallOpts struct {
	// Snapshot: the function reads the warehouse (never folded).
	Snapshot bool
	// Volatile: the result may change between executions (never folded).
	Volatile bool
	// Lenient: the function is called with NULL arguments too (else any
	// NULL argument makes the result NULL, as for a strict function).
	Lenient bool
}

// SysCall makes the call of fn over args (already coerced) with result
// type t.
func (b *Binder) SysCall(c *SysCallSite, t plan.Type, args []expr.Expr, o SysCallOpts, fn SysFn) (Bound, error) {
	s := b.env
	run := func(ctx context.Context, vals []any) (any, error) {
		if !o.Lenient {
			for _, v := range vals {
				if v == nil {
					return nil, nil
				}
			}
		}
		var snap *syscat.Snapshot
		if o.Snapshot {
			var err error
			if snap, err = s.SysSnapshot(ctx); err != nil {
				return nil, err
			}
		}
		return fn(ctx, snap, vals)
	}
	at := sysArrowOf(t)
	if !o.Snapshot && !o.Volatile {
		vals, ok := literalValues(args)
		if ok {
			v, err := run(b.ctx, vals)
			if err != nil {
				return Bound{}, b.ErrAt(err, c.Loc())
			}
			return Bound{E: &expr.Lit{V: v, T: at}, T: t}, nil
		}
	}
	return Bound{E: &expr.Call{Fn: c.Name, Args: args, T: at, Go: run}, T: t}, nil
}

// sysArrowOf is the Arrow type of a catalog function's result.
func sysArrowOf(t plan.Type) arrow.DataType {
	switch t.OID {
	case pgtypes.NameArray, pgtypes.TextArray:
		return arrow.ListOf(arrow.BinaryTypes.String)
	case pgtypes.Name, pgtypes.JSON, pgtypes.Inet, pgtypes.PgNodeTree:
		return arrow.BinaryTypes.String
	}
	return plan.ArrowOf(t)
}

// literalValues returns the values of args when every one is a constant.
func literalValues(args []expr.Expr) ([]any, bool) {
	vals := make([]any, len(args))
	for i, a := range args {
		l, ok := a.(*expr.Lit)
		if !ok {
			return nil, false
		}
		vals[i] = l.V
	}
	return vals, true
}

// SysArity checks the number of arguments against the accepted counts.
func (b *Binder) SysArity(c *SysCallSite, counts ...int) error {
	for _, n := range counts {
		if len(c.Args) == n {
			return nil
		}
	}
	return b.ErrAt(UndefinedCall(c.Name, c.Args), c.Loc())
}

// SysArg coerces argument i to type t.
func (b *Binder) SysArg(c *SysCallSite, i int, t plan.Type) expr.Expr {
	a := c.Args[i]
	if t.OID == pgtypes.Name {
		t = plan.TText
	}
	return b.Coerce(a, plan.ArrowOf(t))
}

// SysArgs coerces the arguments to the types ts.
func (b *Binder) SysArgs(c *SysCallSite, ts ...plan.Type) []expr.Expr {
	out := make([]expr.Expr, len(ts))
	for i, t := range ts {
		out[i] = b.SysArg(c, i, t)
	}
	return out
}

// ToInt64 reads an integer argument value.
func ToInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int16:
		return int64(x), true
	case int8:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x), true
		}
	case int:
		return int64(x), true
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// TextValue reads a text argument value.
func TextValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

// Env is the session the binder binds for (system functions read the
// user, the database and settings from it).
func (b *Binder) Env() Env { return b.env }
