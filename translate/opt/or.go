package opt

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// impliedByOr derives, from a condition (a OR b ...) over both inputs of
// a join, a condition over one input that every row passing it must
// meet: the OR of, in each branch, the conjuncts over that input only.
// TPC-H Q7's (n1 = 'FRANCE' AND n2 = 'GERMANY') OR (n1 = 'GERMANY' AND
// n2 = 'FRANCE') implies n1 IN ('FRANCE', 'GERMANY') for the first
// nation, which then filters it before the joins instead of after. The
// original condition stays. Only conjuncts that cannot raise an error
// and are deterministic are taken: the derived filter runs on rows the
// original condition would never have seen.
func impliedByOr(p expr.Expr, side plan.ColSet) (expr.Expr, bool) {
	call, ok := p.(*expr.Call)
	if !ok || call.Fn != "or" || len(call.Args) < 2 {
		return nil, false
	}
	branches := make([]expr.Expr, 0, len(call.Args))
	for _, b := range call.Args {
		var mine []expr.Expr
		for _, c := range plan.Conjuncts(b) {
			if refs := plan.RefsOf(c); len(refs) > 0 && refs.SubsetOf(side) && safeExpr(c) {
				mine = append(mine, c)
			}
		}
		if len(mine) == 0 {
			return nil, false // this branch says nothing about side
		}
		branches = append(branches, plan.AndOf(mine))
	}
	return &expr.Call{Fn: "or", Args: branches, T: expr.Bool}, true
}

// boundsOfOr derives, from an OR, conditions on single expressions that
// every branch implies: where each branch bounds x from below, x is at
// least the least of the bounds (and likewise from above); where each
// branch holds x to constants (x = c, x IN (...)), x is IN their union.
// TPC-H Q19's three branches imply l_quantity >= 1 AND l_quantity <= 30
// and p_brand IN ('Brand#12', 'Brand#23', 'Brand#34'): simple
// comparisons the filter evaluates first, cheaply, and that scans can
// prune on, before the OR itself. When every branch is nothing but one
// such equality on the same x, the IN is the OR exactly and replaces it
// (exact is then true). Only conditions that cannot raise an error are
// read.
func boundsOfOr(e expr.Expr) (derived []expr.Expr, exact bool) {
	call, ok := e.(*expr.Call)
	if !ok || call.Fn != "or" || len(call.Args) < 2 || call.Go != nil {
		return nil, false
	}
	branches := make([]map[string]*atomBounds, len(call.Args))
	var order []string // the expressions bounded, in the first branch's order
	exact = true
	for i, b := range call.Args {
		cs := plan.Conjuncts(b)
		if len(cs) != 1 {
			exact = false
		}
		branches[i] = map[string]*atomBounds{}
		for _, c := range cs {
			a, ok := atomOf(c)
			if !ok {
				exact = false
				continue
			}
			if a.op != "=" {
				exact = false
			}
			bb := branches[i][a.key]
			if bb == nil {
				bb = &atomBounds{subj: a.subj}
				branches[i][a.key] = bb
				if i == 0 {
					order = append(order, a.key)
				}
			}
			bb.add(a)
		}
	}
	for _, key := range order {
		var all []*atomBounds
		for _, br := range branches {
			if bb := br[key]; bb != nil {
				all = append(all, bb)
			}
		}
		if len(all) != len(branches) {
			exact = false
			continue
		}
		derived = append(derived, unionBounds(all)...)
	}
	if exact && (len(order) != 1 || len(derived) != 1) {
		exact = false
	}
	return derived, exact
}

// An atom is a comparison of an expression with constants: subj op lits
// (op "=" with several lits is IN).
type atom struct {
	subj expr.Expr
	key  string // subj as FormatExpr writes it
	op   string // "=", "<", "<=", ">", ">="
	lits []*expr.Lit
}

// atomOf reads c as an atom: a comparison of a column expression that
// cannot fail with a non-NULL constant (either side), or x IN (constants).
func atomOf(c expr.Expr) (atom, bool) {
	call, ok := c.(*expr.Call)
	if !ok || call.Go != nil || len(call.Args) < 2 || !safeExpr(c) {
		return atom{}, false
	}
	constant := func(e expr.Expr) (*expr.Lit, bool) {
		l, ok := e.(*expr.Lit)
		return l, ok && l.V != nil
	}
	subject := func(e expr.Expr) bool {
		_, isLit := e.(*expr.Lit)
		return !isLit && len(plan.RefsOf(e)) > 0
	}
	switch call.Fn {
	case "=", "<", "<=", ">", ">=":
		if len(call.Args) != 2 {
			return atom{}, false
		}
		s, op := call.Args[0], call.Fn
		l, ok := constant(call.Args[1])
		if !ok {
			s, op = call.Args[1], flippedOp[call.Fn]
			if l, ok = constant(call.Args[0]); !ok {
				return atom{}, false
			}
		}
		if !subject(s) {
			return atom{}, false
		}
		return atom{subj: s, key: plan.FormatExpr(s), op: op, lits: []*expr.Lit{l}}, true
	case "in":
		if !subject(call.Args[0]) {
			return atom{}, false
		}
		a := atom{subj: call.Args[0], key: plan.FormatExpr(call.Args[0]), op: "="}
		for _, x := range call.Args[1:] {
			l, ok := constant(x)
			if !ok {
				return atom{}, false
			}
			a.lits = append(a.lits, l)
		}
		return a, true
	}
	return atom{}, false
}

