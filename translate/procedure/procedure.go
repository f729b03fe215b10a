package procedure

import (
	"context"
	"slices"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgtypes"
)

// Procedure is one CALL-able procedure.
type Procedure struct {
	Name    string           // Spark's name: "expire_snapshots"
	Params  []Param          // in Spark's positional order
	Columns []pgtypes.Column // result columns, Spark's names
	// Run does the work and returns the result rows; values are Go values
	// of the column types: int64, int32, string, bool, time.Time, nil.
	Run func(ctx context.Context, env Env, args Args) ([][]any, error)
}

// Param is one parameter of a procedure.
type Param struct {
	Name     string
	Type     ArgType
	Required bool
	// Default is used when the argument is absent (or NULL) and the
	// parameter is not Required; nil leaves it absent from Args.
	Default any
}

// ArgType is the type of a parameter; it fixes the Go type of its value in
// Args.
type ArgType int

// The parameter types and the Go type of their values.
const (
	String     ArgType = iota + 1 // string
	Long                          // int64
	Int                           // int64 (range of a 4-byte integer)
	Bool                          // bool
	Timestamp                     // time.Time
	Map                           // map[string]string
	LongList                      // []int64
	StringList                    // []string
)

// String names the type as messages show it (PostgreSQL's type names).
func (t ArgType) String() string {
	switch t {
	case String:
		return "text"
	case Long:
		return "bigint"
	case Int:
		return "integer"
	case Bool:
		return "boolean"
	case Timestamp:
		return "timestamp with time zone"
	case Map:
		return "map"
	case LongList:
		return "bigint[]"
	case StringList:
		return "text[]"
	}
	return "unknown"
}

// elem is the element type of a list type.
func (t ArgType) elem() ArgType {
	switch t {
	case LongList:
		return Long
	case StringList:
		return String
	}
	return 0
}

// Env is what a procedure sees of the session.
type Env interface {
	// Table resolves a table-name argument as Spark writes it ('t', 'db.t',
	// 'catalog.db.t'), loads the table and returns the catalog to commit
	// to. Errors are pgerr errors (42P01 ...).
	Table(ctx context.Context, name string) (*catalog.Table, catalog.MutableCatalog, error)
	// Notice sends a NOTICE to the client (progress of long procedures).
	Notice(ctx context.Context, msg string)
	// Now is the statement's clock (older_than defaults are relative to it).
	Now() time.Time
}

// An Env may also offer, checked by type assertion so that the contract
// above stays what every procedure needs: Warehouse() (string, bool), the
// local warehouse directory add_files reads its sources from; and
// RegisterTable(ctx, name, metadataFile) (*catalog.Table, error), which
// creates a table from a metadata file for register_table; and
// CreateTempView(ctx, name, query) error (TempViewEnv), a temporary view of
// the session for create_changelog_view; CreateTable / DropTable
// (snapshot_table.go's tableCreator) for snapshot, TableDirectory for
// migrate, and RewriteFilter(ctx, t, where) (RewriteFilterEnv), the file
// predicates of rewrite_data_files' where condition. translate's callEnv
// implements them (call_env_addfiles.go, call_env_register.go,
// call_env_changelog.go, call_env_snapshot.go, call_env_rewrite.go).

// Lookup finds a procedure by its name (lower case, without "system.").
func Lookup(name string) (*Procedure, bool) {
	for _, p := range Builtins() {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// Names lists the procedures' names, sorted, for hints.
func Names() []string {
	var out []string
	for _, p := range Builtins() {
		out = append(out, p.Name)
	}
	slices.Sort(out)
	return out
}

// param finds a parameter by name.
func (p *Procedure) param(name string) (int, bool) {
	for i, q := range p.Params {
		if q.Name == name {
			return i, true
		}
	}
	return -1, false
}
