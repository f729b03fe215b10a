package translate

import (
	pg "github.com/pganalyze/pg_query_go/v6"
)

// bindMetadataTable binds an Iceberg metadata table (ns.t$snapshots,
// "t$files", ns.t.snapshots...) as a FROM item; ok is false when tn names
// no metadata table. A time-travel clause after the name
// (b.stmt.asOf[rv.Location]) reads the metadata of that snapshot.
func (b *binder) bindMetadataTable(rv *pg.RangeVar, tn tableName, alias string, colAliases []string) (r rel, ok bool, err error) {
	return nil, false, nil
}
