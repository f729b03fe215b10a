package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// betweenSymmetric binds x [NOT] BETWEEN SYMMETRIC a AND b as PostgreSQL's
// parser rewrites it: (x >= a AND x <= b) OR (x >= b AND x <= a), and for
// NOT (x < a OR x > b) AND (x < b OR x > a).
func (b *Binder) betweenSymmetric(a *pg.A_Expr) (Bound, error) {
	x, err := b.Expr(a.Lexpr)
	if err != nil {
		return Bound{}, err
	}
	bounds := a.Rexpr.GetList().GetItems()
	if len(bounds) != 2 {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.SyntaxError, "malformed BETWEEN"), a.Location)
	}
	lo, err := b.Expr(bounds[0])
	if err != nil {
		return Bound{}, err
	}
	hi, err := b.Expr(bounds[1])
	if err != nil {
		return Bound{}, err
	}
	op1, op2, inner, outer := ">=", "<=", "and", "or"
	if a.Kind == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM {
		op1, op2, inner, outer = "<", ">", "or", "and"
	}
	side := func(l, h Bound) (Bound, error) {
		c1, err := b.call(op1, []Bound{x, l}, a.Location)
		if err != nil {
			return Bound{}, err
		}
		c2, err := b.call(op2, []Bound{x, h}, a.Location)
		if err != nil {
			return Bound{}, err
		}
		return b.call(inner, []Bound{c1, c2}, a.Location)
	}
	s1, err := side(lo, hi)
	if err != nil {
		return Bound{}, err
	}
	s2, err := side(hi, lo)
	if err != nil {
		return Bound{}, err
	}
	return b.call(outer, []Bound{s1, s2}, a.Location)
}
