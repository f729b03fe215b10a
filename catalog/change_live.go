package catalog

import (
	"context"
	"fmt"
	"path"
	"slices"
)

// checkNotLive enforces that a table state never lists one file twice:
// a change may not add a file twice, nor add a data file (or a delete
// file, a DV blob) that is live at parent, the head it is staged on,
// unless it also removes it. Every commit (Append, CommitChange,
// StageChange and so transactions and cherry-picks) stages through here.
// A file that went live after the change's base is another writer's: a
// validation conflict. Otherwise the change itself is wrong: ErrFileLive.
//
// Only manifests that may hold an added file are read (same content, a
// spec of an added file, partition summaries admitting its values); they
// come from the cache of immutable files.
func checkNotLive(ctx context.Context, tbl *Table, parent *Snapshot, change *Change) error {
	if len(change.AddedDataFiles) == 0 && len(change.AddedDeleteFiles) == 0 {
		return nil
	}
	m := newPathMatcher(tbl.IO)
	key := func(df *DataFile) string {
		if df.Content == ContentData {
			return "data:" + m.fileKey(df)
		}
		return "delete:" + m.deleteKey(df)
	}
	adding := map[string]*DataFile{}
	// Paths are compared resolved (spelled differently by other writers),
	// which may touch the file system: only entries whose file name is
	// one of the added files' are.
	names := map[string]bool{}
	specs := map[ManifestContent]map[int][]*DataFile{ManifestData: {}, ManifestDeletes: {}}
	for _, list := range [][]*DataFile{change.AddedDataFiles, change.AddedDeleteFiles} {
		for _, df := range list {
			k := key(df)
			if adding[k] != nil {
				return fmt.Errorf("%s file %s is added twice by one change: %w", contentName(df.Content), df.Path, ErrFileLive)
			}
			adding[k] = df
			names[path.Base(df.Path)] = true
			content := ManifestData
			if df.Content != ContentData {
				content = ManifestDeletes
			}
			specs[content][df.SpecID] = append(specs[content][df.SpecID], df)
		}
	}
	if parent == nil {
		return nil
	}
	removed := map[string]bool{}
	for _, list := range [][]*DataFile{change.RemovedDataFiles, change.RemovedDeleteFiles} {
		for _, df := range list {
			removed[key(df)] = true
		}
	}
	list, err := ReadManifestList(ctx, tbl.IO, parent)
	if err != nil {
		return err
	}
	types := map[int][]*PrimitiveType{} // partition types by spec id
	for i := range list {
		mf := &list[i]
		if mf.AddedFilesCount != nil && mf.ExistingFilesCount != nil && *mf.AddedFilesCount == 0 && *mf.ExistingFilesCount == 0 {
			continue // only deleted entries
		}
		// (A list may call a delete manifest data: such a manifest is read
		// for added files of either kind.)
		candidates := slices.Concat(specs[mf.Content][mf.SpecID], specs[ManifestDeletes][mf.SpecID])
		if mf.Content == ManifestDeletes {
			candidates = specs[ManifestDeletes][mf.SpecID]
		}
		if !manifestMayHoldAny(tbl.Metadata, mf, candidates, types) {
			continue
		}
		man, err := ReadManifest(ctx, tbl.IO, mf)
		if err != nil {
			return err
		}
		for _, e := range man.Entries {
			if e.Status == StatusDeleted || !names[path.Base(e.File.Path)] {
				continue
			}
			k := key(e.File)
			if df := adding[k]; df != nil && !removed[k] {
				return liveFileError(tbl.Metadata, change, df, e.File.SnapshotID, parent)
			}
		}
	}
	return nil
}

// manifestMayHoldAny reports whether the manifest's partition summaries
// admit the partition values of one of files (all of its spec); memo
// holds the partition types of the specs seen.
func manifestMayHoldAny(meta *TableMetadata, mf *ManifestFile, files []*DataFile, memo map[int][]*PrimitiveType) bool {
	if len(files) == 0 {
		return false
	}
	spec := meta.SpecByID(mf.SpecID)
	if spec == nil || len(mf.Partitions) != len(spec.Fields) {
		return true
	}
	types, ok := memo[spec.ID]
	if !ok {
		var err error
		if types, err = PartitionType(spec, specSchema(meta, spec)); err != nil {
			types = nil
		}
		memo[spec.ID] = types
	}
	if types == nil {
		return true
	}
	for _, df := range files {
		if len(df.Partition) != len(spec.Fields) {
			return true
		}
		fits := true
		for i, v := range df.Partition {
			if !partitionValueFits(types[i], v) {
				continue
			}
			b := summaryBounds(&mf.Partitions[i], types[i])
			ok := b.MayNull
			if v != nil {
				ok = b.MayMatch(OpEq, []any{v})
			}
			if !ok {
				fits = false
				break
			}
		}
		if fits {
			return true
		}
	}
	return false
}

// liveFileError is the error for a change adding df, live since snapshot
// addedBy at parent: a validation conflict when addedBy was committed
// after the change's base, else ErrFileLive.
func liveFileError(meta *TableMetadata, change *Change, df *DataFile, addedBy int64, parent *Snapshot) error {
	if change.BaseSnapshotID != nil {
		for s := parent; s != nil && s.SnapshotID != *change.BaseSnapshotID; {
			if s.SnapshotID == addedBy {
				return validationError("snapshot %d added %s file %s, which the change adds too", addedBy, contentName(df.Content), df.Path)
			}
			if s.ParentSnapshotID == nil {
				break
			}
			s = meta.SnapshotByID(*s.ParentSnapshotID)
		}
	}
	return fmt.Errorf("%s file %s is already live in snapshot %d (added by snapshot %d); adding it again would list it twice: %w",
		contentName(df.Content), df.Path, parent.SnapshotID, addedBy, ErrFileLive)
}
