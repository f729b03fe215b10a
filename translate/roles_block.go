package translate

import (
	"context"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// Role and privilege statements and transaction blocks.
//
// CREATE/ALTER/DROP ROLE, GRANT and REVOKE change the roles store, which
// publishes one version per change and is not part of a block's staged
// writes: applied inside a block, a ROLLBACK could not take the change
// back (PostgreSQL's would). So they are refused inside an explicit block,
// and inside an implicit one (a query string of several statements) once
// that has staged writes, with 25001 as PostgreSQL refuses its own
// non-transactional statements; nothing of them is applied.

// roleChange wraps the statement a role or privilege statement prepared
// (or its error) with that refusal.
func (s *session) roleChange(st Statement, err error) (Statement, error) {
	if err != nil {
		return nil, err
	}
	return &roleChangeStatement{Statement: st, s: s}, nil
}

type roleChangeStatement struct {
	Statement
	s *session
}

func (r *roleChangeStatement) ParamTypes() []uint32      { return r.Statement.ParamTypes() }
func (r *roleChangeStatement) Columns() []pgtypes.Column { return r.Statement.Columns() }
func (r *roleChangeStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	if r.s.tx != nil {
		if err := r.s.checkNotFailed(); err != nil {
			return nil, err
		}
		e := pgerr.New(pgerr.ActiveSQLTransaction, "%s cannot run inside a transaction block", roleChangeTag(r.Statement))
		e.Detail = "Changes of roles and privileges commit when they run; ROLLBACK could not undo them."
		return nil, e
	}
	return r.Statement.Execute(ctx, params)
}

// roleChangeTag is the command a wrapped statement runs, for the error.
func roleChangeTag(st Statement) string {
	if d, ok := st.(*ddlStatement); ok {
		return d.tag
	}
	return "this statement"
}
