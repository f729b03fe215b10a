package describe

import (
	"strconv"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate/ddl"
	"github.com/icegate/icegate/translate/plan"
)

// Column is DESCRIBE [EXTENDED] t col: Spark's info_name /
// info_value rows for one column (a path "a.b" reaches into structs).
// EXTENDED adds the column statistics rows Spark prints: distinct_count
// is the NDV that CALL system.compute_table_stats recorded for the current
// snapshot; the others, which icegate does not keep, are NULL, as Spark
// shows for a column never analyzed.
func Column(t *catalog.Table, name string, extended bool) ([][]string, error) {
	f, resolved := ddl.FindColumnPath(t.Metadata.CurrentSchema().Fields, name)
	if f == nil {
		return nil, ddl.UndefinedColumn(name)
	}
	comment := f.Doc
	if comment == "" {
		comment = "NULL"
	}
	rows := [][]string{
		{"col_name", resolved},
		{"data_type", sparkFieldType(f, plan.RecordedTypes(t.Metadata.Properties))},
		{"comment", comment},
	}
	if extended {
		var ndvs map[int]int64
		if m := t.Metadata; m.CurrentSnapshotID != nil {
			ndvs = m.ColumnNDVs(*m.CurrentSnapshotID)
		}
		for _, k := range []string{"min", "max", "num_nulls", "distinct_count", "avg_col_len", "max_col_len", "histogram"} {
			v := "NULL"
			if n, ok := ndvs[f.ID]; ok && k == "distinct_count" {
				v = strconv.FormatInt(n, 10)
			}
			rows = append(rows, []string{k, v})
		}
	}
	return rows, nil
}
