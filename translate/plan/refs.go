package plan

import (
	"github.com/icegate/icegate/engine/expr"
)

func SameIDs(a, b []ColID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FreeRefs is the set of columns r's expressions use that no node of r
// produces: the outer references of a subquery.
func FreeRefs(r Rel) ColSet {
	used, produced := ColSet{}, ColSet{}
	Visit(r, func(n Rel) {
		for _, e := range Exprs(n) {
			used.AddRefs(e)
		}
		for _, id := range OwnCols(n) {
			produced.Add(id)
		}
	})
	free := ColSet{}
	for id := range used {
		if !produced.Has(id) {
			free.Add(id)
		}
	}
	return free
}

// UsesColumns reports whether a bound expression reads any column.
func UsesColumns(e expr.Expr) bool {
	switch e := e.(type) {
	case *expr.Col:
		return true
	case *expr.Cast:
		return UsesColumns(e.Arg)
	case *expr.Call:
		for _, a := range e.Args {
			if UsesColumns(a) {
				return true
			}
		}
	case *expr.Case:
		for _, w := range e.Whens {
			if UsesColumns(w.Cond) || UsesColumns(w.Then) {
				return true
			}
		}
		if e.Else != nil {
			return UsesColumns(e.Else)
		}
	}
	return false
}
