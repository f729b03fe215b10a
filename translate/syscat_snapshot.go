package translate

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/translate/enumtype"
	"github.com/icegate/icegate/translate/indexexec"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/settings"
	pg "github.com/pganalyze/pg_query_go/v6"
)

// SysSnapshot returns the snapshot of the warehouse that the catalog
// relations and functions of the current statement read. It is built once
// per statement execution (sysGen changes between them) and reused by
// every catalog relation and function of that statement.
func (s *session) SysSnapshot(ctx context.Context) (*syscat.Snapshot, error) {
	if s.sys != nil && s.sysAt == s.sysGen {
		return s.sys, nil
	}
	snap, err := s.buildSysSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	s.sys, s.sysAt = snap, s.sysGen
	return snap, nil
}

// newStatementSnapshot makes the next sysSnapshot read the warehouse anew:
// called when a statement starts executing.
func (s *session) newStatementSnapshot() { s.sysGen++ }

// buildSysSnapshot reads the warehouse's namespaces, tables and views.
func (s *session) buildSysSnapshot(ctx context.Context) (*syscat.Snapshot, error) {
	ver, _ := s.settings.Get("server_version")
	snap := &syscat.Snapshot{
		Database:      s.database,
		User:          s.CurrentUser(),
		ServerVersion: ver,
		SearchPath:    s.settings.SearchPath(),
		Session: syscat.SessionInfo{
			PID:             s.pid,
			ApplicationName: s.Setting("application_name"),
			BackendStart:    s.started,
		},
		Procedures: s.backend.procs.list(),
		Copies:     s.backend.copies.list(),
		Sessions:   s.sessionInfos(),
	}
	access, err := s.syscatAccess(ctx) // privilege_syscat.go
	if err != nil {
		return nil, err
	}
	snap.Access = access
	for _, c := range s.backend.cats {
		if c.Name() != s.database {
			snap.OtherDatabases = append(snap.OtherDatabases, c.Name())
		}
	}
	snap.PreparedStatements = s.preparedStatements()
	for _, d := range settings.Defs {
		v, _ := s.settings.Get(d.Name)
		row := syscat.Setting{Name: d.Name, Setting: v, Description: d.Doc,
			Context: settingContext(d), Vartype: "string", Source: "default", BootVal: d.Default, ResetVal: d.Default}
		if ss := d.Server; ss != nil {
			row.Setting, row.BootVal, row.ResetVal = settings.RawServer(ss, v), ss.BootVal, ss.BootVal
			row.Unit, row.Category, row.Vartype, row.EnumVals = ss.Unit, ss.Category, ss.Vartype, ss.EnumVals
		}
		if row.Setting != row.BootVal {
			row.Source = "session"
		}
		snap.Settings = append(snap.Settings, row)
	}
	namespaces, err := s.cat.ListNamespaces(ctx)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.IOError, "list namespaces: %v", err)
	}
	for _, ns := range namespaces {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name := strings.Join(ns, ".")
		snap.Namespaces = append(snap.Namespaces, &syscat.Namespace{Name: name})
		ids, err := s.cat.ListTables(ctx, ns)
		if err != nil {
			return nil, pgerr.Wrap(err, pgerr.IOError, "list tables of %s: %v", name, err)
		}
		for _, id := range ids {
			t, err := s.cat.LoadTable(ctx, id)
			if err != nil {
				// A table another engine is writing, or a broken one, must not
				// hide the rest of the catalog from a client's browser.
				s.backend.log.Warn("system catalog: skip table", "table", id.Name, "namespace", name, "err", err)
				continue
			}
			if enumtype.Is(t) { // a type, not a relation (enum_ddl.go)
				if labels, err := enumtype.Labels(t); err == nil {
					snap.Enums = append(snap.Enums, &syscat.Enum{Namespace: name, Name: t.Ident.Name, Labels: labels})
				}
				continue
			}
			snap.Relations = append(snap.Relations, sysTableRelation(name, t))
			s.appendMetaTableRelations(snap, name, t)
		}
		vids, err := s.cat.ListViews(ctx, ns)
		if err != nil {
			return nil, pgerr.Wrap(err, pgerr.IOError, "list views of %s: %v", name, err)
		}
		for _, id := range vids {
			v, err := s.cat.LoadView(ctx, id)
			if err != nil {
				s.backend.log.Warn("system catalog: skip view", "view", id.Name, "namespace", name, "err", err)
				continue
			}
			snap.Relations = append(snap.Relations, sysViewRelation(name, v))
		}
	}
	hasPublic := false
	for _, n := range snap.Namespaces {
		hasPublic = hasPublic || n.Name == "public"
	}
	if !hasPublic {
		// PostgreSQL always has public, and clients look for it (the
		// default of search_path); it holds no tables until one is made.
		snap.Namespaces = append(snap.Namespaces, &syscat.Namespace{Name: "public"})
	}
	for _, n := range snap.Namespaces {
		if n.Name == "public" && n.Comment == "" {
			n.Comment = "standard public schema"
		}
	}
	snap.Index()
	unqualifyVisibleSequences(snap) // defaults_syscat.go
	return snap, nil
}

