package bind

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/parse"
)

// testEnv is an Env over a catalog declared in a testdata file, with no
// session, warehouse files or data. A catalog case declares, one a line:
//
//	table NS.NAME (COL TYPE [not null], ...) [rows N]
//	view NS.NAME [(COL, ...)] AS SELECT ...
//	search_path SCHEMA, ...
//
// Types are Iceberg's as the spec spells them (int, long, string, double,
// decimal(p,s), date, timestamp, timestamptz, boolean...). "rows N" is
// the total-records of the table's one snapshot. search_path defaults to
// "public, default"; as in the session, an unqualified name not found
// through it resolves in the only namespace when there is just one.
//
// The settings are fixed: TimeZone UTC, user "tester", database and
// catalog "icegate". What the cases do not need fails with 0A000: the
// system catalogs, current_setting and set_config.
type testEnv struct {
	tables     map[string]*catalog.Table // by "ns.name"
	views      map[string]*ViewDef
	namespaces []string // in declaration order
	searchPath []string
}

const testCatalogName = "icegate"

func parseTestCatalog(src string) (*testEnv, error) {
	env := &testEnv{tables: map[string]*catalog.Table{}, views: map[string]*ViewDef{}, searchPath: []string{"public", "default"}}
	addNS := func(ns string) {
		for _, n := range env.namespaces {
			if n == ns {
				return
			}
		}
		env.namespaces = append(env.namespaces, ns)
	}
	for n, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		switch {
		case strings.HasPrefix(line, "table "):
			t, err := parseTestTable(strings.TrimPrefix(line, "table "))
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			key := t.Ident.Namespace[0] + "." + t.Ident.Name
			if env.tables[key] != nil || env.views[key] != nil {
				return nil, fmt.Errorf("line %d: %s declared twice", n+1, key)
			}
			env.tables[key] = t
			addNS(t.Ident.Namespace[0])
		case strings.HasPrefix(line, "view "):
			v, err := parseTestView(strings.TrimPrefix(line, "view "))
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			key := v.Ident.Namespace[0] + "." + v.Ident.Name
			if env.tables[key] != nil || env.views[key] != nil {
				return nil, fmt.Errorf("line %d: %s declared twice", n+1, key)
			}
			env.views[key] = v
			addNS(v.Ident.Namespace[0])
		case strings.HasPrefix(line, "search_path "):
			env.searchPath = nil
			for _, s := range strings.Split(strings.TrimPrefix(line, "search_path "), ",") {
				env.searchPath = append(env.searchPath, strings.TrimSpace(s))
			}
		default:
			return nil, fmt.Errorf("line %d: want table, view or search_path", n+1)
		}
	}
	return env, nil
}

// splitName splits NS.NAME.
func splitName(s string) (ns, name string, err error) {
	ns, name, ok := strings.Cut(strings.TrimSpace(s), ".")
	if !ok || ns == "" || name == "" || strings.Contains(name, ".") {
		return "", "", fmt.Errorf("want NS.NAME, got %q", s)
	}
	return ns, name, nil
}

