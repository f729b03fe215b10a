package translate

import (
	"context"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/translate/bind"
)

// The session's side of privilege checking: binding asks (bind.Privileges)
// for every table and view a statement touches; DDL, TRUNCATE, COPY and
// CALL ask here before they act. The decisions are package roles'.

// rolesNow is the roles store and its current state when the session's
// privileges are checked: nil when no store is configured.
func (s *session) rolesNow(ctx context.Context) (*roles.Store, *roles.State, error) {
	store := s.roleStore()
	if store == nil {
		return nil, nil, nil
	}
	st, err := store.Current(ctx)
	if err != nil {
		return nil, nil, pgerr.Wrap(err, pgerr.IOError, "read the roles store: %v", err)
	}
	return store, st, nil
}

// IsSuperuser reports whether the session's current user is a superuser
// (true when no roles store is configured: everyone may do everything).
func (s *session) IsSuperuser(ctx context.Context) bool {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return err == nil
	}
	return store.Superuser(st, s.CurrentUser())
}

// MaySignal reports whether the session's current user may cancel or
// terminate a backend of role target, as pg_cancel_backend and
// pg_terminate_backend decide: a superuser may signal anyone; nobody but a
// superuser signals a superuser's backend; otherwise the caller must have
// the privileges of target or of pg_signal_backend.
func (s *session) MaySignal(ctx context.Context, target string) bool {
	store, st, err := s.rolesNow(ctx)
	if err != nil {
		return false
	}
	if store == nil {
		return true
	}
	me := s.CurrentUser()
	if store.Superuser(st, me) {
		return true
	}
	if store.Superuser(st, target) {
		return false
	}
	return store.HasPrivsOf(st, me, target) || store.HasPrivsOf(st, me, "pg_signal_backend")
}

// relationKey is a table's or view's key in the roles store.
func (s *session) relationKey(id catalog.Identifier) string {
	return roles.ObjectKey(s.cat.Name(), roles.KindTable, strings.Join(append(append([]string(nil), id.Namespace...), id.Name), "."))
}

func (s *session) schemaKey(ns []string) string {
	return roles.ObjectKey(s.cat.Name(), roles.KindSchema, strings.Join(ns, "."))
}

// tableOwner is a table's owner: the store's record, else the table's
// owner property, else the first configured superuser.
func (s *session) tableOwner(store *roles.Store, st *roles.State, t *catalog.Table) string {
	prop := ""
	if t.Metadata != nil {
		prop = t.Metadata.Properties[ownerProperty]
	}
	return store.Owner(st, s.relationKey(t.Ident), prop)
}

// checkSchemaUsage fails with 42501 unless role has priv on schema ns.
func (s *session) checkSchema(store *roles.Store, st *roles.State, role string, ns []string, priv byte) error {
	key := s.schemaKey(ns)
	name := strings.Join(ns, ".")
	owner := store.Owner(st, key, "")
	if !store.Has(st, role, priv, owner, store.ACL(st, roles.KindSchema, key, name, owner)) {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", name)
	}
	return nil
}

// CheckTablePrivilege implements bind.Privileges.
func (s *session) CheckTablePrivilege(ctx context.Context, role string, t *catalog.Table, priv byte) error {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return err
	}
	if role == "" {
		role = s.CurrentUser()
	}
	if store.Superuser(st, role) {
		return nil
	}
	if err := s.checkSchema(store, st, role, t.Ident.Namespace, roles.Usage); err != nil {
		return err
	}
	key := s.relationKey(t.Ident)
	owner := s.tableOwner(store, st, t)
	if !store.Has(st, role, priv, owner, store.ACL(st, roles.KindTable, key, t.Ident.Name, owner)) {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for table %s", t.Ident.Name)
	}
	return nil
}

