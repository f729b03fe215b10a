package icebergfrom

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/metatable"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/regtype"
)

// Time travel. Spark, Trino and SQL:2011 write the version of a table to
// read after its name: t VERSION AS OF 123, t VERSION AS OF 'tag',
// t TIMESTAMP AS OF '2024-01-01 00:00:00', t FOR SYSTEM_VERSION AS OF ...,
// t FOR SYSTEM_TIME AS OF ..., t FOR VERSION AS OF / FOR TIMESTAMP AS OF.
// PostgreSQL's grammar has none of these, so before parsing the clause is
// cut out of the text (blanked: every offset the parser reports still
// points into the client's text) and kept by the offset of the table
// name it follows; binding the name reads it from there.

// timeTravel picks the snapshot and schema a time-travel clause reads
// from table t (Spark's rule: a snapshot id, timestamp or tag reads with
// that snapshot's schema; a branch with the table's current schema).
func timeTravel(b *bind.Binder, t *catalog.Table, name string, c *parse.AsOfClause) (*catalog.Snapshot, *catalog.Schema, error) {
	m := t.Metadata
	if c.Changes {
		return nil, nil, pgerr.Unsupported("CHANGES BETWEEN on \"%s\" here (it reads a table's changes, not a version)", name)
	}
	v, err := asOfValue(b, c)
	if err != nil {
		return nil, nil, err
	}
	if c.Timestamp {
		var us int64
		switch x := v.(type) {
		case int64:
			us = x * 1e6 // epoch seconds, as Spark reads a number
		case float64:
			us = int64(x * 1e6)
		case time.Time:
			us = x.UnixMicro()
		default:
			return nil, nil, pgerr.New(pgerr.DatatypeMismatch, "TIMESTAMP AS OF needs a timestamp or a number of epoch seconds, not %v", v)
		}
		s := snapshotAsOf(m, us/1000)
		if s == nil {
			return nil, nil, noSnapshot(m, name, fmt.Sprintf("no snapshot of table \"%s\" is as old as %s%s", name,
				time.UnixMicro(us).In(b.Env().Location()).Format("2006-01-02 15:04:05.999999-07"), oldestLeft(m, true)))
		}
		return s, metatable.SnapshotSchema(m, s), nil
	}
	switch x := v.(type) {
	case int64:
		s := m.SnapshotByID(x)
		if s == nil {
			return nil, nil, noSnapshot(m, name, fmt.Sprintf("table \"%s\" has no snapshot %d%s", name, x, oldestLeft(m, false)))
		}
		return s, metatable.SnapshotSchema(m, s), nil
	case string:
		if ref, ok := m.Refs[x]; ok {
			s := m.SnapshotByID(ref.SnapshotID)
			if s == nil {
				return nil, nil, noSnapshot(m, name, fmt.Sprintf("%s \"%s\" of table \"%s\" points to snapshot %d, which no longer exists", ref.Type, x, name, ref.SnapshotID))
			}
			if ref.Type == "branch" {
				return s, m.CurrentSchema(), nil
			}
			return s, metatable.SnapshotSchema(m, s), nil
		}
		if id, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err == nil {
			if s := m.SnapshotByID(id); s != nil {
				return s, metatable.SnapshotSchema(m, s), nil
			}
		}
		return nil, nil, noSnapshot(m, name, fmt.Sprintf("table \"%s\" has no branch or tag \"%s\"", name, x))
	}
	return nil, nil, pgerr.New(pgerr.DatatypeMismatch, "VERSION AS OF needs a snapshot id or a branch or tag name, not %v", v)
}

