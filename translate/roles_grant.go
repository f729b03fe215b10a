package translate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/translate/parse"
)

// GRANT and REVOKE of privileges on tables, views and schemas, and of
// role membership, recorded in the roles store.

// grantTarget is one object a GRANT names.
type grantTarget struct {
	kind  roles.Kind
	key   string
	name  string // as messages name it
	owner string
	cols  []string // a table's or view's columns
	// schema is a table's or view's namespace (USAGE on it is needed).
	schema []string
}

// prepareGrant prepares GRANT | REVOKE privileges ON objects TO | FROM roles.
func (s *session) prepareGrant(st *pg.GrantStmt) (Statement, error) {
	tag := "GRANT"
	if !st.IsGrant {
		tag = "REVOKE"
	}
	return &ddlStatement{sess: s, tag: tag, run: func(ctx context.Context) ([]Notice, error) {
		store, err := s.rolesStore(tag)
		if err != nil {
			return nil, err
		}
		kind := roles.KindTable
		switch st.Objtype {
		case pg.ObjectType_OBJECT_TABLE:
		case pg.ObjectType_OBJECT_SCHEMA:
			kind = roles.KindSchema
		case pg.ObjectType_OBJECT_DATABASE:
			kind = roles.KindDatabase // roles_database.go
		default:
			return nil, pgerr.NotYet(tag + " on " + strings.ToLower(strings.TrimPrefix(st.Objtype.String(), "OBJECT_")) + "s")
		}
		privs := ""
		if len(st.Privileges) == 0 {
			privs = roles.AllPrivileges(kind)
		}
		colPrivs, err := grantColumns(st, kind) // roles_grant_column.go
		if err != nil {
			return nil, err
		}
		for _, n := range st.Privileges {
			ap := n.GetAccessPriv()
			if len(ap.GetCols()) > 0 {
				continue
			}
			p := roles.PrivilegeLetter(ap.GetPrivName())
			if p == 0 || !strings.ContainsRune(roles.AllPrivileges(kind), rune(p)) {
				return nil, pgerr.New(pgerr.InvalidGrantOperation, "invalid privilege type %s for %s", strings.ToUpper(ap.GetPrivName()), kindWord(kind))
			}
			privs += string(p)
		}
		targets, err := s.grantTargets(ctx, st, kind)
		if err != nil {
			return nil, err
		}
		var grantees []string
		for _, g := range st.Grantees {
			r := g.GetRoleSpec()
			if r.GetRoletype() == pg.RoleSpecType_ROLESPEC_PUBLIC {
				grantees = append(grantees, "")
			} else {
				grantees = append(grantees, s.roleName(r))
			}
		}
		me := s.CurrentUser()
		allPrivs := len(st.Privileges) == 0
		var notices []Notice
		_, err = store.Update(ctx, func(state *roles.State) error {
			notices = nil
			for _, g := range grantees {
				if g != "" && !store.Exists(state, g) {
					return roleMissing(g)
				}
			}
			for _, t := range targets {
				if t.schema != nil && !store.Superuser(state, me) {
					// Naming a table needs USAGE on its schema.
					if err := s.checkSchema(store, state, me, t.schema, roles.Usage); err != nil {
						return err
					}
				}
				owner := store.Owner(state, t.key, t.owner)
				acl := store.ACL(state, t.kind, t.key, t.name, owner)
				grantor := me
				privs := privs
				if store.HasPrivsOf(state, me, owner) {
					grantor = owner // an owner's or superuser's grant is the owner's
				} else if privs != "" {
					// As PostgreSQL: a role holding no privilege of the
					// object is refused; otherwise only what it holds with
					// the grant option is granted or revoked, with a
					// warning for the rest.
					avail := grantOptions(store, state, me, acl)
					if avail == "" && !holdsAny(store, state, me, owner, acl, t.kind) {
						return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", kindWord(t.kind), t.name)
					}
					kept := keepLetters(privs, avail)
					if n, ok := partialGrantWarning(st.IsGrant, allPrivs, privs, kept, `"`+t.name+`"`); ok {
						notices = append(notices, n)
					}
					privs = kept
				}

				cn, err := applyColumnGrant(store, state, me, st, t, acl, grantor, grantees, privs, colPrivs) // roles_grant_column.go
				if err != nil {
					return err
				}
				notices = append(notices, cn...)
				if privs == "" {
					continue
				}
				acl = append([]roles.ACLItem(nil), acl...)
				for _, g := range grantees {
					if st.IsGrant {
						acl = roles.Grant(acl, g, grantor, privs, st.GrantOption)
					} else {
						acl = roles.Revoke(acl, g, privs, st.GrantOption)
					}
				}
				o := state.EditObject(t.key)
				o.Owner = owner
				o.ACL = acl
				if o.ACL == nil {
					o.ACL = []roles.ACLItem{}
				}
			}
			return nil
		})
		return notices, err
	}}, nil
}

