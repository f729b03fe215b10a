package translate

import (
	"context"
	"sort"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// showTables is SHOW TABLES [IN ns]: one row per table of the namespace
// (unqualified: the first schema of search_path).
func (s *session) showTables(ctx context.Context, schema string) ([][]string, error) {
	explicit := schema != ""
	if !explicit {
		for _, p := range s.settings.searchPath() {
			if !strings.HasPrefix(p, "$") && p != "pg_catalog" {
				schema = p
				break
			}
		}
	}
	ns, err := s.findNamespace(ctx, schema)
	if err != nil {
		return nil, err
	}
	if ns == nil {
		if explicit {
			return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema)
		}
		return nil, nil
	}
	ids, err := s.cat.ListTables(ctx, ns)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.IOError, "list tables of %s: %v", schema, err)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].Name < ids[j].Name })
	rows := make([][]string, len(ids))
	for i, id := range ids {
		rows[i] = []string{strings.Join(id.Namespace, "."), id.Name, "false"}
	}
	return rows, nil
}

// showSchemas is SHOW SCHEMAS / NAMESPACES / DATABASES.
func (s *session) showSchemas(ctx context.Context) ([][]string, error) {
	all, err := s.cat.ListNamespaces(ctx)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.IOError, "list namespaces: %v", err)
	}
	names := make([]string, len(all))
	for i, ns := range all {
		names[i] = strings.Join(ns, ".")
	}
	sort.Strings(names)
	rows := make([][]string, len(names))
	for i, n := range names {
		rows[i] = []string{n}
	}
	return rows, nil
}
