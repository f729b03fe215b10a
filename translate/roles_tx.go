package translate

import (
	"context"
	"errors"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
)

// Changes of roles and privileges in a transaction block.
//
// Inside a block every statement reads and changes the roles through the
// block's staged store (roles.Store.Stage): CREATE/ALTER/DROP ROLE,
// GRANT/REVOKE, ALTER DEFAULT PRIVILEGES, REASSIGN/DROP OWNED and the
// owner records of created, renamed and dropped objects. The block sees
// its own changes at once; other sessions and gateways see them when
// COMMIT publishes them as one version of the store, after the block's
// tables committed. ROLLBACK drops them and ROLLBACK TO SAVEPOINT drops
// those made after the savepoint, as in PostgreSQL.

// roleStore is the roles store the session's statements use: the open
// block's staged one inside a block, the shared one outside; nil when no
// store is configured.
func (s *session) roleStore() *roles.Store {
	if s.backend.roles == nil {
		return nil
	}
	if s.tx == nil {
		return s.backend.roles
	}
	if s.tx.roles == nil {
		s.tx.roles = s.backend.roles.Stage()
	}
	return s.tx.roles
}

// commitRoles publishes the block's staged changes of roles. A change
// that no longer applies to the newest shared state (another session
// created the same role meanwhile) keeps its own error.
func (s *session) commitRoles(ctx context.Context) error {
	if s.tx == nil || s.tx.roles == nil {
		return nil
	}
	err := s.tx.roles.Commit(ctx)
	if err == nil {
		return nil
	}
	var pe *pgerr.Error
	if errors.As(err, &pe) {
		return err
	}
	return pgerr.Wrap(err, pgerr.IOError, "commit the changes of roles and privileges: %v", err)
}
