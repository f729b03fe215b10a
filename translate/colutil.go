package translate

import (
	"fmt"

	"github.com/icegate/icegate/translate/plan"
)

func indexOf(ids []plan.ColID, id plan.ColID) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

// producedCols lists every column produced anywhere in r.
func producedCols(r plan.Rel) []plan.ColID {
	var out []plan.ColID
	plan.Visit(r, func(n plan.Rel) { out = append(out, ownCols(n)...) })
	return out
}

// fmtCols renders column ids for EXPLAIN.
func fmtCols(q *plan.ColTable, ids []plan.ColID) string {
	s := ""
	for i, id := range ids {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("#%d:%s", id, q.Meta(id).Name)
	}
	return s
}
