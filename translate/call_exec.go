package translate

import (
	"context"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/regtype"
)

// CALL system.<procedure>(...): the procedures that publish
// write-audit-publish snapshots (wap.go), with Spark's names, arguments
// (positional or named with =>) and result columns:
//
//	CALL system.publish_changes('ns.t', 'wap id')
//	CALL system.cherrypick_snapshot('ns.t', snapshot_id)
//
// Both put a snapshot that is not on main there: when main has not moved
// since the snapshot was staged, by moving main to it; otherwise by
// committing its changes again on main (validated like any write: 40001
// when main changed the files it touches). A snapshot already on main
// (main's head, an ancestor, or cherry-picked before) and a WAP id
// published before are refused with 55000. They return
// source_snapshot_id and current_snapshot_id.

// callStatement is a prepared CALL.
type callStatement struct {
	sess *session
	proc string
	args map[string]string
}

var callColumns = []pgtypes.Column{
	{Name: "source_snapshot_id", TypeOID: pgtypes.Int8, Typmod: -1},
	{Name: "current_snapshot_id", TypeOID: pgtypes.Int8, Typmod: -1},
}

// procedureParams are each procedure's parameters, in order.
var procedureParams = map[string][]string{
	"publish_changes":     {"table", "wap_id"},
	"cherrypick_snapshot": {"table", "snapshot_id"},
}

func (s *session) prepareCall(cs *pg.CallStmt) (Statement, error) {
	fc := cs.GetFunccall()
	if fc == nil {
		return nil, pgerr.NotYet("this form of CALL")
	}
	var parts []string
	for _, n := range fc.Funcname {
		parts = append(parts, strings.ToLower(n.GetString_().GetSval()))
	}
	name := parts[len(parts)-1]
	params, ok := procedureParams[name]
	if !ok || (len(parts) > 1 && parts[len(parts)-2] != "system") {
		return nil, pgerr.New(pgerr.UndefinedFunction, "procedure %s does not exist", strings.Join(parts, ".")).
			WithHint("icegate's procedures: system.publish_changes, system.cherrypick_snapshot.")
	}
	args := map[string]string{}
	for i, a := range fc.Args {
		key, val := "", a
		if na := a.GetNamedArgExpr(); na != nil {
			key, val = strings.ToLower(na.Name), na.Arg
		} else if i < len(params) {
			key = params[i]
		}
		if !slicesContains(params, key) {
			return nil, pgerr.New(pgerr.UndefinedFunction, "procedure system.%s has no parameter %d (%s)", name, i+1, key)
		}
		c := val.GetAConst()
		if c == nil || c.Isnull {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "argument %s of system.%s must be a constant", key, name)
		}
		switch {
		case c.GetSval() != nil:
			args[key] = c.GetSval().Sval
		case c.GetIval() != nil:
			args[key] = strconv.FormatInt(int64(c.GetIval().Ival), 10)
		case c.GetFval() != nil:
			args[key] = c.GetFval().Fval
		default:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "argument %s of system.%s must be a string or a number", key, name)
		}
	}
	for _, p := range params {
		if _, ok := args[p]; !ok {
			return nil, pgerr.New(pgerr.UndefinedFunction, "procedure system.%s needs argument %s", name, p)
		}
	}
	return &callStatement{sess: s, proc: name, args: args}, nil
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *callStatement) ParamTypes() []uint32      { return nil }
func (c *callStatement) Columns() []pgtypes.Column { return callColumns }

func (c *callStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	s := c.sess
	mc, err := s.mutableCatalog("CALL")
	if err != nil {
		return nil, err
	}
	parts, err := regtype.SplitQualifiedName(c.args["table"])
	if err != nil {
		return nil, err
	}
	var tn parse.TableName
	switch len(parts) {
	case 1:
		tn = parse.TableName{Name: parts[0]}
	case 2:
		tn = parse.TableName{Schema: parts[0], Name: parts[1]}
	case 3:
		tn = parse.TableName{Catalog: parts[0], Schema: parts[1], Name: parts[2]}
	default:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid table name \"%s\"", c.args["table"])
	}
	tn.Written = strings.Join(parts, ".")
	if s.tx != nil && !s.tx.implicit {
		return nil, pgerr.New(pgerr.ActiveSQLTransaction, "CALL system.%s cannot run inside a transaction block", c.proc)
	}
	t, err := s.ResolveTable(ctx, tn)
	if err != nil {
		return nil, err
	}
	snap, err := c.stagedSnapshot(t)
	if err != nil {
		return nil, err
	}
	if err := c.checkNotOnMain(t.Metadata, snap); err != nil {
		return nil, err
	}
	current, err := publishSnapshot(ctx, mc, t, snap)
	if err != nil {
		return nil, catalogError(err, kindTable, t.Ident.Name)
	}
	return int8Row(snap.SnapshotID, current)
}