// asOfValue evaluates a clause's value: int64, float64, string or
// time.Time (timestamps and dates, in the session's time zone).
func asOfValue(b *bind.Binder, c *parse.AsOfClause) (any, error) {
	node := c.Node
	if node == nil {
		tree, err := pg.Parse("SELECT " + c.Value)
		if err != nil || len(tree.Stmts) != 1 {
			return nil, pgerr.New(pgerr.SyntaxError, "invalid AS OF value: %s", c.Value)
		}
		sel := tree.Stmts[0].Stmt.GetSelectStmt()
		if sel == nil || len(sel.TargetList) != 1 {
			return nil, pgerr.New(pgerr.SyntaxError, "invalid AS OF value: %s", c.Value)
		}
		node = sel.TargetList[0].GetResTarget().Val
	}
	subquery := false
	parse.WalkExpr(node, func(n *pg.Node) { subquery = subquery || n.GetSubLink() != nil })
	if subquery {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "a subquery in AS OF is not supported: give a snapshot id, a branch or tag name, or a timestamp")
	}
	x, err := b.ExprWithoutColumns(node)
	if err != nil {
		return nil, err
	}
	if plan.UsesColumns(x.E) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "AS OF values must be constants")
	}
	if x.IsNull() {
		return nil, pgerr.New(pgerr.NullValueNotAllowed, "AS OF value must not be null")
	}
	if lit, ok := x.Literal(); ok {
		if !c.Timestamp {
			return lit, nil
		}
		x = bind.Bound{E: b.Coerce(x, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}), T: plan.TTimestamptz}
		if b.LitErr != nil {
			err := b.LitErr
			b.LitErr = nil
			return nil, err
		}
	}
	prog, err := expr.Compile(x.E, bind.EmptySchema, b.CompileOptions())
	if err != nil {
		return nil, err
	}
	one := array.NewRecordBatch(bind.EmptySchema, nil, 1)
	defer one.Release()
	arr, err := prog.Eval(b.Context(), one)
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	if arr.IsNull(0) {
		return nil, pgerr.New(pgerr.NullValueNotAllowed, "AS OF value must not be null")
	}
	switch a := arr.(type) {
	case *array.Int16:
		return int64(a.Value(0)), nil
	case *array.Int32:
		return int64(a.Value(0)), nil
	case *array.Int64:
		return a.Value(0), nil
	case *array.Float32:
		return float64(a.Value(0)), nil
	case *array.Float64:
		return a.Value(0), nil
	case *array.String:
		return a.Value(0), nil
	case *array.Timestamp:
		us := int64(a.Value(0))
		tt := a.DataType().(*arrow.TimestampType)
		if tt.Unit == arrow.Nanosecond {
			us /= 1000
		}
		if tt.TimeZone == "" {
			// timestamp without time zone: wall time in the session's zone.
			w := time.UnixMicro(us).UTC()
			return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), b.Env().Location()), nil
		}
		return time.UnixMicro(us), nil
	case *array.Date32:
		d := time.Unix(int64(a.Value(0))*86400, 0).UTC()
		return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, b.Env().Location()), nil
	}
	if expr.IsNumericType(arr.DataType()) || arr.DataType().ID() == arrow.DECIMAL128 {
		u, s := expr.DecimalValue(arr, 0)
		if s == 0 {
			return u.ToFloat64(0), nil
		}
		return u.ToFloat64(s), nil
	}
	return nil, pgerr.New(pgerr.DatatypeMismatch, "AS OF value of type %s is neither a version nor a time", expr.PGTypeName(arr.DataType()))
}

// snapshotAsOf returns the snapshot that was current at ms: the last entry
// of the snapshot log at or before it (or, without a log, the newest
// snapshot that old), nil when the table is younger.
func snapshotAsOf(m *catalog.TableMetadata, ms int64) *catalog.Snapshot {
	var best *catalog.SnapshotLogEntry
	for i := range m.SnapshotLog {
		e := &m.SnapshotLog[i]
		if e.TimestampMs <= ms && (best == nil || e.TimestampMs >= best.TimestampMs) {
			best = e
		}
	}
	if best != nil {
		return m.SnapshotByID(best.SnapshotID)
	}
	var snap *catalog.Snapshot
	for _, s := range m.Snapshots {
		if s.TimestampMs <= ms && (snap == nil || s.TimestampMs > snap.TimestampMs) {
			snap = s
		}
	}
	return snap
}

