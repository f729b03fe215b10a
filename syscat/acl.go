package syscat

import "strings"

// PgDatabaseOwnerOID is the role pg_database_owner, which owns the public
// schema in PostgreSQL 15 (pg_dump then leaves the schema's owner out).
const PgDatabaseOwnerOID uint32 = 6171

// RoleName is the name of a role OID icegate lists: the bootstrap role is
// the session's user; ok is false for any other OID.
func RoleName(oid uint32, user string) (string, bool) {
	switch oid {
	case BootstrapSuperuserOID:
		return user, true
	case PgDatabaseOwnerOID:
		return "pg_database_owner", true
	}
	return "", false
}

// ACLRoleName writes a role name as aclitem does: in double quotes unless
// it is only ASCII letters, digits and underscores.
func ACLRoleName(n string) string {
	plain := n != ""
	for _, r := range n {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			plain = false
			break
		}
	}
	if plain {
		return n
	}
	return `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
}

// namespaceOwner is a schema's nspowner: public is pg_database_owner's, as
// in PostgreSQL 15; the others the bootstrap role's.
func namespaceOwner(n *Namespace) uint32 {
	if n.Name == "public" {
		return PgDatabaseOwnerOID
	}
	return BootstrapSuperuserOID
}

// namespaceACL is a schema's nspacl: public's is PostgreSQL 15's (everyone
// may use it, its owner also create in it), which pg_dump takes as public's
// baseline; the other schemas keep the default (NULL: the owner's
// privileges), which is also pg_dump's baseline for them (pg_catalog and
// information_schema, whose ACLs PostgreSQL records in pg_init_privs,
// which icegate leaves empty). icegate checks no privileges.
func namespaceACL(n *Namespace, user string) any {
	if n.Name != "public" {
		return nil
	}
	owner, _ := RoleName(namespaceOwner(n), user)
	owner = ACLRoleName(owner)
	return []string{owner + "=UC/" + owner, "=U/" + owner}
}
