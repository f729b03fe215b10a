package translate

import (
	"context"
	"log/slog"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// Branch and tag DDL (Spark's ALTER TABLE t CREATE [OR REPLACE] | REPLACE |
// DROP BRANCH | TAG, read by parse/dialect_refs.go). Each statement is
// one commit of the table's refs, with requirements on the refs it read:
// the ref it changes (absent when it creates one) and main when it points
// the ref at main's head, so a concurrent change of either is 40001.

// prepareRefDDL prepares one branch or tag clause of ALTER TABLE.
func (s *session) prepareRefDDL(as *pg.AlterTableStmt, r *parse.RefStmt) Statement {
	return &ddlStatement{sess: s, tag: "ALTER TABLE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("ALTER TABLE")
		if err != nil {
			return nil, err
		}
		t, notices, err := s.alterTarget(ctx, as.Relation, as.MissingOk)
		if t == nil || err != nil {
			return notices, err
		}
		return s.runRefDDL(ctx, mc, t, r)
	}}
}

// runRefDDL applies r to t.
func (s *session) runRefDDL(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, r *parse.RefStmt) ([]Notice, error) {
	m := t.Metadata
	name := t.Ident.Name
	kind := r.Kind()
	old, exists := m.Refs[r.Name]
	wrongType := func() error {
		return pgerr.New(pgerr.WrongObjectType, "\"%s\" of table \"%s\" is a %s, not a %s", r.Name, name, old.Type, kind)
	}
	if r.Action == "drop" {
		switch {
		case !exists && r.IfExists:
			return []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion, Message: kind + " \"" + r.Name + "\" of table \"" + name + "\" does not exist, skipping"}}, nil
		case !exists:
			return nil, pgerr.New(pgerr.UndefinedObject, "%s \"%s\" of table \"%s\" does not exist", kind, r.Name, name)
		case old.Type != kind:
			return nil, wrongType()
		case r.Name == "main":
			return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot drop branch \"main\" of table \"%s\"", name).
				WithHint("main is the table's current state; point it elsewhere with REPLACE BRANCH main AS OF VERSION <id>.")
		}
		id := old.SnapshotID
		return nil, commitRefs(ctx, mc, t,
			[]catalog.Requirement{catalog.AssertRefSnapshotID{Ref: r.Name, SnapshotID: &id}},
			[]catalog.Update{catalog.RemoveSnapshotRef{Name: r.Name}})
	}
	switch {
	case exists && r.Action == "create" && r.IfNotExists:
		// PostgreSQL's CREATE ... IF NOT EXISTS notice carries the error's code
		return []Notice{{Severity: "NOTICE", Code: pgerr.DuplicateObject, Message: old.Type + " \"" + r.Name + "\" of table \"" + name + "\" already exists, skipping"}}, nil
	case exists && r.Action == "create" && !r.OrReplace:
		return nil, pgerr.New(pgerr.DuplicateObject, "%s \"%s\" of table \"%s\" already exists", old.Type, r.Name, name).
			WithHint("Use CREATE OR REPLACE %s or REPLACE %s to move it.", strings.ToUpper(kind), strings.ToUpper(kind))
	case !exists && r.Action == "replace":
		return nil, pgerr.New(pgerr.UndefinedObject, "%s \"%s\" of table \"%s\" does not exist", kind, r.Name, name).
			WithHint("Use CREATE %s to create it.", strings.ToUpper(kind))
	case exists && old.Type != kind:
		return nil, wrongType()
	case r.Name == "main" && r.Tag:
		return nil, pgerr.New(pgerr.WrongObjectType, "\"main\" of table \"%s\" must be a branch", name)
	}
	var reqs []catalog.Requirement
	if exists {
		id := old.SnapshotID
		reqs = append(reqs, catalog.AssertRefSnapshotID{Ref: r.Name, SnapshotID: &id})
	} else {
		reqs = append(reqs, catalog.AssertRefSnapshotID{Ref: r.Name})
	}
	ref := catalog.SnapshotRef{Type: kind}
	if exists {
		ref = old // a replaced ref keeps the retention it is not given
	}
	if r.MaxRefAgeMs != nil {
		ref.MaxRefAgeMs = r.MaxRefAgeMs
	}
	if r.MinSnapshotsToKeep != nil {
		ref.MinSnapshotsToKeep = r.MinSnapshotsToKeep
	}
	if r.MaxSnapshotAgeMs != nil {
		ref.MaxSnapshotAgeMs = r.MaxSnapshotAgeMs
	}
	switch {
	case r.SnapshotID != nil:
		if m.SnapshotByID(*r.SnapshotID) == nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "table \"%s\" has no snapshot %d", name, *r.SnapshotID).
				WithHint("The table's snapshots are listed by SELECT snapshot_id FROM \"%s$snapshots\".", name)
		}
		ref.SnapshotID = *r.SnapshotID
	case m.CurrentSnapshot() != nil:
		head := m.CurrentSnapshot().SnapshotID
		ref.SnapshotID = head
		if r.Name != "main" {
			reqs = append(reqs, catalog.AssertRefSnapshotID{Ref: "main", SnapshotID: &head})
		}
	case r.Tag:
		return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot create tag \"%s\": table \"%s\" has no snapshot", r.Name, name).
			WithHint("Write to the table first, or name a snapshot with AS OF VERSION.")
	default:
		// A branch of a table without snapshots starts at an empty
		// snapshot of its own, as Iceberg's Java library makes it.
		return nil, s.emptyBranch(ctx, mc, t, r.Name, ref)
	}
	if exists && ref == old {
		return nil, nil
	}
	return nil, commitRefs(ctx, mc, t, reqs, []catalog.Update{catalog.SetSnapshotRef{Name: r.Name, Ref: ref}})
}

// commitRefs commits a ref-only change of t.
func commitRefs(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, reqs []catalog.Requirement, updates []catalog.Update) error {
	if _, err := mc.CommitTable(ctx, t.Ident, reqs, updates); err != nil {
		return catalogError(err, kindTable, t.Ident.Name)
	}
	return nil
}

// emptyBranch creates branch name of a table that has no snapshot: one
// commit adds an empty snapshot and points the branch (with ref's
// retention) at it.
func (s *session) emptyBranch(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, name string, ref catalog.SnapshotRef) error {
	out, err := mc.NewOutput(t)
	if err != nil {
		return catalogError(err, kindTable, t.Ident.Name)
	}
	staged, err := catalog.StageChange(ctx, out, t, &catalog.Change{Branch: name, Operation: "append"})
	if err != nil {
		return catalogError(err, kindTable, t.Ident.Name)
	}
	updates := append([]catalog.Update(nil), staged.Updates...)
	for i, u := range updates {
		if set, ok := u.(catalog.SetSnapshotRef); ok && set.Name == name {
			ref.SnapshotID = set.Ref.SnapshotID
			updates[i] = catalog.SetSnapshotRef{Name: name, Ref: ref}
		}
	}
	reqs := append([]catalog.Requirement{catalog.AssertRefSnapshotID{Ref: "main"}}, staged.Requirements...)
	if _, err := mc.CommitTable(ctx, t.Ident, reqs, updates); err != nil {
		staged.Discard(ctx)
		slog.Debug("empty branch commit failed", "table", t.Ident.Name, "branch", name, "error", err)
		return catalogError(err, kindTable, t.Ident.Name)
	}
	return nil
}