// oldestLeft names the oldest snapshot of m (for time travel by
// timestamp, the first the snapshot log lists) after a version that is not
// there, which expire_snapshots may have removed; "" without snapshots.
func oldestLeft(m *catalog.TableMetadata, byTime bool) string {
	var oldest *catalog.Snapshot
	if byTime && len(m.SnapshotLog) > 0 {
		oldest = m.SnapshotByID(m.SnapshotLog[0].SnapshotID)
	}
	if oldest == nil {
		for _, s := range m.Snapshots {
			if oldest == nil || s.TimestampMs < oldest.TimestampMs {
				oldest = s
			}
		}
	}
	if oldest == nil {
		return ""
	}
	return fmt.Sprintf("; the oldest snapshot left is %d, committed at %s", oldest.SnapshotID,
		time.UnixMilli(oldest.TimestampMs).UTC().Format("2006-01-02 15:04:05.000Z"))
}

// noSnapshot is the error for a version that does not exist: 22023 with the
// snapshots (id and time, oldest first) and refs that do.
func noSnapshot(m *catalog.TableMetadata, name, msg string) error {
	snaps := append([]*catalog.Snapshot(nil), m.Snapshots...)
	sort.Slice(snaps, func(i, j int) bool { return snaps[i].TimestampMs < snaps[j].TimestampMs })
	var parts []string
	for i, s := range snaps {
		if i == 20 {
			parts = append(parts, fmt.Sprintf("... (%d more)", len(snaps)-20))
			break
		}
		parts = append(parts, fmt.Sprintf("%d (%s)", s.SnapshotID, time.UnixMilli(s.TimestampMs).UTC().Format("2006-01-02 15:04:05.000Z")))
	}
	detail := "The table has no snapshots."
	if len(parts) > 0 {
		detail = "Existing snapshots: " + strings.Join(parts, ", ") + "."
	}
	if len(m.Refs) > 0 {
		var refs []string
		for n, r := range m.Refs {
			refs = append(refs, fmt.Sprintf("%s %s -> %d", r.Type, n, r.SnapshotID))
		}
		sort.Strings(refs)
		detail += " Branches and tags: " + strings.Join(refs, ", ") + "."
	}
	return pgerr.New(pgerr.InvalidParameterValue, "%s", msg).WithDetail("%s", detail)
}

// bindTimeTravel binds a table name followed by a time-travel clause.
func bindTimeTravel(b *bind.Binder, rv *pg.RangeVar, c *parse.AsOfClause, alias string, colAliases []string) (plan.Rel, error) {
	tn := parse.TableNameOf(rv)
	b.UntruncateTable(rv, &tn)
	t, err := b.Env().ResolveTable(b.Context(), tn)
	if err != nil {
		if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.UndefinedTable {
			if _, _, found, verr := b.Env().LookupView(b.Context(), tn); verr == nil && found {
				return nil, b.ErrAt(pgerr.Unsupported("time travel on a view (\"%s\")", tn.Written), c.Loc)
			}
		}
		return nil, b.ErrAt(err, rv.Location)
	}
	if t.Metadata == nil {
		return nil, pgerr.New(pgerr.DataCorrupted, "table %s has no metadata", tn.Written)
	}
	if err := b.CheckTablePrivilege(t, 'r'); err != nil {
		return nil, err
	}
	if c.Changes {
		return bindChanges(b, rv, tn, t, c, alias, colAliases)
	}
	snap, schema, err := timeTravel(b, t, tn.Written, c)
	if err != nil {
		return nil, b.ErrAt(err, c.Loc)
	}
	if schema == nil {
		return nil, pgerr.New(pgerr.DataCorrupted, "table %s has no schema for snapshot %d", tn.Written, snap.SnapshotID)
	}
	return b.BindTableAt(rv, tn, t, snap, schema, alias, colAliases)
}

