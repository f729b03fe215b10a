package syscat

import (
	"context"
	"time"
)

// Access is what the catalogs show of roles and privileges when the
// server keeps them (package roles, through translate): every role, the
// memberships, each object's owner and ACL, and the checks of the
// has_*_privilege functions. A Snapshot without one shows the session's
// user alone, owning everything.
type Access struct {
	Roles   []RoleRow
	Members []MemberRow
	// Relation and Namespace give an object's owner and its ACL as
	// aclitem text items (nil: NULL, the default).
	Relation  func(r *Relation) (owner uint32, acl []string)
	Namespace func(name string) (owner uint32, acl []string)
	// HasTable and HasSchema answer has_table_privilege and
	// has_schema_privilege for a role (priv: the SQL name).
	HasTable  func(role string, r *Relation, priv string) bool
	HasSchema func(role, name, priv string) bool
	// HasRole answers pg_has_role (mode MEMBER, USAGE or SET).
	HasRole func(user, role, mode string) bool
}

// RoleRow is one role of pg_roles.
type RoleRow struct {
	Name                                        string
	OID                                         uint32
	Super, Inherit, CreateRole, CreateDB, Login bool
	ConnLimit                                   int32
	ValidUntil                                  *time.Time
}

// MemberRow is one row of pg_auth_members.
type MemberRow struct {
	Role, Member, Grantor uint32
	Admin                 bool
}

// RoleByName is the role of that name (nil: none).
func (a *Access) RoleByName(name string) *RoleRow {
	for i := range a.Roles {
		if a.Roles[i].Name == name {
			return &a.Roles[i]
		}
	}
	return nil
}

// RoleByOID is the role of that OID (nil: none).
func (a *Access) RoleByOID(oid uint32) *RoleRow {
	for i := range a.Roles {
		if a.Roles[i].OID == oid {
			return &a.Roles[i]
		}
	}
	return nil
}

func accessRolesFill(s *Snapshot, w *rowWriter) {
	for _, r := range s.Access.Roles {
		var until any
		if r.ValidUntil != nil {
			until = *r.ValidUntil
		}
		w.add("rolname", r.Name, "rolsuper", r.Super, "rolinherit", r.Inherit, "rolcreaterole", r.CreateRole,
			"rolcreatedb", r.CreateDB, "rolcanlogin", r.Login, "rolreplication", false, "rolconnlimit", r.ConnLimit,
			"rolpassword", "********", "rolvaliduntil", until, "rolbypassrls", false, "oid", r.OID)
	}
	w.add("rolname", "pg_database_owner", "rolsuper", false, "rolinherit", true, "rolcreaterole", false,
		"rolcreatedb", false, "rolcanlogin", false, "rolreplication", false, "rolconnlimit", int32(-1),
		"rolpassword", "********", "rolbypassrls", false, "oid", PgDatabaseOwnerOID)
}

func authMembersFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	if s.Access == nil {
		return nil
	}
	for _, m := range s.Access.Members {
		w.add("roleid", m.Role, "member", m.Member, "grantor", m.Grantor, "admin_option", m.Admin)
	}
	return nil
}

// relationOwnerACL is a relation's relowner and relacl.
func relationOwnerACL(s *Snapshot, r *Relation) (uint32, any) {
	if s.Access == nil || r.System || s.Access.Relation == nil {
		return BootstrapSuperuserOID, nil
	}
	owner, acl := s.Access.Relation(r)
	if acl == nil {
		return owner, nil
	}
	return owner, acl
}
