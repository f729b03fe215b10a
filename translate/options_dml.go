package translate

import (
	"context"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
)

// The statement level of a row-level change's write options: an OPTIONS
// hint after the target table (DELETE FROM t /*+ OPTIONS('isolation-level'
// = 'snapshot') */ ...) rides on the statement's context to the commit.

type statementOptionsKey struct{}

// withStatementOptions returns ctx carrying a statement's options.
func withStatementOptions(ctx context.Context, opts map[string]string) context.Context {
	if len(opts) == 0 {
		return ctx
	}
	return context.WithValue(ctx, statementOptionsKey{}, opts)
}

// statementOptions are the options withStatementOptions put on ctx (by
// lower-case Iceberg name; nil when none).
func statementOptions(ctx context.Context) map[string]string {
	m, _ := ctx.Value(statementOptionsKey{}).(map[string]string)
	return m
}

// dmlTargetHint is the OPTIONS hint after the target table of a DELETE,
// UPDATE, MERGE or INSERT (nil when none).
func dmlTargetHint(ps parse.Stmt) *parse.Hint {
	if ps.Node == nil || len(ps.Hints) == 0 {
		return nil
	}
	var rv *pg.RangeVar
	switch x := ps.Node.Node.(type) {
	case *pg.Node_DeleteStmt:
		rv = x.DeleteStmt.Relation
	case *pg.Node_UpdateStmt:
		rv = x.UpdateStmt.Relation
	case *pg.Node_MergeStmt:
		rv = x.MergeStmt.Relation
	case *pg.Node_InsertStmt:
		rv = x.InsertStmt.Relation
	}
	if rv == nil {
		return nil
	}
	return ps.Hints[rv.Location]
}

// addNotices adds notices to a statement's result when it can carry them.
func addNotices(r Rows, notices []Notice) Rows {
	if e, ok := r.(*emptyRows); ok && len(notices) > 0 {
		e.notices = append(e.notices, notices...)
	}
	return r
}

// hintedStatement adds the NOTICEs of a hint to a plain INSERT's result
// (icegate does not act on its options per statement); a hint that
// travels in time is 0A000, as for the other changes.
func hintedStatement(st Statement, err error) func(h *parse.Hint) (Statement, error) {
	return func(h *parse.Hint) (Statement, error) {
		if err != nil {
			return nil, err
		}
		if k := bind.HintTimeTravelKey(h); k != "" {
			return nil, pgerr.Unsupported("INSERT into a table read at another snapshot (option %s)", k)
		}
		return &hintNoticeStatement{Statement: st, hint: h}, nil
	}
}

type hintNoticeStatement struct {
	Statement
	hint *parse.Hint
}

func (st *hintNoticeStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	r, err := st.Statement.Execute(withHintOptions(ctx, st.hint), params) // options_write.go
	if err != nil {
		return nil, err
	}
	return addNotices(r, hintNoticesOf(st.hint)), nil
}
