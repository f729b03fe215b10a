package catalog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"
)

// PropManifestTargetSize is the size RewriteManifests aims its manifests
// at (commit.manifest.target-size-bytes, default 8 MB).
const PropManifestTargetSize = "commit.manifest.target-size-bytes"

const defaultManifestTargetSize = 8 << 20

// RewriteManifestsSpec says which manifests RewriteManifests regroups.
type RewriteManifestsSpec struct {
	// SpecID selects the data manifests of one partition spec (nil: the
	// table's default spec), as Spark's spec_id.
	SpecID *int
}

// RewriteManifestsResult counts the manifests replaced and written.
type RewriteManifestsResult struct {
	Rewritten, Added int
}

// RewriteManifests regroups the live entries of the main branch head's data
// manifests of one partition spec into manifests of about
// commit.manifest.target-size-bytes, ordered by partition so that each
// manifest covers few partitions and its summary prunes well. No file is
// added or removed: the entries keep their status (as EXISTING), snapshot
// ids and sequence numbers, and the new snapshot's operation is "replace".
// Delete manifests and manifests of other specs are carried unchanged;
// manifests left with no live entry (only entries an earlier snapshot
// deleted) are dropped and count as rewritten. Nothing is committed when
// there is at most one matching manifest, it would stay one and nothing is
// dropped. A lost race recomputes on the new head (the change
// never conflicts); the manifests of failed attempts are removed.
func RewriteManifests(ctx context.Context, cat MutableCatalog, id Identifier, spec RewriteManifestsSpec) (RewriteManifestsResult, error) {
	name := qualified(id.Namespace, id.Name)
	start := time.Now()
	for attempt := 1; ; attempt++ {
		tbl, err := cat.LoadTable(ctx, id)
		if err != nil {
			return RewriteManifestsResult{}, err
		}
		policy := retryPolicyOf(tbl.Metadata.Properties)
		res, st, err := stageRewriteManifests(ctx, cat, tbl, spec, attempt)
		if err != nil || st == nil {
			return res, err
		}
		_, err = cat.CommitTable(ctx, id, st.Requirements, st.Updates)
		if err == nil {
			return res, nil
		}
		st.discard(context.WithoutCancel(ctx))
		if !errors.Is(err, ErrCommitConflict) {
			return RewriteManifestsResult{}, fmt.Errorf("rewrite manifests of %s: %w", name, err)
		}
		wait := policy.wait(attempt)
		if attempt > policy.retries || time.Since(start)+wait > policy.total {
			return RewriteManifestsResult{}, fmt.Errorf("rewrite manifests of %s: gave up after %d attempts: %w", name, attempt, err)
		}
		slog.Debug("rewrite manifests lost a race; retrying", "table", name, "attempt", attempt)
		select {
		case <-ctx.Done():
			return RewriteManifestsResult{}, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// stageRewriteManifests writes the regrouped manifests and the manifest
// list of the new snapshot (nil when there is nothing to do).
func stageRewriteManifests(ctx context.Context, cat MutableCatalog, tbl *Table, spec RewriteManifestsSpec, attempt int) (RewriteManifestsResult, *StagedChange, error) {
	var res RewriteManifestsResult
	meta := tbl.Metadata
	parent, err := branchHead(meta, "main")
	if err != nil || parent == nil {
		return res, nil, err
	}
	specID := meta.DefaultSpecID
	if spec.SpecID != nil {
		specID = *spec.SpecID
		if meta.SpecByID(specID) == nil {
			return res, nil, fmt.Errorf("partition spec %d does not exist: %w", specID, ErrDataInvalid)
		}
	}
	pspec := meta.SpecByID(specID)
	list, err := ReadManifestList(ctx, tbl.IO, parent)
	if err != nil {
		return res, nil, err
	}
	var kept, matched []ManifestFile
	var entries []ManifestEntry
	var bytes int64
	dropped := 0
	for _, mf := range list {
		if err := ctx.Err(); err != nil {
			return res, nil, err
		}
		if mf.AddedFilesCount == nil || mf.ExistingFilesCount == nil {
			if mf, err = withCounts(ctx, tbl.IO, mf); err != nil {
				return res, nil, err
			}
		}
		if *mf.AddedFilesCount == 0 && *mf.ExistingFilesCount == 0 {
			// Only entries an earlier snapshot deleted: nothing to carry.
			dropped++
			continue
		}
		if mf.Content != ManifestData || mf.SpecID != specID {
			kept = append(kept, mf)
			continue
		}
		m, err := ReadManifest(ctx, tbl.IO, &mf)
		if err != nil {
			return res, nil, err
		}
		if m.Content != ManifestData {
			kept = append(kept, mf)
			continue
		}
		matched = append(matched, mf)
		bytes += mf.Length
		for _, e := range m.Entries {
			if e.Status == StatusDeleted {
				continue
			}
			entries = append(entries, ManifestEntry{Status: StatusExisting, File: e.File})
		}
	}
	target := int64(defaultManifestTargetSize)
	if v, err := strconv.ParseInt(meta.Properties[PropManifestTargetSize], 10, 64); err == nil && v > 0 {
		target = v
	}
	n := int(max(1, (bytes+target-1)/target))
	n = min(n, max(1, len(entries)))
	if len(matched) <= 1 && n == 1 {
		// The spec's manifests stay as they are.
		if dropped == 0 {
			return res, nil, nil
		}
		kept = append(matched, kept...)
		entries, matched = nil, nil
	}
	slices.SortStableFunc(entries, func(a, b ManifestEntry) int {
		return comparePartitions(a.File.Partition, b.File.Partition)
	})
	out, err := cat.NewOutput(tbl)
	if err != nil {
		return res, nil, err
	}
	st := &StagedChange{out: out}
	fail := func(err error) (RewriteManifestsResult, *StagedChange, error) {
		st.discard(context.WithoutCancel(ctx))
		return RewriteManifestsResult{}, nil, err
	}
	w := &manifestWriter{
		s: st, meta: meta, version: meta.FormatVersion,
		snapshotID: newSnapshotID(meta),
		dir:        MetadataLocation(meta) + "/", uuid: newUUID(),
	}
	var manifests []ManifestFile
	per := max(1, (len(entries)+n-1)/n)
	for i := 0; i < len(entries); i += per {
		mf, err := w.write(ctx, pspec, ManifestData, entries[i:min(i+per, len(entries))])
		if err != nil {
			return fail(err)
		}
		if w.version >= 2 {
			mf.SequenceNumber = inheritedSeq // added by this snapshot
		}
		manifests = append(manifests, mf)
	}
	res = RewriteManifestsResult{Rewritten: len(matched) + dropped, Added: len(manifests)}
	manifests = append(manifests, kept...)

	var seq int64
	if w.version >= 2 {
		seq = meta.LastSequenceNumber + 1
	}
	parentID := parent.SnapshotID
	schema := meta.CurrentSchema()
	summary := map[string]string{
		"operation":          "replace",
		"manifests-created":  strconv.Itoa(res.Added),
		"manifests-replaced": strconv.Itoa(res.Rewritten),
		"manifests-kept":     strconv.Itoa(len(kept)),
		"entries-processed":  strconv.Itoa(len(entries)),
	}
	for k, v := range parent.Summary {
		if len(k) > 6 && k[:6] == "total-" {
			summary[k] = v
		}
	}
	snap := &Snapshot{
		SnapshotID:       w.snapshotID,
		ParentSnapshotID: &parentID,
		SequenceNumber:   seq,
		TimestampMs:      max(time.Now().UnixMilli(), meta.LastUpdatedMs),
		Summary:          summary,
		SchemaID:         &schema.ID,
	}
	if w.version >= 3 {
		first := int64(0)
		if meta.NextRowID != nil {
			first = *meta.NextRowID
		}
		next := AssignFirstRowIDs(manifests, first)
		added := next - first
		snap.FirstRowID, snap.AddedRows = &first, &added
	}
	snap.ManifestList = w.dir + "snap-" + strconv.FormatInt(w.snapshotID, 10) + "-" + strconv.Itoa(attempt) + "-" + w.uuid + ".avro"
	data, err := EncodeManifestList(w.version, w.snapshotID, &parentID, seq, snap.FirstRowID, manifests)
	if err != nil {
		return fail(err)
	}
	if err := st.write(ctx, snap.ManifestList, data); err != nil {
		return fail(err)
	}
	ref, ok := meta.Refs["main"]
	if !ok {
		ref = SnapshotRef{Type: "branch"}
	}
	ref.SnapshotID = w.snapshotID
	st.Requirements = []Requirement{AssertRefSnapshotID{Ref: "main", SnapshotID: &parentID}}
	st.Updates = []Update{AddSnapshot{Snapshot: snap}, SetSnapshotRef{Name: "main", Ref: ref}}
	return res, st, nil
}

// comparePartitions orders partition tuples of one spec (NULL first).
func comparePartitions(a, b []any) int {
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		switch {
		case x == nil && y == nil:
			continue
		case x == nil:
			return -1
		case y == nil:
			return 1
		}
		if c := comparePartitionValue(x, y); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func comparePartitionValue(x, y any) int {
	switch a := x.(type) {
	case int32:
		if b, ok := y.(int32); ok {
			return cmp.Compare(a, b)
		}
	case int64:
		if b, ok := y.(int64); ok {
			return cmp.Compare(a, b)
		}
	case string:
		if b, ok := y.(string); ok {
			return cmp.Compare(a, b)
		}
	case float32:
		if b, ok := y.(float32); ok {
			return cmp.Compare(a, b)
		}
	case float64:
		if b, ok := y.(float64); ok {
			return cmp.Compare(a, b)
		}
	case bool:
		if b, ok := y.(bool); ok {
			return cmp.Compare(boolInt(a), boolInt(b))
		}
	case Decimal:
		if b, ok := y.(Decimal); ok && a.Unscaled != nil && b.Unscaled != nil {
			return a.Unscaled.Cmp(b.Unscaled)
		}
	}
	return cmp.Compare(fmt.Sprintf("%T:%v", x, x), fmt.Sprintf("%T:%v", y, y))
}
