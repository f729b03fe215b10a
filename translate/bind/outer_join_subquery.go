package bind

import (
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// Subqueries in the condition of an outer join.
//
// A subquery in an expression becomes a pending join (subquery.go) that
// keeps every row of the input it is put over and adds the subquery's
// result as columns: a mark join's boolean, a single-row left join's
// value. An inner join's condition filters the join's product, so its
// pending joins go above the join; an outer join's condition cannot,
// since a row the condition rejects must still appear, null-extended.
// Because a pending join keeps its input's rows one for one, it can go
// instead below the join, over the input whose columns it reads: the
// left input for `LEFT JOIN pg_description pd ON pd.objoid = (SELECT
// oid FROM pg_class WHERE relname = c.table_name)`, the right one for
// `... ON v.x = u.id AND EXISTS (SELECT 1 FROM w WHERE w.y = v.x)`. The
// condition then reads the result columns like any other column of its
// inputs. A subquery that reads columns of both inputs has no such place:
// a LEFT JOIN then runs as a dependent join, its right side planned again
// for each left row with the subqueries over it; other outer joins report
// it as not supported.

// placeOuterJoinSubqueries puts each pending join of an outer join's
// condition over the input whose columns it reads and returns the join
// with the condition.
func (b *Binder) placeOuterJoinSubqueries(j *plan.Join, cond expr.Expr, pending []pendingJoin) (plan.Rel, error) {
	left, right := plan.SetOf(j.Left.OutCols()), plan.SetOf(j.Right.OutCols())
	if j.Typ == plan.JoinLeft {
		for _, p := range pending {
			if r := pendingReads(p); r.Intersects(left) && r.Intersects(right) {
				return dependentLeftJoin(j, cond, pending), nil
			}
		}
	}
	for _, p := range pending {
		if p.srf != nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed in JOIN conditions")
		}
		reads := pendingReads(p)
		onLeft, onRight := reads.Intersects(left), reads.Intersects(right)
		if onLeft && onRight {
			return nil, pgerr.NotYetPlural("subqueries in an outer join's condition that read columns of both of its inputs")
		}
		// A subquery reading neither input (only constants or columns of an
		// enclosing query) may go on either side: the preserved one.
		if onRight || (!onLeft && j.Typ == plan.JoinRight) {
			j.Right = wrapPending(j.Right, p)
			right = plan.SetOf(j.Right.OutCols())
			continue
		}
		j.Left = wrapPending(j.Left, p)
		left = plan.SetOf(j.Left.OutCols())
	}
	j.Cond = cond
	return j, nil
}

// dependentLeftJoin is j, a LEFT JOIN whose condition holds a subquery
// reading both inputs, as a dependent join: for each left row, the right
// rows the condition (its subqueries evaluated over the right input with
// the left row's values) keeps, or one null-extended row (lower/apply.go).
func dependentLeftJoin(j *plan.Join, cond expr.Expr, pending []pendingJoin) plan.Rel {
	r := j.Right
	for _, p := range pending {
		r = wrapPending(r, p)
	}
	j.Right = &plan.Filter{In: r, Pred: cond}
	j.Cond, j.Apply = nil, true
	return j
}

// pendingReads is the set of columns a pending join reads from the input
// it goes over: those of its condition and the outer references of its
// right side.
func pendingReads(p pendingJoin) plan.ColSet {
	if p.srf != nil {
		reads := plan.ColSet{}
		for _, a := range p.srf.Args {
			reads.AddRefs(a)
		}
		return reads
	}
	reads := plan.FreeRefs(p.right)
	if p.cond != nil {
		reads.AddRefs(p.cond)
	}
	own := plan.SetOf(p.right.OutCols())
	for id := range reads {
		if own.Has(id) {
			delete(reads, id)
		}
	}
	return reads
}

// suspendOuterJoinSubqueries clears the flag that lets subqueries into an
// outer join's condition while a subquery inside it is bound (its own
// joins decide for themselves) and returns the function restoring it.
func (b *Binder) suspendOuterJoinSubqueries() func() {
	saved := b.outerJoinSubqueries
	b.outerJoinSubqueries = false
	return func() { b.outerJoinSubqueries = saved }
}
