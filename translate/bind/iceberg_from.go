package bind

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// The binder's side of Iceberg's own FROM items (package
// translate/icebergfrom, found through Env.IcebergFrom): a table read at a
// version (VERSION / TIMESTAMP AS OF, t.branch_b, iceberg.snapshot and
// iceberg.as_of), its changes (CHANGES BETWEEN, iceberg.table_changes), its
// metadata tables (t$snapshots) and iceberg.options(); and the API they
// bind with. The binder asks at the places from.go and tablefunc.go try
// them; the definitions add their FROM item to the query's scope
// (AddItem) or bind the table at a snapshot (BindTableAt).

// IcebergFrom binds Iceberg's own FROM items and iceberg.* functions.
type IcebergFrom interface {
	// TimeTravel binds a table name followed by a time-travel or CHANGES
	// BETWEEN clause.
	TimeTravel(b *Binder, rv *pg.RangeVar, c *parse.AsOfClause, alias string, colAliases []string) (plan.Rel, error)
	// RefName binds Spark's t.branch_<name> / t.tag_<name> when the name
	// resolves no table; ok is false when it is not such a name.
	RefName(b *Binder, rv *pg.RangeVar, tn parse.TableName, alias string, colAliases []string) (r plan.Rel, ok bool, err error)
	// MetadataTable binds a metadata table (ns.t$snapshots, ns.t.files);
	// ok is false when tn names none.
	MetadataTable(b *Binder, rv *pg.RangeVar, tn parse.TableName, alias string, colAliases []string) (r plan.Rel, ok bool, err error)
	// Function binds the iceberg.* table functions in FROM; ok is false
	// for any other function.
	Function(b *Binder, rf *pg.RangeFunction) (r plan.Rel, ok bool, err error)
	// Call binds a call of iceberg.fn in an expression.
	Call(b *Binder, fc *pg.FuncCall, fn string) (Bound, error)
}

func (b *Binder) bindTimeTravel(rv *pg.RangeVar, c *parse.AsOfClause, alias string, colAliases []string) (plan.Rel, error) {
	f := b.env.IcebergFrom()
	if f == nil {
		return nil, b.ErrAt(pgerr.NotYet("time travel"), c.Loc)
	}
	return f.TimeTravel(b, rv, c, alias, colAliases)
}

func (b *Binder) bindRefName(rv *pg.RangeVar, tn parse.TableName, alias string, colAliases []string) (plan.Rel, bool, error) {
	if f := b.env.IcebergFrom(); f != nil {
		return f.RefName(b, rv, tn, alias, colAliases)
	}
	return nil, false, nil
}

func (b *Binder) bindMetadataTable(rv *pg.RangeVar, tn parse.TableName, alias string, colAliases []string) (plan.Rel, bool, error) {
	if f := b.env.IcebergFrom(); f != nil {
		return f.MetadataTable(b, rv, tn, alias, colAliases)
	}
	return nil, false, nil
}

func (b *Binder) bindSnapshotFunction(rf *pg.RangeFunction) (plan.Rel, bool, error) {
	if f := b.env.IcebergFrom(); f != nil {
		return f.Function(b, rf)
	}
	return nil, false, nil
}

func (b *Binder) icebergFunc(fc *pg.FuncCall, fn string) (Bound, error) {
	f := b.env.IcebergFrom()
	if f == nil {
		return Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function iceberg.%s does not exist", fn), fc.Location)
	}
	return f.Call(b, fc, fn)
}

// ItemCol is a column of a FROM item AddItem adds.
type ItemCol struct {
	Name  string
	T     plan.Type
	Arrow arrow.DataType
}

// AddItem adds a FROM item with columns cols to the query's scope and
// returns their ids: tn is the name it was written with (for a table),
// alias its alias ("" when none) and name the name it is referred to by
// without one.
func (b *Binder) AddItem(tn parse.TableName, alias, name string, cols []ItemCol) []plan.ColID {
	it := &rangeItem{tn: tn, alias: alias, name: name}
	ids := make([]plan.ColID, len(cols))
	for i, c := range cols {
		ids[i] = b.newCol(c.Name, c.T, c.Arrow)
		it.cols = append(it.cols, itemCol{name: c.Name, id: ids[i]})
	}
	b.scope.items = append(b.scope.items, it)
	return ids
}

// BindTableAt binds table t, written tn, read at snapshot with schema, as
// a FROM item.
func (b *Binder) BindTableAt(rv *pg.RangeVar, tn parse.TableName, t *catalog.Table, snapshot *catalog.Snapshot, schema *catalog.Schema, alias string, colAliases []string) (plan.Rel, error) {
	return b.bindTableAt(rv, tn, t, snapshot, schema, alias, colAliases)
}

// ExprWithoutColumns binds n where no column is in scope (a constant
// such as an AS OF value).
func (b *Binder) ExprWithoutColumns(n *pg.Node) (Bound, error) {
	saved := b.scope
	b.scope = &scope{}
	x, err := b.Expr(n)
	b.scope = saved
	return x, err
}

// Literal is x's text when x is an untyped string literal.
func (x Bound) Literal() (string, bool) {
	if x.lit == nil {
		return "", false
	}
	return *x.lit, true
}

// AliasOf is an alias clause's name and column names.
func AliasOf(a *pg.Alias) (string, []string) { return aliasOf(a) }

// Context is the statement's context.
func (b *Binder) Context() context.Context { return b.ctx }

// Stmt is the statement being bound.
func (b *Binder) Stmt() parse.Stmt { return b.stmt }
