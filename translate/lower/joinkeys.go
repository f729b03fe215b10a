package lower

import (
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

// Runtime filters: a hash join that drops the probe rows its build side
// cannot match (inner, right, semi) hands its build keys to the scan
// that reads a probe key's column (engine.JoinKeys), which then skips
// files, row groups and pages without those keys. The scan must
// read the column unchanged, and every node between it and the join must
// keep a row only if it may still reach the join with the same key: see
// keyScan.

// offerJoinKeys makes the runtime filters of a hash join whose probe side
// (left, after any swap) is about to be lowered, registering each with the
// scan below that reads its key; done unregisters those no scan took.
func (l *Lowerer) offerJoinKeys(typ plan.JoinType, buildLeft bool, left plan.Rel, leftKeys []expr.Expr, nullSafe []bool) ([]exec.KeyFilter, func()) {
	none := func() {}
	if buildLeft || len(leftKeys) == 0 {
		return nil, none
	}
	switch typ {
	case plan.JoinInner, plan.JoinRight, plan.JoinSemi:
	default:
		return nil, none
	}
	var out []exec.KeyFilter
	var offered []*plan.Scan
	for i, k := range leftKeys {
		if i < len(nullSafe) && nullSafe[i] {
			continue
		}
		if c, ok := k.(*expr.Cast); ok {
			inner, ok := c.Arg.(*expr.Col)
			if !ok || !plan.WidensInt(inner.T, c.T) {
				continue
			}
			k = inner
		}
		c, ok := k.(*expr.Col)
		if !ok {
			continue
		}
		sc, field := keyScan(left, plan.ColID(c.Idx))
		if sc == nil {
			continue
		}
		jk := engine.NewJoinKeys(field)
		if l.joinKeys == nil {
			l.joinKeys = map[*plan.Scan][]*engine.JoinKeys{}
		}
		l.joinKeys[sc] = append(l.joinKeys[sc], jk)
		offered = append(offered, sc)
		out = append(out, exec.KeyFilter{Key: i, Keys: jk})
	}
	return out, func() {
		for _, sc := range offered {
			delete(l.joinKeys, sc)
		}
	}
}

// takeJoinKeys returns the runtime filters offered to scan x, once.
func (l *Lowerer) takeJoinKeys(x *plan.Scan) []*engine.JoinKeys {
	ks := l.joinKeys[x]
	delete(l.joinKeys, x)
	return ks
}

// keyScan finds the scan below r that produces column col unchanged, and
// the field id it reads it from, through nodes that drop no row that could
// still reach a join on col and change no value of col: filters, sorts,
// projections passing (or renaming) it, the side of an inner join holding
// it, the kept side of a left, right, semi, anti or mark join, and an
// aggregation grouping by it (dropping a group's rows drops the group,
// whose key is theirs). Anything else hides the scan.
func keyScan(r plan.Rel, col plan.ColID) (*plan.Scan, int) {
	switch x := r.(type) {
	case *plan.Scan:
		if i := plan.IndexOf(x.Cols, col); i >= 0 {
			return x, x.FieldIDs[i]
		}
	case *plan.Filter:
		return keyScan(x.In, col)
	case *plan.Sort:
		return keyScan(x.In, col)
	case *plan.Project:
		if i := plan.IndexOf(x.Cols, col); i >= 0 {
			if c, ok := x.Exprs[i].(*expr.Col); ok {
				return keyScan(x.In, plan.ColID(c.Idx))
			}
		}
	case *plan.Agg:
		if i := plan.IndexOf(x.GroupCols, col); i >= 0 && i < len(x.Groups) {
			if c, ok := x.Groups[i].(*expr.Col); ok {
				return keyScan(x.In, plan.ColID(c.Idx))
			}
		}
	case *plan.Join:
		if x.Apply {
			return nil, 0
		}
		inLeft := plan.IndexOf(x.Left.OutCols(), col) >= 0
		inRight := plan.IndexOf(x.Right.OutCols(), col) >= 0
		switch x.Typ {
		case plan.JoinInner:
			if inLeft {
				return keyScan(x.Left, col)
			}
			if inRight {
				return keyScan(x.Right, col)
			}
		case plan.JoinLeft, plan.JoinSemi, plan.JoinAnti, plan.JoinMark:
			if inLeft {
				return keyScan(x.Left, col)
			}
		case plan.JoinRight:
			if inRight {
				return keyScan(x.Right, col)
			}
		}
	}
	return nil, 0
}
