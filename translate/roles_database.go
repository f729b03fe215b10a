package translate

import (
	"context"
	"slices"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/syscat"
)

// Privileges on databases: each catalog the server serves is a database
// with an owner (the first configured superuser) and an ACL whose default
// is PostgreSQL's: the owner's every privilege, and CONNECT and TEMPORARY
// for PUBLIC. GRANT / REVOKE ... ON DATABASE change it; a login to a
// database its role may not CONNECT to is refused after authentication
// as PostgreSQL refuses it.

// databaseKey is the roles store's key of the database of a catalog.
func databaseKey(catalog string) string {
	return roles.ObjectKey(catalog, roles.KindDatabase, catalog)
}

// databaseTargets resolves the databases of GRANT ... ON DATABASE: the
// catalogs the server serves.
func (s *session) databaseTargets(st *pg.GrantStmt) ([]grantTarget, error) {
	var out []grantTarget
	for _, n := range st.Objects {
		name := n.GetString_().GetSval()
		if !slices.ContainsFunc(s.backend.cats, func(c catalog.Catalog) bool { return c.Name() == name }) {
			return nil, pgerr.New(pgerr.InvalidCatalogName, "database \"%s\" does not exist", name)
		}
		out = append(out, grantTarget{kind: roles.KindDatabase, key: databaseKey(name), name: name})
	}
	return out, nil
}

// hasDatabase reports whether role holds priv on the session's database.
func (s *session) hasDatabase(store *roles.Store, st *roles.State, role string, priv byte) bool {
	key := databaseKey(s.cat.Name())
	owner := store.Owner(st, key, "")
	return store.Has(st, role, priv, owner, store.ACL(st, roles.KindDatabase, key, s.cat.Name(), owner))
}

// checkConnect refuses a new session whose user may not CONNECT to its
// database: FATAL 42501, with PostgreSQL's detail.
func (s *session) checkConnect(ctx context.Context) error {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return err
	}
	if s.hasDatabase(store, st, s.user, roles.Connect) {
		return nil
	}
	return &pgerr.Error{Code: pgerr.InsufficientPrivilege, Severity: "FATAL",
		Message: "permission denied for database \"" + s.database + "\"", Detail: "User does not have CONNECT privilege."}
}

// databaseACL is pg_database.datacl of the session's database as aclitem
// text (nil: the default, NULL).
func (s *session) databaseACL(store *roles.Store, st *roles.State) []string {
	key := databaseKey(s.cat.Name())
	if o := st.Object(key); o == nil || o.ACL == nil {
		return nil
	}
	owner := store.Owner(st, key, "")
	return roles.FormatACL(store.ACL(st, roles.KindDatabase, key, s.cat.Name(), owner), syscat.ACLRoleName)
}
