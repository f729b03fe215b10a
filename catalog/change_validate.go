package catalog

import (
	"context"
	"fmt"
)

// validationError is a conflict with a concurrent change: it wraps
// ErrValidation and ErrCommitConflict.
func validationError(format string, args ...any) error {
	return fmt.Errorf("%s: %w (%w)", fmt.Sprintf(format, args...), ErrValidation, ErrCommitConflict)
}

// validateChange is ValidateChange.
func validateChange(ctx context.Context, tbl *Table, change *Change) error {
	if onlyAddsData(change) {
		return nil
	}
	branch := branchName(change)
	newer, err := snapshotsSince(tbl.Metadata, branch, change.BaseSnapshotID)
	if err != nil || len(newer) == 0 {
		return err
	}
	v := newValidator(tbl, change)
	// Oldest first, so the first conflict reported is the earliest.
	for i := len(newer) - 1; i >= 0; i-- {
		if err := v.snapshot(ctx, newer[i]); err != nil {
			return err
		}
	}
	return nil
}

// snapshotsSince lists the snapshots of branch after base, newest first. A
// base that is not an ancestor of the branch head (rolled back, expired, or
// the branch is gone) is a validation error.
func snapshotsSince(meta *TableMetadata, branch string, base *int64) ([]*Snapshot, error) {
	head, err := branchHead(meta, branch)
	if err != nil {
		return nil, err
	}
	var out []*Snapshot
	for s := head; s != nil; {
		if base != nil && s.SnapshotID == *base {
			return out, nil
		}
		out = append(out, s)
		if s.ParentSnapshotID == nil {
			break
		}
		parent := meta.SnapshotByID(*s.ParentSnapshotID)
		if parent == nil {
			return nil, validationError("snapshot %d's parent %d has expired; the snapshots after the change's base cannot be checked", s.SnapshotID, *s.ParentSnapshotID)
		}
		s = parent
	}
	if base != nil {
		return nil, validationError("snapshot %d, which the change was computed from, is no longer an ancestor of branch %s", *base, branch)
	}
	return out, nil
}

// referenced is a data file the change deletes from or removes, with its
// partition when the change tells it.
type referenced struct {
	path      string
	known     bool
	specID    int
	partition []any
}

// validator checks the entries committed by concurrent snapshots against
// one change.
type validator struct {
	tbl     *Table
	m       *pathMatcher
	refs    map[string]*referenced // by canonical path
	removed map[string]string      // removed delete files by key: path
	// serializable: added data files conflict unless filter (nil: none
	// given) rules them out.
	serializable bool
	filter       *scanFilter
}

func newValidator(tbl *Table, c *Change) *validator {
	v := &validator{
		tbl: tbl, m: newPathMatcher(tbl.IO),
		refs: map[string]*referenced{}, removed: map[string]string{},
		serializable: c.Isolation == Serializable,
	}
	if v.serializable && len(c.ConflictFilter) > 0 {
		v.filter = newScanFilter(tbl, c.ConflictFilter)
	}
	ref := func(path string) *referenced {
		k := v.m.canonical(path)
		r, ok := v.refs[k]
		if !ok {
			r = &referenced{path: path}
			v.refs[k] = r
		}
		return r
	}
	for _, p := range c.ReferencedDataFiles {
		ref(p)
	}
	for _, df := range c.RemovedDataFiles {
		r := ref(df.Path)
		r.known, r.specID, r.partition = true, df.SpecID, df.Partition
	}
	for _, df := range c.AddedDeleteFiles {
		if p, ok := referencedFile(df); ok && df.Content == ContentPositionDelete {
			if r := ref(p); !r.known {
				r.known, r.specID, r.partition = true, df.SpecID, df.Partition
			}
		}
	}
	for _, df := range c.RemovedDeleteFiles {
		v.removed[v.m.deleteKey(df)] = df.Path
	}
	return v
}

func (v *validator) spec(m *Manifest) *PartitionSpec {
	if s := v.tbl.Metadata.SpecByID(m.SpecID); s != nil {
		return s
	}
	return m.Spec
}

