package catalog

import (
	"context"
	"fmt"
	"io"
)

// ManifestContent says whether a manifest lists data or delete files.
type ManifestContent int

// Manifest contents, as the spec numbers them.
const (
	ManifestData    ManifestContent = 0
	ManifestDeletes ManifestContent = 1
)

// ManifestFile is one entry of a snapshot's manifest list. Format v1 lists
// have no content (data) and no sequence numbers (0).
type ManifestFile struct {
	Path               string
	Length             int64
	SpecID             int
	Content            ManifestContent
	SequenceNumber     int64
	MinSequenceNumber  int64
	AddedSnapshotID    int64
	AddedFilesCount    *int32
	ExistingFilesCount *int32
	DeletedFilesCount  *int32
	AddedRowsCount     *int64
	ExistingRowsCount  *int64
	DeletedRowsCount   *int64
	Partitions         []FieldSummary
	KeyMetadata        []byte
	FirstRowID         *int64 // v3
}

// FieldSummary summarizes one partition field over a manifest's files.
type FieldSummary struct {
	ContainsNull bool
	ContainsNaN  *bool
	LowerBound   []byte
	UpperBound   []byte
}

// ReadManifestList reads the manifest list of snap (or, for v1 snapshots
// without one, the manifests the snapshot names). Parsed lists are cached
// when io belongs to a Filesystem catalog.
func ReadManifestList(ctx context.Context, fio FileIO, snap *Snapshot) ([]ManifestFile, error) {
	if snap.ManifestList == "" {
		out := make([]ManifestFile, 0, len(snap.Manifests))
		for _, p := range snap.Manifests {
			out = append(out, ManifestFile{Path: p, AddedSnapshotID: snap.SnapshotID})
		}
		return out, nil
	}
	local, err := fio.Resolve(snap.ManifestList)
	if err != nil {
		return nil, FileError(fio, snap.ManifestList, fmt.Errorf("manifest list of snapshot %d: %w", snap.SnapshotID, err))
	}
	cache := cacheOf(fio)
	if v, ok := cache.get("list:" + local); ok {
		return v.([]ManifestFile), nil
	}
	data, err := readWhole(ctx, fio, snap.ManifestList)
	if err != nil {
		return nil, FileError(fio, snap.ManifestList, fmt.Errorf("manifest list of snapshot %d: %w", snap.SnapshotID, err))
	}
	recs, _, _, err := avroRecords[avroManifestFile](data, cache)
	if err != nil {
		return nil, FileError(fio, snap.ManifestList, fmt.Errorf("manifest list: %w", err))
	}
	out := make([]ManifestFile, len(recs))
	for i := range recs {
		out[i] = recs[i].toManifestFile(snap)
	}
	cache.put("list:"+local, out)
	return out, nil
}

func (r *avroManifestFile) toManifestFile(snap *Snapshot) ManifestFile {
	m := ManifestFile{
		Path:               r.ManifestPath,
		Length:             r.ManifestLength,
		SpecID:             int(r.PartitionSpecID),
		Content:            ManifestContent(r.Content),
		SequenceNumber:     r.SequenceNumber,
		MinSequenceNumber:  r.MinSequenceNumber,
		AddedSnapshotID:    snap.SnapshotID,
		AddedFilesCount:    firstNonNil(r.AddedFilesCount, r.AddedDataFiles),
		ExistingFilesCount: firstNonNil(r.ExistingFilesCount, r.ExistingDataFiles),
		DeletedFilesCount:  firstNonNil(r.DeletedFilesCount, r.DeletedDataFiles),
		AddedRowsCount:     r.AddedRowsCount,
		ExistingRowsCount:  r.ExistingRowsCount,
		DeletedRowsCount:   r.DeletedRowsCount,
		KeyMetadata:        r.KeyMetadata,
		FirstRowID:         r.FirstRowID,
	}
	if r.AddedSnapshotID != nil {
		m.AddedSnapshotID = *r.AddedSnapshotID
	}
	for _, p := range r.Partitions {
		m.Partitions = append(m.Partitions, FieldSummary(p))
	}
	return m
}

func firstNonNil[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

// readWhole reads a whole (small) file through fio.
func readWhole(ctx context.Context, fio FileIO, path string) ([]byte, error) {
	f, err := fio.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, f.Size())
	if _, err := f.ReadAt(data, 0); err != nil && err != io.EOF {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}
