package bind

import (
	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/translate/plan"
)

// The binder's side of the functions PostgreSQL lacks that icegate takes
// from Spark (named_struct, struct, map, nvl, datediff...; their
// definitions are package translate/sparkfunc, found through
// Env.SparkFuncs): the call site, between the catalog functions and the
// aggregates, and the API a definition binds with. The catalog functions'
// API (sysfunc.go) serves functions of fixed signatures; these take the
// call as written, for definitions that read their arguments' syntax (a
// field name must be a string constant) or leave a call they do not
// handle to PostgreSQL's functions.

// FuncDef describes one function defined outside the binder.
type FuncDef struct {
	// Bind binds fc, a call of the function named name; ok is false when
	// the definition leaves the call to the functions after it (an
	// aggregate's, a window function's, the engine's catalogue).
	Bind func(b *Binder, fc *pg.FuncCall, name string) (r Bound, ok bool, err error)
}

// FuncDefs are the functions by name. Package translate/sparkfunc builds
// Spark's; the binder finds them through Env.SparkFuncs.
type FuncDefs map[string]FuncDef

// sparkFunc binds fc when an unqualified name calls one of Spark's
// functions; ok is false for any other call.
func (b *Binder) sparkFunc(fc *pg.FuncCall, name string) (Bound, bool, error) {
	if len(fc.Funcname) != 1 {
		return Bound{}, false, nil
	}
	def, found := b.env.SparkFuncs()[name]
	if !found {
		return Bound{}, false, nil
	}
	return def.Bind(b, fc, name)
}

// Exprs binds expressions, in order.
func (b *Binder) Exprs(ns []*pg.Node) ([]Bound, error) { return b.exprs(ns) }

// Call resolves a function or operator fn over args through the engine's
// catalogue, as a PostgreSQL function call is.
func (b *Binder) Call(fn string, args []Bound, loc int32) (Bound, error) {
	return b.call(fn, args, loc)
}

// CastTo is CAST(x AS t).
func (b *Binder) CastTo(x Bound, t plan.Type, loc int32) (Bound, error) {
	return b.castTo(x, t, loc)
}

// ResolveUnknown gives x the type text when it is an untyped literal.
func (b *Binder) ResolveUnknown(x Bound) Bound { return x.resolveUnknownIn(b) }

// ArrowType is the type the engine's function catalogue sees for x:
// arrow.Null for an untyped literal.
func (x Bound) ArrowType() arrow.DataType { return x.arrowType() }

// Named is x as the value of a function call: the column PostgreSQL
// names after the function, name.
func (x Bound) Named(name string) Bound {
	x.Name, x.strong = name, true
	return x
}

// PGTypeOfArrow is the PostgreSQL type of a computed value of Arrow type
// t (results of functions and operators).
func PGTypeOfArrow(t arrow.DataType) plan.Type { return pgTypeOfArrow(t) }
