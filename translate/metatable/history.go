package metatable

import (
	"context"
	"sort"
	"time"

	"github.com/icegate/icegate/catalog"
)

// Rows of the metadata tables read from the table metadata file alone:
// snapshots, history, metadata_log_entries, refs, properties.

func msTime(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

func optInt64(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func optInt32(p *int32) any {
	if p == nil {
		return nil
	}
	return *p
}

func optInt(p *int) any {
	if p == nil {
		return nil
	}
	return int32(*p)
}

func snapshotsRows(ctx context.Context, src *Source) ([][]any, error) {
	var rows [][]any
	for _, s := range src.Meta.Snapshots {
		var list any
		if s.ManifestList != "" {
			list = s.ManifestList
		}
		rows = append(rows, []any{msTime(s.TimestampMs), s.SnapshotID, optInt64(s.ParentSnapshotID),
			nilIfEmpty(s.Summary["operation"]), list, jsonStringMap(summaryWithoutOperation(s.Summary))})
	}
	return rows, nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// summaryWithoutOperation is a snapshot summary as Spark shows it: the
// operation has its own column.
func summaryWithoutOperation(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if k != "operation" {
			out[k] = v
		}
	}
	return out
}

// currentAncestors is the set of snapshot ids from the current snapshot
// back through its parents.
func currentAncestors(m *catalog.TableMetadata) map[int64]bool {
	out := map[int64]bool{}
	s := m.CurrentSnapshot()
	for s != nil && !out[s.SnapshotID] {
		out[s.SnapshotID] = true
		if s.ParentSnapshotID == nil {
			break
		}
		s = m.SnapshotByID(*s.ParentSnapshotID)
	}
	return out
}

func historyRows(ctx context.Context, src *Source) ([][]any, error) {
	anc := currentAncestors(src.Meta)
	var rows [][]any
	for _, e := range src.Meta.SnapshotLog {
		var parent any
		if s := src.Meta.SnapshotByID(e.SnapshotID); s != nil {
			parent = optInt64(s.ParentSnapshotID)
		}
		rows = append(rows, []any{msTime(e.TimestampMs), e.SnapshotID, parent, anc[e.SnapshotID]})
	}
	return rows, nil
}

// snapshotAtMs is the snapshot that was current at ms by the snapshot
// log, or nil.
func snapshotAtMs(m *catalog.TableMetadata, ms int64) *catalog.Snapshot {
	var id int64
	found := false
	for _, e := range m.SnapshotLog {
		if e.TimestampMs <= ms {
			id, found = e.SnapshotID, true
		}
	}
	if !found {
		return nil
	}
	return m.SnapshotByID(id)
}

func metadataLogRows(ctx context.Context, src *Source) ([][]any, error) {
	m := src.Meta
	entries := append([]catalog.MetadataLogEntry(nil), m.MetadataLog...)
	// The current metadata file is the log's last entry, as in Spark.
	entries = append(entries, catalog.MetadataLogEntry{TimestampMs: m.LastUpdatedMs, MetadataFile: src.Table.MetadataLocation})
	var rows [][]any
	for _, e := range entries {
		row := []any{msTime(e.TimestampMs), e.MetadataFile, nil, nil, nil}
		if s := snapshotAtMs(m, e.TimestampMs); s != nil {
			row[2] = s.SnapshotID
			row[3] = optInt(s.SchemaID)
			row[4] = s.SequenceNumber
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func refsRows(ctx context.Context, src *Source) ([][]any, error) {
	names := make([]string, 0, len(src.Meta.Refs))
	for n := range src.Meta.Refs {
		names = append(names, n)
	}
	sort.Strings(names)
	var rows [][]any
	for _, n := range names {
		r := src.Meta.Refs[n]
		rows = append(rows, []any{n, refTypeName(r.Type), r.SnapshotID, optInt64(r.MaxRefAgeMs), optInt(r.MinSnapshotsToKeep), optInt64(r.MaxSnapshotAgeMs)})
	}
	return rows, nil
}

// refTypeName is the type as Spark shows it: BRANCH or TAG.
func refTypeName(t string) string {
	switch t {
	case "branch":
		return "BRANCH"
	case "tag":
		return "TAG"
	}
	return t
}

func propertiesRows(ctx context.Context, src *Source) ([][]any, error) {
	keys := make([]string, 0, len(src.Meta.Properties))
	for k := range src.Meta.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rows [][]any
	for _, k := range keys {
		rows = append(rows, []any{k, src.Meta.Properties[k]})
	}
	return rows, nil
}