// grantOptions are the privileges me holds with the grant option in acl,
// directly or through roles it has the privileges of.
func grantOptions(store *roles.Store, st *roles.State, me string, acl []roles.ACLItem) string {
	var out []byte
	for _, a := range acl {
		if a.Grantee == "" || !store.HasPrivsOf(st, me, a.Grantee) {
			continue
		}
		for i := 0; i < len(a.Grantable); i++ {
			if !slices.Contains(out, a.Grantable[i]) {
				out = append(out, a.Grantable[i])
			}
		}
	}
	return string(out)
}

// holdsAny reports whether me holds any privilege of an object of kind.
func holdsAny(store *roles.Store, st *roles.State, me, owner string, acl []roles.ACLItem, kind roles.Kind) bool {
	all := roles.AllPrivileges(kind)
	for i := 0; i < len(all); i++ {
		if store.Has(st, me, all[i], owner, acl) {
			return true
		}
	}
	return false
}

// keepLetters are the privileges of privs that are in avail.
func keepLetters(privs, avail string) string {
	var out []byte
	for i := 0; i < len(privs); i++ {
		if strings.IndexByte(avail, privs[i]) >= 0 {
			out = append(out, privs[i])
		}
	}
	return string(out)
}

// partialGrantWarning is PostgreSQL's warning of a GRANT or REVOKE that
// could apply none, or (unless it named ALL) not all, of its privileges
// on what (quoted: `"t"`, `column "a" of relation "t"`).
func partialGrantWarning(grant, allPrivs bool, asked, kept, what string) (Notice, bool) {
	code, verb := pgerr.PrivilegeNotGranted, "were granted"
	if !grant {
		code, verb = pgerr.PrivilegeNotRevoked, "could be revoked"
	}
	switch {
	case kept == "":
		return Notice{Severity: "WARNING", Code: code, Message: fmt.Sprintf("no privileges %s for %s", verb, what)}, true
	case !allPrivs && len(kept) < len(asked):
		return Notice{Severity: "WARNING", Code: code, Message: fmt.Sprintf("not all privileges %s for %s", verb, what)}, true
	}
	return Notice{}, false
}

