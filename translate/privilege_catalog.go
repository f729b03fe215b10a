package translate

import (
	"context"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/roles"
)

// Ownership and CREATE checks of the session's catalog changes: every
// CREATE, DROP and RENAME of a table, view or schema passes through the
// session's writeCatalog (tx_catalog.go), which asks here first and
// records the new owner after.

// checkTableOwnerID loads the table of id and checks that the current
// user owns it; a table that does not load is left for the change to
// report.
func (w *writeCatalog) checkTableOwnerID(ctx context.Context, id catalog.Identifier) error {
	if w.s.backend.roles == nil {
		return nil
	}
	t, err := w.LoadTable(ctx, id)
	if err != nil {
		return nil
	}
	return w.s.checkTableOwner(ctx, t, "table")
}

// ownerCreated records the current user as the owner of a created
// object, unless that is who owns it without a record (the first
// configured superuser) and nothing is recorded.
func (s *session) ownerCreated(ctx context.Context, key string) error {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return err
	}
	if st.Object(key) == nil && s.CurrentUser() == store.Owner(st, key, "") && defaultACLFor(store, st, key, s.CurrentUser()) == nil {
		return nil // privilege_default.go
	}
	return s.recordOwner(ctx, key)
}

// renamed moves what the store keeps of a renamed table.
func (s *session) renamed(ctx context.Context, from, to catalog.Identifier) {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil || st.Object(s.relationKey(from)) == nil {
		return
	}
	if _, err := store.Update(ctx, func(st *roles.State) error {
		st.RenameObject(s.relationKey(from), s.relationKey(to))
		return nil
	}); err != nil {
		s.backend.log.Warn("move the privileges of a renamed table", "table", from.Name, "err", err)
	}
}
