package translate

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// showTables is SHOW TABLES [IN ns]: one row per table of the namespace
// (unqualified: the first schema of search_path).
func (s *session) showTables(ctx context.Context, schema string) ([][]string, error) {
	explicit := schema != ""
	if !explicit {
		for _, p := range s.settings.SearchPath() {
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

// filterRows keeps the rows whose column col matches a Spark name pattern:
// alternatives separated by "|", "*" for any characters, otherwise a
// regular expression, matched whole and case-insensitively. An alternative
// that is not a valid expression matches nothing, as in Spark.
func filterRows(rows [][]string, col int, pattern string) [][]string {
	var res []*regexp.Regexp
	for _, alt := range strings.Split(strings.TrimSpace(pattern), "|") {
		re, err := regexp.Compile("(?i)^(?:" + strings.ReplaceAll(strings.TrimSpace(alt), "*", ".*") + ")$")
		if err == nil {
			res = append(res, re)
		}
	}
	var out [][]string
	for _, r := range rows {
		for _, re := range res {
			if re.MatchString(r[col]) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}
