package translate

import (
	"context"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/lower"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/procedure"
)

// rewriteFilter binds rewrite_data_files' where argument, a condition over
// the columns of table t, as the WHERE clause of a query of t, and returns the pruning
// predicates it becomes: files that may hold matching rows are the
// candidates. Every AND-ed condition must become one (a column compared
// with a constant, IN a list of constants, IS [NOT] NULL): a condition that
// cannot select files is 0A000 rather than silently widening the rewrite.
// An empty where selects every file (nil).
func (s *session) rewriteFilter(ctx context.Context, t *catalog.Table, where string) ([]catalog.Predicate, error) {
	if strings.TrimSpace(where) == "" {
		return nil, nil
	}
	name := syscat.QuoteIdent(t.Ident.Name)
	if len(t.Ident.Namespace) > 0 {
		name = syscat.QuoteIdent(strings.Join(t.Ident.Namespace, ".")) + "." + name
	}
	sql := "SELECT 1 FROM " + name + " WHERE " + where
	stmts, err := parse.ParseContext(ctx, sql, hints.ParseConfig)
	if err != nil {
		return nil, badWhere(where, err)
	}
	if len(stmts) != 1 {
		return nil, badWhere(where, nil)
	}
	sel := stmts[0].Node.GetSelectStmt()
	if sel == nil || len(sel.FromClause) != 1 || sel.WhereClause == nil || len(sel.GroupClause) > 0 ||
		sel.HavingClause != nil || sel.Larg != nil || len(sel.TargetList) != 1 {
		return nil, badWhere(where, nil)
	}
	b := bind.New(ctx, s, stmts[0], &bind.ParamSet{}, time.Now())
	p, err := b.BindSelect(sel)
	if err != nil {
		return nil, err
	}
	tree := opt.Statement(p, s.optConfig())
	var scans []*plan.Scan
	var filtered *plan.Filter
	plan.Visit(tree.Root, func(r plan.Rel) {
		switch x := r.(type) {
		case *plan.Scan:
			scans = append(scans, x)
		case *plan.Filter:
			if _, ok := x.In.(*plan.Scan); ok {
				filtered = x
			}
		}
	})
	if len(scans) != 1 {
		// Folded away (always false) or reading other tables (subqueries).
		return nil, pgerr.Unsupported("this where condition of rewrite_data_files").
			WithHint("Compare columns of the table with constants, joined by AND.")
	}
	if filtered == nil {
		return nil, nil // always true: every file
	}
	l := lower.New(ctx, s, tree.ColTable)
	op, err := l.Plan(tree)
	if err != nil {
		return nil, err
	}
	op.Close()
	preds := l.ScanPreds[filtered.In.(*plan.Scan)]
	if conj := plan.Conjuncts(filtered.Pred); len(preds) < len(conj) {
		return nil, pgerr.Unsupported("where conditions of rewrite_data_files other than a column compared with constants").
			WithDetail("%d of the %d AND-ed conditions of %q cannot select files by partition values and column metrics.", len(conj)-len(preds), len(conj), where).
			WithHint("Compare columns with constants (=, <>, <, <=, >, >=, IN, IS [NOT] NULL), joined by AND.")
	}
	return preds, nil
}

func badWhere(where string, err error) error {
	e := pgerr.New(pgerr.SyntaxError, "invalid where condition for rewrite_data_files: %q", where).
		WithHint("Write a condition over the table's columns, as in a WHERE clause.")
	if pe := pgerr.As(err); pe != nil {
		e = e.WithDetail("%s", pe.Message)
	}
	return e
}

var _ procedure.RewriteFilterEnv = (*callEnv)(nil)

// RewriteFilter is procedure.RewriteFilterEnv: rewriteFilter.
func (e *callEnv) RewriteFilter(ctx context.Context, t *catalog.Table, where string) ([]catalog.Predicate, error) {
	return e.sess.rewriteFilter(ctx, t, where)
}
