package catalog

import "context"

// TableCommit is one table's part of a commit of several tables: the
// requirements its current metadata must meet and the updates applied to
// it, as CommitTable takes them.
type TableCommit struct {
	ID           Identifier
	Requirements []Requirement
	Updates      []Update
	// Create, when set, creates the table the caller staged
	// (TableStager) with Create as its first metadata, instead of
	// changing an existing one (Requirements and Updates are not used).
	// Another writer's table of that name since is ErrAlreadyExists.
	Create *TableMetadata
}

// MultiTableCommitter is a MutableCatalog that commits changes to several
// tables atomically (the REST catalog's transactions/commit): every table
// gets its new metadata or none does. A requirement that fails on any of
// them, or another writer's commit to one of them since it was read, is
// ErrCommitConflict and changes nothing; so is any other error, unless it
// says the outcome is unknown (ErrCommitStateUnknown).
type MultiTableCommitter interface {
	MutableCatalog
	CommitTables(ctx context.Context, commits []TableCommit) error
}