// bindRefName binds Spark's spelling of a branch or tag as a table name,
// t.branch_<name> / t.tag_<name> (ns.t.branch_<name>), when the name
// resolves no table: ok is false when it is not such a name.
func bindRefName(b *bind.Binder, rv *pg.RangeVar, tn parse.TableName, alias string, colAliases []string) (plan.Rel, bool, error) {
	var kind, ref string
	switch {
	case strings.HasPrefix(tn.Name, "branch_"):
		kind, ref = "branch", strings.TrimPrefix(tn.Name, "branch_")
	case strings.HasPrefix(tn.Name, "tag_"):
		kind, ref = "tag", strings.TrimPrefix(tn.Name, "tag_")
	default:
		return nil, false, nil
	}
	if tn.Schema == "" || ref == "" {
		return nil, false, nil
	}
	base := parse.TableName{Schema: tn.Catalog, Name: tn.Schema, Written: tn.Written}
	t, err := b.Env().ResolveTable(b.Context(), base)
	if err != nil || t.Metadata == nil {
		return nil, false, nil
	}
	if err := b.CheckTablePrivilege(t, 'r'); err != nil {
		return nil, true, err
	}
	r, ok := t.Metadata.Refs[ref]
	if !ok || r.Type != kind {
		return nil, true, b.ErrAt(noSnapshot(t.Metadata, base.Schema+"."+base.Name, fmt.Sprintf("table \"%s\" has no %s \"%s\"", tn.Schema, kind, ref)), rv.Location)
	}
	snap, schema, err := timeTravel(b, t, tn.Schema, &parse.AsOfClause{Value: "'" + strings.ReplaceAll(ref, "'", "''") + "'"})
	if err != nil {
		return nil, true, b.ErrAt(err, rv.Location)
	}
	if alias == "" {
		alias = tn.Name
	}
	rel, err := b.BindTableAt(rv, base, t, snap, schema, alias, colAliases)
	return rel, true, err
}

// bindSnapshotFunction binds the time-travel table functions that plain
// PostgreSQL tools can send without a dialect:
// iceberg.snapshot('ns.t', <snapshot id | 'branch' | 'tag'>) and
// iceberg.as_of('ns.t', <timestamp | epoch seconds>). ok is false for any
// other FROM function.
func bindSnapshotFunction(b *bind.Binder, rf *pg.RangeFunction) (plan.Rel, bool, error) {
	if len(rf.Functions) != 1 || rf.Lateral || rf.Ordinality || rf.IsRowsfrom {
		return nil, false, nil
	}
	items := rf.Functions[0].GetList().GetItems()
	if len(items) == 0 {
		return nil, false, nil
	}
	fc := items[0].GetFuncCall()
	if parse.IsTableChangesCall(fc) {
		r, err := bindTableChanges(b, rf, fc)
		return r, true, err
	}
	if fc == nil || len(fc.Funcname) != 2 || fc.Funcname[0].GetString_().GetSval() != "iceberg" {
		return nil, false, nil
	}
	fn := fc.Funcname[1].GetString_().GetSval()
	if fn == "options" || fn == "option" {
		r, err := bindOptionsFunction(b, rf, fc, fn) // options_func.go
		return r, true, err
	}
	if fn != "snapshot" && fn != "as_of" {
		return nil, false, nil
	}
	if len(fc.Args) != 2 {
		return nil, true, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function iceberg.%s takes a table name and a %s", fn,
			map[string]string{"snapshot": "snapshot id, branch or tag", "as_of": "timestamp"}[fn]), fc.Location)
	}
	name := fc.Args[0].GetAConst().GetSval()
	if name == nil {
		return nil, true, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "the first argument of iceberg.%s must be a table name as a string constant", fn), fc.Location)
	}
	parts, perr := regtype.SplitQualifiedName(name.Sval)
	if perr != nil || len(parts) > 3 {
		return nil, true, b.ErrAt(pgerr.New(pgerr.InvalidParameterValue, "invalid table name \"%s\"", name.Sval), fc.Location)
	}
	rv := &pg.RangeVar{Relname: parts[len(parts)-1], Inh: true}
	if len(parts) >= 2 {
		rv.Schemaname = parts[len(parts)-2]
	}
	if len(parts) == 3 {
		rv.Catalogname = parts[0]
	}
	// The table's name is known by its text; errors point at the call.
	rv.Location = fc.Location
	rv.Alias = rf.Alias
	alias, colAliases := bind.AliasOf(rf.Alias)
	if alias == "" {
		alias = rv.Relname
	}
	c := &parse.AsOfClause{Timestamp: fn == "as_of", Node: fc.Args[1], Loc: fc.Location}
	r, err := bindTimeTravel(b, rv, c, alias, colAliases)
	return r, true, err
}
