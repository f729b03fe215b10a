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

// TableNameOfList reads a table name given as a list of strings (DROP).
func TableNameOfList(n *pg.Node) TableName {
	var parts []string
	for _, it := range n.GetList().GetItems() {
		parts = append(parts, it.GetString_().GetSval())
	}
	tn := TableName{Written: strings.Join(parts, ".")}
	switch len(parts) {
	case 1:
		tn.Name = parts[0]
	case 2:
		tn.Schema, tn.Name = parts[0], parts[1]
	case 3:
		tn.Catalog, tn.Schema, tn.Name = parts[0], parts[1], parts[2]
	}
	return tn
}
