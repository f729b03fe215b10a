package syscat

import (
	"context"
	"strings"
)

// ColumnAccess is what the catalogs show of column privileges and
// default privileges when the server keeps roles: pg_attribute.attacl,
// has_column_privilege, has_any_column_privilege and pg_default_acl.
type ColumnAccess struct {
	// Column gives a column's ACL as aclitem text items (nil: NULL).
	Column func(r *Relation, col string) []string
	// HasColumn answers has_column_privilege (priv: the SQL name): the
	// table's privilege or the column's.
	HasColumn func(role string, r *Relation, col, priv string) bool
	// HasAnyColumn answers has_any_column_privilege.
	HasAnyColumn func(role string, r *Relation, priv string) bool
	// Defaults are the rows of pg_default_acl.
	Defaults []DefaultACLRow
}

// DefaultACLRow is one row of pg_default_acl: the role whose new objects
// it applies to, its schema (0: every schema), the kind of objects ('r'
// relations) and the ACL as aclitem text items.
type DefaultACLRow struct {
	OID, Role, Namespace uint32
	Kind                 string
	ACL                  []string
}

// columnACL is a column's attacl (nil: NULL).
func columnACL(s *Snapshot, r *Relation, col string) any {
	if s.Access == nil || r.System || s.Access.Column == nil {
		return nil
	}
	if acl := s.Access.Column(r, col); acl != nil {
		return acl
	}
	return nil
}

// set sets a column of the row added last.
func (w *rowWriter) set(name string, v any) {
	if p, ok := w.pos[name]; ok && len(w.rows) > 0 {
		w.rows[len(w.rows)-1][p] = v
	}
}

func defaultACLFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	if s.Access == nil {
		return nil
	}
	for _, d := range s.Access.Defaults {
		w.add("oid", d.OID, "defaclrole", d.Role, "defaclnamespace", d.Namespace, "defaclobjtype", d.Kind, "defaclacl", d.ACL)
	}
	return nil
}

// accessColumnPrivileges adds a relation's rows of column_privileges: for
// each column the column privileges (SELECT, INSERT, UPDATE, REFERENCES)
// of the table's ACL, then those of the column's own, the ones PostgreSQL
// shows the current user (as table_privileges).
func accessColumnPrivileges(s *Snapshot, r *Relation, rb *rowBuilder) {
	owner, acl, visible := relationACL(s, r)
	for _, col := range r.Columns {
		items := acl
		if s.Access.Column != nil {
			items = append(append([]string(nil), acl...), s.Access.Column(r, col.Name)...)
		}
		for _, item := range items {
			grantee, privs, grantor, ok := splitACLItem(item)
			if !ok {
				continue
			}
			if !visible(grantee) && !visible(grantor) {
				continue
			}
			for i := 0; i < len(privs); i++ {
				if !strings.ContainsRune("arwx", rune(privs[i])) {
					continue
				}
				grantable := i+1 < len(privs) && privs[i+1] == '*' || grantee == owner
				rb.add("grantor", grantor, "grantee", grantee, "table_catalog", s.Database, "table_schema", r.Namespace,
					"table_name", r.Name, "column_name", col.Name, "privilege_type", aclPrivilegeNames[privs[i]],
					"is_grantable", yesNo(grantable))
			}
		}
	}
}
