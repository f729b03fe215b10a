package translate

import (
	"context"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
)

// The session's identities, as PostgreSQL keeps them: the authenticated
// user (s.user); the session user, which a superuser changes with SET
// SESSION AUTHORIZATION (the setting session_authorization); and the
// current role, which SET ROLE changes to a role the session user is a
// member of (the setting role, "none" for the session user). Privileges
// are checked, and created objects owned, as the current role;
// is_superuser follows it.

// roleNone is the setting role's value when no role is set.
const roleNone = "none"

// sessionUser is the session user: session_authorization, else the
// authenticated user.
func (s *session) sessionUser() string {
	if v := s.settings.Value("session_authorization"); v != "" {
		return v
	}
	return s.user
}

// currentRole is the role SET ROLE set ("" none).
func (s *session) currentRole() string {
	if v := s.settings.Value("role"); v != "" && v != roleNone {
		return v
	}
	return ""
}

// checkRoleChange checks a change of session_authorization or role just
// made (the caller restores the old value on an error). A new session
// user drops the role set, as in PostgreSQL; a role must exist and have
// the session user as a member (42501 "permission denied to set role").
func (s *session) checkRoleChange(name string) error {
	switch strings.ToLower(name) {
	case "session_authorization":
		if err := s.checkSessionAuthorization(); err != nil { // privilege.go
			return err
		}
		s.settings.Put("role", roleNone)
	case "role":
		if err := s.checkSetRole(s.currentRole()); err != nil {
			return err
		}
	}
	return nil
}

// checkSetRole checks SET ROLE r against the roles store.
func (s *session) checkSetRole(role string) error {
	if role == "" {
		return nil
	}
	store, st, err := s.rolesNow(context.Background())
	if err != nil || store == nil {
		return err
	}
	if !store.Exists(st, role) { // 22023 here, as PostgreSQL's check of the setting
		return pgerr.New(pgerr.InvalidParameterValue, "role \"%s\" does not exist", role)
	}
	if !store.IsMemberOf(st, s.sessionUser(), role) {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set role \"%s\"", role)
	}
	return nil
}

// usableOnly wraps a search_path try so that it skips the schemas the
// current role has no USAGE on: an unqualified name there is not found
// (42P01), where a qualified one is denied (42501), as in PostgreSQL.
func (s *session) usableOnly(ctx context.Context, try func(ns []string) (bool, error)) func(ns []string) (bool, error) {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return try
	}
	me := s.CurrentUser()
	if store.Superuser(st, me) {
		return try
	}
	return func(ns []string) (bool, error) {
		if s.checkSchema(store, st, me, ns, roles.Usage) != nil {
			return false, nil
		}
		return try(ns)
	}
}
