package lower

import (
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/translate/plan"
)

// Build sides shared by the parts of a parallel pipeline: while the parts
// are lowered, the first part lowers the build side of each join on the
// pipeline, and every part's join probes that one (exec.SharedBuild).

// sharedBuilds are the build sides the parts of a parallel aggregation
// share, while its parts are lowered: made by the first part's lowering
// of each join, used by the others'.
type sharedBuilds struct {
	joins  map[*plan.Join]bool // the joins whose build side is shared
	builds map[*plan.Join]sharedBuild
	// alias maps a join lowering made in place of one of joins (a mark
	// join under a filter on its mark made a semi or anti join) to it.
	alias map[*plan.Join]*plan.Join
}

// sharedKey is the join of the pipeline x stands for: x, or the one
// lowering replaced by x.
func (l *Lowerer) sharedKey(x *plan.Join) *plan.Join {
	if l.shared != nil {
		if j, ok := l.shared.alias[x]; ok {
			return j
		}
	}
	return x
}

// replaceJoin records that lowering lowers nj in place of j.
func (l *Lowerer) replaceJoin(j, nj *plan.Join) {
	if l.shared == nil || !l.shared.joins[j] {
		return
	}
	if l.shared.alias == nil {
		l.shared.alias = map[*plan.Join]*plan.Join{}
	}
	l.shared.alias[nj] = j
}

// splitUnder reports whether join x, lowered within a parallel part,
// keeps state per build row (builds on its left, or is a right or full
// join) while its probe side reads the part's share of a scan: a
// pipeline the parts would answer wrongly without sharing that state.
func (l *Lowerer) splitUnder(x *plan.Join, buildLeft, swap bool) bool {
	if l.split == nil {
		return false
	}
	typ := x.Typ
	probe := x.Left
	if swap {
		typ, _ = plan.SwapJoinType(typ)
		probe = x.Right
	}
	if buildLeft {
		probe = x.Right
	} else if typ != plan.JoinRight && typ != plan.JoinFull {
		return false
	}
	found := false
	plan.Visit(probe, func(n plan.Rel) {
		if n == l.split.scan {
			found = true
		}
	})
	return found
}

type sharedBuild struct {
	b      *exec.SharedBuild
	layout []plan.ColID
}

// abandon closes the inputs of the shared build sides no join took.
func (s *sharedBuilds) abandon() {
	for _, b := range s.builds {
		b.b.Abandon()
	}
}

// sharedBuild lowers the build side of join x for the parallel part being
// lowered: the first part lowers it (with no split and no sharing: it is
// one serial input), the others take that one.
func (l *Lowerer) sharedBuild(x *plan.Join, build plan.Rel, need plan.ColSet) (*exec.SharedBuild, []plan.ColID, error) {
	sh := l.shared
	if b, ok := sh.builds[x]; ok {
		return b.b, b.layout, nil
	}
	split := l.split
	l.shared, l.split = nil, nil
	op, layout, err := l.lower(build, need)
	l.shared, l.split = sh, split
	if err != nil {
		return nil, nil, err
	}
	b := sharedBuild{exec.NewSharedBuild(op), layout}
	sh.builds[x] = b
	return b.b, b.layout, nil
}
