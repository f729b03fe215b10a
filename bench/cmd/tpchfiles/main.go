package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"

	"github.com/icegate/icegate/catalog"
)

func main() {
	warehouse := flag.String("warehouse", "", "warehouse directory (ICEGATE_BENCH_KEEP of BenchmarkTPCH)")
	flag.Parse()
	if *warehouse == "" {
		fmt.Fprintln(os.Stderr, "usage: tpchfiles -warehouse DIR")
		os.Exit(2)
	}
	files, err := dataFiles(context.Background(), *warehouse)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tpchfiles:", err)
		os.Exit(1)
	}
	out, err := json.MarshalIndent(files, "", "  ")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tpchfiles:", err)
		os.Exit(1)
	}
	fmt.Println(string(out))
}

// dataFiles lists the current Parquet data files of every table of the
// warehouse, by table name.
func dataFiles(ctx context.Context, warehouse string) (map[string][]string, error) {
	cat, err := catalog.NewFilesystem("icegate", warehouse, nil)
	if err != nil {
		return nil, err
	}
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
		return nil, err
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
