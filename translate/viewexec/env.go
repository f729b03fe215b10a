package viewexec

import (
	"context"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
)

// Env is what running views needs of the session: the binder's view of it
// (a view's query is bound with the session as bind.Env), its catalog as
// the statement sees it (a transaction block's staged views included), its
// name resolution and its temporary views. Package translate's session
// implements it.
type Env interface {
	bind.Env
	// Catalog is the session's catalog, read through the open block.
	Catalog() catalog.Catalog
	// MutableCatalog is the catalog to write to, or the error for a
	// statement (what) that writes into a read-only one.
	MutableCatalog(what string) (catalog.MutableCatalog, error)
	// TableIdent is the identifier a new relation tn gets, and whether its
	// schema is the default one (created on demand).
	TableIdent(ctx context.Context, tn parse.TableName) (catalog.Identifier, bool, error)
	// FindNamespace is the namespace a schema name matches, nil if none.
	FindNamespace(ctx context.Context, schema string) ([]string, error)
	// SearchPathWalk calls try with the namespaces of search_path in
	// order (or the only namespace) until it finds or fails.
	SearchPathWalk(ctx context.Context, try func(ns []string) (found bool, err error)) error
	// TempViews are the session's temporary views by name (never nil).
	TempViews() map[string]*Temp
}

// Exec runs views in the session of its Env. Its ResolveView and
// LookupView are the session's (bind.Env's) implementations.
type Exec struct{ Env }

// With is the views of env's session.
func With(env Env) Exec { return Exec{env} }
