package bind

import (
	"context"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
)

// Privileges is what an Env implements when its session checks privileges
// (package roles): binding asks it for every table and view a statement
// touches, with the privilege the use needs. An Env without it allows
// everything.
type Privileges interface {
	// CheckTablePrivilege fails with 42501 unless role ("" the current
	// user) has privilege priv (an aclitem letter: 'r' SELECT, 'a' INSERT,
	// 'w' UPDATE, 'd' DELETE) on t and USAGE on its schema.
	CheckTablePrivilege(ctx context.Context, role string, t *catalog.Table, priv byte) error
	// CheckViewPrivilege does the same for a view and returns its owner,
	// the role whose privileges the view's query is checked with.
	CheckViewPrivilege(ctx context.Context, role string, v *ViewDef, priv byte) (owner string, err error)
}

// CheckTablePrivilege checks that the statement may use t with privilege
// priv: as the current user, or inside a view as the view's owner.
func (b *Binder) CheckTablePrivilege(t *catalog.Table, priv byte) error {
	p, ok := b.env.(Privileges)
	if !ok {
		return nil
	}
	return p.CheckTablePrivilege(b.ctx, b.privRole, t, priv)
}

// checkView checks SELECT on a view and returns the role its query is
// checked as ("" when nothing is checked).
func (b *Binder) checkView(v *ViewDef) (string, error) {
	p, ok := b.env.(Privileges)
	if !ok || v.Temp {
		return b.privRole, nil
	}
	return p.CheckViewPrivilege(b.ctx, b.privRole, v, 'r')
}

// targetPrivileges are the privileges the target of a DELETE, UPDATE,
// MERGE or INSERT ... ON CONFLICT needs: its verb's, and SELECT when the
// statement reads the target's rows (a WHERE clause, RETURNING, MERGE's
// join), as PostgreSQL asks for SELECT on the columns read.
func (b *Binder) targetPrivileges(verb string) []byte {
	n := b.stmt.Node
	switch verb {
	case "DELETE":
		if d := n.GetDeleteStmt(); d != nil && (d.WhereClause != nil || len(d.ReturningList) > 0 || len(d.UsingClause) > 0) {
			return []byte{'d', 'r'}
		}
		return []byte{'d'}
	case "UPDATE":
		if u := n.GetUpdateStmt(); u != nil && (u.WhereClause != nil || len(u.ReturningList) > 0 || len(u.FromClause) > 0) {
			return []byte{'w', 'r'}
		}
		return []byte{'w'}
	case "MERGE":
		privs := []byte{'r'}
		if m := n.GetMergeStmt(); m != nil {
			for _, w := range m.MergeWhenClauses {
				switch w.GetMergeWhenClause().GetCommandType() {
				case pg.CmdType_CMD_UPDATE:
					privs = append(privs, 'w')
				case pg.CmdType_CMD_INSERT:
					privs = append(privs, 'a')
				case pg.CmdType_CMD_DELETE:
					privs = append(privs, 'd')
				}
			}
		}
		return privs
	case "INSERT": // ON CONFLICT DO UPDATE
		return []byte{'a', 'w', 'r'}
	}
	return nil
}
