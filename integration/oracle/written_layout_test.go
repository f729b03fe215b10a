package oracle

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/iceberg-go/table"
)

// checkLayout checks with iceberg-go that table st has the format version
// and partition spec its CREATE TABLE asked for, and that iceberg-go's
// planning prunes data files for every filter but st.unpruned, so the filtered scans
// exercise the partition summaries and column metrics icegate wrote.
func checkLayout(ctx context.Context, warehouse string, st sqlTable) []string {
	tbl, err := loadTable(ctx, warehouse, table.Identifier{sqlNamespace, st.name})
	if err != nil {
		return []string{err.Error()}
	}
	md := tbl.Metadata()
	var out []string
	if md.Version() != st.formatVersion {
		out = append(out, fmt.Sprintf("table %s: format-version %d, want %d", st.name, md.Version(), st.formatVersion))
	}
	var spec []string
	pspec := md.PartitionSpec()
	for _, pf := range pspec.Fields() {
		col, _ := md.CurrentSchema().FindColumnName(pf.SourceID())
		spec = append(spec, fmt.Sprintf("%s(%s)", pf.Transform, col))
	}
	if !slices.Equal(spec, st.partitioning) {
		out = append(out, fmt.Sprintf("table %s: partition spec %v, want %v", st.name, spec, st.partitioning))
	}
	all, err := plannedFiles(ctx, warehouse, st.name)
	if err != nil {
		return append(out, err.Error())
	}
	for _, f := range st.filters {
		if slices.Contains(st.unpruned, f.where) {
			continue
		}
		n, err := plannedFiles(ctx, warehouse, st.name, table.WithRowFilter(f.expr))
		if err != nil {
			out = append(out, err.Error())
			continue
		}
		if n >= all {
			out = append(out, fmt.Sprintf("table %s where %s: iceberg-go plans %d of %d data files, pruning none", st.name, f.where, n, all))
		}
	}
	return out
}
