package lower

import (
	"fmt"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/translate/plan"
)

// lowerJoin lowers a join: a hash join on the equalities between the two
// sides in its condition (the rest is a residual condition), or a nested
// loop join when there are none. The engine builds its hash table on the
// right input unless told to build on the left (plan.JoinBuildSide).
func (l *Lowerer) lowerJoin(x *plan.Join, need plan.ColSet) (engine.Operator, []plan.ColID, error) {
	if x.Apply {
		return l.lowerApply(x, need)
	}
	if op, layout, ok, err := l.parallelJoin(x, need); ok || err != nil {
		return op, layout, err
	}
	left, right, typ := x.Left, x.Right, x.Typ
	swap, buildLeft := plan.JoinBuildSide(x)
	if swap {
		typ, _ = plan.SwapJoinType(typ)
		left, right = right, left
	}
	leftOut, rightOut := plan.SetOf(left.OutCols()), plan.SetOf(right.OutCols())
	leftKeys, rightKeys, nullSafe, residual := plan.SplitJoinCond(x, left, right)
	needL, needR := plan.ColSet{}, plan.ColSet{}
	split := func(s plan.ColSet) {
		for id := range s {
			if leftOut.Has(id) {
				needL.Add(id)
			}
			if rightOut.Has(id) {
				needR.Add(id)
			}
		}
	}
	split(need)
	if x.Cond != nil {
		split(plan.RefsOf(x.Cond))
	}
	// In a part of a parallel pipeline, the build side may be the one all
	// parts share (parallel.go): lop or rop is then nil.
	var lop, rop engine.Operator
	var llayout, rlayout []plan.ColID
	var shared *exec.SharedBuild
	var err error
	key := l.sharedKey(x)
	sharing := l.shared != nil && l.shared.joins[key]
	if !sharing && l.splitUnder(x, buildLeft, swap) {
		// A join that remembers what each build row found, over a share
		// of the rows, would give only its share's answer.
		return nil, nil, fmt.Errorf("lower: a %s join within a parallel part does not share its build side", x.Typ)
	}
	fail := func(err error) (engine.Operator, []plan.ColID, error) {
		for _, op := range []engine.Operator{lop, rop} {
			if op != nil {
				op.Close()
			}
		}
		return nil, nil, err
	}
	if len(leftKeys) > 0 {
		// A hash table holds the build side's rows: their order only
		// orders the matches of a probe row.
		build := right
		if buildLeft {
			build = left
		}
		l.markOrderFree(build)
	}
	if sharing && buildLeft {
		shared, llayout, err = l.sharedBuild(key, left, needL)
	} else {
		lop, llayout, err = l.lower(left, needL)
	}
	if err != nil {
		return nil, nil, err
	}
	if sharing && !buildLeft {
		shared, rlayout, err = l.sharedBuild(key, right, needR)
	} else {
		rop, rlayout, err = l.lower(right, needR)
	}
	if err != nil {
		return fail(err)
	}
	// Without an equality key, IN's NULL semantics are approximated: a
	// comparison that is NULL counts as no match.
	nullAware := x.NullAware && len(leftKeys) == 1 && !nullSafe[0]
	spec := exec.JoinSpec{Type: execJoinType(typ), NullSafe: nullSafe, NullAware: nullAware, Single: x.Single, BuildLeft: buildLeft}
	if spec.LeftKeys, err = l.remapAll(leftKeys, llayout); err != nil {
		return fail(err)
	}
	if spec.RightKeys, err = l.remapAll(rightKeys, rlayout); err != nil {
		return fail(err)
	}
	both := append(append([]plan.ColID(nil), llayout...), rlayout...)
	// The columns only the condition reads (join keys, mostly) need not
	// be gathered into the output.
	for i, id := range both {
		if !need.Has(id) {
			if spec.Unused == nil {
				spec.Unused = make([]bool, len(both))
			}
			spec.Unused[i] = true
		}
	}
	if len(residual) > 0 {
		if spec.Residual, err = l.remap(plan.AndOf(residual), both); err != nil {
			return fail(err)
		}
	}
	var op engine.Operator
	switch {
	case shared != nil:
		// The parallel part's probe of the build side all parts share
		// (its input stays open until the last part closes).
		probe := lop
		if buildLeft {
			probe = rop
		}
		op, err = exec.NewHashJoinShared(probe, shared, spec, l.opts)
	case len(leftKeys) > 0:
		op, err = exec.NewHashJoin(lop, rop, spec, l.opts)
	default:
		op, err = exec.NewNestedLoopJoin(lop, rop, spec, l.opts)
	}
	if err != nil {
		return fail(err)
	}
	switch typ {
	case plan.JoinSemi, plan.JoinAnti:
		return op, llayout, nil
	case plan.JoinMark:
		return op, append(append([]plan.ColID(nil), llayout...), x.Mark), nil
	}
	return op, both, nil
}

func execJoinType(t plan.JoinType) exec.JoinType {
	switch t {
	case plan.JoinLeft:
		return exec.JoinLeft
	case plan.JoinRight:
		return exec.JoinRight
	case plan.JoinFull:
		return exec.JoinFull
	case plan.JoinSemi:
		return exec.JoinSemi
	case plan.JoinAnti:
		return exec.JoinAnti
	case plan.JoinMark:
		return exec.JoinMark
	}
	return exec.JoinInner
}
