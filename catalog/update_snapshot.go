package catalog

import (
	"maps"
	"reflect"
	"slices"
)

// AddSnapshot adds a snapshot (it becomes current only through a
// SetSnapshotRef of main).
type AddSnapshot struct{ Snapshot *Snapshot }

func (AddSnapshot) Action() string { return "add-snapshot" }

func (u AddSnapshot) apply(b *MetadataBuilder) error {
	s := u.Snapshot
	if s == nil {
		return invalidUpdate(u.Action(), "no snapshot")
	}
	if b.m.SnapshotByID(s.SnapshotID) != nil {
		return invalidUpdate(u.Action(), "snapshot %d exists already", s.SnapshotID)
	}
	if s.ManifestList == "" && s.Manifests == nil {
		return invalidUpdate(u.Action(), "snapshot %d has no manifest list", s.SnapshotID)
	}
	if s.Summary["operation"] == "" {
		return invalidUpdate(u.Action(), "snapshot %d has no operation", s.SnapshotID)
	}
	if s.SchemaID != nil && b.m.SchemaByID(*s.SchemaID) == nil {
		return invalidUpdate(u.Action(), "snapshot %d names schema %d, which does not exist", s.SnapshotID, *s.SchemaID)
	}
	// A stale sequence number or first row id means the table moved on
	// since the snapshot was built: a conflict, which a rebuild resolves.
	if b.m.FormatVersion >= 2 && s.SequenceNumber <= b.m.LastSequenceNumber {
		return conflict("%s: snapshot %d has sequence number %d, not above the last %d", u.Action(), s.SnapshotID, s.SequenceNumber, b.m.LastSequenceNumber)
	}
	if b.m.FormatVersion >= 3 {
		if s.FirstRowID == nil || s.AddedRows == nil {
			return invalidUpdate(u.Action(), "v3 snapshot %d needs first-row-id and added-rows", s.SnapshotID)
		}
		next := int64(0)
		if b.m.NextRowID != nil {
			next = *b.m.NextRowID
		}
		if *s.AddedRows < 0 {
			return invalidUpdate(u.Action(), "snapshot %d has %d added rows", s.SnapshotID, *s.AddedRows)
		}
		if *s.FirstRowID < next {
			return conflict("%s: snapshot %d first-row-id %d is below next-row-id %d", u.Action(), s.SnapshotID, *s.FirstRowID, next)
		}
		n := *s.FirstRowID + *s.AddedRows
		b.m.NextRowID = &n
	}
	b.m.LastSequenceNumber = max(b.m.LastSequenceNumber, s.SequenceNumber)
	b.m.Snapshots = append(slices.Clone(b.m.Snapshots), s)
	b.added[s.SnapshotID] = true
	return nil
}

// SetSnapshotRef points a branch or tag at a snapshot; setting main makes
// the snapshot current and logs it in the snapshot log.
type SetSnapshotRef struct {
	Name string
	Ref  SnapshotRef
}

func (SetSnapshotRef) Action() string { return "set-snapshot-ref" }

func (u SetSnapshotRef) apply(b *MetadataBuilder) error {
	snap := b.m.SnapshotByID(u.Ref.SnapshotID)
	switch {
	case u.Name == "":
		return invalidUpdate(u.Action(), "empty ref name")
	case snap == nil:
		return invalidUpdate(u.Action(), "ref %s: no snapshot %d", u.Name, u.Ref.SnapshotID)
	case u.Ref.Type != "branch" && u.Ref.Type != "tag":
		return invalidUpdate(u.Action(), "ref %s: type %q", u.Name, u.Ref.Type)
	case u.Name == "main" && u.Ref.Type != "branch":
		return invalidUpdate(u.Action(), "main must be a branch")
	}
	if old, ok := b.m.Refs[u.Name]; ok && reflect.DeepEqual(old, u.Ref) {
		return nil
	}
	b.m.Refs = maps.Clone(b.m.Refs)
	b.m.Refs[u.Name] = u.Ref
	if u.Name == "main" && (b.m.CurrentSnapshotID == nil || *b.m.CurrentSnapshotID != snap.SnapshotID) {
		id := snap.SnapshotID
		b.m.CurrentSnapshotID = &id
		ts := b.now
		if b.added[id] {
			ts = snap.TimestampMs
		}
		b.m.SnapshotLog = append(slices.Clone(b.m.SnapshotLog), SnapshotLogEntry{TimestampMs: ts, SnapshotID: id})
	}
	return nil
}

// RemoveSnapshots removes snapshots, the refs pointing at them and their
// statistics.
type RemoveSnapshots struct{ SnapshotIDs []int64 }

func (RemoveSnapshots) Action() string { return "remove-snapshots" }

func (u RemoveSnapshots) apply(b *MetadataBuilder) error {
	gone := map[int64]bool{}
	for _, id := range u.SnapshotIDs {
		gone[id] = true
	}
	b.m.Snapshots = slices.DeleteFunc(slices.Clone(b.m.Snapshots), func(s *Snapshot) bool { return gone[s.SnapshotID] })
	b.m.Statistics = slices.DeleteFunc(slices.Clone(b.m.Statistics), func(s StatisticsFile) bool { return gone[s.SnapshotID] })
	b.m.PartitionStatistics = slices.DeleteFunc(slices.Clone(b.m.PartitionStatistics), func(s PartitionStatisticsFile) bool { return gone[s.SnapshotID] })
	// A log entry of a removed snapshot drops the entries before it too:
	// with a gap, the snapshot before it would seem current until the one
	// after, and time travel into the gap would read the wrong snapshot.
	cut := 0
	for i, e := range b.m.SnapshotLog {
		if gone[e.SnapshotID] || b.m.SnapshotByID(e.SnapshotID) == nil {
			cut = i + 1
		}
	}
	b.m.SnapshotLog = slices.Clone(b.m.SnapshotLog[cut:])
	b.m.Refs = maps.Clone(b.m.Refs)
	for name, r := range b.m.Refs {
		if gone[r.SnapshotID] {
			delete(b.m.Refs, name)
		}
	}
	if b.m.CurrentSnapshotID != nil && gone[*b.m.CurrentSnapshotID] {
		b.m.CurrentSnapshotID = nil
	}
	return nil
}

// RemoveSnapshotRef removes a branch or tag; removing main leaves the table
// without a current snapshot.
type RemoveSnapshotRef struct{ Name string }

func (RemoveSnapshotRef) Action() string { return "remove-snapshot-ref" }

func (u RemoveSnapshotRef) apply(b *MetadataBuilder) error {
	if _, ok := b.m.Refs[u.Name]; !ok {
		return nil
	}
	b.m.Refs = maps.Clone(b.m.Refs)
	delete(b.m.Refs, u.Name)
	if u.Name == "main" {
		b.m.CurrentSnapshotID = nil
	}
	return nil
}
