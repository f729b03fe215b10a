package describe

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
)

// Table is DESCRIBE [EXTENDED] t (its name as catalog.namespace.table):
// the columns, the partition fields and, extended, the metadata columns and
// the table's details.
func Table(t *catalog.Table, name string, extended bool) [][]string {
	m := t.Metadata
	schema := m.CurrentSchema()
	var rows [][]string
	rec := plan.RecordedTypes(m.Properties)
	for _, f := range schema.Fields {
		rows = append(rows, []string{f.Name, sparkFieldType(&f, rec), f.Doc})
	}
	spec := m.SpecByID(m.DefaultSpecID)
	if spec != nil && len(spec.Fields) > 0 {
		rows = append(rows, partitionRows(spec, schema)...)
	}
	if !extended {
		return rows
	}
	rows = append(rows, []string{"", "", ""},
		[]string{"# Metadata Columns", "", ""},
		[]string{"_spec_id", "int", ""},
		[]string{"_partition", partitionUnionType(m, schema), ""}, // partition.go
		[]string{"_file", "string", ""},
		[]string{"_pos", "bigint", ""},
		[]string{"_deleted", "boolean", ""},
		[]string{"", "", ""},
		[]string{"# Detailed Table Information", "", ""},
		[]string{"Name", name, ""})
	if c, ok := m.Properties["comment"]; ok {
		rows = append(rows, []string{"Comment", c, ""})
	}
	rows = append(rows,
		[]string{"Type", "MANAGED", ""},
		[]string{"Location", m.Location, ""},
		[]string{"Provider", "iceberg", ""})
	if o, ok := m.Properties["owner"]; ok {
		rows = append(rows, []string{"Owner", o, ""})
	}
	var kv []string
	for _, p := range TableProperties(m) {
		kv = append(kv, p[0]+"="+p[1])
	}
	rows = append(rows, []string{"Table Properties", "[" + strings.Join(kv, ",") + "]", ""})
	return rows
}

// reservedProperty reports the properties Spark shows as clauses of
// their own rather than as table properties.
func reservedProperty(k string) bool {
	switch k {
	case "comment", "owner", "location", "provider", "external":
		return true
	}
	return false
}

// TableProperties is what Spark lists as a table's properties: the
// stored ones (less the reserved ones) plus current-snapshot-id, format
// and format-version, sorted by key.
func TableProperties(m *catalog.TableMetadata) [][2]string {
	props := map[string]string{}
	for k, v := range m.Properties {
		if !reservedProperty(k) {
			props[k] = v
		}
	}
	props["current-snapshot-id"] = "none"
	if m.CurrentSnapshotID != nil {
		props["current-snapshot-id"] = strconv.FormatInt(*m.CurrentSnapshotID, 10)
	}
	// Spark's "format" is iceberg/ and the default file format.
	format := strings.ToLower(strings.TrimSpace(m.Properties["write.format.default"]))
	if format == "" {
		format = "parquet"
	}
	props["format"] = "iceberg/" + format
	props["format-version"] = strconv.Itoa(m.FormatVersion)
	if order := sortOrderText(m); order != "" {
		props["sort-order"] = order
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][2]string, len(keys))
	for i, k := range keys {
		out[i] = [2]string{k, props[k]}
	}
	return out
}

// Properties is SHOW TBLPROPERTIES t [('key')] (t named name).
func Properties(t *catalog.Table, name string, key *string) [][]string {
	var rows [][]string
	for _, p := range TableProperties(t.Metadata) {
		if key == nil || p[0] == *key {
			rows = append(rows, []string{p[0], p[1]})
		}
	}
	if key != nil && len(rows) == 0 {
		rows = [][]string{{*key, fmt.Sprintf("Table %s does not have property: %s", name, *key)}}
	}
	return rows
}

// SparkTypeName spells an Iceberg type as Spark's DESCRIBE prints it
// (Spark's catalogString: bigint, string, decimal(10,2), timestamp for
// timestamptz, timestamp_ntz for timestamp, struct<a:int,b:string>). We
// chose Spark's spelling over PostgreSQL's because these statements are
// Spark's and their output is compared with Spark's by users and tools.
// Iceberg types Spark lacks keep Iceberg's name (uuid, time, variant...),
// which icegate's Spark-form CREATE TABLE also reads, so SHOW CREATE TABLE
// round-trips; fixed[n] prints as binary, as in Spark.
func SparkTypeName(t catalog.Type) string {
	switch t := t.(type) {
	case *catalog.PrimitiveType:
		switch t.ID {
		case catalog.TBoolean:
			return "boolean"
		case catalog.TInt:
			return "int"
		case catalog.TLong:
			return "bigint"
		case catalog.TFloat:
			return "float"
		case catalog.TDouble:
			return "double"
		case catalog.TDecimal:
			return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale)
		case catalog.TDate:
			return "date"
		case catalog.TTimestamptz, catalog.TTimestamptzNs:
			return "timestamp"
		case catalog.TTimestamp, catalog.TTimestampNs:
			return "timestamp_ntz"
		case catalog.TString:
			return "string"
		case catalog.TFixed, catalog.TBinary:
			return "binary"
		}
		return t.String()
	case *catalog.StructType:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = f.Name + ":" + SparkTypeName(f.Type)
		}
		return "struct<" + strings.Join(parts, ",") + ">"
	case *catalog.ListType:
		return "array<" + SparkTypeName(t.Element) + ">"
	case *catalog.MapType:
		return "map<" + SparkTypeName(t.Key) + "," + SparkTypeName(t.Value) + ">"
	}
	return t.String()
}

