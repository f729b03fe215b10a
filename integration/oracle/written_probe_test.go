package oracle

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// probeFilters makes one equality filter per column for each row of rows
// whose first column is in ids: the row's value as icegate printed it, as a
// SQL literal and as an iceberg-go literal of the column's type. Checked
// against every row, they test that the lower and upper bounds icegate
// wrote for each file let iceberg-go find every edge value. NaN becomes an
// IS NaN filter; NULL an IS NULL filter (not on decimals: iceberg-go
// v0.7.0 panics there). Columns halfNullColumns names are left out.
func probeFilters(ctx context.Context, warehouse, name string, cols []string, rows [][]cell, ids []string) ([]filterCase, error) {
	tbl, err := loadTable(ctx, warehouse, table.Identifier{sqlNamespace, name})
	if err != nil {
		return nil, err
	}
	sc := tbl.Metadata().CurrentSchema()
	halfNull, err := halfNullColumns(ctx, tbl)
	if err != nil {
		return nil, err
	}
	var out []filterCase
	seen := map[string]bool{}
	for _, r := range rows {
		if !slices.Contains(ids, r[0].text) {
			continue
		}
		for c, col := range cols {
			f, ok := sc.FindFieldByName(col)
			if !ok {
				return nil, fmt.Errorf("column %s not in iceberg-go's schema of %s", col, name)
			}
			if halfNull[f.ID] {
				continue
			}
			var fc filterCase
			switch v := r[c]; {
			case v.null:
				if _, ok := f.Type.(iceberg.DecimalType); ok {
					// iceberg-go v0.7.0 panics evaluating IS NULL on a
					// decimal column, also on tables it wrote itself.
					continue
				}
				fc = filterCase{col + " IS NULL", iceberg.IsNull(ref(col))}
			case v.text == "NaN":
				fc = filterCase{col + " = 'NaN'", iceberg.IsNaN(ref(col))}
			default:
				l, err := icebergLiteral(f.Type, v.text)
				if err != nil {
					return nil, fmt.Errorf("column %s value %q: %w", col, v.text, err)
				}
				fc = filterCase{col + " = " + lit(v.text), iceberg.LiteralPredicate(iceberg.OpEQ, ref(col), l)}
			}
			if !seen[fc.where] {
				seen[fc.where] = true
				out = append(out, fc)
			}
		}
	}
	return out, nil
}

// icebergLiteral is text, a value as PostgreSQL prints it, as an iceberg-go
// literal of type typ.
func icebergLiteral(typ iceberg.Type, text string) (iceberg.Literal, error) {
	switch typ.(type) {
	case iceberg.BooleanType:
		return iceberg.NewLiteral(text == "t"), nil
	case iceberg.BinaryType:
		b, err := hex.DecodeString(strings.TrimPrefix(text, `\x`))
		if err != nil {
			return nil, err
		}
		return iceberg.NewLiteral(b), nil
	case iceberg.TimestampType:
		text = strings.Replace(text, " ", "T", 1)
	case iceberg.TimestampTzType:
		text = strings.Replace(text, " ", "T", 1) + ":00"
	}
	return iceberg.NewLiteral(text).To(typ)
}

// halfNullColumns are the columns (field ids) that some data file holds as
// many NULLs as values of. iceberg-go v0.7.0 takes a Parquet row group's
// non-null count for its value count, so it judges such a column all NULL
// and drops the row group for any predicate on it, also in files it wrote
// itself; probing those columns would test that quirk, not icegate.
func halfNullColumns(ctx context.Context, tbl *table.Table) (map[int]bool, error) {
	tasks, err := tbl.Scan().PlanFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("plan scan of %v: %w", tbl.Identifier(), err)
	}
	out := map[int]bool{}
	for _, task := range tasks {
		for id, nulls := range task.File.NullValueCounts() {
			if nulls > 0 && 2*nulls == task.File.Count() {
				out[id] = true
			}
		}
	}
	return out, nil
}
