package exec

import (
	"reflect"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine/expr"
)

// Aggregate arguments that contain one another are computed once per
// batch. TPC-H Q1 sums l_extendedprice * (1 - l_discount) and, in the next
// column, l_extendedprice * (1 - l_discount) * (1 + l_tax): the second
// argument reads the first one's array instead of computing the product
// again. An argument that another contains (a provider) is evaluated
// first, over the input with the providers before it appended as extra
// columns; the arguments that contain it are compiled with a reference to
// its column in its place. Only arithmetic over columns and constants is
// shared: it computes the same values wherever it runs, and a provider is
// evaluated on the same rows as the aggregate that contains it, so no new
// error can arise.

// argShare is how hashAggOp computes the providers.
type argShare struct {
	providers []int           // aggregates whose argument another contains, smallest first
	progs     []expr.Program  // provider i over the input and providers[:i]
	schemas   []*arrow.Schema // the schema progs[i] reads
	all       *arrow.Schema   // the input and every provider: what the others read
	// transient: every aggregate is done with its argument after
	// update, so nothing keeps a provider's values past the batch.
	transient bool
}

// shareArgs finds the providers among args (nil: none) and rewrites the
// programs of the arguments that contain them.
func (o *hashAggOp) shareArgs(args []expr.Expr, in *arrow.Schema, opts []expr.CompileOptions) error {
	var cands []int
	for a, e := range args {
		if e != nil && o.args[a] != nil && exprSize(e) > 1 && shareable(e) {
			cands = append(cands, a)
		}
	}
	if len(cands) < 2 {
		return nil
	}
	slices.SortStableFunc(cands, func(x, y int) int { return exprSize(args[x]) - exprSize(args[y]) })
	// A provider is contained in a larger candidate (an argument equal to
	// another is contained too: it reads the first one's column whole).
	var providers []int
	for i, a := range cands {
		for _, b := range cands[i+1:] {
			if containsExpr(args[b], args[a]) {
				providers = append(providers, a)
				break
			}
		}
	}
	if len(providers) == 0 {
		return nil
	}
	s := &argShare{providers: providers, transient: !slices.Contains(o.transient, false)}
	fields := slices.Clone(in.Fields())
	slot := map[int]int{} // provider -> its column
	rewrite := func(e expr.Expr, upTo int) expr.Expr {
		return replaceExprs(e, func(x expr.Expr) (expr.Expr, bool) {
			for _, p := range providers[:upTo] {
				if exprEqual(x, args[p]) {
					return &expr.Col{Idx: slot[p], Name: "shared", T: args[p].Type()}, true
				}
			}
			return nil, false
		})
	}
	for i, p := range providers {
		sch := arrow.NewSchema(slices.Clone(fields), nil)
		prog, err := expr.Compile(rewrite(args[p], i), sch, opts...)
		if err != nil {
			return err
		}
		s.progs = append(s.progs, prog)
		s.schemas = append(s.schemas, sch)
		slot[p] = len(fields)
		fields = append(fields, arrow.Field{Name: "shared", Type: args[p].Type(), Nullable: true})
	}
	s.all = arrow.NewSchema(fields, nil)
	for a, e := range args {
		if e == nil || o.args[a] == nil || slices.Contains(providers, a) {
			continue
		}
		r := rewrite(e, len(providers))
		if exprEqual(r, e) {
			continue
		}
		prog, err := expr.Compile(r, s.all, opts...)
		if err != nil {
			return err
		}
		o.args[a] = &prog
	}
	o.share = s
	return nil
}

// evalShared computes the providers over b: vals[a] is provider a's
// array (the caller releases it), and ext is b with every provider
// appended, which the other arguments read (the caller releases it).
func (o *hashAggOp) evalShared(b arrow.RecordBatch, vals []arrow.Array) (ext arrow.RecordBatch, err error) {
	s := o.share
	cols := slices.Clone(b.Columns())
	n := b.NumRows()
	for i, p := range s.providers {
		in := array.NewRecordBatch(s.schemas[i], cols, n)
		v, err := o.evalArg(&s.progs[i], s.transient, in)
		in.Release()
		if err != nil {
			return nil, err
		}
		vals[p] = v
		cols = append(cols, v)
	}
	return array.NewRecordBatch(s.all, cols, n), nil
}

// shareable reports whether e is arithmetic over columns and constants.
func shareable(e expr.Expr) bool {
	switch x := e.(type) {
	case *expr.Col, *expr.Lit:
		return true
	case *expr.Cast:
		return shareable(x.Arg)
	case *expr.Call:
		if x.Go != nil {
			return false
		}
		switch x.Fn {
		case "+", "-", "*", "/", "neg":
		default:
			return false
		}
		for _, a := range x.Args {
			if !shareable(a) {
				return false
			}
		}
		return true
	}
	return false
}

// exprEqual reports whether a and b are the same expression: the same
// columns, constants, casts and calls, of the same types.
func exprEqual(a, b expr.Expr) bool {
	switch x := a.(type) {
	case *expr.Col:
		y, ok := b.(*expr.Col)
		return ok && x.Idx == y.Idx && arrow.TypeEqual(x.T, y.T)
	case *expr.Lit:
		y, ok := b.(*expr.Lit)
		return ok && arrow.TypeEqual(x.T, y.T) && reflect.DeepEqual(x.V, y.V)
	case *expr.Cast:
		y, ok := b.(*expr.Cast)
		return ok && arrow.TypeEqual(x.T, y.T) && exprEqual(x.Arg, y.Arg)
	case *expr.Call:
		y, ok := b.(*expr.Call)
		if !ok || x.Fn != y.Fn || x.Go != nil || y.Go != nil || len(x.Args) != len(y.Args) || !arrow.TypeEqual(x.T, y.T) {
			return false
		}
		for i := range x.Args {
			if !exprEqual(x.Args[i], y.Args[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// containsExpr reports whether sub is e or one of its subexpressions.
func containsExpr(e, sub expr.Expr) bool {
	if exprEqual(e, sub) {
		return true
	}
	switch x := e.(type) {
	case *expr.Cast:
		return containsExpr(x.Arg, sub)
	case *expr.Call:
		for _, a := range x.Args {
			if containsExpr(a, sub) {
				return true
			}
		}
	}
	return false
}

// replaceExprs returns e with the outermost subexpressions f replaces
// replaced (e itself when none is), copying what changes.
func replaceExprs(e expr.Expr, f func(expr.Expr) (expr.Expr, bool)) expr.Expr {
	if r, ok := f(e); ok {
		return r
	}
	switch x := e.(type) {
	case *expr.Cast:
		if a := replaceExprs(x.Arg, f); a != x.Arg {
			return &expr.Cast{Arg: a, T: x.T}
		}
	case *expr.Call:
		var args []expr.Expr
		for i, a := range x.Args {
			if r := replaceExprs(a, f); r != a {
				if args == nil {
					args = slices.Clone(x.Args)
				}
				args[i] = r
			}
		}
		if args != nil {
			nc := *x
			nc.Args = args
			return &nc
		}
	}
	return e
}

// exprSize counts e's nodes.
func exprSize(e expr.Expr) int {
	switch x := e.(type) {
	case *expr.Cast:
		return 1 + exprSize(x.Arg)
	case *expr.Call:
		n := 1
		for _, a := range x.Args {
			n += exprSize(a)
		}
		return n
	}
	return 1
}
