package translate

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
)

// REASSIGN OWNED BY a TO b and DROP OWNED BY a, over the objects of the
// session's catalog (PostgreSQL's act on the current database too). The
// objects a role owns are those the roles store records it as owner of
// and the tables whose owner property names it. Each object is changed by
// the statement a user would write (ALTER TABLE ... OWNER TO, ALTER
// SCHEMA ... OWNER TO, DROP VIEW, DROP TABLE, DROP SCHEMA), with that
// statement's checks, one commit each: a failure part-way leaves the
// objects before it changed, and running the statement again finishes the
// job. DROP OWNED then revokes every privilege granted to the role.

// ownedObject is one object a role owns.
type ownedObject struct {
	kind roles.Kind // KindTable for tables and views
	id   catalog.Identifier
	view bool
}

func (o ownedObject) sql() string {
	if o.kind == roles.KindSchema {
		return syscat.QuoteIdent(strings.Join(o.id.Namespace, "."))
	}
	return qualifiedName(o.id)
}

// prepareReassignOwned prepares REASSIGN OWNED BY roles TO role.
func (s *session) prepareReassignOwned(st *pg.ReassignOwnedStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "REASSIGN OWNED", run: func(ctx context.Context) ([]Notice, error) {
		from := roleNames(st.Roles, s)
		to := s.roleName(st.Newrole)
		objs, err := s.checkOwnedBy(ctx, "reassign ownership of", "permission denied to reassign objects", append(slices.Clone(from), to), from)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			q := "ALTER TABLE " + o.sql()
			if o.kind == roles.KindSchema {
				q = "ALTER SCHEMA " + o.sql()
			}
			if err := s.runInternal(ctx, q+" OWNER TO "+syscat.QuoteIdent(to)); err != nil {
				return nil, err
			}
			// ALTER TABLE sets the owner property; the store's record of
			// the old owner goes too.
			if o.kind == roles.KindTable && !o.view {
				if err := s.setStoredOwner(ctx, s.relationKey(o.id), to); err != nil {
					return nil, err
				}
			}
		}
		return nil, nil
	}}, nil
}

// prepareDropOwned prepares DROP OWNED BY roles [CASCADE | RESTRICT].
func (s *session) prepareDropOwned(st *pg.DropOwnedStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "DROP OWNED", run: func(ctx context.Context) ([]Notice, error) {
		names := roleNames(st.Roles, s)
		objs, err := s.checkOwnedBy(ctx, "drop objects owned by", "permission denied to drop objects", names, names)
		if err != nil {
			return nil, err
		}
		// Views first, then tables, then the schemas they were in.
		slices.SortStableFunc(objs, func(a, b ownedObject) int { return ownedRank(a) - ownedRank(b) })
		cascade := ""
		if st.Behavior == pg.DropBehavior_DROP_CASCADE {
			cascade = " CASCADE"
		}
		for _, o := range objs {
			q := "DROP TABLE IF EXISTS "
			switch {
			case o.kind == roles.KindSchema:
				q = "DROP SCHEMA IF EXISTS "
			case o.view:
				q = "DROP VIEW IF EXISTS "
			}
			if err := s.runInternal(ctx, q+o.sql()+cascade); err != nil {
				return nil, err
			}
		}
		_, err = s.roleStore().Update(ctx, func(state *roles.State) error {
			for _, n := range names {
				state.RevokeAllOf(n) // privileges, column privileges, default privileges
			}
			return nil
		})
		if err != nil {
			return nil, pgerr.Wrap(err, pgerr.IOError, "revoke the privileges of %s: %v", strings.Join(names, ", "), err)
		}
		return nil, nil
	}}, nil
}

func ownedRank(o ownedObject) int {
	switch {
	case o.view:
		return 0
	case o.kind == roles.KindSchema:
		return 2
	}
	return 1
}

