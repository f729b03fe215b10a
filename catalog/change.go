package catalog

import (
	"context"
	"errors"
)

// ErrValidation is a commit that another writer's snapshot made invalid: a
// file the change removes or deletes rows from was removed or got new
// deletes, or (serializable) rows the change read were added. Unlike a
// lost race (ErrCommitConflict), retrying the commit cannot help; the
// statement must run again on the new snapshot. Errors wrapping it also
// wrap ErrCommitConflict, so callers that only know the latter still treat
// it as a conflict.
var ErrValidation = errors.New("conflicting concurrent change")

// IsolationLevel is how strictly a change is validated against snapshots
// committed after the one it read (seed 000's isolation-level and the
// write.delete/update/merge.isolation-level table properties).
type IsolationLevel int

const (
	// Serializable: also fails when data files that may hold rows matching
	// the change's ConflictFilter were added concurrently.
	Serializable IsolationLevel = iota
	// SnapshotIsolation: only files the change removes or deletes from
	// are checked.
	SnapshotIsolation
)

// Change is one logical change of a table branch: the files a statement (or
// a whole transaction, see Combine) adds and removes. It is computed from
// the snapshot BaseSnapshotID of the branch; CommitChange validates it
// against what was committed since then.
type Change struct {
	// AddedDataFiles are new data files (written with specs of the table).
	AddedDataFiles []*DataFile
	// AddedDeleteFiles are new position delete files (format v2) or
	// deletion vectors (v3: Format PUFFIN, ReferencedDataFile, content
	// offset and size set). In v3 a data file has at most one DV: a change
	// that adds one for a file that already has one lists the old one in
	// RemovedDeleteFiles (its new DV holds the old positions too).
	AddedDeleteFiles []*DataFile
	// RemovedDataFiles are data files (live in the base) the change
	// removes: rewritten by copy-on-write, or all of whose rows are
	// deleted. Matched by Path.
	RemovedDataFiles []*DataFile
	// RemovedDeleteFiles are delete files (live in the base) the change
	// removes: DVs it replaces, and file-scoped delete files of removed
	// data files. Matched by Path and, for DVs, ContentOffset.
	RemovedDeleteFiles []*DataFile
	// ReferencedDataFiles are the paths of the base's data files the change
	// deletes rows from or removes. Validation fails when any of them was
	// removed, or got a new delete file that may apply to it, after the
	// base.
	ReferencedDataFiles []string

	// Operation is the snapshot summary's operation; "" derives it:
	// "append" when only data is added, "delete" when only files are
	// removed or delete files added, else "overwrite".
	Operation string
	// Properties are extra snapshot summary properties.
	Properties map[string]string

	// Branch is the branch committed to ("" is main).
	Branch string
	// StageOnly adds the snapshot (its parent the branch head) without
	// moving the branch: write-audit-publish's staged snapshots, published
	// later by cherry-picking.
	StageOnly bool
	// BaseSnapshotID is the branch head the change was computed from (nil:
	// the branch did not exist, an empty table). Validation covers every
	// snapshot committed to the branch after it.
	BaseSnapshotID *int64
	// Isolation and ConflictFilter drive the serializable check: a data
	// file added after the base whose partition values and column metrics
	// may hold rows matching every predicate of ConflictFilter (nil: any
	// row) is a conflict. Changes that only add data files (appends) are
	// never validated.
	Isolation      IsolationLevel
	ConflictFilter []Predicate
}

// StagedChange is a change written on top of a table but not committed:
// its manifests and manifest list exist, and Table holds the metadata the
// commit would produce (the new snapshot added, the branch moved), so a
// transaction can read its own writes before COMMIT.
type StagedChange struct {
	Table        *Table
	Requirements []Requirement
	Updates      []Update
	// Written are the metadata files (manifests, manifest list) staging
	// wrote; Discard removes them.
	Written []string
	out     OutputIO
}

// StageChange writes change's manifests and manifest list on top of tbl's
// branch head (as it is in tbl, without validation) and returns the
// resulting table. Manifests holding removed files are rewritten with
// those entries marked deleted; the others are carried over.
func StageChange(ctx context.Context, out OutputIO, tbl *Table, change *Change) (*StagedChange, error) {
	return stageChange(ctx, out, tbl, change, 1)
}

// Discard removes the metadata files staging wrote.
func (s *StagedChange) Discard(ctx context.Context) {
	s.discard(context.WithoutCancel(ctx))
}

// ValidateChange checks change against the snapshots of tbl's branch
// committed after change.BaseSnapshotID (all of them up to tbl's branch
// head). A conflict is an error wrapping ErrValidation (and
// ErrCommitConflict) that names the conflicting snapshot and file.
func ValidateChange(ctx context.Context, tbl *Table, change *Change) error {
	return validateChange(ctx, tbl, change)
}

// CommitChange commits change as one snapshot of its branch: it loads the
// table, validates the change against what was committed since its base,
// stages it and commits with assert-ref-snapshot-id. A lost race reloads,
// re-validates and retries per the table's commit.retry.* properties; the
// metadata files of failed attempts are removed. The change's own data and
// delete files are the caller's: on error the caller removes them.
func CommitChange(ctx context.Context, cat MutableCatalog, id Identifier, change *Change) (*Table, error) {
	return commitChange(ctx, cat, id, change)
}

// Combine merges changes made one after another on the same branch (the
// statements of a transaction) into one change based on the first one's
// base: a file added and later removed drops out of both lists, removals
// of base files add up, Properties merge (later wins), ConflictFilter is
// nil (whole table) unless every change has the same one, Isolation is the
// strictest. A change that only appends carries no base of its own (nil):
// when the first change is one, the caller sets the combined change's
// BaseSnapshotID to the branch head the changes were made on.
func Combine(changes []*Change) *Change {
	return combine(changes)
}
