package describe

import (
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
)

// CreateTable is SHOW CREATE TABLE t: a statement in Spark's form that
// recreates the table, which icegate's own CREATE TABLE reads back. Types
// use Spark's SQL spelling (upper case, as Spark prints here); properties
// leave out current-snapshot-id, format and sort-order, which describe the
// table rather than configure it.
func CreateTable(t *catalog.Table, name string) string {
	m := t.Metadata
	var b strings.Builder
	b.WriteString("CREATE TABLE " + name + " (\n")
	rec := plan.RecordedTypes(m.Properties)
	for i, f := range m.CurrentSchema().Fields {
		b.WriteString("  " + syscat.QuoteIdent(f.Name) + " " + sparkFieldSQLType(&f, rec))
		if f.Required {
			b.WriteString(" NOT NULL")
		}
		if f.Doc != "" {
			b.WriteString(" COMMENT " + quoteLiteral(f.Doc))
		}
		if i < len(m.CurrentSchema().Fields)-1 {
			b.WriteString(",\n")
		}
	}
	b.WriteString(")\nUSING iceberg\n")
	if spec := m.SpecByID(m.DefaultSpecID); spec != nil && len(spec.Fields) > 0 {
		parts := make([]string, len(spec.Fields))
		for i, pf := range spec.Fields {
			parts[i] = transformText(pf, m.CurrentSchema())
		}
		b.WriteString("PARTITIONED BY (" + strings.Join(parts, ", ") + ")\n")
	}
	if c, ok := m.Properties["comment"]; ok {
		b.WriteString("COMMENT " + quoteLiteral(c) + "\n")
	}
	b.WriteString("LOCATION " + quoteLiteral(m.Location) + "\n")
	var props []string
	for _, p := range TableProperties(m) {
		if p[0] == "current-snapshot-id" || p[0] == "format" || p[0] == "sort-order" {
			continue
		}
		props = append(props, "  "+quoteLiteral(p[0])+" = "+quoteLiteral(p[1]))
	}
	b.WriteString("TBLPROPERTIES (\n" + strings.Join(props, ",\n") + ")\n")
	return b.String()
}

// sparkSQLType is sparkTypeName in the upper-case form Spark's SHOW CREATE
// TABLE prints (BIGINT, STRUCT<a: INT NOT NULL, b: STRING>).
func sparkSQLType(t catalog.Type) string {
	switch t := t.(type) {
	case *catalog.StructType:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			p := syscat.QuoteIdent(f.Name) + ": " + sparkSQLType(f.Type)
			if f.Required {
				p += " NOT NULL"
			}
			if f.Doc != "" {
				p += " COMMENT " + quoteLiteral(f.Doc)
			}
			parts[i] = p
		}
		return "STRUCT<" + strings.Join(parts, ", ") + ">"
	case *catalog.ListType:
		return "ARRAY<" + sparkSQLType(t.Element) + ">"
	case *catalog.MapType:
		return "MAP<" + sparkSQLType(t.Key) + ", " + sparkSQLType(t.Value) + ">"
	}
	return strings.ToUpper(SparkTypeName(t))
}

// quoteLiteral is s as a SQL string constant.
func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
