package procedure

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// The procedures that move refs between existing snapshots, with Spark's
// names, parameters and result columns:
//
//	rollback_to_snapshot(table, snapshot_id)   main back to an ancestor
//	rollback_to_timestamp(table, timestamp)    main back to the ancestor current at a time
//	set_current_snapshot(table, snapshot_id | ref)  main to any snapshot
//	cherrypick_snapshot(table, snapshot_id)    a snapshot's changes onto main
//	publish_changes(table, wap_id)             a staged WAP snapshot onto main
//	fast_forward(table, branch, to)            a branch forward to another ref's head
//	ancestors_of(table [, snapshot_id])        the ancestry of a snapshot
//
// Each one is one catalog commit. A ref move is committed with the ref's
// head it started from as a requirement; when another writer moved it
// meanwhile the procedure reloads the table and decides again once, and a
// second lost race is the catalog's conflict (40001 to the client).

func snapshotProcedures() []*Procedure {
	return []*Procedure{
		{Name: "rollback_to_snapshot", Params: []Param{tableParam, {Name: "snapshot_id", Type: Long, Required: true}},
			Columns: previousCurrent, Run: rollbackToSnapshot},
		{Name: "rollback_to_timestamp", Params: []Param{tableParam, {Name: "timestamp", Type: Timestamp, Required: true}},
			Columns: previousCurrent, Run: rollbackToTimestamp},
		{Name: "set_current_snapshot", Params: []Param{tableParam, {Name: "snapshot_id", Type: Long}, {Name: "ref", Type: String}},
			Columns: previousCurrent, Run: setCurrentSnapshot},
		{Name: "cherrypick_snapshot", Params: []Param{tableParam, {Name: "snapshot_id", Type: Long, Required: true}},
			Columns: sourceCurrent, Run: cherrypickSnapshot},
		{Name: "publish_changes", Params: []Param{tableParam, {Name: "wap_id", Type: String, Required: true}},
			Columns: sourceCurrent, Run: publishChanges},
		{Name: "fast_forward", Params: []Param{tableParam, {Name: "branch", Type: String, Required: true}, {Name: "to", Type: String, Required: true}},
			Columns: []pgtypes.Column{textColumn("branch_updated"), int8Column("previous_ref"), int8Column("updated_ref")}, Run: fastForward},
		{Name: "ancestors_of", Params: []Param{tableParam, {Name: "snapshot_id", Type: Long}},
			Columns: []pgtypes.Column{int8Column("snapshot_id"), int8Column("timestamp")}, Run: ancestorsOf},
	}
}

// tableParam is the table every procedure takes first.
var tableParam = Param{Name: "table", Type: String, Required: true}

var (
	previousCurrent = []pgtypes.Column{int8Column("previous_snapshot_id"), int8Column("current_snapshot_id")}
	sourceCurrent   = []pgtypes.Column{int8Column("source_snapshot_id"), int8Column("current_snapshot_id")}
)

func int8Column(name string) pgtypes.Column {
	return pgtypes.Column{Name: name, TypeOID: pgtypes.Int8, Typmod: -1}
}

func textColumn(name string) pgtypes.Column {
	return pgtypes.Column{Name: name, TypeOID: pgtypes.Text, Typmod: -1}
}

// refMove is a decision to point a ref at another snapshot.
type refMove struct {
	name string
	from *int64              // the ref's head the decision was made on (nil: no ref)
	to   catalog.SnapshotRef // the ref after the move
}