// CheckViewPrivilege implements bind.Privileges.
func (s *session) CheckViewPrivilege(ctx context.Context, role string, v *bind.ViewDef, priv byte) (string, error) {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return role, err
	}
	key := s.relationKey(v.Ident)
	owner := store.Owner(st, key, "")
	if role == "" {
		role = s.CurrentUser()
	}
	if store.Superuser(st, role) {
		return owner, nil
	}
	if err := s.checkSchema(store, st, role, v.Ident.Namespace, roles.Usage); err != nil {
		return "", err
	}
	if !store.Has(st, role, priv, owner, store.ACL(st, roles.KindView, key, v.Ident.Name, owner)) {
		return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied for view %s", v.Ident.Name)
	}
	return owner, nil
}

// checkTableOwner fails with 42501 "must be owner of table t" unless the
// current user has the privileges of t's owner (ALTER, DROP, CALL).
func (s *session) checkTableOwner(ctx context.Context, t *catalog.Table, kind string) error {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return err
	}
	if !store.HasPrivsOf(st, s.CurrentUser(), s.tableOwner(store, st, t)) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s %s", kind, t.Ident.Name)
	}
	return nil
}

// checkViewOwner is checkTableOwner for a view.
func (s *session) checkViewOwner(ctx context.Context, id catalog.Identifier) error {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return err
	}
	if !store.HasPrivsOf(st, s.CurrentUser(), store.Owner(st, s.relationKey(id), "")) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of view %s", id.Name)
	}
	return nil
}

// checkSchemaOwner fails with 42501 unless the current user owns schema ns.
func (s *session) checkSchemaOwner(ctx context.Context, ns []string) error {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return err
	}
	if !store.HasPrivsOf(st, s.CurrentUser(), store.Owner(st, s.schemaKey(ns), "")) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of schema %s", strings.Join(ns, "."))
	}
	return nil
}

// checkCreateIn fails with 42501 unless the current user may create
// objects in schema ns (CREATE on it).
func (s *session) checkCreateIn(ctx context.Context, ns []string) error {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return err
	}
	me := s.CurrentUser()
	if store.Superuser(st, me) {
		return nil
	}
	return s.checkSchema(store, st, me, ns, roles.Create)
}

// checkCreateSchema fails with 42501 unless the current user may create a
// schema: CREATE on the database, which PostgreSQL gives its owner (a
// configured superuser here) and superusers.
func (s *session) checkCreateSchema(ctx context.Context) error {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return err
	}
	if !store.Superuser(st, s.CurrentUser()) {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %s", s.database)
	}
	return nil
}

// recordOwner makes the current user the owner of an object it created.
func (s *session) recordOwner(ctx context.Context, key string) error {
	store := s.roleStore()
	if store == nil {
		return nil
	}
	me := s.CurrentUser()
	_, err := store.Update(ctx, func(st *roles.State) error {
		o := st.EditObject(key)
		o.Owner, o.ACL, o.Columns = me, defaultACLFor(store, st, key, me), nil // privilege_default.go
		return nil
	})
	if err != nil {
		return pgerr.Wrap(err, pgerr.IOError, "record the owner of %s: %v", describeObjectKey(key), err)
	}
	return nil
}

// forgetObject drops what the store keeps of a dropped object.
func (s *session) forgetObject(ctx context.Context, key string) {
	store := s.roleStore()
	if store == nil {
		return
	}
	if st, err := store.Current(ctx); err != nil || st.Object(key) == nil {
		return
	}
	if _, err := store.Update(ctx, func(st *roles.State) error { st.DropObject(key); return nil }); err != nil {
		s.backend.log.Warn("forget the privileges of a dropped object", "object", key, "err", err)
	}
}

// privilegesChecked reports whether binding checks privileges for the
// current user: a plan bound so must be bound again at each Execute, as
// privileges may change between them.
func (s *session) privilegesChecked(ctx context.Context) bool {
	return s.backend.roles != nil && !s.IsSuperuser(ctx)
}

var _ bind.Privileges = (*session)(nil)

// CheckTablePrivilege of a template's binding: a binding whose checks
// decided anything is never reused, so each Execute checks again.
func (r *recordingEnv) CheckTablePrivilege(ctx context.Context, role string, t *catalog.Table, priv byte) error {
	if r.s.privilegesChecked(ctx) {
		r.volatile()
	}
	return r.s.CheckTablePrivilege(ctx, role, t, priv)
}

