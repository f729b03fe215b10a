package translate

import (
	"context"

	"github.com/icegate/icegate/internal/pgerr"
)

// Who may see and signal which sessions, by PostgreSQL 15's rules: a
// superuser every session; a role its own sessions and, as a member of
// pg_read_all_stats or pg_signal_backend, the sessions of roles that are
// not superusers.

// superuser reports whether the session's role is a superuser
// (is_superuser).
func (s *session) superuser() bool {
	v, _ := s.settings.Get("is_superuser")
	return v == "on"
}

// hasRole reports whether the session's current role is role or has its
// privileges (membership with INHERIT, in the roles store).
func (s *session) hasRole(role string) bool {
	if s.CurrentUser() == role {
		return true
	}
	store, st, err := s.rolesNow(context.Background())
	if err != nil || store == nil {
		return false
	}
	return store.HasPrivsOf(st, s.CurrentUser(), role)
}

// maySignal is nil when the session may cancel (or terminate) o's
// statement, else PostgreSQL's 42501.
func (s *session) maySignal(o *session, terminate bool) error {
	if s.superuser() {
		return nil
	}
	if o.super.Load() {
		if terminate {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be a superuser to terminate superuser process")
		}
		return pgerr.New(pgerr.InsufficientPrivilege, "must be a superuser to cancel superuser query")
	}
	if s.hasRole(o.user) || s.hasRole("pg_signal_backend") {
		return nil
	}
	if terminate {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be a member of the role whose process is being terminated or member of pg_signal_backend")
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "must be a member of the role whose query is being canceled or member of pg_signal_backend")
}
