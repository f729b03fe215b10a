package syscat

import (
	"context"

	"github.com/icegate/icegate/internal/pgerr"
)

// pg_authid and pg_shadow hold the roles' password verifiers: PostgreSQL
// lets only superusers read them (its ACL on both grants nothing to
// PUBLIC), and so does icegate. pg_user, which everyone reads, lists the
// roles that may log in with their password hidden.

// authShapes are PostgreSQL 15's shapes of pg_authid and pg_shadow.
var authShapes = []shape{
	{"pg_authid", 1260, 'r', []Column{{"oid", tOID, true}, {"rolname", tName, true}, {"rolsuper", tBool, true},
		{"rolinherit", tBool, true}, {"rolcreaterole", tBool, true}, {"rolcreatedb", tBool, true},
		{"rolcanlogin", tBool, true}, {"rolreplication", tBool, true}, {"rolbypassrls", tBool, true},
		{"rolconnlimit", tInt4, true}, {"rolpassword", tText, false}, {"rolvaliduntil", tTimestamp, false}}},
	{"pg_shadow", 12005, 'v', []Column{{"usename", tName, false}, {"usesysid", tOID, false},
		{"usecreatedb", tBool, false}, {"usesuper", tBool, false}, {"userepl", tBool, false},
		{"usebypassrls", tBool, false}, {"passwd", tText, false}, {"valuntil", tTimestamp, false},
		{"useconfig", tTextArr, false}}},
}

// superuserOnly fails with PostgreSQL's 42501 unless the snapshot's user
// is a superuser (everyone is without a roles store; a role the store
// does not list is a configured superuser).
func superuserOnly(s *Snapshot, table string) error {
	if s.Access == nil {
		return nil
	}
	if r := s.Access.RoleByName(s.User); r == nil || r.Super {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for table %s", table)
}

// authRoles are the rows of pg_authid: the Access's roles, or without one
// the session's user alone.
func authRoles(s *Snapshot) []RoleRow {
	if s.Access == nil {
		return []RoleRow{{Name: s.User, OID: BootstrapSuperuserOID, Super: true, Inherit: true, CreateRole: true,
			CreateDB: true, Login: true, ConnLimit: -1}}
	}
	out := append([]RoleRow(nil), s.Access.Roles...)
	return append(out, RoleRow{Name: "pg_database_owner", OID: PgDatabaseOwnerOID, Inherit: true, ConnLimit: -1})
}

func nullIfNoPassword(p string) any {
	if p == "" {
		return nil
	}
	return p
}

func authidFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	if err := superuserOnly(s, "pg_authid"); err != nil {
		return err
	}
	for _, r := range authRoles(s) {
		var until any
		if r.ValidUntil != nil {
			until = *r.ValidUntil
		}
		w.add("oid", r.OID, "rolname", r.Name, "rolsuper", r.Super, "rolinherit", r.Inherit,
			"rolcreaterole", r.CreateRole, "rolcreatedb", r.CreateDB, "rolcanlogin", r.Login,
			"rolconnlimit", r.ConnLimit, "rolpassword", nullIfNoPassword(r.Password), "rolvaliduntil", until)
	}
	return nil
}

func shadowFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	if err := superuserOnly(s, "pg_shadow"); err != nil {
		return err
	}
	for _, r := range authRoles(s) {
		if !r.Login {
			continue
		}
		var until any
		if r.ValidUntil != nil {
			until = *r.ValidUntil
		}
		w.add("usename", r.Name, "usesysid", r.OID, "usecreatedb", r.CreateDB, "usesuper", r.Super,
			"userepl", false, "usebypassrls", false, "passwd", nullIfNoPassword(r.Password), "valuntil", until)
	}
	return nil
}

// accessUserFill is pg_user over the Access's roles.
func accessUserFill(s *Snapshot, w *rowWriter) {
	for _, r := range authRoles(s) {
		if !r.Login {
			continue
		}
		var until any
		if r.ValidUntil != nil {
			until = *r.ValidUntil
		}
		w.add("usename", r.Name, "usesysid", r.OID, "usecreatedb", r.CreateDB, "usesuper", r.Super,
			"userepl", false, "usebypassrls", false, "passwd", "********", "valuntil", until)
	}
}
