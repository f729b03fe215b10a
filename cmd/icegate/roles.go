package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/roles"
)

// openRoles opens the roles store: roles.directory, else the default
// catalog's local warehouse directory's .icegate/roles. A default catalog
// with no local directory (REST, an object store) has none unless
// roles.directory names one: then every user may do everything.
func openRoles(ctx context.Context, cfg *conf.Config, def servedCatalog, logger *slog.Logger) (*roles.Store, error) {
	dir := cfg.RolesDirectory
	switch {
	case dir == conf.RolesOff:
		return nil, nil
	case dir == "" && (def.kind == conf.CatalogREST || def.objects):
		logger.Info("no roles store: the default catalog has no local warehouse directory; set roles.directory to keep roles and privileges")
		return nil, nil
	case dir == "":
		dir = filepath.Join(def.root, ".icegate", "roles")
	}
	// The configured users are the bootstrap superusers; the first owns
	// what no one else does.
	var boot []string
	for _, u := range cfg.Users {
		boot = append(boot, u.Name)
	}
	boot = append(boot, auth.BuiltinUser)
	store, err := roles.Open(ctx, dir, boot)
	if err != nil {
		return nil, fmt.Errorf("roles store %s: %w", dir, err)
	}
	store.SetPasswords(auth.NewVerifier, func(v string) error { _, err := auth.ParseVerifier(v); return err })
	logger.Info("roles and privileges", "directory", dir)
	return store, nil
}

// rolesAuth attaches the roles store to an authenticator: roles created
// with CREATE ROLE log in, and the access rules' +role and samerole see the
// store's memberships. Nil without a store.
func rolesAuth(ctx context.Context, store *roles.Store) func(*auth.Authenticator) {
	if store == nil {
		return nil
	}
	return func(a *auth.Authenticator) {
		a.SetLookup(func(user string) (string, bool) {
			return store.Verifier(ctx, user, time.Now())
		})
		a.SetMemberOf(func(user, role string) bool {
			st, err := store.Current(ctx)
			return err == nil && store.IsMemberOf(st, user, role)
		})
	}
}
