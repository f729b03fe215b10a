package plan

import (
	"fmt"

	"github.com/icegate/icegate/engine/expr"
)

func IndexOf(ids []ColID, id ColID) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

// ProducedCols lists every column produced anywhere in r.
func ProducedCols(r Rel) []ColID {
	var out []ColID
	Visit(r, func(n Rel) { out = append(out, OwnCols(n)...) })
	return out
}

// FmtCols renders column ids for EXPLAIN.
func FmtCols(q *ColTable, ids []ColID) string {
	s := ""
	for i, id := range ids {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("#%d:%s", id, q.Meta(id).Name)
	}
	return s
}

// OwnCols are the columns a node itself creates (not passes through).
func OwnCols(r Rel) []ColID {
	switch x := r.(type) {
	case *Scan:
		return x.Cols
	case Leaf:
		return x.OutCols() // a leaf produces every column it has
	case *Values:
		return x.Cols
	case *Project:
		// A plain reference to the same id passes the column through:
		// whoever produces it is below (or outside: an outer column
		// selected by a subquery without FROM).
		var own []ColID
		for i, id := range x.Cols {
			if c, ok := x.Exprs[i].(*expr.Col); ok && ColID(c.Idx) == id {
				continue
			}
			own = append(own, id)
		}
		return own
	case *Agg:
		return x.OutCols()
	case *Window:
		return x.Cols
	case *SetOp:
		return x.Cols
	case *TableFunc:
		return x.Cols
	case *Recursive:
		return x.Cols
	case *WorkTable:
		return x.Cols
	case *Join:
		if x.Typ == JoinMark {
			return []ColID{x.Mark}
		}
	}
	return nil
}

// PassedOn is the column of r.In that r's output column id passes on
// unchanged; false when id is not r's or r computes it.
func (r *Project) PassedOn(id ColID) (ColID, bool) {
	i := IndexOf(r.Cols, id)
	if i < 0 {
		return 0, false
	}
	in, ok := r.Exprs[i].(*expr.Col)
	if !ok {
		return 0, false
	}
	return ColID(in.Idx), true
}

// ColumnNDV is the distinct count the statistics of r's table give its
// column id at r's snapshot; 0 when id is not a table column of r or the
// statistics do not count it.
func (r *Scan) ColumnNDV(id ColID) float64 {
	if r.Table == nil || r.Table.Metadata == nil || r.Snapshot == nil {
		return 0
	}
	i := IndexOf(r.Cols, id)
	if i < 0 || i >= len(r.FieldIDs) {
		return 0
	}
	return float64(r.Table.Metadata.ColumnNDVs(r.Snapshot.SnapshotID)[r.FieldIDs[i]])
}
