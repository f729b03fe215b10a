package icebergfrom

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/changelog"
	"github.com/icegate/icegate/translate/metatable"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/regtype"
)

// The change log of a table: for each snapshot after a start (exclusive)
// up to an end (inclusive) on the end's ancestry, the rows it inserted
// and the rows it deleted, with the table's columns (the end's schema)
// and _change_type ('INSERT' / 'DELETE'), _change_ordinal (0 for the
// first snapshot after the start) and _commit_snapshot_id. Snapshots
// whose operation is replace (compactions) change no data and are left
// out, as Iceberg's changelog scan does. Written
//
//	t CHANGES BETWEEN VERSION a AND b   (or TIMESTAMP a AND b)
//	iceberg.table_changes('ns.t', a [, b])
//
// where a and b are snapshot ids, branch or tag names or timestamps; a
// NULL start means from the table's first snapshot, a missing or NULL
// end the table's current snapshot.

// bindTableChanges binds iceberg.table_changes('ns.t', start [, end]).
func bindTableChanges(b *bind.Binder, rf *pg.RangeFunction, fc *pg.FuncCall) (plan.Rel, error) {
	if rf.Lateral || rf.Ordinality || rf.IsRowsfrom || len(rf.Functions) != 1 {
		return nil, b.ErrAt(pgerr.NotYet("table_changes with LATERAL, WITH ORDINALITY or ROWS FROM"), fc.Location)
	}
	if len(fc.Args) < 2 || len(fc.Args) > 3 {
		return nil, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function iceberg.table_changes takes a table name, a start and an optional end (snapshot ids, branch or tag names or timestamps)"), fc.Location)
	}
	name := fc.Args[0].GetAConst().GetSval()
	if name == nil {
		return nil, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "the first argument of iceberg.table_changes must be a table name as a string constant"), fc.Location)
	}
	parts, perr := regtype.SplitQualifiedName(name.Sval)
	if perr != nil || len(parts) > 3 {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidParameterValue, "invalid table name \"%s\"", name.Sval), fc.Location)
	}
	rv := &pg.RangeVar{Relname: parts[len(parts)-1], Inh: true, Location: fc.Location, Alias: rf.Alias}
	if len(parts) >= 2 {
		rv.Schemaname = parts[len(parts)-2]
	}
	if len(parts) == 3 {
		rv.Catalogname = parts[0]
	}
	alias, colAliases := bind.AliasOf(rf.Alias)
	if alias == "" {
		alias = "table_changes"
	}
	c := &parse.AsOfClause{Changes: true, Node: fc.Args[1], Loc: fc.Location}
	if len(fc.Args) == 3 {
		c.ToNode = fc.Args[2]
	} else {
		c.To = "NULL"
	}
	return bindTimeTravel(b, rv, c, alias, colAliases)
}

// bindChanges binds the change log of table t between the snapshots the
// clause c names.
func bindChanges(b *bind.Binder, rv *pg.RangeVar, tn parse.TableName, t *catalog.Table, c *parse.AsOfClause, alias string, colAliases []string) (plan.Rel, error) {
	m := t.Metadata
	from, _, err := changesEnd(b, t, tn.Written, c.Timestamp, c.Value, c.Node, c.Loc, true)
	if err != nil {
		return nil, b.ErrAt(err, c.Loc)
	}
	to, branch, err := changesEnd(b, t, tn.Written, c.Timestamp, c.To, c.ToNode, c.Loc, false)
	if err != nil {
		return nil, b.ErrAt(err, c.Loc)
	}
	steps, err := changelog.Steps(m, tn.Written, from, to)
	if err != nil {
		return nil, b.ErrAt(err, c.Loc)
	}
	schema := m.CurrentSchema()
	if to != nil && !branch {
		schema = metatable.SnapshotSchema(m, to)
	}
	if schema == nil {
		return nil, pgerr.New(pgerr.DataCorrupted, "table %s has no schema", tn.Written)
	}
	cols := bind.ColumnsOfTable(t, schema)
	if len(colAliases) > len(cols)+len(changelog.Columns) {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
			tn.Name, len(cols)+len(changelog.Columns), len(colAliases)), rv.Location)
	}
	r := &changelog.Rel{Table: t, Schema: schema, From: from, To: to, Steps: steps, Name: tn.Written}
	if alias == "" {
		alias = tn.Name
	}
	var items []bind.ItemCol
	for _, col := range cols {
		r.FieldIDs = append(r.FieldIDs, col.FieldID)
		items = append(items, bind.ItemCol{Name: col.Name, T: col.Type, Arrow: col.Arrow})
	}
	for _, cc := range changelog.Columns {
		items = append(items, bind.ItemCol{Name: cc.Name, T: cc.Typ, Arrow: plan.ArrowOf(cc.Typ)})
	}
	for i := range colAliases {
		items[i].Name = colAliases[i]
	}
	r.Cols = b.AddItem(parse.TableName{}, alias, tn.Name, items)
	return r, nil
}

