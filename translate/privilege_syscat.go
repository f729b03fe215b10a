package translate

import (
	"context"
	"strings"

	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/syscat"
)

// syscatAccess is what the system catalogs show of the roles store (nil
// when none is configured). The first configured superuser has OID 10,
// PostgreSQL's bootstrap superuser; the other configured users, and a
// session user the store does not know (password-less development mode),
// OIDs just below the first a stored role gets.
func (s *session) syscatAccess(ctx context.Context) (*syscat.Access, error) {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return nil, err
	}
	a := &syscat.Access{}
	oids := map[string]uint32{}
	addBoot := func(name string, oid uint32) {
		if _, ok := oids[name]; ok || st.Role(name) != nil {
			return
		}
		oids[name] = oid
		a.Roles = append(a.Roles, syscat.RoleRow{Name: name, OID: oid, Super: true, Inherit: true,
			CreateRole: true, CreateDB: true, Login: true, ConnLimit: -1})
	}
	for i, b := range store.Bootstrap() {
		if i == 0 {
			addBoot(b, syscat.BootstrapSuperuserOID)
		} else {
			addBoot(b, uint32(16000+i))
		}
	}
	addBoot(s.user, 15999)
	for name, oid := range roles.Predefined {
		oids[name] = oid
		a.Roles = append(a.Roles, syscat.RoleRow{Name: name, OID: oid, ConnLimit: -1, Inherit: true})
	}
	for _, name := range st.RoleNames() {
		r := st.Role(name)
		oids[name] = r.OID
		a.Roles = append(a.Roles, syscat.RoleRow{Name: r.Name, OID: r.OID, Super: r.Superuser, Inherit: r.Inherit,
			CreateRole: r.CreateRole, CreateDB: r.CreateDB, Login: r.Login, ConnLimit: int32(r.ConnLimit), ValidUntil: r.ValidUntil, Password: r.Password})
	}
	for _, m := range st.Members {
		a.Members = append(a.Members, syscat.MemberRow{Role: oids[m.Role], Member: oids[m.Member], Grantor: oids[m.Grantor], Admin: m.Admin})
	}
	quote := syscat.ACLRoleName
	aclText := func(key string, kind roles.Kind, name, owner string) []string {
		if o := st.Object(key); o == nil || o.ACL == nil {
			return nil // NULL: the default
		}
		return roles.FormatACL(store.ACL(st, kind, key, name, owner), quote)
	}
	a.Relation = func(r *syscat.Relation) (uint32, []string) {
		key := roles.ObjectKey(s.cat.Name(), roles.KindTable, r.Namespace+"."+r.Name)
		owner := store.Owner(st, key, r.Properties[ownerProperty])
		return oids[owner], aclText(key, roles.KindTable, r.Name, owner)
	}
	a.Namespace = func(name string) (uint32, []string) {
		key := roles.ObjectKey(s.cat.Name(), roles.KindSchema, name)
		owner := store.Owner(st, key, "")
		if name == "public" && st.Object(key) == nil {
			return syscat.PgDatabaseOwnerOID, []string{"pg_database_owner=UC/pg_database_owner", "=U/pg_database_owner"}
		}
		return oids[owner], aclText(key, roles.KindSchema, name, owner)
	}
	a.HasTable = func(role string, r *syscat.Relation, priv string) bool {
		ns, name := r.Namespace, r.Name
		key := roles.ObjectKey(s.cat.Name(), roles.KindTable, ns+"."+name)
		owner := store.Owner(st, key, r.Properties[ownerProperty])
		// As PostgreSQL's, the table's ACL alone answers: USAGE on the
		// schema is not asked.
		return store.Has(st, role, roles.PrivilegeLetter(priv), owner, store.ACL(st, roles.KindTable, key, name, owner))
	}
	a.HasSchema = func(role, name, priv string) bool {
		key := roles.ObjectKey(s.cat.Name(), roles.KindSchema, name)
		owner := store.Owner(st, key, "")
		return store.Has(st, role, roles.PrivilegeLetter(priv), owner, store.ACL(st, roles.KindSchema, key, name, owner))
	}
	s.columnAccess(store, st, a, oids)       // privilege_syscat_column.go
	a.DatabaseACL = s.databaseACL(store, st) // roles_database.go
	a.HasDatabase = func(role, priv string) bool {
		return s.hasDatabase(store, st, role, roles.PrivilegeLetter(priv))
	}
	a.HasRole = func(user, role, mode string) bool {
		if strings.EqualFold(mode, "USAGE") {
			return store.HasPrivsOf(st, user, role)
		}
		return store.IsMemberOf(st, user, role)
	}
	return a, nil
}
