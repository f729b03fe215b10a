package bind

import (
	"context"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/parse"
)

// ViewDef is a view a name resolved to.
type ViewDef struct {
	Ident     catalog.Identifier // the catalog's name; for a temp view its name alone
	Temp      bool
	SQL       string
	Dialect   string // of sql: "postgres" for views icegate made
	DefaultNS []string
	Columns   []string // the view's column names
}

// OptionValue is an option's value in effect and the level it comes from;
// null when no level gives one and it has no default.
type OptionValue struct {
	Value  string
	Null   bool
	Source string
}

// Env is what binding needs of the session, and all it sees of it: names
// resolved against the catalog and search_path, the snapshot a table is
// read at, the session's identity and settings.
type Env interface {
	// ResolveTable finds the table a 1-3 part name refers to (42P01 if none).
	ResolveTable(ctx context.Context, tn parse.TableName) (*catalog.Table, error)
	// ResolveView finds the view a name refers to (nil if none).
	ResolveView(ctx context.Context, tn parse.TableName) (*ViewDef, error)
	// LookupView finds a view's query and default namespace.
	LookupView(ctx context.Context, tn parse.TableName) (sql string, defaultNS []string, found bool, err error)
	// IsTempView reports whether name is a temporary view of the session.
	IsTempView(name string) bool
	// ReadSnapshot is the snapshot the statement reads t at (the block's,
	// or the WAP branch's).
	ReadSnapshot(t *catalog.Table) *catalog.Snapshot
	// SysFuncs are the system catalog functions the statement may call
	// (format_type, pg_get_indexdef, has_table_privilege, ...).
	SysFuncs() SysFuncs
	// SparkFuncs are the functions of Spark's the statement may call
	// (named_struct, nvl, datediff, ...).
	SparkFuncs() FuncDefs
	// JSONFuncs binds the JSON building functions and aggregates
	// (json_build_object, to_json, json_agg...; nil: none).
	JSONFuncs() JSONFuncs
	// RegTypes binds the casts of the object identifier types (regclass,
	// regtype...; nil: none).
	RegTypes() RegTypes
	// IcebergFrom binds Iceberg's own FROM items: time travel, CHANGES
	// BETWEEN, metadata tables, iceberg.options() (nil: none).
	IcebergFrom() IcebergFrom
	// SysSnapshot is the statement's view of the system catalogs.
	SysSnapshot(ctx context.Context) (*syscat.Snapshot, error)
	// EffectiveOption resolves an Iceberg option across the statement's
	// hint, the session and the table's properties.
	EffectiveOption(o *conf.IcebergOption, stmt, props map[string]string) OptionValue
	Location() *time.Location // TimeZone
	CurrentUser() string
	SessionUser() string
	DatabaseName() string
	CatalogName() string
	CurrentSchema(ctx context.Context) string
	SearchPath() []string
	SettingValue(name string) (string, bool)
	BackendPID() int32
	BackendStarted() time.Time
	// CurrentSetting and SetConfig run current_setting() and set_config()
	// with their arguments when the statement does.
	CurrentSetting(args []any) (any, error)
	SetConfig(args []any) (any, error)
	// Backends are the server's sessions and advisory locks, for the
	// administration functions (nil: none).
	Backends() Backends
	// Txid is txid_current()'s value: the statement's generation.
	Txid() int64
	// OptionRows are the rows of iceberg.options() for opts.
	OptionRows(opts []conf.IcebergOption, stmt, props map[string]string) [][]any
}

// Query is the SELECT a view stands for: its stored query as a subquery
// whose output is exactly the view's columns. The stored text alone would
// lose the names of the view's column list (CREATE VIEW v (a, b) AS
// SELECT 1, 2) and, for a query with *, would grow with its tables, where
// PostgreSQL fixes a view's columns when it is made.
func (v *ViewDef) Query() string {
	if len(v.Columns) == 0 {
		return v.SQL
	}
	q := make([]string, len(v.Columns))
	for i, c := range v.Columns {
		q[i] = quoteIdent(c)
	}
	list := strings.Join(q, ", ")
	// The newline ends a line comment the stored text might end with.
	return "SELECT " + list + " FROM (" + v.SQL + "\n) AS " + quoteIdent(v.Ident.Name) + " (" + list + ")"
}

// quoteIdent quotes a name as a SQL identifier.
func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
