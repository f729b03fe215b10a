package seqexec

import (
	"context"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/parse"
)

// Env is what running sequences needs of the session: its catalog as
// writes and transaction blocks see it, its name resolution, and its
// cache of sequence values. Package translate's session implements it.
type Env interface {
	// Catalog is the session's catalog, read through the open block.
	Catalog() catalog.Catalog
	// MutableCatalog is the catalog to write to, or the error for a
	// statement (what) that writes into a read-only one.
	MutableCatalog(what string) (catalog.MutableCatalog, error)
	// SequenceCatalog is the catalog the state of sequence id is committed
	// through: directly, past any transaction block's staging, except for
	// a sequence the open block created.
	SequenceCatalog(what string, id catalog.Identifier) (catalog.MutableCatalog, error)
	// CommitPastBlock commits updates to table id past the open block's
	// staging (as a sequence's rename is), and moves the block's view of
	// the table with it.
	CommitPastBlock(ctx context.Context, mc catalog.MutableCatalog, id catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) error
	// InBlock reports whether a transaction block is open.
	InBlock() bool
	// ChangedInBlock reports whether the open block changed table id.
	ChangedInBlock(id catalog.Identifier) bool
	// LookupTable finds a table by name through search_path (42P01 when
	// there is none); ResolveTable does too, and says so for the names of
	// metadata tables.
	LookupTable(ctx context.Context, tn parse.TableName) (*catalog.Table, error)
	ResolveTable(ctx context.Context, tn parse.TableName) (*catalog.Table, error)
	// TableIdent is the identifier a new relation tn gets, and whether its
	// schema is the default one (created on demand).
	TableIdent(ctx context.Context, tn parse.TableName) (catalog.Identifier, bool, error)
	// CreateTable creates the table of a new sequence as CREATE TABLE
	// does (in a block: staged).
	CreateTable(ctx context.Context, mc catalog.MutableCatalog, id catalog.Identifier, name string, spec catalog.TableSpec, ifNotExists, defaultSchema bool) ([]pgerr.Notice, error)
	// SysSnapshot is the system catalog as the statement sees it.
	SysSnapshot(ctx context.Context) (*syscat.Snapshot, error)
	// Sequences is the session's cache of sequence values.
	Sequences() *Cache
}

// Exec runs sequences in the session of its Env.
type Exec struct{ Env }

// With is the sequences of env's session.
func With(env Env) Exec { return Exec{env} }

// Run is a statement's work at Execute: the notices it sends.
type Run = func(ctx context.Context) ([]pgerr.Notice, error)
