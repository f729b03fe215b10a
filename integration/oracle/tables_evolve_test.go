package oracle

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// evolveTable changes its schema between appends: add, promote, rename and
// drop columns.
func evolveTable() oracleTable {
	sc := iceberg.NewSchema(0,
		field(1, "id", tLong, true),
		field(2, "a", tString, false),
		field(3, "b", tInt, false),
		field(4, "p", tInt, false),
		field(5, "f", tFloat, false),
	)
	return oracleTable{
		name:   "evolve",
		schema: sc,
		fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
			tbl, err := appendRows(ctx, tbl, genRows(0, 100, func(i int) []any {
				return []any{int64(i), fmt.Sprintf("a%d", i), int32(i), int32(-i * 1000), float32(i) / 10}
			}))
			if err != nil {
				return nil, err
			}
			// add c; promote p int -> long and f float -> double
			tx := tbl.NewTransaction()
			if err := tx.UpdateSchema(true, false).
				AddColumn([]string{"c"}, tDouble, "", false, nil).
				UpdateColumn([]string{"p"}, table.ColumnUpdate{FieldType: iceberg.Optional[iceberg.Type]{Valid: true, Val: tLong}}).
				UpdateColumn([]string{"f"}, table.ColumnUpdate{FieldType: iceberg.Optional[iceberg.Type]{Valid: true, Val: tDouble}}).
				Commit(); err != nil {
				return nil, fmt.Errorf("add/promote columns: %w", err)
			}
			if tbl, err = tx.Commit(ctx); err != nil {
				return nil, err
			}
			tbl, err = appendRows(ctx, tbl, genRows(100, 200, func(i int) []any {
				return []any{int64(i), fmt.Sprintf("a%d", i), int32(i), int64(i) << 40, float64(i) / 3, float64(i) * 1.5}
			}))
			if err != nil {
				return nil, err
			}
			tx = tbl.NewTransaction()
			if err := tx.UpdateSchema(true, false).RenameColumn([]string{"a"}, "A_Renamed").Commit(); err != nil {
				return nil, fmt.Errorf("rename column: %w", err)
			}
			if tbl, err = tx.Commit(ctx); err != nil {
				return nil, err
			}
			tbl, err = appendRows(ctx, tbl, genRows(200, 300, func(i int) []any {
				return []any{int64(i), fmt.Sprintf("r%d", i), int32(i), int64(i), nil, float64(i)}
			}))
			if err != nil {
				return nil, err
			}
			tx = tbl.NewTransaction()
			if err := tx.UpdateSchema(true, false).DeleteColumn([]string{"b"}).
				AddColumn([]string{"b"}, tString, "", false, nil).Commit(); err != nil {
				return nil, fmt.Errorf("drop and re-add column: %w", err)
			}
			if tbl, err = tx.Commit(ctx); err != nil {
				return nil, err
			}
			return appendRows(ctx, tbl, genRows(300, 350, func(i int) []any {
				return []any{int64(i), fmt.Sprintf("r%d", i), int64(i), float64(i), float64(-i), fmt.Sprintf("new-b-%d", i)}
			}))
		},
	}
}

// v3Table uses what only format v3 has: nanosecond timestamps and columns
// added with a default that rows written before read back.
func v3Table() oracleTable {
	sc := iceberg.NewSchema(0,
		field(1, "id", tLong, true),
		field(2, "ts_ns", iceberg.PrimitiveTypes.TimestampNs, false),
		field(3, "tstz_ns", iceberg.PrimitiveTypes.TimestampTzNs, false),
	)
	gen := func(i int) []any {
		row := []any{
			int64(i),
			pick(i, []arrow.Timestamp{-1, 1, 999, 1_000, -1_000_001}, arrow.Timestamp(int64(i)*86_400_123_456_789)),
			pick(i, []arrow.Timestamp{-1, 1_700_000_000_123_456_789}, arrow.Timestamp(1_600_000_000_000_000_000+int64(i)*7_777_777_777)),
		}
		for c := 1; c < len(row); c++ {
			if nullAt(i, c, -1) {
				row[c] = nil
			}
		}
		return row
	}
	return oracleTable{
		name:   "v3_features",
		props:  iceberg.Properties{table.PropertyFormatVersion: "3"},
		schema: sc,
		fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
			tbl, err := appendRows(ctx, tbl, genRows(0, 100, gen))
			if err != nil {
				return nil, err
			}
			tx := tbl.NewTransaction()
			if err := tx.UpdateSchema(true, false).
				AddColumn([]string{"with_default"}, tLong, "", false, iceberg.NewLiteral(int64(42))).
				AddColumn([]string{"s_default"}, tString, "", false, iceberg.NewLiteral("dflt")).
				Commit(); err != nil {
				return nil, fmt.Errorf("add columns with defaults: %w", err)
			}
			if tbl, err = tx.Commit(ctx); err != nil {
				return nil, err
			}
			return appendRows(ctx, tbl, genRows(100, 150, func(i int) []any {
				return append(gen(i), pick(i-100, []any{nil}, any(int64(i))), fmt.Sprintf("s%d", i))
			}))
		},
	}
}