// transformText is a partition field in Spark's form: ts, days(ts),
// bucket(16, id), truncate(4, s); a source inside a struct is its path
// (st.a).
func transformText(pf catalog.PartitionField, schema *catalog.Schema) string {
	col := fmt.Sprintf("%d", pf.SourceID)
	if path := fieldPath(schema.Fields, pf.SourceID); path != nil {
		for i, p := range path {
			path[i] = syscat.QuoteIdent(p)
		}
		col = strings.Join(path, ".")
	}
	switch pf.Transform.Name {
	case "identity":
		return col
	case "bucket", "truncate":
		return fmt.Sprintf("%s(%d, %s)", pf.Transform.Name, pf.Transform.Param, col)
	case "year", "month", "day", "hour":
		return pf.Transform.Name + "s(" + col + ")"
	}
	return pf.Transform.Name + "(" + col + ")"
}

// partitionResultType is the type of a partition field's values (spec
// "Partition Transforms").
func partitionResultType(pf catalog.PartitionField, src *catalog.NestedField) string {
	switch pf.Transform.Name {
	case "bucket", "year", "month", "hour":
		return "int"
	case "day":
		return "date"
	}
	if src == nil {
		return "unknown"
	}
	return SparkTypeName(src.Type)
}

// sortOrderText is the table's default sort order as Spark shows it in the
// "sort-order" property ("id ASC NULLS FIRST, bucket(16, s) DESC NULLS
// LAST"); "" when the table is unsorted.
func sortOrderText(m *catalog.TableMetadata) string {
	var order *catalog.SortOrder
	for _, o := range m.SortOrders {
		if o.ID == m.DefaultSortOrderID {
			order = o
		}
	}
	if order == nil || len(order.Fields) == 0 {
		return ""
	}
	schema := m.CurrentSchema()
	parts := make([]string, len(order.Fields))
	for i, f := range order.Fields {
		pf := catalog.PartitionField{SourceID: f.SourceID, Transform: f.Transform}
		parts[i] = transformText(pf, schema) + " " + strings.ToUpper(f.Direction) + " " +
			strings.ToUpper(strings.ReplaceAll(f.NullOrder, "-", " "))
	}
	return strings.Join(parts, ", ")
}

// fieldPath is the names from a top-level column down to field id through
// struct columns; nil when id is not there.
func fieldPath(fs []catalog.NestedField, id int) []string {
	for _, f := range fs {
		if f.ID == id {
			return []string{f.Name}
		}
		if st, ok := f.Type.(*catalog.StructType); ok {
			if rest := fieldPath(st.Fields, id); rest != nil {
				return append([]string{f.Name}, rest...)
			}
		}
	}
	return nil
}

// partitionRows describe the partitioning as Spark 3.5 does for a table of
// a v2 catalog: when every field is an identity, "# Partition Information"
// and the partition columns with their types; otherwise "# Partitioning"
// and one "Part <i>" row per field with its transform (years(order_time),
// bucket(16, id)...), as the seed's walkthrough shows after REPLACE
// PARTITION FIELD.
func partitionRows(spec *catalog.PartitionSpec, schema *catalog.Schema) [][]string {
	identities := true
	for _, pf := range spec.Fields {
		if pf.Transform.String() != "identity" {
			identities = false
		}
	}
	rows := [][]string{{"", "", ""}}
	if identities {
		rows = append(rows, []string{"# Partition Information", "", ""}, []string{"# col_name", "data_type", "comment"})
		for _, pf := range spec.Fields {
			src := schema.FindField(pf.SourceID)
			if src == nil {
				continue
			}
			rows = append(rows, []string{transformText(pf, schema), SparkTypeName(src.Type), src.Doc})
		}
		return rows
	}
	rows = append(rows, []string{"# Partitioning", "", ""})
	for i, pf := range spec.Fields {
		rows = append(rows, []string{fmt.Sprintf("Part %d", i), transformText(pf, schema), ""})
	}
	return rows
}