// checkOwnedBy checks that every role of check exists and that the
// current role has the privileges of each (as PostgreSQL 15 asks), and
// lists the objects the roles of owners own in the session's catalog.
func (s *session) checkOwnedBy(ctx context.Context, verb, denied string, check, owners []string) ([]ownedObject, error) {
	store, err := s.rolesStore(strings.ToUpper(strings.SplitN(verb, " ", 2)[0]) + " OWNED")
	if err != nil {
		return nil, err
	}
	st, err := store.Current(ctx)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.IOError, "read the roles store: %v", err)
	}
	me := s.CurrentUser()
	for _, n := range check {
		if !store.Exists(st, n) {
			return nil, roleMissing(n)
		}
		if !store.HasPrivsOf(st, me, n) {
			return nil, pgerr.New(pgerr.InsufficientPrivilege, "%s", denied)
		}
	}
	for _, n := range owners {
		if st.Role(n) == nil {
			// The configured users own every object the store records
			// no owner for, as PostgreSQL's bootstrap superuser.
			return nil, pgerr.New(pgerr.DependentObjectsStillExist,
				"cannot %s role %s because they are required by the database system", verb, n)
		}
	}
	owns := func(owner string) bool { return slices.Contains(owners, owner) }
	var out []ownedObject
	seen := map[string]bool{}
	prefix := s.cat.Name() + "/"
	for _, key := range slices.Sorted(maps.Keys(st.Objects)) {
		o := st.Objects[key]
		if !strings.HasPrefix(key, prefix) || !owns(o.Owner) {
			continue
		}
		kind, name, _ := strings.Cut(strings.TrimPrefix(key, prefix), "/")
		if roles.Kind(kind) == roles.KindSchema {
			out = append(out, ownedObject{kind: roles.KindSchema, id: catalog.Identifier{Namespace: strings.Split(name, ".")}})
			seen[key] = true
		}
	}
	// Tables and views: the owner property wins over the store's record.
	err = s.eachTable(ctx, func(id catalog.Identifier, t *catalog.Table) {
		seen[s.relationKey(id)] = true
		if owns(s.tableOwner(store, st, t)) {
			out = append(out, ownedObject{kind: roles.KindTable, id: id})
		}
	})
	if err != nil {
		return nil, err
	}
	// What else the store records as owned is a view (or gone).
	for _, key := range slices.Sorted(maps.Keys(st.Objects)) {
		o := st.Objects[key]
		if seen[key] || !strings.HasPrefix(key, prefix) || !owns(o.Owner) {
			continue
		}
		kind, name, _ := strings.Cut(strings.TrimPrefix(key, prefix), "/")
		if roles.Kind(kind) != roles.KindTable {
			continue
		}
		i := strings.LastIndexByte(name, '.')
		if i < 0 {
			continue
		}
		id := catalog.Identifier{Namespace: strings.Split(name[:i], "."), Name: name[i+1:]}
		v, err := s.ResolveView(ctx, parse.TableName{Schema: name[:i], Name: id.Name, Written: name})
		if err != nil || v == nil {
			continue
		}
		out = append(out, ownedObject{kind: roles.KindTable, id: id, view: true})
	}
	return out, nil
}

// runInternal runs sql, statements a user could write, as the current
// role, discarding what they return.
func (s *session) runInternal(ctx context.Context, sql string) error {
	stmts, err := parse.ParseContext(ctx, sql, hints.ParseConfig)
	if err != nil {
		return err
	}
	for _, ps := range stmts {
		st, err := s.prepare(ctx, ps, nil, true)
		if err != nil {
			return err
		}
		rows, err := st.Execute(ctx, nil)
		if err != nil {
			return err
		}
		for {
			b, err := rows.Next(ctx)
			if err != nil || b == nil {
				rows.Close()
				if err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}

// ownerPropertySet follows ALTER TABLE ... OWNER TO, which set a table's
// owner property: a record of another owner in the roles store would keep
// DROP ROLE of that role refused, so it moves to the new owner.
func (s *session) ownerPropertySet(ctx context.Context, id catalog.Identifier, owner string) {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return
	}
	key := s.relationKey(id)
	if o := st.Object(key); o == nil || o.Owner == "" || o.Owner == owner {
		return
	}
	if err := s.setStoredOwner(ctx, key, owner); err != nil {
		s.backend.log.Warn("record the new owner of a table", "table", id.Name, "err", err)
	}
}

// propertyOwned lists, by owner, the tables of the session's catalog
// whose owner property names a stored role: DROP ROLE's dependencies
// beside the store's records.
func (s *session) propertyOwned(ctx context.Context, st *roles.State) (map[string][]string, error) {
	out := map[string][]string{}
	err := s.eachTable(ctx, func(id catalog.Identifier, t *catalog.Table) {
		if t.Metadata == nil {
			return
		}
		if o := t.Metadata.Properties[ownerProperty]; st.Role(o) != nil {
			out[o] = append(out[o], s.relationKey(id))
		}
	})
	return out, err
}

// eachTable calls fn with every table of the session's catalog; a table
// dropped meanwhile is passed over.
func (s *session) eachTable(ctx context.Context, fn func(catalog.Identifier, *catalog.Table)) error {
	nss, err := s.cat.ListNamespaces(ctx)
	if err != nil {
		return pgerr.Wrap(err, pgerr.IOError, "list namespaces: %v", err)
	}
	for _, ns := range nss {
		ids, err := s.cat.ListTables(ctx, ns)
		if err != nil {
			return pgerr.Wrap(err, pgerr.IOError, "list tables: %v", err)
		}
		for _, id := range ids {
			t, err := s.cat.LoadTable(ctx, id)
			if errors.Is(err, catalog.ErrNotFound) {
				continue
			}
			if err != nil {
				return pgerr.Wrap(err, pgerr.IOError, "load table %s: %v", id.Name, err)
			}
			fn(id, t)
		}
	}
	return nil
}