// atomBounds is what one branch says of one expression: the constants it
// equals (when it says so), a lower and an upper bound.
type atomBounds struct {
	subj   expr.Expr
	eq     []*expr.Lit
	lo, hi *bound
}

type bound struct {
	lit    *expr.Lit
	strict bool
}

func (b *atomBounds) add(a atom) {
	switch a.op {
	case "=":
		if b.eq == nil {
			b.eq = a.lits
		}
	case ">", ">=":
		if b.lo == nil {
			b.lo = &bound{lit: a.lits[0], strict: a.op == ">"}
		}
	case "<", "<=":
		if b.hi == nil {
			b.hi = &bound{lit: a.lits[0], strict: a.op == "<"}
		}
	}
}

// unionBounds is what all the branches together imply of one expression:
// x IN (every constant) when each holds it to constants, else the loosest
// lower and upper bounds when each has one (an equality bounds both ways).
func unionBounds(all []*atomBounds) []expr.Expr {
	subj := all[0].subj
	cmp := func(op string, l *expr.Lit) expr.Expr {
		return &expr.Call{Fn: op, Args: []expr.Expr{subj, l}, T: expr.Bool}
	}
	// The constants of an IN share one type (each comparison keeps its
	// own, and compares as the original did).
	t := all[0].eq
	sameType := func(l *expr.Lit) bool { return t != nil && arrow.TypeEqual(l.T, t[0].T) }
	everyEq := true
	for _, b := range all {
		everyEq = everyEq && b.eq != nil
	}
	if everyEq {
		seen := map[string]bool{}
		args := []expr.Expr{subj}
		for _, b := range all {
			for _, l := range b.eq {
				if !sameType(l) {
					return nil
				}
				if k := plan.FormatExpr(l); !seen[k] {
					seen[k] = true
					args = append(args, l)
				}
			}
		}
		if len(args) == 2 {
			return []expr.Expr{cmp("=", args[1].(*expr.Lit))}
		}
		return []expr.Expr{&expr.Call{Fn: "in", Args: args, T: expr.Bool}}
	}
	var out []expr.Expr
	// lo: the least lower bound; loose when a bound equal to it is.
	var lo, hi *bound
	okLo, okHi := true, true
	for _, b := range all {
		bl, bh := b.lo, b.hi
		if len(b.eq) == 1 { // x = c: c <= x <= c
			if bl == nil {
				bl = &bound{lit: b.eq[0]}
			}
			if bh == nil {
				bh = &bound{lit: b.eq[0]}
			}
		}
		lo, okLo = looser(lo, bl, okLo, true)
		hi, okHi = looser(hi, bh, okHi, false)
	}
	if okLo && lo != nil {
		out = append(out, cmp(map[bool]string{true: ">", false: ">="}[lo.strict], lo.lit))
	}
	if okHi && hi != nil {
		out = append(out, cmp(map[bool]string{true: "<", false: "<="}[hi.strict], hi.lit))
	}
	return out
}

// looser combines the bound so far (cur) with one more branch's (b): the
// one that admits more, lower when below is set. ok turns false for good
// when a branch has no bound or the constants do not compare (as the
// engine compares them, whatever their types).
func looser(cur, b *bound, ok bool, below bool) (*bound, bool) {
	if !ok || b == nil {
		return nil, false
	}
	if cur == nil {
		return b, true
	}
	lt, ok1 := litLess(b.lit, cur.lit)
	gt, ok2 := litLess(cur.lit, b.lit)
	if !ok1 || !ok2 {
		return nil, false
	}
	switch {
	case !lt && !gt: // equal: loose if either is
		return &bound{lit: cur.lit, strict: cur.strict && b.strict}, true
	case lt == below:
		return b, true
	default:
		return cur, true
	}
}

// litLess reports whether a < b as the engine compares them, and whether
// it could tell.
func litLess(a, b *expr.Lit) (bool, bool) {
	r, ok := expr.Fold(&expr.Call{Fn: "<", Args: []expr.Expr{a, b}, T: expr.Bool}).(*expr.Lit)
	if !ok {
		return false, false
	}
	v, ok := r.V.(bool)
	return v, ok
}