// splitTop splits s at the commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func parseTestTable(rest string) (*catalog.Table, error) {
	const want = "want table NS.NAME (COL TYPE, ...) [rows N]"
	open, close := strings.Index(rest, "("), strings.LastIndex(rest, ")")
	if open < 0 || close < open {
		return nil, fmt.Errorf("%s", want)
	}
	ns, name, err := splitName(rest[:open])
	if err != nil {
		return nil, err
	}
	schema := &catalog.Schema{ID: 0}
	for i, col := range splitTop(rest[open+1 : close]) {
		col = strings.TrimSpace(col)
		required := false
		if c, ok := strings.CutSuffix(strings.ToLower(col), " not null"); ok {
			col, required = strings.TrimSpace(col[:len(c)]), true
		}
		cname, typ, ok := strings.Cut(col, " ")
		if !ok {
			return nil, fmt.Errorf("column %q: want NAME TYPE", col)
		}
		pt, err := catalog.ParseType(typ)
		if err != nil {
			return nil, fmt.Errorf("column %q: %v", col, err)
		}
		schema.Fields = append(schema.Fields, catalog.NestedField{ID: i + 1, Name: cname, Required: required, Type: pt})
	}
	snap := &catalog.Snapshot{SnapshotID: 1, SequenceNumber: 1, TimestampMs: testNow.UnixMilli(), Summary: map[string]string{"operation": "append"}}
	if tail := strings.Fields(rest[close+1:]); len(tail) > 0 {
		if len(tail) != 2 || tail[0] != "rows" {
			return nil, fmt.Errorf("after the columns, %s", want)
		}
		if _, err := strconv.ParseInt(tail[1], 10, 64); err != nil {
			return nil, fmt.Errorf("bad row count %q", tail[1])
		}
		snap.Summary["total-records"] = tail[1]
	}
	cur := int64(1)
	return &catalog.Table{
		Ident: catalog.Identifier{Namespace: []string{ns}, Name: name},
		Metadata: &catalog.TableMetadata{
			FormatVersion:      2,
			TableUUID:          "00000000-0000-0000-0000-000000000001",
			LastSequenceNumber: 1,
			LastColumnID:       len(schema.Fields),
			Schemas:            []*catalog.Schema{schema},
			PartitionSpecs:     []*catalog.PartitionSpec{{ID: 0}},
			Properties:         map[string]string{},
			CurrentSnapshotID:  &cur,
			Snapshots:          []*catalog.Snapshot{snap},
			Refs:               map[string]catalog.SnapshotRef{"main": {SnapshotID: 1, Type: "branch"}},
		},
	}, nil
}

func parseTestView(rest string) (*ViewDef, error) {
	const want = "want view NS.NAME [(COL, ...)] AS SELECT ..."
	i := strings.Index(strings.ToUpper(rest), " AS ")
	if i < 0 {
		return nil, fmt.Errorf("%s", want)
	}
	head, sql := strings.TrimSpace(rest[:i]), strings.TrimSpace(rest[i+4:])
	var cols []string
	if open := strings.Index(head, "("); open >= 0 {
		if !strings.HasSuffix(head, ")") {
			return nil, fmt.Errorf("%s", want)
		}
		for _, c := range strings.Split(head[open+1:len(head)-1], ",") {
			cols = append(cols, strings.TrimSpace(c))
		}
		head = strings.TrimSpace(head[:open])
	}
	ns, name, err := splitName(head)
	if err != nil {
		return nil, err
	}
	return &ViewDef{Ident: catalog.Identifier{Namespace: []string{ns}, Name: name}, SQL: sql,
		Dialect: catalog.DialectPostgres, DefaultNS: []string{ns}, Columns: cols}, nil
}

// namespacesOf are the namespaces to look an unqualified or qualified
// name up in, in order, as the session's resolution does (search_path,
// then the only namespace).
func (e *testEnv) namespacesOf(tn parse.TableName) []string {
	if tn.Schema != "" {
		return []string{tn.Schema}
	}
	ns := append([]string(nil), e.searchPath...)
	if len(e.namespaces) == 1 {
		ns = append(ns, e.namespaces[0])
	}
	return ns
}

func (e *testEnv) checkCatalog(tn parse.TableName) error {
	if tn.Catalog != "" && tn.Catalog != testCatalogName {
		return pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: \"%s\"", tn.Written)
	}
	return nil
}

func (e *testEnv) ResolveTable(_ context.Context, tn parse.TableName) (*catalog.Table, error) {
	if err := e.checkCatalog(tn); err != nil {
		return nil, err
	}
	for _, ns := range e.namespacesOf(tn) {
		if t := e.tables[ns+"."+tn.Name]; t != nil {
			return t, nil
		}
	}
	return nil, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", tn.Written)
}

func (e *testEnv) ResolveView(_ context.Context, tn parse.TableName) (*ViewDef, error) {
	if err := e.checkCatalog(tn); err != nil {
		return nil, err
	}
	for _, ns := range e.namespacesOf(tn) {
		if v := e.views[ns+"."+tn.Name]; v != nil {
			return v, nil
		}
	}
	return nil, nil
}

