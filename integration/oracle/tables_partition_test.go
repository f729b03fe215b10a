package oracle

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

// partValueTable is partitioned by identity, bucket and truncate. One
// region is the empty string: iceberg-go v0.7.0 then writes the manifest
// list's partition summary without a lower bound, and its own filtered scan
// prunes every file for region = '...' (icegate reads them correctly), so
// the filters here leave region equality out.
func partValueTable() oracleTable {
	sc := iceberg.NewSchema(0,
		field(1, "id", tLong, true),
		field(2, "region", tString, false),
		field(3, "name", tString, false),
		field(4, "qty", tInt, false),
		field(5, "amount", iceberg.DecimalTypeOf(10, 2), false),
		field(6, "code", tUUID, false),
	)
	regions := []string{"emea", "apac", "amer", ""}
	gen := func(i int) []any {
		var region any = regions[i%len(regions)]
		if i%13 == 7 {
			region = nil
		}
		var name any = fmt.Sprintf("%c%c-name-%d", 'a'+i%5, 'a'+i%3, i)
		if i%17 == 3 {
			name = nil
		}
		return []any{int64(i), region, name, int32(i*31 - 400), decimal128.FromI64(int64(i)*1001 - 77_777), uuid.NewSHA1(uuid.NameSpaceURL, fmt.Appendf(nil, "%d", i))}
	}
	return oracleTable{
		name:   "part_values",
		schema: sc,
		filters: []filterCase{
			{"region IS NULL", iceberg.IsNull(ref("region"))},
			{"id = 17", iceberg.EqualTo(ref("id"), int64(17))},
			{"name >= 'b' AND name < 'c'", iceberg.NewAnd(iceberg.GreaterThanEqual(ref("name"), "b"), iceberg.LessThan(ref("name"), "c"))},
			{"qty >= 0 AND qty < 1000", iceberg.NewAnd(iceberg.GreaterThanEqual(ref("qty"), int32(0)), iceberg.LessThan(ref("qty"), int32(1000)))},
		},
		spec: []partitionField{
			{"region", "region", iceberg.IdentityTransform{}},
			{"id", "id_bucket", iceberg.BucketTransform{NumBuckets: 8}},
			{"name", "name_trunc", iceberg.TruncateTransform{Width: 3}},
			{"qty", "qty_trunc", iceberg.TruncateTransform{Width: 100}},
			{"code", "code_bucket", iceberg.BucketTransform{NumBuckets: 4}},
		},
		fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
			tbl, err := appendRows(ctx, tbl, genRows(0, 150, gen))
			if err != nil {
				return nil, err
			}
			return appendRows(ctx, tbl, genRows(150, 300, gen))
		},
	}
}

