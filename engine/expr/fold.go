package expr

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Constant folding: Compile replaces every call, cast and CASE whose
// arguments are all constants by the constant it computes, so that
// `l_discount >= 0.06 - 0.01` compares with 0.05 instead of subtracting
// per batch, and comparison kernels see a constant operand. Programs are
// compiled per execution (a prepared statement lowers again at each
// Execute), so stable values such as now() stay those of the statement.
// Volatile functions are never folded, nor Go row functions (they may
// read the catalog). A subtree whose evaluation fails stays as it is: the
// error is raised when, and only if, a row evaluates it.

// volatile are the functions whose result may change from one call to
// the next.
var volatile = map[string]bool{
	"random": true, "setseed": true, "clock_timestamp": true, "timeofday": true,
	"nextval": true, "gen_random_uuid": true,
}

// Volatile reports whether the function fn may give another result at
// each call (random, nextval...).
func Volatile(fn string) bool { return volatile[fn] }

var emptyInput = arrow.NewSchema(nil, nil)

// fold returns e with its constant subtrees evaluated.
func fold(e Expr, tz *time.Location) Expr {
	switch x := e.(type) {
	case *Call:
		if x.Go != nil || volatile[x.Fn] {
			return e
		}
		args, changed, allLit := foldAll(x.Args, tz)
		if changed {
			c := *x
			c.Args = args
			x = &c
			e = x
		}
		if allLit {
			return foldNode(e, tz)
		}
		return e
	case *Cast:
		arg := fold(x.Arg, tz)
		if arg != x.Arg {
			e = &Cast{Arg: arg, T: x.T}
		}
		if _, ok := arg.(*Lit); ok {
			return foldNode(e, tz)
		}
		return e
	case *Case:
		c := &Case{T: x.T, Whens: make([]When, len(x.Whens))}
		changed, allLit := false, true
		for i, w := range x.Whens {
			c.Whens[i] = When{Cond: fold(w.Cond, tz), Then: fold(w.Then, tz)}
			changed = changed || c.Whens[i].Cond != w.Cond || c.Whens[i].Then != w.Then
			allLit = allLit && isLit(c.Whens[i].Cond) && isLit(c.Whens[i].Then)
		}
		if x.Else != nil {
			c.Else = fold(x.Else, tz)
			changed = changed || c.Else != x.Else
			allLit = allLit && isLit(c.Else)
		}
		if changed {
			e = c
		}
		if allLit {
			return foldNode(e, tz)
		}
		return e
	}
	return e
}

func foldAll(es []Expr, tz *time.Location) ([]Expr, bool, bool) {
	out := es
	changed, allLit := false, true
	for i, a := range es {
		f := fold(a, tz)
		if f != a {
			if !changed {
				out = append([]Expr(nil), es...)
				changed = true
			}
			out[i] = f
		}
		allLit = allLit && isLit(f)
	}
	return out, changed, allLit
}

func isLit(e Expr) bool {
	_, ok := e.(*Lit)
	return ok
}

// foldNode evaluates e, whose inputs are constants, into a Lit; e itself
// when that fails or the value has no exact constant form.
func foldNode(e Expr, tz *time.Location) Expr {
	c := &compiler{in: emptyInput, tz: tz}
	n, err := c.compile(e)
	if err != nil {
		return e
	}
	one := array.NewRecordBatch(emptyInput, nil, 1)
	defer one.Release()
	mem := memory.DefaultAllocator
	ev := &evalCtx{ctx: foldContext, mem: mem, batch: one, n: 1, budget: foldBudget{}}
	v, err := n.eval(ev)
	if err != nil {
		return e
	}
	defer v.arr.Release()
	if v.arr.Len() != 1 {
		return e
	}
	t := e.Type()
	if k := kindOf(t); k == kInvalid || k == kNull {
		return e
	}
	if v.arr.DataType().ID() != arrow.NULL && !arrow.TypeEqual(v.arr.DataType(), t) {
		return e
	}
	lit, err := ValueLit(v.arr, 0)
	if err != nil {
		return e
	}
	lit.T = t
	a, err := LitArray(mem, lit)
	if err != nil {
		return e
	}
	a.Release()
	return lit
}
