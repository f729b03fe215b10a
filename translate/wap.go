package translate

import (
	"context"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Write-audit-publish (seed 000's spark.wap.branch / spark.wap.id).
//
// With iceberg.wap_branch (or spark.wap.branch) set, a session's reads and
// writes of a table whose write.wap.enabled is true go to that branch: its
// writes commit there (the branch is created at main's head by the first
// one), leaving main untouched until the branch is published, and its
// reads see the branch, so the changes can be audited before that. Tables
// without write.wap.enabled are read and written on main, as Spark does.
// With iceberg.wap_id (or spark.wap.id) set instead, writes of a WAP table
// add staged snapshots: committed to the table, carrying wap.id in their
// summary, but not on any branch, so no reader sees them until CALL
// system.publish_changes('t', 'id') or system.cherrypick_snapshot('t', id)
// puts them on main (call_exec.go).

const (
	settingWapBranch      = "iceberg.wap_branch"
	settingSparkWapBranch = "spark.wap.branch"
	settingWapID          = "iceberg.wap_id"
	settingSparkWapID     = "spark.wap.id"
	propWapEnabled        = "write.wap.enabled"
)

// wapEnabled reports whether t takes part in write-audit-publish.
func wapEnabled(t *catalog.Table) bool {
	return strings.EqualFold(t.Metadata.Properties[propWapEnabled], "true")
}

// settingEither is the first of the settings that is set.
func (s *session) settingEither(names ...string) string {
	for _, n := range names {
		if v, _ := s.settings.Get(n); strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// wapBranch is the branch the session reads and writes t on ("" = main).
func (s *session) wapBranch(t *catalog.Table) string {
	if !wapEnabled(t) {
		return ""
	}
	b := s.settingEither(settingWapBranch, settingSparkWapBranch)
	if b == "main" {
		return ""
	}
	return b
}

// ReadSnapshot is the snapshot a plain reference to t reads: its current
// one, or the head of the session's WAP branch when there is one.
func (s *session) ReadSnapshot(t *catalog.Table) *catalog.Snapshot {
	if b := s.wapBranch(t); b != "" {
		if ref, ok := t.Metadata.Refs[b]; ok && ref.Type != "tag" {
			if snap := t.Metadata.SnapshotByID(ref.SnapshotID); snap != nil {
				return snap
			}
		}
	}
	return t.Metadata.CurrentSnapshot()
}

// routeWrite points ch at the session's WAP branch for t, creating the
// branch at main's head when it does not exist yet (a ref-only commit).
// It returns t as the write builds on (reloaded after creating the
// branch).
func (s *session) routeWrite(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, ch *catalog.Change) (*catalog.Table, error) {
	if !wapEnabled(t) || ch.Branch != "" { // a branch named by the statement wins
		return t, nil
	}
	if id := s.settingEither(settingWapID, settingSparkWapID); id != "" {
		if s.wapBranch(t) != "" {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot write with both a WAP id and a WAP branch set").
				WithHint("RESET %s or %s.", settingWapID, settingWapBranch)
		}
		ch.StageOnly = true
		if ch.Properties == nil {
			ch.Properties = map[string]string{}
		}
		ch.Properties["wap.id"] = id
		return t, nil
	}
	b := s.wapBranch(t)
	if b == "" {
		return t, nil
	}
	ch.Branch = b
	if _, ok := t.Metadata.Refs[b]; ok {
		return t, nil
	}
	head := t.Metadata.CurrentSnapshot()
	if head == nil {
		return t, nil // the first write creates the branch
	}
	under := underWriteCatalog(mc) // a ref-only commit; the session's catalog would refuse it in a block
	ref := catalog.SnapshotRef{SnapshotID: head.SnapshotID, Type: "branch"}
	if _, err := under.CommitTable(ctx, t.Ident,
		[]catalog.Requirement{catalog.AssertRefSnapshotID{Ref: b}},
		[]catalog.Update{catalog.SetSnapshotRef{Name: b, Ref: ref}}); err != nil {
		return nil, catalogError(err, kindTable, t.Ident.Name)
	}
	// The statement goes on from what it read, plus the new ref.
	m := *t.Metadata
	m.Refs = make(map[string]catalog.SnapshotRef, len(t.Metadata.Refs)+1)
	for k, v := range t.Metadata.Refs {
		m.Refs[k] = v
	}
	m.Refs[b] = ref
	return &catalog.Table{Ident: t.Ident, MetadataLocation: t.MetadataLocation, Metadata: &m, IO: t.IO}, nil
}
