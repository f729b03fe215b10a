package oracle

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// deleteRow is the row of the delete tables.
func deleteRow(i int) []any {
	return []any{int64(i), fmt.Sprintf("val-%d", i), int32(i % 10)}
}

func deleteSchema() *iceberg.Schema {
	return iceberg.NewSchema(0,
		field(1, "id", tLong, true),
		field(2, "val", tString, false),
		field(3, "grp", tInt, false),
	)
}

// deletesTable deletes rows with iceberg-go's Delete: whole files and
// parts of files, in the table's write.delete.mode (copy-on-write rewrites
// files, merge-on-read writes position deletes on v2 and deletion vectors
// on v3).
func deletesTable(name string, props iceberg.Properties, evidence ...string) oracleTable {
	return oracleTable{
		name:     name,
		props:    props,
		evidence: evidence,
		filters: []filterCase{
			{"id >= 90 AND id < 130", iceberg.NewAnd(iceberg.GreaterThanEqual(ref("id"), int64(90)), iceberg.LessThan(ref("id"), int64(130)))},
			{"grp = 3", iceberg.EqualTo(ref("grp"), int32(3))},
		},
		schema: deleteSchema(),
		fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
			tbl, err := appendRows(ctx, tbl, genRows(0, 150, deleteRow))
			if err != nil {
				return nil, err
			}
			if tbl, err = appendRows(ctx, tbl, genRows(150, 300, deleteRow)); err != nil {
				return nil, err
			}
			if tbl, err = appendRows(ctx, tbl, genRows(300, 320, deleteRow)); err != nil {
				return nil, err
			}
			id := iceberg.Reference("id")
			filters := []iceberg.BooleanExpression{
				iceberg.LessThan(id, int64(20)),
				iceberg.NewAnd(iceberg.GreaterThanEqual(id, int64(100)), iceberg.LessThan(id, int64(110))),
				iceberg.EqualTo(iceberg.Reference("grp"), int32(7)),
				iceberg.GreaterThanEqual(id, int64(300)),
			}
			for _, f := range filters {
				if tbl, err = tbl.Delete(ctx, f, nil); err != nil {
					return nil, fmt.Errorf("delete %s: %w", f, err)
				}
			}
			return appendRows(ctx, tbl, genRows(330, 340, deleteRow))
		},
	}
}

// equalityDeletesTable deletes by key with an equality delete file, then
// re-inserts one deleted key (a later sequence number: it stays).
func equalityDeletesTable() oracleTable {
	return oracleTable{
		name:     "deletes_equality",
		schema:   deleteSchema(),
		evidence: []string{"added-equality-delete-files"},
		fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
			tbl, err := appendRows(ctx, tbl, genRows(0, 200, deleteRow))
			if err != nil {
				return nil, err
			}
			keys := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
			rec, err := buildRecord(keys, [][]any{{int64(5)}, {int64(77)}, {int64(150)}, {int64(199)}, {int64(1000)}})
			if err != nil {
				return nil, err
			}
			tx := tbl.NewTransaction()
			records := func(yield func(arrow.RecordBatch, error) bool) { yield(rec, nil) }
			if err := tx.CommitEqualityDeletes(ctx, []int{1}, records, nil); err != nil {
				return nil, fmt.Errorf("equality deletes: %w", err)
			}
			if tbl, err = tx.Commit(ctx); err != nil {
				return nil, err
			}
			return appendRows(ctx, tbl, [][]any{deleteRow(5), deleteRow(500)})
		},
	}
}

// overwriteTable replaces the rows a filter selects with new ones.
func overwriteTable() oracleTable {
	return oracleTable{
		name:     "overwrite",
		schema:   deleteSchema(),
		evidence: []string{"deleted-data-files"},
		fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
			tbl, err := appendRows(ctx, tbl, genRows(0, 200, deleteRow))
			if err != nil {
				return nil, err
			}
			sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, false, false)
			if err != nil {
				return nil, err
			}
			rec, err := buildRecord(sc, genRows(1000, 1030, deleteRow))
			if err != nil {
				return nil, err
			}
			defer rec.Release()
			at := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
			defer at.Release()
			return tbl.OverwriteTable(ctx, at, 1024, nil, table.WithOverwriteFilter(iceberg.LessThan(iceberg.Reference("id"), int64(50))))
		},
	}
}
