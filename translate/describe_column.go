package translate

import (
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate/ddl"
)

// describeColumn is DESCRIBE [EXTENDED] t col: Spark's info_name /
// info_value rows for one column (a path "a.b" reaches into structs).
// EXTENDED adds the column statistics rows Spark prints; icegate keeps no
// column statistics, so their values are NULL, as Spark shows for a column
// never analyzed.
func describeColumn(t *catalog.Table, name string, extended bool) ([][]string, error) {
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
		{"data_type", sparkTypeName(f.Type)},
		{"comment", comment},
	}
	if extended {
		for _, k := range []string{"min", "max", "num_nulls", "distinct_count", "avg_col_len", "max_col_len", "histogram"} {
			rows = append(rows, []string{k, "NULL"})
		}
	}
	return rows, nil
}
