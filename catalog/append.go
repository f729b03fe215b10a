package catalog

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"
)

// Commit retry properties and their defaults.
const (
	PropCommitNumRetries     = "commit.retry.num-retries"
	PropCommitMinWaitMs      = "commit.retry.min-wait-ms"
	PropCommitMaxWaitMs      = "commit.retry.max-wait-ms"
	PropCommitTotalTimeoutMs = "commit.retry.total-timeout-ms"
)

// retryPolicy is how a commit retries after losing a race.
type retryPolicy struct {
	retries          int
	minWait, maxWait time.Duration
	total            time.Duration
}

func retryPolicyOf(props map[string]string) retryPolicy {
	num := func(key string, def int64) int64 {
		if v, err := strconv.ParseInt(props[key], 10, 64); err == nil && v >= 0 {
			return v
		}
		return def
	}
	return retryPolicy{
		retries: int(num(PropCommitNumRetries, 4)),
		minWait: time.Duration(num(PropCommitMinWaitMs, 100)) * time.Millisecond,
		maxWait: time.Duration(num(PropCommitMaxWaitMs, 60_000)) * time.Millisecond,
		total:   time.Duration(num(PropCommitTotalTimeoutMs, 1_800_000)) * time.Millisecond,
	}
}

// wait returns the backoff before retry number attempt (1-based):
// exponential from minWait, capped at maxWait, with up to 50% jitter.
func (p retryPolicy) wait(attempt int) time.Duration {
	d := float64(p.minWait) * math.Pow(2, float64(attempt-1))
	d = min(d, float64(p.maxWait))
	return time.Duration(d * (0.5 + randFloat()/2))
}

func randFloat() float64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return float64(binary.LittleEndian.Uint64(b[:])>>11) / (1 << 53)
}