// sysTableRelation describes an Iceberg table for pg_class and friends.
func sysTableRelation(ns string, t *catalog.Table) *syscat.Relation {
	r := &syscat.Relation{Namespace: ns, Name: t.Ident.Name, Kind: 'r', Rows: -1, Bytes: -1, Files: -1}
	m := t.Metadata
	if m == nil {
		return r
	}
	r.Properties = m.Properties
	r.Comment = m.Properties["comment"]
	r.Location = m.Location
	r.LastUpdated = time.UnixMilli(m.LastUpdatedMs).UTC()
	schema := m.CurrentSchema()
	if schema != nil {
		r.Columns = sysAttributes(schema, plan.RecordedTypes(m.Properties))
		enumAttributes(r.Columns, schema, bind.EnumColumns(m.Properties)) // enum_ddl.go
		r.Indexes = indexexec.Kept(m.Properties, schema)
		for _, id := range schema.IdentifierFieldIDs {
			for i, f := range schema.Fields {
				if f.ID == id {
					r.PrimaryKey = append(r.PrimaryKey, int16(i+1))
				}
			}
		}
		if spec := m.SpecByID(m.DefaultSpecID); spec != nil && len(spec.Fields) > 0 {
			var parts []string
			for _, f := range spec.Fields {
				src := fmt.Sprint(f.SourceID)
				if sf := schema.FindField(f.SourceID); sf != nil {
					src = sf.Name
				}
				parts = append(parts, partitionKeyText(f.Transform.String(), src))
			}
			r.PartitionKey = strings.Join(parts, ", ")
		}
	}
	r.Rows, r.Bytes, r.Files = 0, 0, 0
	if snap := m.CurrentSnapshot(); snap != nil {
		r.Rows = summaryOr(snap.Summary, "total-records")
		r.Bytes = summaryOr(snap.Summary, "total-files-size")
		r.Files = summaryOr(snap.Summary, "total-data-files")
	}
	sysDefaults(r, t) // defaults_syscat.go
	return r
}

// partitionKeyText renders one partition field as icegate's partitioning
// option spells it: identity as the column, else transform(arg, column).
func partitionKeyText(transform, col string) string {
	switch {
	case transform == "identity":
		return col
	case strings.HasPrefix(transform, "bucket[") || strings.HasPrefix(transform, "truncate["):
		i := strings.IndexByte(transform, '[')
		return transform[:i] + "(" + strings.TrimSuffix(transform[i+1:], "]") + ", " + col + ")"
	}
	return transform + "(" + col + ")"
}

// summaryOr reads an integer field of a snapshot summary, -1 when absent.
func summaryOr(m map[string]string, key string) int64 {
	if n, ok := plan.SummaryInt(m, key); ok {
		return n
	}
	return -1
}

// viewReads lists the relations a view's query names, as (namespace,
// name); an unqualified name is taken to be in the view's namespace. A
// query pg_query cannot parse (another engine's dialect) names none.
func viewReads(ns, sql string) [][2]string {
	tree, err := pg.Parse(sql)
	if err != nil {
		return nil
	}
	var out [][2]string
	for _, st := range tree.Stmts {
		bind.WalkAST(st.ProtoReflect(), func(m bind.ProtoreflectMessage) bool {
			if rv, ok := m.Interface().(*pg.RangeVar); ok && rv.Relname != "" {
				schema := rv.Schemaname
				if schema == "" {
					schema = ns
				}
				out = append(out, [2]string{schema, rv.Relname})
			}
			return true
		})
	}
	return out
}

