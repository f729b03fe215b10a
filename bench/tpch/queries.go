package tpch

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed queries/*.sql
var queryFiles embed.FS

// Query is one of the 22 TPC-H queries with the substitution parameters of
// the specification's validation run, in PostgreSQL's dialect.
type Query struct {
	Name string // q01 .. q22
	SQL  string // without the trailing semicolon
}

// Queries returns the queries in order.
func Queries() ([]Query, error) {
	names, err := fs.Glob(queryFiles, "queries/q*.sql")
	if err != nil {
		return nil, fmt.Errorf("list TPC-H queries: %w", err)
	}
	qs := make([]Query, 0, len(names))
	for _, n := range names {
		b, err := queryFiles.ReadFile(n)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", n, err)
		}
		name := strings.TrimSuffix(strings.TrimPrefix(n, "queries/"), ".sql")
		sql := strings.TrimSuffix(strings.TrimSpace(string(b)), ";")
		qs = append(qs, Query{Name: name, SQL: sql})
	}
	return qs, nil
}
