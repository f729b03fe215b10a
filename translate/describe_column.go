package translate

import (
	"strings"

	"github.com/icegate/icegate/catalog"
)

// describeColumn is DESCRIBE [EXTENDED] t col: Spark's info_name /
// info_value rows for one column (a path "a.b" reaches into structs).
// EXTENDED adds the column statistics rows Spark prints; icegate keeps no
// column statistics, so their values are NULL, as Spark shows for a column
// never analyzed.
func describeColumn(t *catalog.Table, name string, extended bool) ([][]string, error) {
	f, resolved := findColumnPath(t.Metadata.CurrentSchema().Fields, name)
	if f == nil {
		return nil, undefinedColumn(name)
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

// findColumnPath finds a column by name or by a dotted path into struct
// columns: names as written first, else case-insensitively. It returns the
// field and its path as the schema spells it.
func findColumnPath(fs []catalog.NestedField, name string) (*catalog.NestedField, string) {
	find := func(fs []catalog.NestedField, n string) *catalog.NestedField {
		for i := range fs {
			if fs[i].Name == n {
				return &fs[i]
			}
		}
		for i := range fs {
			if strings.EqualFold(fs[i].Name, n) {
				return &fs[i]
			}
		}
		return nil
	}
	if f := find(fs, name); f != nil {
		return f, f.Name
	}
	parts := strings.Split(name, ".")
	var path []string
	for k, p := range parts {
		f := find(fs, p)
		if f == nil {
			return nil, ""
		}
		path = append(path, f.Name)
		if k == len(parts)-1 {
			return f, strings.Join(path, ".")
		}
		st, ok := f.Type.(*catalog.StructType)
		if !ok {
			return nil, ""
		}
		fs = st.Fields
	}
	return nil, ""
}
