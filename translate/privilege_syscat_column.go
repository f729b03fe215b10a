package translate

import (
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/syscat"
)

// columnAccess fills what the catalogs show of column privileges and
// default privileges (syscat.ColumnAccess).
func (s *session) columnAccess(store *roles.Store, st *roles.State, a *syscat.Access, oids map[string]uint32) {
	relation := func(r *syscat.Relation) (key, owner string) {
		key = roles.ObjectKey(s.cat.Name(), roles.KindTable, r.Namespace+"."+r.Name)
		return key, store.Owner(st, key, r.Properties[ownerProperty])
	}
	a.Column = func(r *syscat.Relation, col string) []string {
		key, _ := relation(r)
		acl := st.ColumnACL(key, col)
		if len(acl) == 0 {
			return nil
		}
		return roles.FormatACL(acl, syscat.ACLRoleName)
	}
	// As PostgreSQL's, has_column_privilege and has_any_column_privilege
	// read the table's and the column's ACLs alone: USAGE on the schema
	// is not asked.
	a.HasColumn = func(role string, r *syscat.Relation, col, priv string) bool {
		key, owner := relation(r)
		p := roles.PrivilegeLetter(priv)
		return store.HasColumn(st, role, p, owner, store.ACL(st, roles.KindTable, key, r.Name, owner), st.ColumnACL(key, col))
	}
	a.HasAnyColumn = func(role string, r *syscat.Relation, priv string) bool {
		key, owner := relation(r)
		var cols map[string][]roles.ACLItem
		if o := st.Object(key); o != nil {
			cols = o.Columns
		}
		p := roles.PrivilegeLetter(priv)
		return store.HasAnyColumn(st, role, p, owner, store.ACL(st, roles.KindTable, key, r.Name, owner), cols)
	}
	for _, d := range st.Defaults {
		ns := uint32(0)
		if d.Schema != "" {
			ns = syscat.NamespaceOID(d.Schema)
		}
		a.Defaults = append(a.Defaults, syscat.DefaultACLRow{OID: syscat.ObjectOID("A", d.Role, d.Schema), Role: oids[d.Role], Namespace: ns,
			Kind: "r", ACL: roles.FormatACL(d.ACL, syscat.ACLRoleName)})
	}
}