// moveRef loads the table, lets decide choose the move (nil: nothing to
// commit) and commits it, requiring the ref to be where decide saw it. A
// lost race reloads and decides again, once. It returns the move done and
// the table it was decided on.
func moveRef(ctx context.Context, env Env, table string, decide func(t *catalog.Table) (*refMove, error)) (*refMove, *catalog.Table, error) {
	for attempt := 0; ; attempt++ {
		t, mc, err := env.Table(ctx, table)
		if err != nil {
			return nil, nil, err
		}
		mv, err := decide(t)
		if err != nil || mv == nil {
			return mv, t, err
		}
		_, err = mc.CommitTable(ctx, t.Ident,
			[]catalog.Requirement{catalog.AssertRefSnapshotID{Ref: mv.name, SnapshotID: mv.from}},
			[]catalog.Update{catalog.SetSnapshotRef{Name: mv.name, Ref: mv.to}})
		if err != nil && errors.Is(err, catalog.ErrCommitConflict) && attempt == 0 {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		return mv, t, nil
	}
}

// refHead is the snapshot a ref points at (nil: no such ref).
func refHead(m *catalog.TableMetadata, name string) *int64 {
	if ref, ok := m.Refs[name]; ok {
		id := ref.SnapshotID
		return &id
	}
	return nil
}

// mainTo is the move of main to id, keeping main's retention settings.
func mainTo(m *catalog.TableMetadata, id int64) *refMove {
	ref := catalog.SnapshotRef{Type: "branch"}
	if old, ok := m.Refs["main"]; ok {
		ref = old
	}
	ref.SnapshotID = id
	return &refMove{name: "main", from: refHead(m, "main"), to: ref}
}

// isAncestor reports whether id is head or one of its ancestors.
func isAncestor(m *catalog.TableMetadata, head *int64, id int64) bool {
	for s := snapshotAt(m, head); s != nil; s = parentOf(m, s) {
		if s.SnapshotID == id {
			return true
		}
	}
	return false
}

func snapshotAt(m *catalog.TableMetadata, id *int64) *catalog.Snapshot {
	if id == nil {
		return nil
	}
	return m.SnapshotByID(*id)
}

func parentOf(m *catalog.TableMetadata, s *catalog.Snapshot) *catalog.Snapshot {
	if s.ParentSnapshotID == nil {
		return nil
	}
	return m.SnapshotByID(*s.ParentSnapshotID)
}

// int64OrNil is a nullable bigint result value.
func int64OrNil(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// previousAndCurrent is the one row of the ref-moving procedures: main's
// head before and after.
func previousAndCurrent(mv *refMove, t *catalog.Table) [][]any {
	prev := refHead(t.Metadata, "main")
	if mv == nil {
		return [][]any{{int64OrNil(prev), int64OrNil(prev)}}
	}
	return [][]any{{int64OrNil(mv.from), mv.to.SnapshotID}}
}

func unknownSnapshot(what string, id int64) error {
	return pgerr.New(pgerr.InvalidParameterValue, "cannot %s unknown snapshot ID: %d", what, id)
}

func rollbackToSnapshot(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	id, _ := args.Long("snapshot_id")
	mv, t, err := moveRef(ctx, env, table, func(t *catalog.Table) (*refMove, error) {
		m := t.Metadata
		if m.SnapshotByID(id) == nil {
			return nil, unknownSnapshot("roll back to", id)
		}
		head := refHead(m, "main")
		if !isAncestor(m, head, id) {
			return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot roll back to snapshot %d: not an ancestor of the current state", id).
				WithHint("CALL system.set_current_snapshot makes any snapshot current.")
		}
		if *head == id {
			return nil, nil
		}
		return mainTo(m, id), nil
	})
	if err != nil {
		return nil, err
	}
	return previousAndCurrent(mv, t), nil
}

func rollbackToTimestamp(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	ts, _ := args.Time("timestamp")
	ms := ts.UnixMilli()
	mv, t, err := moveRef(ctx, env, table, func(t *catalog.Table) (*refMove, error) {
		m := t.Metadata
		head := refHead(m, "main")
		// The newest ancestor of main committed strictly before the time.
		var target *catalog.Snapshot
		for s := snapshotAt(m, head); s != nil; s = parentOf(m, s) {
			if s.TimestampMs < ms && (target == nil || s.TimestampMs > target.TimestampMs) {
				target = s
			}
		}
		if target == nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot roll back: no snapshot of main older than %s", ts.UTC().Format(time.RFC3339Nano))
		}
		if *head == target.SnapshotID {
			return nil, nil
		}
		return mainTo(m, target.SnapshotID), nil
	})
	if err != nil {
		return nil, err
	}
	return previousAndCurrent(mv, t), nil
}

func setCurrentSnapshot(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	id, byID := args.Long("snapshot_id")
	refName, byRef := args.String("ref")
	if byID == byRef {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "either snapshot_id or ref must be provided, not both")
	}
	mv, t, err := moveRef(ctx, env, table, func(t *catalog.Table) (*refMove, error) {
		m := t.Metadata
		target := id
		if byRef {
			ref, ok := m.Refs[refName]
			if !ok {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot find matching snapshot ID for ref %s", refName)
			}
			target = ref.SnapshotID
		}
		if m.SnapshotByID(target) == nil {
			return nil, unknownSnapshot("set current to", target)
		}
		if h := refHead(m, "main"); h != nil && *h == target {
			return nil, nil
		}
		return mainTo(m, target), nil
	})
	if err != nil {
		return nil, err
	}
	return previousAndCurrent(mv, t), nil
}