// snapshot checks the files snap added and removed.
func (v *validator) snapshot(ctx context.Context, snap *Snapshot) error {
	manifests, err := ReadManifestList(ctx, v.tbl.IO, snap)
	if err != nil {
		return fmt.Errorf("validate against snapshot %d: %w", snap.SnapshotID, err)
	}
	checkAdded := v.serializable && snap.Summary["operation"] != "replace"
	needData := len(v.refs) > 0 || checkAdded
	needDeletes := len(v.refs) > 0 || len(v.removed) > 0
	for i := range manifests {
		if err := ctx.Err(); err != nil {
			return err
		}
		mf := &manifests[i]
		if mf.AddedSnapshotID != snap.SnapshotID {
			continue // carried: its entries of this snapshot would be EXISTING
		}
		switch mf.Content {
		case ManifestData:
			// A list may call a delete manifest data: skipped only when
			// neither kind of entry matters.
			if !needData && !needDeletes {
				continue
			}
			if !needDeletes && v.filter != nil && !v.filter.manifestMayMatch(mf, v.tbl.Metadata.SpecByID(mf.SpecID)) {
				continue // the summaries cover live entries, all added ones among them
			}
		case ManifestDeletes:
			if !needDeletes {
				continue
			}
		}
		m, err := ReadManifest(ctx, v.tbl.IO, mf)
		if err != nil {
			return fmt.Errorf("validate against snapshot %d: %w", snap.SnapshotID, err)
		}
		spec := v.spec(m)
		for _, e := range m.Entries {
			if e.File.SnapshotID != snap.SnapshotID || e.Status == StatusExisting {
				continue
			}
			if err := v.entry(snap, e, spec, checkAdded); err != nil {
				return err
			}
		}
	}
	return nil
}

// entry checks one entry snap added or deleted.
func (v *validator) entry(snap *Snapshot, e ManifestEntry, spec *PartitionSpec, checkAdded bool) error {
	df := e.File
	id := snap.SnapshotID
	switch {
	case df.Content == ContentData && e.Status == StatusDeleted:
		if r, ok := v.refs[v.m.canonical(df.Path)]; ok {
			return validationError("snapshot %d removed data file %s, which the change deletes from", id, r.path)
		}
	case df.Content == ContentData:
		if checkAdded && (v.filter == nil || v.filter.fileMayMatch(df, spec)) {
			return validationError("snapshot %d added data file %s, which may hold rows the change read (serializable isolation)", id, df.Path)
		}
	case e.Status == StatusDeleted:
		if len(v.removed) == 0 {
			return nil
		}
		_, ok := v.removed[v.m.deleteKey(df)]
		if !ok {
			_, ok = v.removed[v.m.canonical(df.Path)]
		}
		if ok {
			return validationError("snapshot %d removed delete file %s, which the change removes", id, df.Path)
		}
	default:
		if r := v.deletesFrom(df, spec); r != nil {
			return validationError("snapshot %d added %s file %s, which may delete rows of data file %s", id, contentName(df.Content), df.Path, r.path)
		}
	}
	return nil
}

// deletesFrom returns a referenced data file a new delete file may apply
// to (nil if none): the file it names, else any file of its partition (any
// file at all when its spec is unpartitioned; a referenced file whose
// partition the change does not tell counts as in every partition).
func (v *validator) deletesFrom(del *DataFile, spec *PartitionSpec) *referenced {
	if len(v.refs) == 0 {
		return nil
	}
	if del.Content == ContentPositionDelete {
		if p, ok := referencedFile(del); ok {
			return v.refs[v.m.canonical(p)]
		}
	}
	unpartitioned := len(del.Partition) == 0 && (spec == nil || len(spec.Fields) == 0)
	for _, r := range v.refs {
		if unpartitioned || !r.known || (r.specID == del.SpecID && partitionsEqual(r.partition, del.Partition)) {
			return r
		}
	}
	return nil
}
