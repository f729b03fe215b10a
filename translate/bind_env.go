package translate

import (
	"context"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/parse"
)

// viewDef is a view a name resolved to.
type viewDef struct {
	ident     catalog.Identifier // the catalog's name; for a temp view its name alone
	temp      bool
	sql       string
	dialect   string // of sql: "postgres" for views icegate made
	defaultNS []string
	columns   []string // the view's column names
}

// optionValue is an option's value in effect and the level it comes from;
// null when no level gives one and it has no default.
type optionValue struct {
	value  string
	null   bool
	source string
}

// env is what binding needs of the session, and all it sees of it: names
// resolved against the catalog and search_path, the snapshot a table is
// read at, the session's identity and settings.
type env interface {
	// resolveTable finds the table a 1-3 part name refers to (42P01 if none).
	resolveTable(ctx context.Context, tn parse.TableName) (*catalog.Table, error)
	// resolveView finds the view a name refers to (nil if none).
	resolveView(ctx context.Context, tn parse.TableName) (*viewDef, error)
	// lookupView finds a view's query and default namespace.
	lookupView(ctx context.Context, tn parse.TableName) (sql string, defaultNS []string, found bool, err error)
	// isTempView reports whether name is a temporary view of the session.
	isTempView(name string) bool
	// readSnapshot is the snapshot the statement reads t at (the block's,
	// or the WAP branch's).
	readSnapshot(t *catalog.Table) *catalog.Snapshot
	// sysSnapshot is the statement's view of the system catalogs.
	sysSnapshot(ctx context.Context) (*syscat.Snapshot, error)
	// effectiveOption resolves an Iceberg option across the statement's
	// hint, the session and the table's properties.
	effectiveOption(o *conf.IcebergOption, stmt, props map[string]string) optionValue
	Location() *time.Location // TimeZone
	currentUser() string
	sessionUser() string
	databaseName() string
	catalogName() string
	currentSchema(ctx context.Context) string
	searchPath() []string
	setting(name string) (string, bool)
	backendPID() int32
	backendStarted() time.Time
	// currentSetting and setConfig run current_setting() and set_config()
	// with their arguments when the statement does.
	currentSetting(args []any) (any, error)
	setConfig(args []any) (any, error)
	// txid is txid_current()'s value: the statement's generation.
	txid() int64
	// optionRows are the rows of iceberg.options() for opts.
	optionRows(opts []conf.IcebergOption, stmt, props map[string]string) [][]any
}

// query is the SELECT a view stands for: its stored query as a subquery
// whose output is exactly the view's columns. The stored text alone would
// lose the names of the view's column list (CREATE VIEW v (a, b) AS
// SELECT 1, 2) and, for a query with *, would grow with its tables, where
// PostgreSQL fixes a view's columns when it is made.
func (v *viewDef) query() string {
	if len(v.columns) == 0 {
		return v.sql
	}
	q := make([]string, len(v.columns))
	for i, c := range v.columns {
		q[i] = quoteIdent(c)
	}
	list := strings.Join(q, ", ")
	// The newline ends a line comment the stored text might end with.
	return "SELECT " + list + " FROM (" + v.sql + "\n) AS " + quoteIdent(v.ident.Name) + " (" + list + ")"
}

// quoteIdent quotes a name as a SQL identifier.
func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