func fastForward(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	branch, _ := args.String("branch")
	to, _ := args.String("to")
	var prev int64
	mv, _, err := moveRef(ctx, env, table, func(t *catalog.Table) (*refMove, error) {
		m := t.Metadata
		from, ok := m.Refs[branch]
		if !ok {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "branch %s does not exist", branch)
		}
		if from.Type != "branch" {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "ref %s is a tag, not a branch", branch)
		}
		target, ok := m.Refs[to]
		if !ok {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "ref %s does not exist", to)
		}
		prev = from.SnapshotID
		if from.SnapshotID == target.SnapshotID {
			return nil, nil
		}
		head := target.SnapshotID
		if !isAncestor(m, &head, from.SnapshotID) {
			return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot fast-forward: %s is not an ancestor of %s", branch, to)
		}
		ref := from
		ref.SnapshotID = target.SnapshotID
		fromID := from.SnapshotID
		return &refMove{name: branch, from: &fromID, to: ref}, nil
	})
	if err != nil {
		return nil, err
	}
	updated := prev
	if mv != nil {
		updated = mv.to.SnapshotID
	}
	return [][]any{{branch, prev, updated}}, nil
}

func ancestorsOf(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	t, _, err := env.Table(ctx, table)
	if err != nil {
		return nil, err
	}
	m := t.Metadata
	start := refHead(m, "main")
	if id, ok := args.Long("snapshot_id"); ok {
		if m.SnapshotByID(id) == nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "snapshot %d does not exist", id)
		}
		start = &id
	}
	rows := [][]any{}
	for s := snapshotAt(m, start); s != nil; s = parentOf(m, s) {
		rows = append(rows, []any{s.SnapshotID, s.TimestampMs})
	}
	return rows, nil
}

// cherrypickSnapshot and publishChanges put a snapshot that is not on main
// there: when main has not moved since the snapshot was staged, by moving
// main to it; otherwise by committing its changes again on main (validated
// like any write: 40001 when main changed the files it touches). A
// snapshot already on main (main's head, an ancestor, or cherry-picked
// before) and a WAP id published before are refused with 55000.
func cherrypickSnapshot(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	id, _ := args.Long("snapshot_id")
	return publish(ctx, env, table, false, func(m *catalog.TableMetadata) (*catalog.Snapshot, error) {
		snap := m.SnapshotByID(id)
		if snap == nil {
			return nil, unknownSnapshot("cherry-pick", id)
		}
		return snap, nil
	})
}

func publishChanges(ctx context.Context, env Env, args Args) ([][]any, error) {
	table, _ := args.String("table")
	wapID, _ := args.String("wap_id")
	return publish(ctx, env, table, true, func(m *catalog.TableMetadata) (*catalog.Snapshot, error) {
		var found *catalog.Snapshot
		for _, snap := range m.Snapshots {
			if snap.Summary["wap.id"] == wapID {
				if found != nil {
					return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot apply non-unique WAP ID. Found multiple snapshots with WAP ID '%s'", wapID)
				}
				found = snap
			}
		}
		if found == nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot apply unknown WAP ID '%s'", wapID)
		}
		return found, nil
	})
}