// CheckViewPrivilege of a template's binding, likewise.
func (r *recordingEnv) CheckViewPrivilege(ctx context.Context, role string, v *bind.ViewDef, priv byte) (string, error) {
	if r.s.privilegesChecked(ctx) {
		r.volatile()
	}
	return r.s.CheckViewPrivilege(ctx, role, v, priv)
}

var _ bind.Privileges = (*recordingEnv)(nil)

// checkNewOwner checks the new owner of ALTER ... OWNER TO: it must exist,
// and a role that is not a superuser may give its objects only to roles
// whose privileges it has (PostgreSQL 15: "must be member of role").
func (s *session) checkNewOwner(ctx context.Context, name string) error {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return err
	}
	if !store.Exists(st, name) {
		return roleMissing(name)
	}
	if !store.IsMemberOf(st, s.CurrentUser(), name) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role \"%s\"", name)
	}
	return nil
}

// setStoredOwner records a new owner of an object, keeping its ACL with
// the old owner's items passed to the new (as PostgreSQL's aclnewowner).
func (s *session) setStoredOwner(ctx context.Context, key, owner string) error {
	store := s.roleStore()
	if store == nil {
		return nil
	}
	_, err := store.Update(ctx, func(st *roles.State) error {
		o := st.EditObject(key)
		old := store.Owner(st, key, "")
		for i := range o.ACL {
			if o.ACL[i].Grantee == old {
				o.ACL[i].Grantee = owner
			}
			if o.ACL[i].Grantor == old {
				o.ACL[i].Grantor = owner
			}
		}
		o.Owner = owner
		return nil
	})
	if err != nil {
		return pgerr.Wrap(err, pgerr.IOError, "record the owner of %s: %v", describeObjectKey(key), err)
	}
	return nil
}

// checkLogin refuses a session of a stored role without LOGIN (FATAL
// 28000) or past its CONNECTION LIMIT (FATAL 53300), as PostgreSQL does
// after authentication.
func (b *backend) checkLogin(ctx context.Context, user string) error {
	if b.roles == nil {
		return nil
	}
	st, err := b.roles.Current(ctx)
	if err != nil {
		return pgerr.Wrap(err, pgerr.IOError, "read the roles store: %v", err)
	}
	r := st.Role(user)
	if r == nil {
		return nil
	}
	if !r.Login {
		return &pgerr.Error{Code: pgerr.InvalidAuthorizationSpec, Severity: "FATAL",
			Message: "role \"" + user + "\" is not permitted to log in"}
	}
	if r.ConnLimit >= 0 && !r.Superuser {
		n := 0
		for _, other := range b.sessions.list() {
			if other.user == user {
				n++
			}
		}
		if n >= r.ConnLimit {
			return &pgerr.Error{Code: pgerr.TooManyConnections, Severity: "FATAL",
				Message: "too many connections for role \"" + user + "\""}
		}
	}
	return nil
}

// syncSuperuser sets is_superuser from the roles store for the current
// user: psql's prompt, the superuser-only settings and the signal
// functions read it.
func (s *session) syncSuperuser(ctx context.Context) {
	v := "on"
	if !s.IsSuperuser(ctx) {
		v = "off"
	}
	s.settings.Put("is_superuser", v)
	s.super.Store(v == "on")
}

// checkSessionAuthorization refuses a session_authorization that names
// another role unless the session user is a superuser, as PostgreSQL's SET
// SESSION AUTHORIZATION; the role must exist.
func (s *session) checkSessionAuthorization() error {
	v := s.settings.Value("session_authorization")
	if v == "" || v == s.user {
		return nil
	}
	store, st, err := s.rolesNow(context.Background())
	if err != nil || store == nil {
		return err
	}
	if !store.Superuser(st, s.user) {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set session authorization")
	}
	if !store.Exists(st, v) {
		return roleMissing(v)
	}
	return nil
}
