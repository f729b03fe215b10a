package procedure

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// create_changelog_view(table, changelog_view, options, net_changes,
// compute_updates, identifier_columns): Spark's procedure that creates a
// temporary view (of the session, as CREATE TEMP VIEW) over the table's
// change log, the rows of iceberg.table_changes with _change_type,
// _change_ordinal and _commit_snapshot_id:
//
//   - options: start-snapshot-id (exclusive), end-snapshot-id (inclusive),
//     start-timestamp, end-timestamp (milliseconds since the epoch); the
//     default is every change up to the current snapshot;
//   - compute_updates: a DELETE and an INSERT of the same identifier
//     columns' values in the same snapshot become UPDATE_BEFORE and
//     UPDATE_AFTER; identifier_columns default to the table's identifier
//     fields, and naming them turns compute_updates on;
//   - net_changes: rows inserted and deleted again within the range leave
//     nothing; what remains is each distinct row's net insertion or
//     deletion.
//
// As in Spark, the rows a copy-on-write commit rewrote unchanged (a DELETE
// and an INSERT of the same row in one snapshot: carry-overs) are left
// out; that takes every column as a window partition key, so a table with
// nested columns keeps its carry-overs and has no net_changes.
//
// The view's name defaults to <table>_changes; an existing temporary view
// of that name is replaced. The result is the view's name.

// TempViewEnv is what create_changelog_view needs of the session besides
// Env: creating (or replacing) a temporary view of a SELECT's text. The
// session's Env implements it.
type TempViewEnv interface {
	CreateTempView(ctx context.Context, name, query string) error
}

func changelogProcedures() []*Procedure {
	return []*Procedure{
		{Name: "create_changelog_view",
			Params: []Param{tableParam, {Name: "changelog_view", Type: String}, {Name: "options", Type: Map},
				{Name: "net_changes", Type: Bool, Default: false}, {Name: "compute_updates", Type: Bool},
				{Name: "identifier_columns", Type: StringList}},
			Columns: []pgtypes.Column{textColumn("changelog_view")}, Run: createChangelogView},
	}
}

// changelogOptions are the option keys create_changelog_view takes.
var changelogOptions = []string{"start-snapshot-id", "end-snapshot-id", "start-timestamp", "end-timestamp"}

func createChangelogView(ctx context.Context, env Env, args Args) ([][]any, error) {
	tv, ok := env.(TempViewEnv)
	if !ok {
		return nil, pgerr.NotYet("create_changelog_view in this session")
	}
	name, _ := args.String("table")
	t, _, err := env.Table(ctx, name)
	if err != nil {
		return nil, err
	}
	m := t.Metadata
	view, ok := args.String("changelog_view")
	if !ok || view == "" {
		view = t.Ident.Name + "_changes"
	}
	opts, _ := args.Map("options")
	start, end, endSnap, err := changelogRange(m, opts)
	if err != nil {
		return nil, err
	}
	schema := m.CurrentSchema()
	if endSnap != nil && endSnap.SchemaID != nil {
		if s := m.SchemaByID(*endSnap.SchemaID); s != nil {
			schema = s
		}
	}
	net, _ := args.Bool("net_changes")
	idNames, named := args.StringList("identifier_columns")
	updates, set := args.Bool("compute_updates")
	if !set {
		updates = named && len(idNames) > 0
	}
	if net && updates {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "net_changes and compute_updates cannot both be set").
			WithHint("Net changes leave one row per distinct row; update images pair rows by identifier columns.")
	}

	qualified := make([]string, 0, len(t.Ident.Namespace)+1)
	for _, p := range append(slices.Clone(t.Ident.Namespace), t.Ident.Name) {
		qualified = append(qualified, quoteName(p))
	}
	source := fmt.Sprintf("iceberg.table_changes(%s, %s, %s) AS c", quoteString(strings.Join(qualified, ".")), start, end)
	var cols []string
	for _, f := range schema.Fields {
		cols = append(cols, quoteName(f.Name))
	}
	meta := "_change_ordinal, _commit_snapshot_id"
	flat := true // every column can be a window partition key
	for _, f := range schema.Fields {
		if _, ok := f.Type.(*catalog.PrimitiveType); !ok {
			flat = false
		}
	}
	all := "PARTITION BY " + strings.Join(cols, ", ")
	if flat {
		// Copy-on-write commits rewrite files: the rows they keep come out
		// as a DELETE and an INSERT of the same row in the same snapshot.
		// As Spark does, such pairs (carry-overs) are removed.
		source = fmt.Sprintf(`(SELECT %s, _change_type, %s
	FROM (SELECT c.*, sum(CASE WHEN c._change_type = 'INSERT' THEN 1 ELSE 0 END) OVER (%s, c._change_ordinal) AS __ins,
		sum(CASE WHEN c._change_type = 'DELETE' THEN 1 ELSE 0 END) OVER (%s, c._change_ordinal) AS __del,
		row_number() OVER (%s, c._change_ordinal, c._change_type) AS __rn
		FROM %s) AS y
	WHERE __rn > CASE WHEN __ins < __del THEN __ins ELSE __del END) AS c`, strings.Join(cols, ", "), meta, all, all, all, source)
	}
	var query string
	switch {
	case updates:
		ids, err := identifierColumns(schema, idNames)
		if err != nil {
			return nil, err
		}
		part := "PARTITION BY " + strings.Join(ids, ", ") + ", c._change_ordinal"
		query = fmt.Sprintf(`SELECT %s, CASE WHEN __d = 1 AND __i = 1 THEN CASE _change_type WHEN 'DELETE' THEN 'UPDATE_BEFORE' ELSE 'UPDATE_AFTER' END ELSE _change_type END AS _change_type, %s
FROM (SELECT c.*, sum(CASE WHEN c._change_type = 'DELETE' THEN 1 ELSE 0 END) OVER (%s) AS __d,
	sum(CASE WHEN c._change_type = 'INSERT' THEN 1 ELSE 0 END) OVER (%s) AS __i
	FROM %s) AS x`, strings.Join(cols, ", "), meta, part, part, source)
	case net:
		if !flat {
			return nil, pgerr.NotYet("net_changes of a table with nested columns")
		}
		query = fmt.Sprintf(`SELECT %s, _change_type, %s
FROM (SELECT c.*, sum(CASE WHEN c._change_type = 'INSERT' THEN 1 ELSE -1 END) OVER (%s) AS __net,
	row_number() OVER (%s, c._change_type ORDER BY CASE WHEN c._change_type = 'INSERT' THEN -c._change_ordinal ELSE c._change_ordinal END) AS __rn
	FROM %s) AS x
WHERE (__net > 0 AND _change_type = 'INSERT' AND __rn <= __net) OR (__net < 0 AND _change_type = 'DELETE' AND __rn <= -__net)`,
			strings.Join(cols, ", "), meta, all, all, source)
	default:
		query = "SELECT * FROM " + source
	}
	if err := tv.CreateTempView(ctx, view, query); err != nil {
		return nil, err
	}
	return [][]any{{view}}, nil
}