// publish puts the snapshot staged finds on main.
func publish(ctx context.Context, env Env, table string, wap bool, staged func(m *catalog.TableMetadata) (*catalog.Snapshot, error)) ([][]any, error) {
	var snap *catalog.Snapshot
	var replay *catalog.Table
	mv, _, err := moveRef(ctx, env, table, func(t *catalog.Table) (*refMove, error) {
		m := t.Metadata
		s, err := staged(m)
		if err != nil {
			return nil, err
		}
		if err := checkNotOnMain(m, s, wap); err != nil {
			return nil, err
		}
		snap, replay = s, nil
		head := refHead(m, "main")
		if (head == nil && s.ParentSnapshotID == nil) || (head != nil && s.ParentSnapshotID != nil && *s.ParentSnapshotID == *head) {
			// Fast-forward: main has not moved since the snapshot was staged.
			return mainTo(m, s.SnapshotID), nil
		}
		replay = t
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	if mv != nil {
		return [][]any{{snap.SnapshotID, snap.SnapshotID}}, nil
	}
	_, mc, err := env.Table(ctx, table)
	if err != nil {
		return nil, err
	}
	ch, err := changeOfSnapshot(ctx, replay, snap)
	if err != nil {
		return nil, err
	}
	committed, err := catalog.CommitChange(ctx, mc, replay.Ident, ch)
	if err != nil {
		return nil, err
	}
	return [][]any{{snap.SnapshotID, committed.Metadata.CurrentSnapshot().SnapshotID}}, nil
}

// checkNotOnMain refuses a snapshot whose changes are on main already, as
// Iceberg's cherry-pick does: applying them again would list its data
// files twice (rows duplicated, deleted rows back). That is the snapshot
// being main's head or one of its ancestors, an ancestor having been
// cherry-picked from it (source-snapshot-id), or, for a staged WAP
// snapshot, its WAP id having been published (an ancestor carrying it as
// wap.id or published-wap-id). The arguments are valid; the table's state
// forbids the call: 55000.
func checkNotOnMain(m *catalog.TableMetadata, snap *catalog.Snapshot, wap bool) error {
	id := strconv.FormatInt(snap.SnapshotID, 10)
	wapID := snap.Summary["wap.id"]
	var ancestor, pickedTo, publishedIn *catalog.Snapshot
	for a := m.CurrentSnapshot(); a != nil; a = parentOf(m, a) {
		switch {
		case a.SnapshotID == snap.SnapshotID:
			ancestor = a
		case pickedTo == nil && a.Summary["source-snapshot-id"] == id:
			pickedTo = a
		}
		if publishedIn == nil && wapID != "" && (a.Summary["published-wap-id"] == wapID || a.Summary["wap.id"] == wapID) {
			publishedIn = a
		}
	}
	published := func() error {
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "duplicate request to cherry-pick WAP ID '%s' that was published already", wapID).
			WithDetail("Snapshot %d of main carries it.", publishedIn.SnapshotID)
	}
	if wap && publishedIn != nil {
		return published()
	}
	switch {
	case ancestor != nil:
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot cherry-pick snapshot %d: already an ancestor of main", snap.SnapshotID)
	case pickedTo != nil:
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot cherry-pick snapshot %d: already picked to create ancestor %d", snap.SnapshotID, pickedTo.SnapshotID)
	case publishedIn != nil:
		return published()
	}
	return nil
}

// changeOfSnapshot is what snap changed relative to its parent (the
// entries its own manifests added or deleted), as a change of main based
// on that parent.
func changeOfSnapshot(ctx context.Context, t *catalog.Table, snap *catalog.Snapshot) (*catalog.Change, error) {
	ch := &catalog.Change{BaseSnapshotID: snap.ParentSnapshotID, Isolation: catalog.SnapshotIsolation,
		Properties: map[string]string{"source-snapshot-id": strconv.FormatInt(snap.SnapshotID, 10)}}
	if w := snap.Summary["wap.id"]; w != "" {
		ch.Properties["published-wap-id"] = w
	}
	if op := snap.Summary["operation"]; op != "" {
		ch.Operation = op
	}
	list, err := catalog.ReadManifestList(ctx, t.IO, snap)
	if err != nil {
		return nil, err
	}
	for i := range list {
		mf := &list[i]
		if mf.AddedSnapshotID != snap.SnapshotID {
			continue
		}
		man, err := catalog.ReadManifest(ctx, t.IO, mf)
		if err != nil {
			return nil, err
		}
		for _, e := range man.Entries {
			if e.File.SnapshotID != snap.SnapshotID {
				continue
			}
			data := e.File.Content == catalog.ContentData
			switch e.Status {
			case catalog.StatusAdded:
				if data {
					ch.AddedDataFiles = append(ch.AddedDataFiles, e.File)
				} else {
					ch.AddedDeleteFiles = append(ch.AddedDeleteFiles, e.File)
				}
			case catalog.StatusDeleted:
				if data {
					ch.RemovedDataFiles = append(ch.RemovedDataFiles, e.File)
					ch.ReferencedDataFiles = append(ch.ReferencedDataFiles, e.File.Path)
				} else {
					ch.RemovedDeleteFiles = append(ch.RemovedDeleteFiles, e.File)
				}
			}
		}
	}
	for _, d := range ch.AddedDeleteFiles {
		if d.ReferencedDataFile != nil {
			ch.ReferencedDataFiles = append(ch.ReferencedDataFiles, *d.ReferencedDataFile)
		}
	}
	return ch, nil
}
