package tpch

import (
	"embed"
	"fmt"
	"io/fs"
	"strconv"
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

// q11Fraction is q11's FRACTION at scale factor 1, as its text holds it.
const q11Fraction = "0.0001"

// QueriesAt returns the queries for scale factor sf. The specification
// scales one substitution parameter with the data: q11's FRACTION is
// 0.0001 / SF, so that the query keeps returning the parts that make up a
// given share of the stock's value. At SF 10 the SF 1 text returns no rows.
func QueriesAt(sf float64) ([]Query, error) {
	qs, err := Queries()
	if err != nil || sf == 1 {
		return qs, err
	}
	if sf <= 0 {
		return nil, fmt.Errorf("TPC-H scale factor %v: want a positive number", sf)
	}
	for i := range qs {
		if qs[i].Name != "q11" {
			continue
		}
		if strings.Count(qs[i].SQL, q11Fraction) != 1 {
			return nil, fmt.Errorf("q11 does not hold its FRACTION %s once", q11Fraction)
		}
		frac := strconv.FormatFloat(0.0001/sf, 'f', -1, 64)
		qs[i].SQL = strings.Replace(qs[i].SQL, q11Fraction, frac, 1)
	}
	return qs, nil
}