// Append commits a new snapshot of the table's main branch that adds files
// (data files written with specs of the table) with an "append" summary
// carrying props as extra snapshot properties. It writes a manifest per
// partition spec and a manifest list that carries over the parent's
// manifests, then commits with assert-ref-snapshot-id(main). When another
// writer wins the race it reloads and retries per the table's
// commit.retry.* properties; the files of every failed attempt are removed.
func Append(ctx context.Context, cat MutableCatalog, id Identifier, files []*DataFile, props map[string]string) (*Table, error) {
	name := qualified(id.Namespace, id.Name)
	for _, f := range files {
		if f == nil {
			return nil, fmt.Errorf("append to %s: nil data file: %w", name, ErrDataInvalid)
		}
		if f.Content != ContentData {
			return nil, fmt.Errorf("append to %s: %s file %s: appending delete files: %w", name, contentName(f.Content), f.Path, ErrUnsupported)
		}
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	policy := retryPolicyOf(tbl.Metadata.Properties)
	start := time.Now()
	for attempt := 1; ; attempt++ {
		out, err := cat.NewOutput(tbl)
		if err != nil {
			return nil, fmt.Errorf("append to %s: %w", name, err)
		}
		st := &stagedAppend{out: out}
		var committed *Table
		reqs, updates, err := st.stage(ctx, tbl, files, props, attempt)
		if err == nil {
			committed, err = cat.CommitTable(ctx, id, reqs, updates)
		}
		if err == nil {
			return committed, nil
		}
		st.cleanup()
		if !errors.Is(err, ErrCommitConflict) {
			return nil, fmt.Errorf("append to %s: %w", name, err)
		}
		if attempt > policy.retries {
			return nil, fmt.Errorf("append to %s: gave up after %d attempts: %w", name, attempt, err)
		}
		wait := policy.wait(attempt)
		if time.Since(start)+wait > policy.total {
			return nil, fmt.Errorf("append to %s: commit retries timed out: %w", name, err)
		}
		slog.Debug("append lost a commit race; retrying", "table", name, "attempt", attempt, "wait", wait)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		if tbl, err = cat.LoadTable(ctx, id); err != nil {
			return nil, err
		}
	}
}

// stagedAppend tracks the files one attempt has written.
type stagedAppend struct {
	out     OutputIO
	written []string
}

func (s *stagedAppend) cleanup() {
	for _, p := range s.written {
		if err := s.out.Remove(context.Background(), p); err != nil {
			slog.Warn("remove file of a failed commit", "file", p, "err", err)
		}
	}
	s.written = nil
}

func (s *stagedAppend) write(ctx context.Context, path string, data []byte) error {
	w, err := s.out.Create(ctx, path)
	if err != nil {
		return err
	}
	s.written = append(s.written, path)
	_, err = w.Write(data)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// stage writes the manifests and manifest list of an append on top of tbl
// and returns the commit's requirements and updates.
func (s *stagedAppend) stage(ctx context.Context, tbl *Table, files []*DataFile, props map[string]string, attempt int) ([]Requirement, []Update, error) {
	meta := tbl.Metadata
	version := meta.FormatVersion
	schema := meta.CurrentSchema()
	var parent *Snapshot
	mainRef, hasMain := meta.Refs["main"]
	var parentID *int64
	if hasMain {
		parent = meta.SnapshotByID(mainRef.SnapshotID)
		id := mainRef.SnapshotID
		parentID = &id
	} else {
		mainRef = SnapshotRef{Type: "branch"}
	}
	snapshotID := newSnapshotID(meta)
	var seq int64
	if version >= 2 {
		seq = meta.LastSequenceNumber + 1
	}
	metaDir := MetadataLocation(meta) + "/"
	commitUUID := newUUID()

	// New manifests, one per partition spec, in the order specs first appear.
	var specOrder []int
	bySpec := map[int][]ManifestEntry{}
	for _, f := range files {
		if _, ok := bySpec[f.SpecID]; !ok {
			specOrder = append(specOrder, f.SpecID)
		}
		bySpec[f.SpecID] = append(bySpec[f.SpecID], ManifestEntry{Status: StatusAdded, File: f})
	}
	var manifests []ManifestFile
	for i, specID := range specOrder {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		spec := meta.SpecByID(specID)
		if spec == nil {
			return nil, nil, fmt.Errorf("data file %s names partition spec %d, which the table lacks: %w", bySpec[specID][0].File.Path, specID, ErrDataInvalid)
		}
		path := metaDir + commitUUID + "-m" + strconv.Itoa(i) + ".avro"
		data, mf, err := EncodeManifest(path, version, specSchema(meta, spec), spec, ManifestData, snapshotID, bySpec[specID])
		if err != nil {
			return nil, nil, err
		}
		if err := s.write(ctx, path, data); err != nil {
			return nil, nil, err
		}
		manifests = append(manifests, mf)
	}
	if parent != nil {
		carried, err := ReadManifestList(ctx, tbl.IO, parent)
		if err != nil {
			return nil, nil, err
		}
		for _, mf := range carried {
			if mf.AddedFilesCount == nil || mf.ExistingFilesCount == nil || mf.AddedRowsCount == nil || mf.ExistingRowsCount == nil {
				if mf, err = withCounts(ctx, tbl.IO, mf); err != nil {
					return nil, nil, err
				}
			}
			manifests = append(manifests, mf)
		}
	}
	snap := &Snapshot{
		SnapshotID:       snapshotID,
		ParentSnapshotID: parentID,
		SequenceNumber:   seq,
		TimestampMs:      max(time.Now().UnixMilli(), meta.LastUpdatedMs),
		Summary:          appendSummary(parent, files, props),
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
	snap.ManifestList = metaDir + "snap-" + strconv.FormatInt(snapshotID, 10) + "-" + strconv.Itoa(attempt) + "-" + commitUUID + ".avro"
	list, err := EncodeManifestList(version, snapshotID, parentID, seq, snap.FirstRowID, manifests)
	if err != nil {
		return nil, nil, err
	}
	if err := s.write(ctx, snap.ManifestList, list); err != nil {
		return nil, nil, err
	}
	mainRef.SnapshotID = snapshotID
	reqs := []Requirement{AssertRefSnapshotID{Ref: "main", SnapshotID: parentID}}
	updates := []Update{AddSnapshot{Snapshot: snap}, SetSnapshotRef{Name: "main", Ref: mainRef}}
	return reqs, updates, nil
}

// specSchema is the schema a spec's source columns are found in: the
// current one, else the newest schema that has them all.
func specSchema(meta *TableMetadata, spec *PartitionSpec) *Schema {
	has := func(s *Schema) bool {
		for _, f := range spec.Fields {
			if s.FindField(f.SourceID) == nil {
				return false
			}
		}
		return true
	}
	if cur := meta.CurrentSchema(); has(cur) {
		return cur
	}
	for i := len(meta.Schemas) - 1; i >= 0; i-- {
		if has(meta.Schemas[i]) {
			return meta.Schemas[i]
		}
	}
	return meta.CurrentSchema()
}

// newSnapshotID returns a random positive snapshot id unused in meta.
func newSnapshotID(meta *TableMetadata) int64 {
	for {
		var b [8]byte
		_, _ = rand.Read(b[:])
		id := int64(binary.LittleEndian.Uint64(b[:]) >> 1)
		if id != 0 && meta.SnapshotByID(id) == nil {
			return id
		}
	}
}

// withCounts fills the file and row counts of a manifest list entry written
// without them (v1 lists, v1 snapshots without a list) from the manifest.
func withCounts(ctx context.Context, fio FileIO, mf ManifestFile) (ManifestFile, error) {
	m, err := ReadManifest(ctx, fio, &mf)
	if err != nil {
		return mf, err
	}
	var counts [3]int32
	var rows [3]int64
	for _, e := range m.Entries {
		if e.Status >= StatusExisting && e.Status <= StatusDeleted {
			counts[e.Status]++
			rows[e.Status] += e.File.RecordCount
		}
	}
	mf.SpecID, mf.Content = m.SpecID, m.Content
	mf.AddedFilesCount, mf.ExistingFilesCount, mf.DeletedFilesCount = &counts[StatusAdded], &counts[StatusExisting], &counts[StatusDeleted]
	mf.AddedRowsCount, mf.ExistingRowsCount, mf.DeletedRowsCount = &rows[StatusAdded], &rows[StatusExisting], &rows[StatusDeleted]
	return mf, nil
}

// appendSummary is the summary of an append snapshot: the fields Spark
// writes, totals carried from the parent's summary (a total the parent
// lacks is left out, as it cannot be known without reading every manifest).
func appendSummary(parent *Snapshot, files []*DataFile, props map[string]string) map[string]string {
	sum := map[string]string{}
	for k, v := range props {
		sum[k] = v
	}
	var records, size int64
	parts := map[string]bool{}
	for _, f := range files {
		records += f.RecordCount
		size += f.FileSizeInBytes
		parts[partitionKey(f.SpecID, f.Partition)] = true
	}
	sum["operation"] = "append"
	sum["added-data-files"] = strconv.Itoa(len(files))
	sum["added-records"] = itoa64(records)
	sum["added-files-size"] = itoa64(size)
	sum["changed-partition-count"] = strconv.Itoa(len(parts))
	added := map[string]int64{
		"total-records":          records,
		"total-files-size":       size,
		"total-data-files":       int64(len(files)),
		"total-delete-files":     0,
		"total-position-deletes": 0,
		"total-equality-deletes": 0,
	}
	for k, v := range added {
		if parent == nil {
			sum[k] = itoa64(v)
			continue
		}
		prev, err := strconv.ParseInt(parent.Summary[k], 10, 64)
		if err != nil {
			delete(sum, k)
			continue
		}
		sum[k] = itoa64(prev + v)
	}
	return sum
}