func (e *testEnv) LookupView(ctx context.Context, tn parse.TableName) (string, []string, bool, error) {
	v, err := e.ResolveView(ctx, tn)
	if err != nil || v == nil {
		return "", nil, false, err
	}
	return v.Query(), v.DefaultNS, true, nil
}

// IsTempView: the test catalog has no temporary views.
func (e *testEnv) IsTempView(string) bool { return false }

// SysFuncs: the binder's tests call no catalog function (package
// translate/sysfunc has them, and imports this one).
func (e *testEnv) SysFuncs() SysFuncs { return nil }

// SparkFuncs: nor any of Spark's (package translate/sparkfunc).
func (e *testEnv) SparkFuncs() FuncDefs { return nil }

// IcebergFrom: nor time travel or metadata tables (package
// translate/icebergfrom).
func (e *testEnv) IcebergFrom() IcebergFrom { return nil }

// JSONFuncs: nor the JSON building functions (package translate/jsonfunc).
func (e *testEnv) JSONFuncs() JSONFuncs { return nil }

// RegTypes: nor the reg* casts (package translate/regtype, which imports
// this one).
func (e *testEnv) RegTypes() RegTypes { return nil }

func (e *testEnv) ReadSnapshot(t *catalog.Table) *catalog.Snapshot {
	return t.Metadata.CurrentSnapshot()
}

// SysSnapshot: the system catalogs (pg_class, regclass...) need a whole
// session; binder tests do not have them.
func (e *testEnv) SysSnapshot(context.Context) (*syscat.Snapshot, error) {
	return nil, pgerr.NotYetPlural("system catalogs in binder tests")
}

// EffectiveOption: no hint or session level; the table property, else
// the option's default.
func (e *testEnv) EffectiveOption(o *conf.IcebergOption, stmt, props map[string]string) OptionValue {
	if v, ok := stmt[o.Name]; ok {
		return OptionValue{Value: v, Source: "statement"}
	}
	if o.Property != "" {
		if v, ok := props[o.Property]; ok {
			return OptionValue{Value: v, Source: "table"}
		}
	}
	if o.Default == "" {
		return OptionValue{Null: true, Source: "default"}
	}
	return OptionValue{Value: o.Default, Source: "default"}
}

func (e *testEnv) Location() *time.Location { return time.UTC }
func (e *testEnv) CurrentUser() string      { return "tester" }
func (e *testEnv) SessionUser() string      { return "tester" }
func (e *testEnv) DatabaseName() string     { return testCatalogName }
func (e *testEnv) CatalogName() string      { return testCatalogName }
func (e *testEnv) SearchPath() []string     { return e.searchPath }

func (e *testEnv) CurrentSchema(context.Context) string {
	for _, s := range e.searchPath {
		for _, ns := range e.namespaces {
			if s == ns {
				return s
			}
		}
	}
	return ""
}

func (e *testEnv) SettingValue(name string) (string, bool) {
	switch strings.ToLower(name) {
	case "timezone":
		return "UTC", true
	case "search_path":
		return strings.Join(e.searchPath, ", "), true
	case "datestyle":
		return "ISO, MDY", true
	case "intervalstyle":
		return "postgres", true
	}
	return "", false
}

func (e *testEnv) BackendPID() int32         { return 4242 }
func (e *testEnv) BackendStarted() time.Time { return testNow }
func (e *testEnv) Txid() int64               { return 1001 }

// CurrentSetting and SetConfig run at execution in a session; binder
// tests do not execute.
func (e *testEnv) CurrentSetting([]any) (any, error) {
	return nil, pgerr.NotYet("current_setting in binder tests")
}

func (e *testEnv) Backends() Backends { return nil }

func (e *testEnv) SetConfig([]any) (any, error) {
	return nil, pgerr.NotYet("set_config in binder tests")
}

// OptionRows: iceberg.options() rows are the session's; none here.
func (e *testEnv) OptionRows([]conf.IcebergOption, map[string]string, map[string]string) [][]any {
	return nil
}

// testNow is the statement time of every case.
var testNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

var _ Env = (*testEnv)(nil)
