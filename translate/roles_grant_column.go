package translate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
)

// Column privileges of GRANT and REVOKE: SELECT (a, b), INSERT (a),
// UPDATE (c), REFERENCES (d), ALL (a) on a table or view, kept per column
// in the roles store (roles/column.go).

// colGrant is one column's privileges of a GRANT or REVOKE.
type colGrant struct {
	col   string
	privs string
}

// grantColumns reads the column lists of a GRANT's privileges, in the
// order written.
func grantColumns(st *pg.GrantStmt, kind roles.Kind) ([]colGrant, error) {
	var out []colGrant
	add := func(col, privs string) {
		for i := range out {
			if out[i].col == col {
				out[i].privs = roles.Grant([]roles.ACLItem{{Privs: out[i].privs}}, "", "", privs, false)[0].Privs
				return
			}
		}
		out = append(out, colGrant{col: col, privs: privs})
	}
	for _, n := range st.Privileges {
		ap := n.GetAccessPriv()
		if len(ap.GetCols()) == 0 {
			continue
		}
		if kind == roles.KindSchema {
			return nil, pgerr.New(pgerr.InvalidGrantOperation, "column privileges are only valid for relations")
		}
		if st.Targtype != pg.GrantTargetType_ACL_TARGET_OBJECT {
			return nil, pgerr.New(pgerr.SyntaxError, "column privileges are only valid for relations named one by one")
		}
		privs := roles.ColumnPrivileges
		if name := ap.GetPrivName(); name != "" {
			p := roles.PrivilegeLetter(name)
			if p == 0 || !strings.ContainsRune(roles.ColumnPrivileges, rune(p)) {
				return nil, pgerr.New(pgerr.InvalidGrantOperation, "invalid privilege type %s for column", strings.ToUpper(name))
			}
			privs = string(p)
		}
		for _, c := range ap.GetCols() {
			add(c.GetString_().GetSval(), privs)
		}
	}
	return out, nil
}

// applyColumnGrant applies a GRANT's or REVOKE's column privileges to
// target t, and, as PostgreSQL does, a REVOKE of table privileges to its
// columns too. acl is the table's ACL before the change; grantor is who
// grants (the owner for an owner or superuser).
func applyColumnGrant(store *roles.Store, state *roles.State, me string, st *pg.GrantStmt, t grantTarget,
	acl []roles.ACLItem, grantor string, grantees []string, tablePrivs string, cols []colGrant) ([]Notice, error) {
	owner := store.Owner(state, t.key, t.owner)
	var notices []Notice
	kept := cols[:0:0]
	for _, c := range cols {
		if !slices.Contains(t.cols, c.col) {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", c.col, t.name)
		}
		if grantor == owner {
			kept = append(kept, c)
			continue
		}
		// As for tables (prepareGrant): what me holds with the grant
		// option on the table or the column is granted, the rest warned
		// of; holding nothing on the column is 42501.
		cacl := state.ColumnACL(t.key, c.col)
		avail := grantOptions(store, state, me, acl) + grantOptions(store, state, me, cacl)
		if avail == "" && !holdsAny(store, state, me, owner, cacl, t.kind) {
			return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for column %s of relation %s", c.col, t.name)
		}
		privs := keepLetters(c.privs, avail)
		if n, ok := partialGrantWarning(st.IsGrant, false, c.privs, privs, fmt.Sprintf("column \"%s\" of relation \"%s\"", c.col, t.name)); ok {
			notices = append(notices, n)
		}
		if privs != "" {
			kept = append(kept, colGrant{col: c.col, privs: privs})
		}
	}
	cols = kept
	if len(cols) == 0 && (st.IsGrant || tablePrivs == "") {
		return notices, nil
	}
	o := state.EditObject(t.key)
	if o.Owner == "" {
		o.Owner = owner
	}
	edit := func(col, privs string) {
		cacl := slices.Clone(o.Columns[col])
		for _, g := range grantees {
			if st.IsGrant {
				cacl = roles.Grant(cacl, g, grantor, privs, st.GrantOption)
			} else {
				cacl = roles.Revoke(cacl, g, privs, st.GrantOption)
			}
		}
		o.SetColumnACL(col, cacl)
	}
	for _, c := range cols {
		edit(c.col, c.privs)
	}
	if !st.IsGrant && tablePrivs != "" {
		for _, col := range slices.Sorted(maps.Keys(o.Columns)) {
			edit(col, tablePrivs)
		}
	}
	return notices, nil
}
