package translate

import (
	"context"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/roles"
	"github.com/icegate/icegate/translate/bind"
)

// ColumnGrants implements bind.ColumnPrivileges: the columns of t on which
// role holds priv through column grants, when it may use t's schema.
func (s *session) ColumnGrants(ctx context.Context, role string, t *catalog.Table, priv byte) (map[string]bool, error) {
	store, st, err := s.rolesNow(ctx)
	if err != nil || store == nil {
		return nil, err
	}
	if role == "" {
		role = s.CurrentUser()
	}
	key := s.relationKey(t.Ident)
	names := st.ColumnNames(key)
	if len(names) == 0 {
		return nil, nil
	}
	if s.checkSchema(store, st, role, t.Ident.Namespace, roles.Usage) != nil {
		return nil, nil
	}
	owner := s.tableOwner(store, st, t)
	var out map[string]bool
	for _, col := range names {
		if store.HasColumn(st, role, priv, owner, nil, st.ColumnACL(key, col)) {
			if out == nil {
				out = map[string]bool{}
			}
			out[col] = true
		}
	}
	return out, nil
}

var _ bind.ColumnPrivileges = (*session)(nil)

// ColumnGrants of a template's binding: a binding that asked is never
// reused.
func (r *recordingEnv) ColumnGrants(ctx context.Context, role string, t *catalog.Table, priv byte) (map[string]bool, error) {
	if r.s.privilegesChecked(ctx) {
		r.volatile()
	}
	return r.s.ColumnGrants(ctx, role, t, priv)
}

var _ bind.ColumnPrivileges = (*recordingEnv)(nil)

// checkCopyColumns allows COPY t (cols) FROM to a role without INSERT on
// t that holds INSERT on each column named (tableErr is the table
// check's error, returned otherwise).
func (s *session) checkCopyColumns(ctx context.Context, t *catalog.Table, cols []string, tableErr error) error {
	if tableErr == nil || len(cols) == 0 {
		return tableErr
	}
	allowed, err := s.ColumnGrants(ctx, "", t, roles.Insert)
	if err != nil {
		return err
	}
	for _, c := range cols {
		if !allowed[c] {
			return tableErr
		}
	}
	return nil
}

// columnPrivilegesMoved keeps the column ACLs of table id right after its
// column from was renamed to (to "": dropped). The schema change is
// committed already, so a failure here is logged, not returned.
func (s *session) columnPrivilegesMoved(ctx context.Context, id catalog.Identifier, from, to string) {
	store, st, err := s.rolesNow(ctx)
	key := s.relationKey(id)
	if err != nil || store == nil || st.ColumnACL(key, from) == nil {
		return
	}
	if _, err := store.Update(ctx, func(st *roles.State) error {
		if to == "" {
			st.DropColumn(key, from)
		} else {
			st.RenameColumn(key, from, to)
		}
		return nil
	}); err != nil {
		s.backend.log.Warn("move the privileges of a renamed or dropped column", "table", id.Name, "column", from, "err", err)
	}
}