// mayGrant reports whether me holds every privilege of privs with the
// grant option.
func mayGrant(store *roles.Store, st *roles.State, me string, acl []roles.ACLItem, privs string) bool {
	for i := 0; i < len(privs); i++ {
		ok := false
		for _, a := range acl {
			if strings.IndexByte(a.Grantable, privs[i]) >= 0 && store.HasPrivsOf(st, me, a.Grantee) && a.Grantee != "" {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func kindWord(k roles.Kind) string {
	switch k {
	case roles.KindSchema:
		return "schema"
	case roles.KindDatabase:
		return "database"
	}
	return "table"
}

// grantTargets resolves the objects of a GRANT: tables and views by name,
// every table of a schema (ALL TABLES IN SCHEMA), or schemas.
func (s *session) grantTargets(ctx context.Context, st *pg.GrantStmt, kind roles.Kind) ([]grantTarget, error) {
	var out []grantTarget
	if kind == roles.KindDatabase {
		return s.databaseTargets(st) // roles_database.go
	}
	if kind == roles.KindSchema {
		all, err := s.cat.ListNamespaces(ctx)
		if err != nil {
			return nil, pgerr.Wrap(err, pgerr.IOError, "list schemas: %v", err)
		}
		for _, n := range st.Objects {
			name := n.GetString_().GetSval()
			found := false
			for _, ns := range all {
				found = found || strings.Join(ns, ".") == name
			}
			if !found {
				return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", name)
			}
			out = append(out, grantTarget{kind: roles.KindSchema, key: s.schemaKey(strings.Split(name, ".")), name: name})
		}
		return out, nil
	}
	if st.Targtype == pg.GrantTargetType_ACL_TARGET_ALL_IN_SCHEMA {
		for _, n := range st.Objects {
			name := n.GetString_().GetSval()
			ns := strings.Split(name, ".")
			ids, err := s.cat.ListTables(ctx, ns)
			if err != nil {
				return nil, pgerr.Wrap(err, pgerr.InvalidSchemaName, "schema \"%s\" does not exist", name)
			}
			for _, id := range ids {
				t, err := s.cat.LoadTable(ctx, id)
				if err != nil {
					return nil, err
				}
				out = append(out, s.tableTarget(t))
			}
		}
		return out, nil
	}
	for _, n := range st.Objects {
		tn := parse.TableNameOf(n.GetRangeVar())
		t, err := s.ResolveTable(ctx, tn)
		if err != nil {
			v, verr := s.ResolveView(ctx, tn)
			if verr != nil || v == nil || v.Temp {
				return nil, err
			}
			out = append(out, grantTarget{kind: roles.KindView, key: s.relationKey(v.Ident), name: v.Ident.Name, cols: v.Columns, schema: v.Ident.Namespace})
			continue
		}
		out = append(out, s.tableTarget(t))
	}
	return out, nil
}

func (s *session) tableTarget(t *catalog.Table) grantTarget {
	prop := ""
	if t.Metadata != nil {
		prop = t.Metadata.Properties[ownerProperty]
	}
	var cols []string
	if t.Metadata != nil && t.Metadata.CurrentSchema() != nil {
		for _, f := range t.Metadata.CurrentSchema().Fields {
			cols = append(cols, f.Name)
		}
	}
	return grantTarget{kind: roles.KindTable, key: s.relationKey(t.Ident), name: t.Ident.Name, owner: prop, cols: cols, schema: t.Ident.Namespace}
}

// prepareGrantRole prepares GRANT | REVOKE role TO | FROM roles [WITH ADMIN OPTION].
func (s *session) prepareGrantRole(st *pg.GrantRoleStmt) (Statement, error) {
	tag := "GRANT ROLE"
	if !st.IsGrant {
		tag = "REVOKE ROLE"
	}
	admin := false
	for _, n := range st.Opt {
		if d := n.GetDefElem(); d != nil && d.Defname == "admin" {
			admin = *optBool(d)
		}
	}
	return &ddlStatement{sess: s, tag: tag, run: func(ctx context.Context) ([]Notice, error) {
		store, err := s.rolesStore(tag)
		if err != nil {
			return nil, err
		}
		granted := roleNames(st.GrantedRoles, s)
		members := roleNames(st.GranteeRoles, s)
		me := s.CurrentUser()
		var notices []Notice
		_, err = store.Update(ctx, func(state *roles.State) error {
			notices = nil
			for _, r := range granted {
				if !store.Exists(state, r) {
					return roleMissing(r)
				}
				if !store.HasAdminOf(state, me, r) {
					return pgerr.New(pgerr.InsufficientPrivilege, "must have admin option on role \"%s\"", r)
				}
				for _, m := range members {
					if !store.Exists(state, m) {
						return roleMissing(m)
					}
					ms := state.Membership(r, m)
					if !st.IsGrant {
						if ms == nil {
							notices = append(notices, Notice{Severity: "WARNING", Code: pgerr.Warning,
								Message: fmt.Sprintf("role \"%s\" has not been granted membership in role \"%s\" by role \"%s\"", m, r, me)})
							continue
						}
						if admin { // REVOKE ADMIN OPTION FOR
							ms.Admin = false
							continue
						}
						kept := state.Members[:0]
						for _, x := range state.Members {
							if x.Role != r || x.Member != m {
								kept = append(kept, x)
							}
						}
						state.Members = kept
						continue
					}
					if m == r || store.IsMemberOf(state, r, m) && state.Role(r) != nil && !store.Superuser(state, r) {
						return pgerr.New(pgerr.InvalidGrantOperation, "role \"%s\" is a member of role \"%s\"", r, m)
					}
					if ms != nil {
						if admin && !ms.Admin {
							ms.Admin = true
							continue
						}
						notices = append(notices, Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
							Message: fmt.Sprintf("role \"%s\" is already a member of role \"%s\"", m, r)})
						continue
					}
					state.Members = append(state.Members, roles.Member{Role: r, Member: m, Grantor: me, Admin: admin})
				}
			}
			return nil
		})
		return notices, err
	}}, nil
}