// changelogRange turns the options into table_changes' start and end
// arguments (SQL text) and the end snapshot (nil: the current one).
func changelogRange(m *catalog.TableMetadata, opts map[string]string) (start, end string, endSnap *catalog.Snapshot, err error) {
	for k := range opts {
		if !slices.Contains(changelogOptions, k) {
			return "", "", nil, pgerr.New(pgerr.InvalidParameterValue, "unknown option \"%s\" of create_changelog_view", k).
				WithHint("The options are %s.", strings.Join(changelogOptions, ", "))
		}
	}
	bound := func(which string) (string, *catalog.Snapshot, error) {
		id, hasID := opts[which+"-snapshot-id"]
		ts, hasTS := opts[which+"-timestamp"]
		switch {
		case hasID && hasTS:
			return "", nil, pgerr.New(pgerr.InvalidParameterValue, "cannot set both %s-snapshot-id and %s-timestamp", which, which)
		case hasID:
			n, err := strconv.ParseInt(strings.TrimSpace(id), 10, 64)
			if err != nil {
				return "", nil, pgerr.New(pgerr.InvalidParameterValue, "option %s-snapshot-id: invalid snapshot id \"%s\"", which, id)
			}
			s := m.SnapshotByID(n)
			if s == nil {
				return "", nil, pgerr.New(pgerr.InvalidParameterValue, "option %s-snapshot-id: snapshot %d does not exist", which, n)
			}
			return strconv.FormatInt(n, 10), s, nil
		case hasTS:
			ms, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64)
			if err != nil {
				return "", nil, pgerr.New(pgerr.InvalidParameterValue, "option %s-timestamp: invalid timestamp \"%s\" (milliseconds since the epoch)", which, ts)
			}
			return quoteString(time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000+00")), nil, nil
		}
		return "NULL", nil, nil
	}
	if start, _, err = bound("start"); err != nil {
		return "", "", nil, err
	}
	if end, endSnap, err = bound("end"); err != nil {
		return "", "", nil, err
	}
	return start, end, endSnap, nil
}

// identifierColumns are the quoted names of the columns compute_updates
// pairs rows by: the named ones, or the schema's identifier fields.
func identifierColumns(schema *catalog.Schema, names []string) ([]string, error) {
	var out []string
	if len(names) == 0 {
		for _, id := range schema.IdentifierFieldIDs {
			for _, f := range schema.Fields {
				if f.ID == id {
					out = append(out, quoteName(f.Name))
				}
			}
		}
		if len(out) == 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot compute the update images: the table has no identifier fields").
				WithHint("Name them with identifier_columns => array['id'].")
		}
		return out, nil
	}
	for _, n := range names {
		i := slices.IndexFunc(schema.Fields, func(f catalog.NestedField) bool { return strings.EqualFold(f.Name, n) })
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "identifier column \"%s\" does not exist", n)
		}
		out = append(out, quoteName(schema.Fields[i].Name))
	}
	return out, nil
}

// quoteName quotes an identifier for SQL text.
func quoteName(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes a string literal for SQL text.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
