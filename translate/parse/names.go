package parse

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// TableName is a table reference as written: 1 to 3 parts, each with
// whether it was quoted.
type TableName struct {
	Catalog, Schema, Name string
	Written               string // for messages, as PostgreSQL prints it
}

func TableNameOf(rv *pg.RangeVar) TableName {
	tn := TableName{Catalog: rv.Catalogname, Schema: rv.Schemaname, Name: rv.Relname}
	parts := []string{}
	for _, p := range []string{rv.Catalogname, rv.Schemaname, rv.Relname} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	tn.Written = strings.Join(parts, ".")
	return tn
}
