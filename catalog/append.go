package catalog

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
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
	tbl, err := CommitChange(ctx, cat, id, &Change{AddedDataFiles: files, Operation: "append", Properties: props})
	if err != nil {
		return nil, fmt.Errorf("append: %w", err)
	}
	return tbl, nil
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