// changesEnd resolves one end of a change log: a snapshot id, a branch or
// tag name, a timestamp or epoch seconds (the snapshot current then), or
// NULL (the start: before the first snapshot, nil; the end: the table's
// current snapshot). branch reports an end named by a branch, read with
// the table's current schema.
func changesEnd(b *bind.Binder, t *catalog.Table, name string, timestamp bool, text string, node *pg.Node, loc int32, start bool) (snap *catalog.Snapshot, branch bool, err error) {
	m := t.Metadata
	which := "end"
	if start {
		which = "start"
	}
	if isNullValue(text, node) {
		if start {
			return nil, false, nil
		}
		return b.Env().ReadSnapshot(t), false, nil
	}
	v, err := asOfValue(b, &parse.AsOfClause{Timestamp: timestamp, Value: text, Node: node, Loc: loc})
	if err != nil {
		return nil, false, err
	}
	atTime := func(us int64) (*catalog.Snapshot, bool, error) {
		s := snapshotAsOf(m, us/1000)
		if s == nil && !start {
			return nil, false, noSnapshot(m, name, fmt.Sprintf("no snapshot of table \"%s\" is as old as %s", name,
				time.UnixMicro(us).In(b.Env().Location()).Format("2006-01-02 15:04:05.999999-07")))
		}
		return s, false, nil
	}
	switch x := v.(type) {
	case int64:
		if timestamp {
			return atTime(x * 1e6)
		}
		s := m.SnapshotByID(x)
		if s == nil {
			return nil, false, noSnapshot(m, name, fmt.Sprintf("table \"%s\" has no snapshot %d (the %s of its changes)", name, x, which))
		}
		return s, false, nil
	case float64:
		if timestamp {
			return atTime(int64(x * 1e6))
		}
	case time.Time:
		return atTime(x.UnixMicro())
	case string:
		if ref, ok := m.Refs[x]; ok {
			s := m.SnapshotByID(ref.SnapshotID)
			if s == nil {
				return nil, false, noSnapshot(m, name, fmt.Sprintf("%s \"%s\" of table \"%s\" points to snapshot %d, which no longer exists", ref.Type, x, name, ref.SnapshotID))
			}
			return s, ref.Type == "branch", nil
		}
		if id, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64); err == nil {
			if s := m.SnapshotByID(id); s != nil {
				return s, false, nil
			}
			return nil, false, noSnapshot(m, name, fmt.Sprintf("table \"%s\" has no snapshot %d (the %s of its changes)", name, id, which))
		}
		// Neither a ref nor an id: a timestamp written as a string.
		tv, terr := asOfValue(b, &parse.AsOfClause{Timestamp: true, Value: text, Node: node, Loc: loc})
		if tt, ok := tv.(time.Time); terr == nil && ok {
			return atTime(tt.UnixMicro())
		}
		return nil, false, noSnapshot(m, name, fmt.Sprintf("table \"%s\" has no branch or tag \"%s\" (the %s of its changes), and it is not a timestamp", name, x, which))
	}
	return nil, false, pgerr.New(pgerr.DatatypeMismatch, "the %s of a table's changes must be a snapshot id, a branch or tag name or a timestamp, not %v", which, v)
}

// isNullValue reports whether the value (text or parsed node) is NULL.
func isNullValue(text string, node *pg.Node) bool {
	if node != nil {
		c := node.GetAConst()
		return c != nil && c.Isnull
	}
	return strings.EqualFold(strings.TrimSpace(text), "null")
}
