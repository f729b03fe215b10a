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

// The system catalog functions clients call while introspecting
// (format_type, pg_get_indexdef, pg_table_is_visible, has_table_privilege,
// pg_size_pretty...). Each binds its arguments to the types PostgreSQL
// declares, and becomes an expr.Call whose Go function runs row by row; the
// functions that read the warehouse take the statement's catalog snapshot
// (Env.SysSnapshot) inside that function, so a prepared statement sees
// the warehouse of each execution. A call of a function that does not read
// the snapshot, with constant arguments, is folded to a constant here.

// sysFuncDef describes one catalog function.
type sysFuncDef struct {
	// bind checks the arity and argument types and returns the call.
	bind func(b *Binder, c *sysCallSite) (Bound, error)
}

// sysCallSite is a catalog function call being bound.
type sysCallSite struct {
	name string
	fc   *pg.FuncCall
	args []Bound
}

func (c *sysCallSite) loc() int32 { return c.fc.Location }

// sysFuncs lists the catalog functions by name (filled by the files
// sysfunc_*.go through their init functions' tables).
var sysFuncs = map[string]sysFuncDef{
	"pg_get_keywords": {}, "pg_options_to_table": {}, "_pg_expandarray": {}, // set-returning: tablefunc.go
}

func registerSysFuncs(m map[string]sysFuncDef) {
	for k, v := range m {
		sysFuncs[k] = v
	}
}

// sysFunc binds fc when it names a catalog function (unqualified, or
// qualified by pg_catalog; information_schema for its helper functions).
// ok is false for any other function.
func (b *Binder) sysFunc(fc *pg.FuncCall) (r Bound, ok bool, err error) {
	name := funcName(fc)
	def, found := sysFuncs[name]
	if !found || fc.Over != nil || fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 {
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
	r, err = def.bind(b, &sysCallSite{name: name, fc: fc, args: args})
	if err != nil {
		return Bound{}, true, err
	}
	r.Name, r.strong = name, true
	return r, true, nil
}

// sysFn computes a catalog function on one row's argument values (their Go
// forms: int64 for the oid family, int32, int16, string, bool; nil for
// NULL). snap is nil for functions that do not read the warehouse.
type sysFn func(ctx context.Context, snap *syscat.Snapshot, args []any) (any, error)

// sysCallOpts says how a call is evaluated.
type sysCallOpts struct {
	// snapshot: the function reads the warehouse (never folded).
	snapshot bool
	// volatile: the result may change between executions (never folded).
	volatile bool
	// lenient: the function is called with NULL arguments too (else any
	// NULL argument makes the result NULL, as for a strict function).
	lenient bool
}

// sysCall makes the call of fn over args (already coerced) with result
// type t.
func (b *Binder) sysCall(c *sysCallSite, t plan.Type, args []expr.Expr, o sysCallOpts, fn sysFn) (Bound, error) {
	s := b.env
	run := func(ctx context.Context, vals []any) (any, error) {
		if !o.lenient {
			for _, v := range vals {
				if v == nil {
					return nil, nil
				}
			}
		}
		var snap *syscat.Snapshot
		if o.snapshot {
			var err error
			if snap, err = s.SysSnapshot(ctx); err != nil {
				return nil, err
			}
		}
		return fn(ctx, snap, vals)
	}
	at := sysArrowOf(t)
	if !o.snapshot && !o.volatile {
		vals, ok := literalValues(args)
		if ok {
			v, err := run(b.ctx, vals)
			if err != nil {
				return Bound{}, b.ErrAt(err, c.loc())
			}
			return Bound{E: &expr.Lit{V: v, T: at}, T: t}, nil
		}
	}
	return Bound{E: &expr.Call{Fn: c.name, Args: args, T: at, Go: run}, T: t}, nil
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

// Argument types of the catalog functions.
var (
	tOIDArg  = plan.Type{OID: pgtypes.OID, Typmod: -1}
	tNameArg = plan.Type{OID: pgtypes.Name, Typmod: -1}
)

// arity checks the number of arguments against the accepted counts.
func (b *Binder) sysArity(c *sysCallSite, counts ...int) error {
	for _, n := range counts {
		if len(c.args) == n {
			return nil
		}
	}
	return b.ErrAt(undefinedCall(c.name, c.args), c.loc())
}

// sysArg coerces argument i to type t.
func (b *Binder) sysArg(c *sysCallSite, i int, t plan.Type) expr.Expr {
	a := c.args[i]
	if t.OID == pgtypes.Name {
		t = plan.TText
	}
	return b.coerce(a, plan.ArrowOf(t))
}

// sysArgs coerces the arguments to the types ts.
func (b *Binder) sysArgs(c *sysCallSite, ts ...plan.Type) []expr.Expr {
	out := make([]expr.Expr, len(ts))
	for i, t := range ts {
		out[i] = b.sysArg(c, i, t)
	}
	return out
}

// isTextArg reports whether argument i is a string (text, varchar, name,
// or an untyped literal, which PostgreSQL resolves to text when a function
// has both a text and an oid form).
func isTextArg(a Bound) bool {
	if a.lit != nil {
		return true
	}
	if a.null {
		return false
	}
	switch a.T.OID {
	case pgtypes.Text, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name, pgtypes.Unknown:
		return true
	}
	return false
}

// toInt64 reads an integer argument value.
func toInt64(v any) (int64, bool) {
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

// oidValue reads an oid argument value.
func oidValue(v any) (uint32, error) {
	n, ok := toInt64(v)
	if !ok || n < 0 || n > math.MaxUint32 {
		return 0, fmt.Errorf("oid argument %v (%T)", v, v)
	}
	return uint32(n), nil
}

// textValue reads a text argument value.
func textValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

// boolValue reads a boolean argument value (NULL is false).
func boolValue(v any) bool {
	x, _ := v.(bool)
	return x
}

// invalidParameter is SQLSTATE 22023.
func invalidParameter(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, format, args...)
}