// sysViewRelation describes a catalog view for pg_class and friends.
func sysViewRelation(ns string, v *catalog.View) *syscat.Relation {
	r := &syscat.Relation{Namespace: ns, Name: v.Ident.Name, Kind: 'v', Rows: -1, Bytes: -1, Files: -1}
	if sql, _, ok := v.SQL(); ok {
		r.ViewDef = sql
		r.Reads = viewReads(ns, sql)
	}
	if v.Metadata != nil {
		r.Properties = v.Metadata.Properties
		r.Comment = v.Metadata.Properties["comment"]
		r.Location = v.Metadata.Location
	}
	if schema := v.Schema(); schema != nil {
		var rec map[int]plan.Type
		if v.Metadata != nil {
			rec = plan.RecordedTypes(v.Metadata.Properties)
		}
		r.Columns = sysAttributes(schema, rec)
	}
	return r
}

// sysAttributes are the columns of schema as pg_attribute lists them, typed
// by the PostgreSQL types rec records (plan.PGTypesProperty).
func sysAttributes(schema *catalog.Schema, rec map[int]plan.Type) []syscat.Attribute {
	var out []syscat.Attribute
	for _, f := range schema.Fields {
		t := plan.TypeOfField(f, rec)
		a := syscat.Attribute{Name: f.Name, Type: t.OID, Typmod: t.Typmod, NotNull: f.Required, Comment: f.Doc}
		if pgtypes.ElemOf(t.OID) != 0 {
			a.NDims = int32(max(1, plan.ArrayDims(f.Type)))
		}
		if f.WriteDefault != nil {
			a.Default = sqlLiteral(f.WriteDefault, t)
		}
		out = append(out, a)
	}
	return out
}

// sqlLiteral renders a constant column default as pg_get_expr shows it.
// PostgreSQL keeps the constant as written, coerced to the column's type
// without its length or precision (the typmod coercion is an implicit
// cast it does not print): a string literal is shown with the type's name
// ('new'::character varying for varchar(10), 'x'::bpchar for char(3)); a
// number as the integer or numeric literal it was, quoted with its type
// when negative ('-1'::integer).
func sqlLiteral(v any, t plan.Type) string {
	label := plan.Type{OID: t.OID, Typmod: -1}.String()
	quoted := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'::" + label }
	signed := func(s, typ string) string {
		if strings.HasPrefix(s, "-") {
			return "'" + s + "'::" + typ
		}
		return s
	}
	switch x := v.(type) {
	case string:
		return quoted(x)
	case bool:
		return strconv.FormatBool(x)
	case int8, int16, int32, int64:
		if t.OID != pgtypes.Date && t.OID != pgtypes.Time && t.OID != pgtypes.Timestamp && t.OID != pgtypes.Timestamptz {
			n, _ := strconv.ParseInt(fmt.Sprint(v), 10, 64)
			if n >= math.MinInt32 {
				return signed(fmt.Sprint(v), "integer")
			}
			return signed(fmt.Sprint(v), "bigint")
		}
	case float32, float64:
		f, _ := strconv.ParseFloat(fmt.Sprint(v), 64)
		switch {
		case f >= 0:
			return fmt.Sprint(v)
		case f == math.Trunc(f) && f >= math.MinInt32:
			return signed(fmt.Sprint(v), "integer")
		}
		return signed(fmt.Sprint(v), "numeric")
	}
	// Other values (decimals, dates, times, timestamps, uuids, bytes) are
	// written by the cast to text PostgreSQL's output uses: a decimal as a
	// numeric constant, the others as a typed string.
	lit, ok := expr.Fold(&expr.Cast{Arg: &expr.Lit{V: v, T: plan.ArrowOf(t)}, T: expr.Text}).(*expr.Lit)
	if !ok {
		return fmt.Sprint(v)
	}
	text, ok := lit.V.(string)
	if !ok {
		return fmt.Sprint(v)
	}
	if t.OID == pgtypes.Numeric {
		return signed(text, "numeric")
	}
	return quoted(text)
}

// settingContext is pg_settings.context of a setting.
func settingContext(d settings.Def) string {
	if d.Server != nil {
		return d.Server.Context
	}
	if d.ReadOnly {
		return "internal"
	}
	return "user"
}
