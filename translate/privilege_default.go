package translate

import (
	"context"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
)

// ALTER DEFAULT PRIVILEGES [FOR ROLE r, ...] [IN SCHEMA s, ...] GRANT |
// REVOKE ... ON TABLES TO | FROM ...: the privileges a table or view gets
// when it is created (roles/defaults.go). Tables and views are icegate's
// only objects with privileges, so the other kinds (sequences, functions,
// types, schemas) are refused with 0A000 naming them rather than
// recorded for objects that never come.

// defaultACLFor is the ACL a relation of key created by owner starts
// with: nil (the built-in default) unless default privileges say
// otherwise. Schemas get none.
func defaultACLFor(store *roles.Store, st *roles.State, key, owner string) []roles.ACLItem {
	_, rest, _ := strings.Cut(key, "/")
	kind, name, ok := strings.Cut(rest, "/")
	if !ok || kind != string(roles.KindTable) {
		return nil
	}
	schema := ""
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		schema = name[:i]
	}
	acl := st.DefaultObjectACL(owner, schema, roles.KindTable)
	store.SortACL(st, acl)
	return acl
}

// prepareAlterDefaultPrivileges prepares ALTER DEFAULT PRIVILEGES.
func (s *session) prepareAlterDefaultPrivileges(st *pg.AlterDefaultPrivilegesStmt) (Statement, error) {
	const tag = "ALTER DEFAULT PRIVILEGES"
	act := st.GetAction()
	if act == nil {
		return nil, pgerr.New(pgerr.SyntaxError, "ALTER DEFAULT PRIVILEGES without GRANT or REVOKE")
	}
	if act.Objtype != pg.ObjectType_OBJECT_TABLE {
		kind := strings.ToLower(strings.TrimPrefix(act.Objtype.String(), "OBJECT_"))
		return nil, pgerr.NotYet("ALTER DEFAULT PRIVILEGES on " + kind + "s")
	}
	var forRoles, schemas []string
	for _, n := range st.Options {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		for _, it := range d.GetArg().GetList().GetItems() {
			switch d.Defname {
			case "roles":
				forRoles = append(forRoles, s.roleName(it.GetRoleSpec()))
			case "schemas":
				schemas = append(schemas, it.GetString_().GetSval())
			}
		}
	}
	privs := ""
	if len(act.Privileges) == 0 {
		privs = roles.AllPrivileges(roles.KindTable)
	}
	for _, n := range act.Privileges {
		ap := n.GetAccessPriv()
		if len(ap.GetCols()) > 0 {
			return nil, pgerr.New(pgerr.InvalidGrantOperation, "column privileges are not valid in ALTER DEFAULT PRIVILEGES")
		}
		p := roles.PrivilegeLetter(ap.GetPrivName())
		if p == 0 || !strings.ContainsRune(roles.AllPrivileges(roles.KindTable), rune(p)) {
			return nil, pgerr.New(pgerr.InvalidGrantOperation, "invalid privilege type %s for table", strings.ToUpper(ap.GetPrivName()))
		}
		privs += string(p)
	}
	return &ddlStatement{sess: s, tag: tag, run: func(ctx context.Context) ([]Notice, error) {
		store, err := s.rolesStore(tag)
		if err != nil {
			return nil, err
		}
		me := s.CurrentUser()
		targets := forRoles
		if len(targets) == 0 {
			targets = []string{me}
		}
		if len(schemas) > 0 {
			all, err := s.cat.ListNamespaces(ctx)
			if err != nil {
				return nil, pgerr.Wrap(err, pgerr.IOError, "list schemas: %v", err)
			}
			for _, name := range schemas {
				found := false
				for _, ns := range all {
					found = found || strings.Join(ns, ".") == name
				}
				if !found {
					return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", name)
				}
			}
		}
		in := schemas
		if len(in) == 0 {
			in = []string{""}
		}
		var grantees []string
		for _, g := range act.Grantees {
			r := g.GetRoleSpec()
			if r.GetRoletype() == pg.RoleSpecType_ROLESPEC_PUBLIC {
				grantees = append(grantees, "")
			} else {
				grantees = append(grantees, s.roleName(r))
			}
		}
		_, err = store.Update(ctx, func(state *roles.State) error {
			for _, r := range targets {
				if !store.Exists(state, r) {
					return roleMissing(r)
				}
				if !store.IsMemberOf(state, me, r) {
					return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role \"%s\"", r)
				}
			}
			for _, g := range grantees {
				if g != "" && !store.Exists(state, g) {
					return roleMissing(g)
				}
			}
			for _, r := range targets {
				for _, sc := range in {
					state.AlterDefault(r, sc, roles.KindTable, act.IsGrant, grantees, privs, act.GrantOption)
				}
			}
			return nil
		})
		return nil, err
	}}, nil
}
