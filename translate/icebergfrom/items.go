package icebergfrom

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// Items binds Iceberg's own FROM items for the binder (bind.Env.IcebergFrom).
type Items struct{}

var _ bind.IcebergFrom = Items{}

// TimeTravel binds a table name followed by a time-travel or CHANGES
// BETWEEN clause (asof.go, changes.go).
func (Items) TimeTravel(b *bind.Binder, rv *pg.RangeVar, c *parse.AsOfClause, alias string, colAliases []string) (plan.Rel, error) {
	return bindTimeTravel(b, rv, c, alias, colAliases)
}

// RefName binds t.branch_<name> and t.tag_<name> (asof.go).
func (Items) RefName(b *bind.Binder, rv *pg.RangeVar, tn parse.TableName, alias string, colAliases []string) (plan.Rel, bool, error) {
	return bindRefName(b, rv, tn, alias, colAliases)
}

// MetadataTable binds t$snapshots and the other metadata tables
// (metatable.go).
func (Items) MetadataTable(b *bind.Binder, rv *pg.RangeVar, tn parse.TableName, alias string, colAliases []string) (plan.Rel, bool, error) {
	return bindMetadataTable(b, rv, tn, alias, colAliases)
}

// Function binds iceberg.snapshot, as_of, table_changes, options and
// option in FROM (asof.go, changes.go, options.go).
func (Items) Function(b *bind.Binder, rf *pg.RangeFunction) (plan.Rel, bool, error) {
	return bindSnapshotFunction(b, rf)
}

// Call binds iceberg.option(...) in an expression (options.go).
func (Items) Call(b *bind.Binder, fc *pg.FuncCall, fn string) (bind.Bound, error) {
	return icebergFunc(b, fc, fn)
}
