package duckdbgo

import (
	"context"
	"fmt"
	"sort"

	"github.com/icegate/icegate/catalog"
)

// DataFiles lists the current Parquet data files of every table of cat, by
// table name, as local paths. A table whose current snapshot carries
// delete files, or files in another format, is an error: a read_parquet
// view over its data files alone would not be the table.
func DataFiles(ctx context.Context, cat catalog.Catalog) (map[string][]string, error) {
	nss, err := cat.ListNamespaces(ctx)
	if err != nil {
		return nil, fmt.Errorf("list namespaces: %w", err)
	}
	out := map[string][]string{}
	for _, ns := range nss {
		ids, err := cat.ListTables(ctx, ns)
		if err != nil {
			return nil, fmt.Errorf("list tables of %v: %w", ns, err)
		}
		for _, id := range ids {
			paths, err := tableFiles(ctx, cat, id)
			if err != nil {
				return nil, err
			}
			out[id.Name] = paths
		}
	}
	return out, nil
}

// tableFiles lists the data files of the table's current snapshot.
func tableFiles(ctx context.Context, cat catalog.Catalog, id catalog.Identifier) ([]string, error) {
	t, err := cat.LoadTable(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", id.Name, err)
	}
	tasks, err := catalog.PlanFiles(ctx, t, t.Metadata.CurrentSnapshot())
	if err != nil {
		return nil, fmt.Errorf("plan files of %s: %w", id.Name, err)
	}
	paths := []string{}
	for _, task := range tasks {
		if len(task.Deletes) > 0 {
			return nil, fmt.Errorf("table %s: data file %s has %d delete files", id.Name, task.File.Path, len(task.Deletes))
		}
		if task.File.Format != catalog.FormatParquet {
			return nil, fmt.Errorf("table %s: data file %s is %s, not Parquet", id.Name, task.File.Path, task.File.Format)
		}
		p, err := t.IO.Resolve(task.File.Path)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", id.Name, err)
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths, nil
}
