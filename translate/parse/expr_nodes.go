package parse

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// Utilities over the nodes of an expression as pg_query parses it (a
// column's DEFAULT, a type name), for the statements that keep
// expressions as text.

// IsNextvalName reports whether a function name is nextval or
// pg_catalog.nextval.
func IsNextvalName(names []*pg.Node) bool {
	switch len(names) {
	case 1:
		return names[0].GetString_().GetSval() == "nextval"
	case 2:
		return names[0].GetString_().GetSval() == "pg_catalog" && names[1].GetString_().GetSval() == "nextval"
	}
	return false
}

// RegclassLiteral is the text of a string literal naming a relation:
// 'name' or 'name'::regclass.
func RegclassLiteral(n *pg.Node) (string, bool) {
	if tc := n.GetTypeCast(); tc != nil {
		names := tc.GetTypeName().GetNames()
		if len(names) == 0 || names[len(names)-1].GetString_().GetSval() != "regclass" || tc.GetTypeName().GetArrayBounds() != nil {
			return "", false
		}
		n = tc.Arg
	}
	c := n.GetAConst()
	if c == nil || c.GetSval() == nil {
		return "", false
	}
	return c.GetSval().GetSval(), true
}

// ContainsColumnRef reports a column reference anywhere in n.
func ContainsColumnRef(n *pg.Node) bool {
	found := false
	WalkExpr(n, func(x *pg.Node) {
		if x.GetColumnRef() != nil {
			found = true
		}
	})
	return found
}

// WalkExpr visits n and the nodes of its function arguments, casts and
// operators (what a default expression is made of).
func WalkExpr(n *pg.Node, visit func(*pg.Node)) {
	if n == nil {
		return
	}
	visit(n)
	switch x := n.Node.(type) {
	case *pg.Node_FuncCall:
		for _, a := range x.FuncCall.Args {
			WalkExpr(a, visit)
		}
	case *pg.Node_TypeCast:
		WalkExpr(x.TypeCast.Arg, visit)
	case *pg.Node_AExpr:
		WalkExpr(x.AExpr.Lexpr, visit)
		WalkExpr(x.AExpr.Rexpr, visit)
	case *pg.Node_CoalesceExpr:
		for _, a := range x.CoalesceExpr.Args {
			WalkExpr(a, visit)
		}
	case *pg.Node_BoolExpr:
		for _, a := range x.BoolExpr.Args {
			WalkExpr(a, visit)
		}
	case *pg.Node_CaseExpr:
		WalkExpr(x.CaseExpr.Arg, visit)
		for _, a := range x.CaseExpr.Args {
			WalkExpr(a, visit)
		}
		WalkExpr(x.CaseExpr.Defresult, visit)
	case *pg.Node_CaseWhen:
		WalkExpr(x.CaseWhen.Expr, visit)
		WalkExpr(x.CaseWhen.Result, visit)
	}
}

// DeparseExpr is an expression's SQL text.
func DeparseExpr(n *pg.Node) (string, error) {
	tree, err := pg.Parse("SELECT 1")
	if err != nil {
		return "", pgerr.Wrap(err, pgerr.InternalError, "deparse a default: %v", err)
	}
	tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val = n
	out, err := pg.Deparse(tree)
	if err != nil {
		return "", pgerr.Wrap(err, pgerr.InternalError, "deparse a default: %v", err)
	}
	return strings.TrimPrefix(out, "SELECT "), nil
}
