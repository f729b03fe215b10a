package syscat

import (
	"context"
	"strings"
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
	// ColumnAccess: column ACLs and default privileges (access_column.go).
	ColumnAccess
	// DatabaseACL is the session's database's datacl (nil: NULL, the
	// default); HasDatabase answers has_database_privilege on it.
	DatabaseACL []string
	HasDatabase func(role, priv string) bool
}

// RoleRow is one role of pg_roles.
type RoleRow struct {
	Name                                        string
	OID                                         uint32
	Super, Inherit, CreateRole, CreateDB, Login bool
	ConnLimit                                   int32
	ValidUntil                                  *time.Time
	Password                                    string // SCRAM verifier ("" none)
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

// aclPrivilegeNames are the SQL names of aclitem's letters for tables.
var aclPrivilegeNames = map[byte]string{'a': "INSERT", 'r': "SELECT", 'w': "UPDATE", 'd': "DELETE",
	'D': "TRUNCATE", 'x': "REFERENCES", 't': "TRIGGER"}

// accessTablePrivileges adds a relation's rows of table_privileges from
// its ACL (the default: its owner's every privilege, grantable), those
// PostgreSQL shows the current user: granted to or by a role whose
// privileges it has, or to PUBLIC.
func accessTablePrivileges(s *Snapshot, r *Relation, rb *rowBuilder) {
	owner, acl, visible := relationACL(s, r)
	for _, item := range acl {
		grantee, privs, grantor, ok := splitACLItem(item)
		if !ok {
			continue
		}
		if !visible(grantee) && !visible(grantor) {
			continue
		}
		for i := 0; i < len(privs); i++ {
			name, known := aclPrivilegeNames[privs[i]]
			if !known {
				continue
			}
			grantable := i+1 < len(privs) && privs[i+1] == '*' || grantee == owner
			rb.add("grantor", grantor, "grantee", grantee, "table_catalog", s.Database, "table_schema", r.Namespace,
				"table_name", r.Name, "privilege_type", name, "is_grantable", yesNo(grantable),
				"with_hierarchy", yesNo(name == "SELECT"))
		}
	}
}

// unquoteACLName reads a role name as aclitem writes it.
func unquoteACLName(n string) string {
	if len(n) >= 2 && n[0] == '"' && n[len(n)-1] == '"' {
		return strings.ReplaceAll(n[1:len(n)-1], `""`, `"`)
	}
	return n
}

// splitACLItem splits an aclitem's text "grantee=privs/grantor" into its
// parts, names unquoted and the empty grantee as PUBLIC.
func splitACLItem(item string) (grantee, privs, grantor string, ok bool) {
	grantee, rest, ok := strings.Cut(item, "=")
	privs, grantor, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 {
		return "", "", "", false
	}
	grantee, grantor = unquoteACLName(grantee), unquoteACLName(grantor)
	if grantee == "" {
		grantee = "PUBLIC"
	}
	return grantee, privs, grantor, true
}

// relationACL is what information_schema's privilege views read of a
// relation: its owner's name, its ACL (the default, the owner's every
// privilege, when it has none) and which roles' items the current user
// sees (PUBLIC and roles whose privileges it has).
func relationACL(s *Snapshot, r *Relation) (owner string, acl []string, visible func(role string) bool) {
	ownerOID, acl := s.Access.Relation(r)
	if o := s.Access.RoleByOID(ownerOID); o != nil {
		owner = o.Name
	}
	if acl == nil {
		acl = []string{ACLRoleName(owner) + "=arwdDxt/" + ACLRoleName(owner)}
	}
	visible = func(role string) bool {
		return role == "PUBLIC" || s.Access.HasRole == nil || s.Access.HasRole(s.User, role, "USAGE")
	}
	return owner, acl, visible
}
