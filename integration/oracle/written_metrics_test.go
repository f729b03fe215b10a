package oracle

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// checkFileMetrics reads, with iceberg-go, the data files icegate's
// manifests list for table name and checks them against rows, the table's
// full contents as icegate returns them (columns cols): record counts add
// up, null and NaN counts (when written) add up per column, value counts
// count every row, and each file's partition tuple is what iceberg-go's
// own transforms make of the file's lower and upper bounds.
func checkFileMetrics(ctx context.Context, warehouse, name string, cols []string, rows [][]cell) []string {
	tbl, err := loadTable(ctx, warehouse, table.Identifier{sqlNamespace, name})
	if err != nil {
		return []string{err.Error()}
	}
	tasks, err := tbl.Scan().PlanFiles(ctx)
	if err != nil {
		return []string{fmt.Sprintf("plan scan of %s: %v", name, err)}
	}
	md := tbl.Metadata()
	sc := md.CurrentSchema()
	var out []string
	var records int64
	for _, task := range tasks {
		records += task.File.Count()
		out = append(out, checkPartitionTuple(name, sc, md.PartitionSpec(), task.File)...)
	}
	if records != int64(len(rows)) {
		out = append(out, fmt.Sprintf("table %s: data files hold %d records, the table %d rows", name, records, len(rows)))
	}
	for c, col := range cols {
		f, ok := sc.FindFieldByName(col)
		if !ok {
			out = append(out, fmt.Sprintf("table %s: column %s not in iceberg-go's schema", name, col))
			continue
		}
		var nulls, nans int64
		for _, r := range rows {
			if r[c].null {
				nulls++
			} else if r[c].text == "NaN" {
				nans++
			}
		}
		out = append(out, checkCount(name, col, "null_value_counts", tasks, f.ID, func(df iceberg.DataFile) map[int]int64 { return df.NullValueCounts() }, nulls)...)
		if f.Type.Equals(iceberg.PrimitiveTypes.Float32) || f.Type.Equals(iceberg.PrimitiveTypes.Float64) {
			out = append(out, checkCount(name, col, "nan_value_counts", tasks, f.ID, func(df iceberg.DataFile) map[int]int64 { return df.NaNValueCounts() }, nans)...)
		}
		for _, task := range tasks {
			if n, ok := task.File.ValueCounts()[f.ID]; ok && n != task.File.Count() {
				out = append(out, fmt.Sprintf("table %s: file %s value_counts[%s] = %d, record_count %d (value counts include nulls and NaN)", name, task.File.FilePath(), col, n, task.File.Count()))
			}
		}
	}
	return out
}

// checkCount compares the sum of one per-column count over all files with
// want, when every file has the count (the counts are optional).
func checkCount(name, col, what string, tasks []table.FileScanTask, id int, counts func(iceberg.DataFile) map[int]int64, want int64) []string {
	var sum int64
	have := 0
	for _, task := range tasks {
		if n, ok := counts(task.File)[id]; ok {
			sum += n
			have++
		}
	}
	switch {
	case have == 0:
		return nil
	case have < len(tasks):
		return []string{fmt.Sprintf("table %s: %s for column %s in %d of %d files", name, what, col, have, len(tasks))}
	case sum != want:
		return []string{fmt.Sprintf("table %s: %s for column %s add up to %d, the column has %d", name, what, col, sum, want)}
	}
	return nil
}

// checkPartitionTuple checks each partition value of df that an
// order-preserving transform (identity, truncate, year, month, day, hour)
// makes against the transform of the source column's lower and upper
// bounds, and that a NULL partition value goes with an all-NULL column.
func checkPartitionTuple(name string, sc *iceberg.Schema, spec iceberg.PartitionSpec, df iceberg.DataFile) []string {
	var out []string
	for _, pf := range spec.Fields() {
		src, ok := sc.FindFieldByID(pf.SourceID())
		if !ok {
			out = append(out, fmt.Sprintf("table %s: partition field %s has no source column %d", name, pf.Name, pf.SourceID()))
			continue
		}
		value, hasValue := df.Partition()[pf.FieldID]
		nulls := df.NullValueCounts()[src.ID]
		where := fmt.Sprintf("table %s: file %s partition %s", name, df.FilePath(), pf.Name)
		if nulls > 0 && nulls < df.Count() {
			out = append(out, fmt.Sprintf("%s: column %s has %d NULLs in %d records, a partition mixing NULL and values", where, src.Name, nulls, df.Count()))
		}
		if nulls == df.Count() {
			if hasValue && value != nil {
				out = append(out, fmt.Sprintf("%s = %v, but column %s is all NULL", where, value, src.Name))
			}
			continue
		}
		switch pf.Transform.(type) {
		case iceberg.IdentityTransform, iceberg.TruncateTransform, iceberg.YearTransform,
			iceberg.MonthTransform, iceberg.DayTransform, iceberg.HourTransform:
		default:
			continue
		}
		for kind, bound := range map[string][]byte{"lower": df.LowerBoundValues()[src.ID], "upper": df.UpperBoundValues()[src.ID]} {
			if bound == nil {
				out = append(out, fmt.Sprintf("%s: no %s bound for column %s", where, kind, src.Name))
				continue
			}
			lit, err := iceberg.LiteralFromBytes(src.Type, bound)
			if err != nil {
				out = append(out, fmt.Sprintf("%s: %s bound of %s: %v", where, kind, src.Name, err))
				continue
			}
			got := pf.Transform.Apply(iceberg.Optional[iceberg.Literal]{Val: lit, Valid: true})
			if !got.Valid || fmt.Sprint(got.Val.Any()) != fmt.Sprint(value) {
				out = append(out, fmt.Sprintf("%s = %v, but %s of the %s bound %v is %v", where, value, pf.Transform, kind, lit, got.Val))
			}
		}
	}
	return out
}
