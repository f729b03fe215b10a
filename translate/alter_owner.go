package translate

import (
	"context"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// ALTER ... OWNER TO, which pg_dump writes after every object it creates.
// icegate's users are not PostgreSQL roles and grant nothing, so the new
// owner is not checked against them: a table records it as its "owner"
// property (the property Iceberg's Hive and REST catalogs and Spark use
// for a table's owner), shown back by pg_tables.tableowner. Schemas have
// no owner of their own in the catalog: ALTER SCHEMA ... OWNER TO checks
// that the schema exists and changes nothing.

// ownerProperty is the table property that holds a table's owner.
const ownerProperty = "owner"

// roleName is the name a RoleSpec stands for.
func (s *session) roleName(r *pg.RoleSpec) string {
	switch r.GetRoletype() {
	case pg.RoleSpecType_ROLESPEC_CURRENT_USER, pg.RoleSpecType_ROLESPEC_CURRENT_ROLE:
		return s.CurrentUser()
	case pg.RoleSpecType_ROLESPEC_SESSION_USER:
		return s.sessionUser() // privilege_role.go
	case pg.RoleSpecType_ROLESPEC_PUBLIC:
		return "public"
	}
	return r.GetRolename()
}

// setOwner records ALTER TABLE ... OWNER TO in the properties to set.
func (s *session) setOwner(ctx context.Context, props *propertyEdit, cmd *pg.AlterTableCmd) error {
	r := cmd.GetNewowner()
	if r.GetRoletype() == pg.RoleSpecType_ROLESPEC_PUBLIC {
		return pgerr.New(pgerr.UndefinedObject, "role \"public\" does not exist")
	}
	if err := s.checkNewOwner(ctx, s.roleName(r)); err != nil { // privilege.go
		return err
	}
	if props.set == nil {
		props.set = map[string]string{}
	}
	props.set[ownerProperty] = s.roleName(r)
	return nil
}

// viewOwnerOnly reports whether ALTER TABLE only changes the owner, which
// PostgreSQL allows on a view too (pg_dump writes it so).
func viewOwnerOnly(as *pg.AlterTableStmt) bool {
	for _, n := range as.Cmds {
		if n.GetAlterTableCmd().GetSubtype() != pg.AlterTableType_AT_ChangeOwner {
			return false
		}
	}
	return len(as.Cmds) > 0
}

// alterViewOwner is ALTER TABLE v OWNER TO r on a view: the view must
// exist (else notFound, the error for the missing table); icegate's views
// keep no owner, so nothing changes.
func (s *session) alterViewOwner(ctx context.Context, as *pg.AlterTableStmt, notFound error) ([]Notice, error) {
	v, err := s.ResolveView(ctx, parse.TableNameOf(as.Relation))
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, notFound
	}
	if err := s.checkViewOwner(ctx, v.Ident); err != nil {
		return nil, err
	}
	name := s.roleName(as.Cmds[len(as.Cmds)-1].GetAlterTableCmd().GetNewowner())
	if err := s.checkNewOwner(ctx, name); err != nil {
		return nil, err
	}
	return nil, s.setStoredOwner(ctx, s.relationKey(v.Ident), name)
}

// prepareAlterOwner prepares ALTER SCHEMA | VIEW ... OWNER TO (ALTER TABLE's
// form goes through prepareAlterTable).
func (s *session) prepareAlterOwner(st *pg.AlterOwnerStmt) (Statement, error) {
	if st.GetNewowner().GetRoletype() == pg.RoleSpecType_ROLESPEC_PUBLIC {
		return nil, pgerr.New(pgerr.UndefinedObject, "role \"public\" does not exist")
	}
	switch st.ObjectType {
	case pg.ObjectType_OBJECT_SCHEMA:
		name := st.GetObject().GetString_().GetSval()
		return &ddlStatement{sess: s, tag: "ALTER SCHEMA", atOnce: true, run: func(ctx context.Context) ([]Notice, error) {
			all, err := s.cat.ListNamespaces(ctx)
			if err != nil {
				return nil, pgerr.Wrap(err, pgerr.IOError, "list namespaces: %v", err)
			}
			for _, ns := range all {
				if strings.Join(ns, ".") == name {
					if err := s.checkSchemaOwner(ctx, ns); err != nil {
						return nil, err
					}
					newOwner := s.roleName(st.GetNewowner())
					if err := s.checkNewOwner(ctx, newOwner); err != nil {
						return nil, err
					}
					return nil, s.setStoredOwner(ctx, s.schemaKey(ns), newOwner)
				}
			}
			if name == "public" || name == "pg_catalog" || name == "information_schema" {
				return nil, nil
			}
			return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", name)
		}}, nil
	}
	return nil, pgerr.NotYet("ALTER " + strings.TrimPrefix(st.ObjectType.String(), "OBJECT_") + " ... OWNER TO")
}
