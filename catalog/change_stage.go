package catalog

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"
)

// stageChange is StageChange for one commit attempt (numbered into the
// manifest list's name); on error it removes what it wrote.
func stageChange(ctx context.Context, out OutputIO, tbl *Table, change *Change, attempt int) (*StagedChange, error) {
	st := &StagedChange{out: out}
	if err := st.stage(ctx, tbl, change, attempt); err != nil {
		st.discard(context.WithoutCancel(ctx))
		return nil, err
	}
	return st, nil
}

// discard removes the files staging wrote.
func (s *StagedChange) discard(ctx context.Context) {
	for _, p := range s.Written {
		if err := s.out.Remove(ctx, p); err != nil {
			slog.Warn("remove metadata file of an uncommitted change", "file", p, "err", err)
		}
	}
	s.Written = nil
}

// write creates a metadata file holding data.
func (s *StagedChange) write(ctx context.Context, path string, data []byte) error {
	w, err := s.out.Create(ctx, path)
	if err != nil {
		return err
	}
	s.Written = append(s.Written, path)
	_, err = w.Write(data)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// checkChangeFiles rejects files a change cannot hold in a table of
// format version.
func checkChangeFiles(change *Change, version int) error {
	for _, f := range change.AddedDataFiles {
		if f == nil || f.Content != ContentData {
			return fmt.Errorf("added data files: %w", badFile(f))
		}
	}
	for _, f := range change.RemovedDataFiles {
		if f == nil || f.Content != ContentData {
			return fmt.Errorf("removed data files: %w", badFile(f))
		}
	}
	for _, f := range change.RemovedDeleteFiles {
		if f == nil || f.Content == ContentData {
			return fmt.Errorf("removed delete files: %w", badFile(f))
		}
	}
	for _, f := range change.AddedDeleteFiles {
		switch {
		case f == nil || f.Content == ContentData:
			return fmt.Errorf("added delete files: %w", badFile(f))
		case version < 2:
			return fmt.Errorf("%s file %s: delete files in a format version 1 table: %w", contentName(f.Content), f.Path, ErrUnsupported)
		case isDV(f) && version < 3:
			return fmt.Errorf("deletion vector %s in a format version %d table: %w", f.Path, version, ErrDataInvalid)
		case isDV(f) && (f.ReferencedDataFile == nil || f.ContentOffset == nil || f.ContentSizeInBytes == nil):
			return fmt.Errorf("deletion vector %s lacks its referenced data file, content offset or size: %w", f.Path, ErrDataInvalid)
		case f.Content == ContentPositionDelete && !isDV(f) && version >= 3:
			return fmt.Errorf("position delete file %s: format version 3 tables take deletion vectors: %w", f.Path, ErrDataInvalid)
		}
	}
	return nil
}

func badFile(f *DataFile) error {
	if f == nil {
		return fmt.Errorf("nil file: %w", ErrDataInvalid)
	}
	return fmt.Errorf("%s file %s: %w", contentName(f.Content), f.Path, ErrDataInvalid)
}

// stage writes the manifests and manifest list of change on top of tbl's
// branch head and fills s.
func (s *StagedChange) stage(ctx context.Context, tbl *Table, change *Change, attempt int) error {
	meta := tbl.Metadata
	version := meta.FormatVersion
	if err := checkChangeFiles(change, version); err != nil {
		return err
	}
	branch := branchName(change)
	parent, err := branchHead(meta, branch)
	if err != nil {
		return err
	}
	ref, ok := meta.Refs[branch]
	if !ok {
		ref = SnapshotRef{Type: "branch"}
	}
	var parentID *int64
	if parent != nil {
		id := parent.SnapshotID
		parentID = &id
	}
	w := &manifestWriter{
		s: s, meta: meta, version: version,
		snapshotID: newSnapshotID(meta),
		dir:        MetadataLocation(meta) + "/", uuid: newUUID(),
	}
	var seq int64
	if version >= 2 {
		seq = meta.LastSequenceNumber + 1
	}
	if err := checkNotLive(ctx, tbl, parent, change); err != nil {
		return err
	}
	metrics := newChangeMetrics()
	for _, f := range change.AddedDataFiles {
		metrics.file(f, true)
	}
	for _, f := range change.AddedDeleteFiles {
		metrics.file(f, true)
	}
	manifests, err := w.added(ctx, change.AddedDataFiles, ManifestData)
	if err != nil {
		return err
	}
	deletes, err := w.added(ctx, change.AddedDeleteFiles, ManifestDeletes)
	if err != nil {
		return err
	}
	manifests = append(manifests, deletes...)
	f := newManifestFilter(tbl, change)
	if parent != nil {
		carried, err := ReadManifestList(ctx, tbl.IO, parent)
		if err != nil {
			return err
		}
		for _, mf := range carried {
			kept, err := w.filter(ctx, tbl, mf, f, metrics)
			if err != nil {
				return err
			}
			if kept != nil {
				manifests = append(manifests, *kept)
			}
		}
	}
	if missing := f.missing(); missing != "" {
		head := "none"
		if parent != nil {
			head = strconv.FormatInt(parent.SnapshotID, 10)
		}
		return validationError("file %s, which the change removes, is not live in snapshot %s of branch %s", missing, head, branch)
	}
	schema := meta.CurrentSchema()
	snap := &Snapshot{
		SnapshotID:       w.snapshotID,
		ParentSnapshotID: parentID,
		SequenceNumber:   seq,
		TimestampMs:      max(time.Now().UnixMilli(), meta.LastUpdatedMs),
		Summary:          metrics.summary(parent, change),
		SchemaID:         &schema.ID,
	}
	if version >= 3 {
		first := int64(0)
		if meta.NextRowID != nil {
			first = *meta.NextRowID
		}
		next := AssignFirstRowIDs(manifests, first)
		added := next - first
		snap.FirstRowID, snap.AddedRows = &first, &added
	}
	snap.ManifestList = w.dir + "snap-" + strconv.FormatInt(w.snapshotID, 10) + "-" + strconv.Itoa(attempt) + "-" + w.uuid + ".avro"
	list, err := EncodeManifestList(version, w.snapshotID, parentID, seq, snap.FirstRowID, manifests)
	if err != nil {
		return err
	}
	if err := s.write(ctx, snap.ManifestList, list); err != nil {
		return err
	}
	ref.SnapshotID = w.snapshotID
	s.Requirements = []Requirement{AssertRefSnapshotID{Ref: branch, SnapshotID: parentID}}
	s.Updates = []Update{AddSnapshot{Snapshot: snap}, SetSnapshotRef{Name: branch, Ref: ref}}
	if change.StageOnly {
		s.Updates = s.Updates[:1]
	}
	b := NewMetadataBuilderFrom(meta, tbl.MetadataLocation)
	if err := b.Apply(s.Updates...); err != nil {
		return err
	}
	staged, err := b.Build()
	if err != nil {
		return err
	}
	uncommitted := map[int64]bool{w.snapshotID: true}
	for id := range tbl.Uncommitted {
		uncommitted[id] = true
	}
	s.Table = &Table{Ident: tbl.Ident, MetadataLocation: tbl.MetadataLocation, Metadata: staged, IO: tbl.IO, Uncommitted: uncommitted}
	return nil
}

// manifestWriter writes the manifests of one staged snapshot.
type manifestWriter struct {
	s          *StagedChange
	meta       *TableMetadata
	version    int
	snapshotID int64
	dir, uuid  string // the metadata directory (with a slash) and the commit's UUID
	n          int
}

// write encodes and writes one manifest.
func (w *manifestWriter) write(ctx context.Context, spec *PartitionSpec, content ManifestContent, entries []ManifestEntry) (ManifestFile, error) {
	if err := ctx.Err(); err != nil {
		return ManifestFile{}, err
	}
	path := w.dir + w.uuid + "-m" + strconv.Itoa(w.n) + ".avro"
	w.n++
	data, mf, err := EncodeManifest(path, w.version, specSchema(w.meta, spec), spec, content, w.snapshotID, entries)
	if err != nil {
		return mf, err
	}
	return mf, w.s.write(ctx, path, data)
}

// added writes the manifests of new files: one per partition spec, in the
// order the specs first appear.
func (w *manifestWriter) added(ctx context.Context, files []*DataFile, content ManifestContent) ([]ManifestFile, error) {
	var specOrder []int
	bySpec := map[int][]ManifestEntry{}
	for _, f := range files {
		if _, ok := bySpec[f.SpecID]; !ok {
			specOrder = append(specOrder, f.SpecID)
		}
		bySpec[f.SpecID] = append(bySpec[f.SpecID], ManifestEntry{Status: StatusAdded, File: f})
	}
	var out []ManifestFile
	for _, specID := range specOrder {
		spec := w.meta.SpecByID(specID)
		if spec == nil {
			return nil, fmt.Errorf("%s file %s names partition spec %d, which the table lacks: %w", contentName(bySpec[specID][0].File.Content), bySpec[specID][0].File.Path, specID, ErrDataInvalid)
		}
		mf, err := w.write(ctx, spec, content, bySpec[specID])
		if err != nil {
			return nil, err
		}
		out = append(out, mf)
	}
	return out, nil
}

// filter carries a manifest of the parent snapshot into the new one:
// unchanged when it holds none of the removed files, else rewritten with
// those entries DELETED (by the new snapshot, sequence numbers kept), the
// other live entries EXISTING and earlier DELETED entries dropped. A
// manifest without live entries (only deleted ones, written by an earlier
// snapshot) is not carried: nil.
func (w *manifestWriter) filter(ctx context.Context, tbl *Table, mf ManifestFile, f *manifestFilter, metrics *changeMetrics) (*ManifestFile, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var err error
	if mf.AddedFilesCount == nil || mf.ExistingFilesCount == nil || mf.AddedRowsCount == nil || mf.ExistingRowsCount == nil {
		if mf, err = withCounts(ctx, tbl.IO, mf); err != nil {
			return nil, err
		}
	}
	if *mf.AddedFilesCount == 0 && *mf.ExistingFilesCount == 0 {
		return nil, nil
	}
	// (A list may call a delete manifest data; the reverse is not seen.)
	if f.empty() || (mf.Content == ManifestDeletes && len(f.deletes) == 0) {
		return &mf, nil
	}
	m, err := ReadManifest(ctx, tbl.IO, &mf)
	if err != nil {
		return nil, err
	}
	hit := false
	for _, e := range m.Entries {
		if e.Status != StatusDeleted && f.removes(e.File) {
			hit = true
			break
		}
	}
	if !hit {
		return &mf, nil
	}
	spec := tbl.Metadata.SpecByID(m.SpecID)
	if spec == nil {
		spec = m.Spec
	}
	if spec == nil {
		return nil, fmt.Errorf("rewrite manifest %s: partition spec %d is unknown: %w", mf.Path, m.SpecID, ErrDataInvalid)
	}
	entries := make([]ManifestEntry, 0, len(m.Entries))
	for _, e := range m.Entries {
		switch {
		case e.Status == StatusDeleted:
			continue
		case f.removes(e.File):
			gone := *e.File
			gone.SnapshotID = w.snapshotID
			f.found(e.File)
			metrics.file(e.File, false)
			entries = append(entries, ManifestEntry{Status: StatusDeleted, File: &gone})
		default:
			entries = append(entries, ManifestEntry{Status: StatusExisting, File: e.File})
		}
	}
	out, err := w.write(ctx, spec, m.Content, entries)
	if err != nil {
		return nil, err
	}
	if w.version >= 2 {
		out.SequenceNumber = inheritedSeq // added by this snapshot
	}
	return &out, nil
}

// manifestFilter matches manifest entries against the files a change
// removes.
type manifestFilter struct {
	m *pathMatcher
	// data and deletes: removed files by key, and whether a live entry was
	// found for each.
	data, deletes map[string]bool
	names         map[string]string // key -> path, for errors
}

func newManifestFilter(tbl *Table, c *Change) *manifestFilter {
	f := &manifestFilter{m: newPathMatcher(tbl.IO), data: map[string]bool{}, deletes: map[string]bool{}, names: map[string]string{}}
	for _, df := range c.RemovedDataFiles {
		k := f.m.fileKey(df)
		f.data[k], f.names[k] = false, df.Path
	}
	for _, df := range c.RemovedDeleteFiles {
		k := f.m.deleteKey(df)
		f.deletes[k], f.names[k] = false, df.Path
	}
	return f
}

func (f *manifestFilter) empty() bool { return len(f.data) == 0 && len(f.deletes) == 0 }

// key returns the key under which a manifest entry's file is removed, if
// it is.
func (f *manifestFilter) key(df *DataFile) (string, bool) {
	if df.Content == ContentData {
		k := f.m.fileKey(df)
		_, ok := f.data[k]
		return k, ok
	}
	if len(f.deletes) == 0 {
		return "", false
	}
	k := f.m.deleteKey(df)
	if _, ok := f.deletes[k]; ok {
		return k, true
	}
	// A removal that names the file without a DV offset.
	k = f.m.canonical(df.Path)
	_, ok := f.deletes[k]
	return k, ok
}

func (f *manifestFilter) removes(df *DataFile) bool {
	_, ok := f.key(df)
	return ok
}

func (f *manifestFilter) found(df *DataFile) {
	if k, ok := f.key(df); ok {
		if df.Content == ContentData {
			f.data[k] = true
		} else {
			f.deletes[k] = true
		}
	}
}

// missing names a removed file no live entry was found for ("" if none).
func (f *manifestFilter) missing() string {
	for _, set := range []map[string]bool{f.data, f.deletes} {
		for k, ok := range set {
			if !ok {
				return f.names[k]
			}
		}
	}
	return ""
}
