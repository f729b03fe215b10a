package bind

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// orderKey is a bound ORDER BY key: the output column it is (out), or
// else the index of the extra column (junk) the projection computes for
// it.
type orderKey struct {
	plan.SortKey
	out, junk int
	// jsonb: the key is output column out, typed jsonb, sorted in
	// jsonb's order (jsonb_ops.go).
	jsonb bool
	// enum: the key is output column out, of this enum type, sorted in
	// the order of its labels (enum.go).
	enum *enumType
}

// bindOrderBy binds ORDER BY keys: output-column ordinals, output-column
// names (which win over input columns, as in PostgreSQL), or expressions.
// An expression equal to an output column sorts by that column; others
// are returned in junk, to be computed beside the outputs. With DISTINCT
// every key must be an output column.
func (b *Binder) bindOrderBy(list []*pg.Node, targets []target, distinct bool) ([]orderKey, []expr.Expr, error) {
	var keys []orderKey
	var junk []expr.Expr
	for _, n := range list {
		sb := n.GetSortBy()
		if sb == nil {
			return nil, nil, pgerr.NotYet("this ORDER BY item")
		}
		if sb.SortbyDir == pg.SortByDir_SORTBY_USING {
			return nil, nil, b.ErrAt(pgerr.NotYet("ORDER BY ... USING"), sb.Location)
		}
		var e Bound
		found := false
		outIdx := -1
		if c := sb.Node.GetAConst(); c != nil && c.GetIval() != nil {
			i := int(c.GetIval().Ival)
			if i < 1 || i > len(targets) {
				return nil, nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "ORDER BY position %d is not in select list", i), c.Location)
			}
			e, found, outIdx = targets[i-1].e, true, i-1
		} else if cr := sb.Node.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
			name := cr.Fields[0].GetString_().Sval
			for i, t := range targets {
				if t.name != name {
					continue
				}
				if found && plan.FormatExpr(t.e.E) != plan.FormatExpr(e.E) {
					return nil, nil, b.ErrAt(pgerr.New(pgerr.AmbiguousColumn, "ORDER BY \"%s\" is ambiguous", name), cr.Location)
				}
				if !found {
					e, found, outIdx = t.e, true, i
				}
			}
		}
		if !found {
			var err error
			if e, err = b.Expr(sb.Node); err != nil {
				return nil, nil, err
			}
			e = e.resolveUnknownIn(b)
		}
		isJ := isJSONB(e) // sorted in jsonb's order: jsonb_ops.go
		// Arrays sort in array_cmp's order (expr.Comparator).
		if !isJ && !hashableType(e.T) {
			return nil, nil, b.ErrAt(pgerr.NotYet("ORDER BY on type "+e.T.String()), NodeLocation(sb.Node))
		}
		if outIdx < 0 {
			key := plan.FormatExpr(e.E)
			for i, t := range targets {
				if plan.FormatExpr(t.e.E) == key {
					outIdx = i
					break
				}
			}
		}
		if isJ && outIdx < 0 {
			e = jsonbSortKey(e)
		}
		key, et, err := b.enumSortKey(e) // enum.go
		if err != nil {
			return nil, nil, b.ErrAt(err, NodeLocation(sb.Node))
		}
		if outIdx < 0 {
			e, et = key, nil
		}
		k := orderKey{SortKey: plan.SortKey{E: e.E}, out: outIdx, junk: -1, jsonb: isJ && outIdx >= 0, enum: et}
		if outIdx < 0 {
			if distinct {
				return nil, nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference,
					"for SELECT DISTINCT, ORDER BY expressions must appear in select list"), NodeLocation(sb.Node))
			}
			k.junk = len(junk)
			junk = append(junk, e.E)
		}
		k.Desc = sb.SortbyDir == pg.SortByDir_SORTBY_DESC
		switch sb.SortbyNulls {
		case pg.SortByNulls_SORTBY_NULLS_FIRST:
			k.NullsFirst = true
		case pg.SortByNulls_SORTBY_NULLS_LAST:
			k.NullsFirst = false
		default:
			k.NullsFirst = k.Desc
		}
		keys = append(keys, k)
	}
	return keys, junk, nil
}

// limitValue evaluates a LIMIT or OFFSET expression: a constant, NULL/ALL
// (no limit) or a parameter. It returns -1 for none.
func (b *Binder) limitValue(n *pg.Node, what string) (int64, error) {
	if n == nil {
		return -1, nil
	}
	var v int64
	switch x := n.Node.(type) {
	case *pg.Node_AConst:
		c := x.AConst
		switch {
		case c.Isnull:
			return -1, nil
		case c.GetIval() != nil:
			v = int64(c.GetIval().Ival)
		case c.GetFval() != nil:
			i, err := strconv.ParseInt(c.GetFval().Fval, 10, 64)
			if err != nil {
				return 0, b.ErrAt(pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range"), c.Location)
			}
			v = i
		case c.GetSval() != nil:
			// An untyped literal, read as bigint.
			i, err := strconv.ParseInt(strings.TrimSpace(c.GetSval().Sval), 10, 64)
			if err != nil {
				return 0, b.ErrAt(pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type bigint: \"%s\"", c.GetSval().Sval), c.Location)
			}
			v = i
		default:
			return 0, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "argument of %s must be type bigint", what), c.Location)
		}
	case *pg.Node_ParamRef:
		n := int(x.ParamRef.Number)
		b.params.setType(n, pgtypes.Int8)
		if b.params.Template {
			b.params.Unstable = true // the plan holds the number
		}
		if !b.params.Bound {
			return -1, nil
		}
		if n > len(b.params.Values) || b.params.Values[n-1] == nil {
			return -1, nil
		}
		i, err := strconv.ParseInt(strings.TrimSpace(*b.params.Values[n-1]), 10, 64)
		if err != nil {
			return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type bigint: \"%s\"", *b.params.Values[n-1])
		}
		v = i
	default:
		if refersToColumns(n) {
			return 0, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "argument of %s must not contain variables", what), NodeLocation(n))
		}
		return 0, b.ErrAt(pgerr.NotYet("non-constant "+what), NodeLocation(n))
	}
	if v < 0 {
		code := pgerr.InvalidRowCountInLimitClause
		if what == "OFFSET" {
			code = pgerr.InvalidRowCountInResultOffsetClause
		}
		return 0, pgerr.New(code, "%s must not be negative", what)
	}
	return v, nil
}

// refersToColumns reports whether an AST holds a column reference.
func refersToColumns(n *pg.Node) bool {
	found := false
	WalkAST(n.ProtoReflect(), func(m ProtoreflectMessage) bool {
		if _, ok := m.Interface().(*pg.ColumnRef); ok {
			found = true
		}
		return !found
	})
	return found
}