// partTimeTable is partitioned by year, month, day and hour.
func partTimeTable() oracleTable {
	sc := iceberg.NewSchema(0,
		field(1, "id", tLong, true),
		field(2, "d", tDate, false),
		field(3, "ts", tTs, false),
		field(4, "tstz", tTstz, false),
		field(5, "ts2", tTs, false),
		field(6, "v", tString, false),
	)
	gen := func(i int) []any {
		row := []any{
			int64(i),
			arrow.Date32(i*53 - 3000),
			arrow.Timestamp(int64(i)*11*day + int64(i)*7_777_777 - 400*day),
			arrow.Timestamp(1_500_000_000_000_000 + int64(i)*5*3_600_000_000 - int64(i%7)),
			arrow.Timestamp(1_600_000_000_000_000 + int64(i)*1_234_567_891),
			fmt.Sprintf("v%d", i),
		}
		for c := 1; c < 5; c++ {
			if i%19 == c {
				row[c] = nil
			}
		}
		return row
	}
	return oracleTable{
		name:   "part_time",
		schema: sc,
		filters: []filterCase{
			{"d < DATE '1962-01-01'", iceberg.LessThan(ref("d"), days(1962, 1, 1))},
			{"ts >= TIMESTAMP '1971-03-01 00:00:00' AND ts < TIMESTAMP '1972-01-01 00:00:00'",
				iceberg.NewAnd(iceberg.GreaterThanEqual(ref("ts"), micros(1971, 3, 1, 0)), iceberg.LessThan(ref("ts"), micros(1972, 1, 1, 0)))},
			{"tstz >= TIMESTAMPTZ '2017-07-20 00:00:00+00' AND tstz < TIMESTAMPTZ '2017-07-25 00:00:00+00'",
				iceberg.NewAnd(iceberg.GreaterThanEqual(ref("tstz"), micros(2017, 7, 20, 0)), iceberg.LessThan(ref("tstz"), micros(2017, 7, 25, 0)))},
			{"ts2 IS NULL", iceberg.IsNull(ref("ts2"))},
			{"ts2 > TIMESTAMP '2020-09-14 02:00:00'", iceberg.GreaterThan(ref("ts2"), micros(2020, 9, 14, 2))},
		},
		spec: []partitionField{
			{"d", "d_year", iceberg.YearTransform{}},
			{"ts", "ts_month", iceberg.MonthTransform{}},
			{"tstz", "tstz_day", iceberg.DayTransform{}},
			{"ts2", "ts2_hour", iceberg.HourTransform{}},
		},
		fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
			tbl, err := appendRows(ctx, tbl, genRows(0, 120, gen))
			if err != nil {
				return nil, err
			}
			return appendRows(ctx, tbl, genRows(120, 240, gen))
		},
	}
}

// partEvolveTable changes its partition spec between appends: from
// unpartitioned to identity, then to a bucket with identity removed, so its
// files are under three specs; then deletes rows across all of them.
func partEvolveTable() oracleTable {
	sc := iceberg.NewSchema(0,
		field(1, "id", tLong, true),
		field(2, "cat", tString, false),
		field(3, "d", tDate, false),
	)
	gen := func(i int) []any {
		return []any{int64(i), fmt.Sprintf("c%d", i%4), arrow.Date32(19000 + i%40)}
	}
	return oracleTable{
		name: "part_evolve",
		filters: []filterCase{
			{"cat = 'c2'", iceberg.EqualTo(ref("cat"), "c2")},
			{"id < 30 OR id >= 150", iceberg.NewOr(iceberg.LessThan(ref("id"), int64(30)), iceberg.GreaterThanEqual(ref("id"), int64(150)))},
			{"d >= DATE '2022-01-20'", iceberg.GreaterThanEqual(ref("d"), days(2022, 1, 20))},
		},
		props:    iceberg.Properties{table.WriteDeleteModeKey: table.WriteModeMergeOnRead},
		schema:   sc,
		evidence: []string{"added-position-delete-files"},
		fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
			tbl, err := appendRows(ctx, tbl, genRows(0, 60, gen))
			if err != nil {
				return nil, err
			}
			changes := []func(*table.UpdateSpec) *table.UpdateSpec{
				func(u *table.UpdateSpec) *table.UpdateSpec { return u.AddIdentity("cat") },
				func(u *table.UpdateSpec) *table.UpdateSpec {
					return u.RemoveField("cat").AddField("id", iceberg.BucketTransform{NumBuckets: 3}, "id_bucket").
						AddField("d", iceberg.MonthTransform{}, "d_month")
				},
			}
			for k, change := range changes {
				tx := tbl.NewTransaction()
				if err := change(tx.UpdateSpec(true)).Commit(); err != nil {
					return nil, fmt.Errorf("partition spec change %d: %w", k+1, err)
				}
				if tbl, err = tx.Commit(ctx); err != nil {
					return nil, err
				}
				if tbl, err = appendRows(ctx, tbl, genRows(60*(k+1), 60*(k+2), gen)); err != nil {
					return nil, err
				}
			}
			return tbl.Delete(ctx, iceberg.EqualTo(iceberg.Reference("cat"), "c1"), nil)
		},
	}
}