// stagedSnapshot is the snapshot the call publishes.
func (c *callStatement) stagedSnapshot(t *catalog.Table) (*catalog.Snapshot, error) {
	m := t.Metadata
	if c.proc == "cherrypick_snapshot" {
		id, err := strconv.ParseInt(c.args["snapshot_id"], 10, 64)
		if err != nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid snapshot id \"%s\"", c.args["snapshot_id"])
		}
		snap := m.SnapshotByID(id)
		if snap == nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot cherry-pick unknown snapshot ID: %d", id)
		}
		return snap, nil
	}
	wapID := c.args["wap_id"]
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
}

// checkNotOnMain refuses a snapshot whose changes are on main already, as
// Iceberg's cherry-pick does: applying them again would list its data
// files twice (rows duplicated, deleted rows back). That is the snapshot
// being main's head or one of its ancestors, an ancestor having been
// cherry-picked from it (source-snapshot-id), or, for a staged WAP
// snapshot, its WAP id having been published (an ancestor carrying it as
// wap.id or published-wap-id). The arguments are valid; the table's state
// forbids the call: 55000.
func (c *callStatement) checkNotOnMain(m *catalog.TableMetadata, snap *catalog.Snapshot) error {
	id := strconv.FormatInt(snap.SnapshotID, 10)
	wapID := snap.Summary["wap.id"]
	var ancestor, pickedTo, publishedIn *catalog.Snapshot
	for a := m.CurrentSnapshot(); a != nil; {
		switch {
		case a.SnapshotID == snap.SnapshotID:
			ancestor = a
		case pickedTo == nil && a.Summary["source-snapshot-id"] == id:
			pickedTo = a
		}
		if publishedIn == nil && wapID != "" && (a.Summary["published-wap-id"] == wapID || a.Summary["wap.id"] == wapID) {
			publishedIn = a
		}
		if a.ParentSnapshotID == nil {
			break
		}
		a = m.SnapshotByID(*a.ParentSnapshotID)
	}
	published := func() error {
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "duplicate request to cherry-pick WAP ID '%s' that was published already", wapID).
			WithDetail("Snapshot %d of main carries it.", publishedIn.SnapshotID)
	}
	if c.proc == "publish_changes" && publishedIn != nil {
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

// publishSnapshot puts snap on main and returns main's new head.
func publishSnapshot(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, snap *catalog.Snapshot) (int64, error) {
	m := t.Metadata
	var head *int64
	if ref, ok := m.Refs["main"]; ok {
		id := ref.SnapshotID
		head = &id
	}
	if (head == nil && snap.ParentSnapshotID == nil) || (head != nil && snap.ParentSnapshotID != nil && *snap.ParentSnapshotID == *head) {
		// Fast-forward: main has not moved since the snapshot was staged.
		if _, err := mc.CommitTable(ctx, t.Ident,
			[]catalog.Requirement{catalog.AssertRefSnapshotID{Ref: "main", SnapshotID: head}},
			[]catalog.Update{catalog.SetSnapshotRef{Name: "main", Ref: catalog.SnapshotRef{SnapshotID: snap.SnapshotID, Type: "branch"}}}); err != nil {
			return 0, err
		}
		return snap.SnapshotID, nil
	}
	ch, err := changeOfSnapshot(ctx, t, snap)
	if err != nil {
		return 0, err
	}
	committed, err := catalog.CommitChange(ctx, mc, t.Ident, ch)
	if err != nil {
		return 0, err
	}
	return committed.Metadata.CurrentSnapshot().SnapshotID, nil
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

// int8Row is one row of the two bigint columns of callColumns.
func int8Row(a, b int64) (Rows, error) {
	fields := []arrow.Field{{Name: callColumns[0].Name, Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: callColumns[1].Name, Type: arrow.PrimitiveTypes.Int64, Nullable: true}}
	var cols []arrow.Array
	for _, v := range []int64{a, b} {
		bl := array.NewInt64Builder(memory.DefaultAllocator)
		bl.Append(v)
		cols = append(cols, bl.NewArray())
		bl.Release()
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 1)
	for _, c := range cols {
		c.Release()
	}
	return &batchRows{batches: []arrow.RecordBatch{rec}, tag: "CALL"}, nil
}
