package indexexec

import (
	"context"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/parse"
)

// Env is what the index statements need of the session: the catalog to
// write to, the system catalog (where kept indexes are listed), and name
// resolution. Package translate's session implements it.
type Env interface {
	// MutableCatalog is the catalog to write to, or the error for a
	// statement (what) that writes into a read-only one.
	MutableCatalog(what string) (catalog.MutableCatalog, error)
	// SysSnapshot is the system catalog as the statement sees it.
	SysSnapshot(ctx context.Context) (*syscat.Snapshot, error)
	// ResolveTable finds a table by name through search_path (42P01).
	ResolveTable(ctx context.Context, tn parse.TableName) (*catalog.Table, error)
	// SearchPathWalk calls try with the namespaces of search_path in
	// order (or the only namespace) until it finds or fails.
	SearchPathWalk(ctx context.Context, try func(ns []string) (found bool, err error)) error
	// AlterTarget resolves the table ALTER TABLE [IF EXISTS] rel names:
	// nil with a NOTICE when it does not exist and missingOk.
	AlterTarget(ctx context.Context, rel *pg.RangeVar, missingOk bool) (*catalog.Table, []pgerr.Notice, error)
}

// Exec runs the index statements in the session of its Env.
type Exec struct{ Env }

// With is the index statements of env's session.
func With(env Env) Exec { return Exec{env} }

// Run is a statement's work at Execute: the notices it sends.
type Run = func(ctx context.Context) ([]pgerr.Notice, error)
