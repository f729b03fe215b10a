package describe

import (
	"slices"
	"strings"

	"github.com/icegate/icegate/catalog"
)

// partitionUnionType is the type of the _partition metadata column as
// Spark's DESCRIBE EXTENDED shows it for an Iceberg table: a struct of the
// partition fields of every spec the table has had (a field that evolved
// away is still in older files' partitions), one per field id in id order,
// void fields left out, as Iceberg's Partitioning.partitionType builds it.
func partitionUnionType(m *catalog.TableMetadata, schema *catalog.Schema) string {
	type field struct {
		id   int
		text string
	}
	var fields []field
	seen := map[int]bool{}
	for _, spec := range m.PartitionSpecs {
		for _, pf := range spec.Fields {
			if seen[pf.FieldID] || pf.Transform.Name == "void" {
				continue
			}
			seen[pf.FieldID] = true
			fields = append(fields, field{pf.FieldID, pf.Name + ":" + partitionResultType(pf, schema.FindField(pf.SourceID))})
		}
	}
	slices.SortStableFunc(fields, func(a, b field) int { return a.id - b.id })
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.text
	}
	return "struct<" + strings.Join(parts, ",") + ">"
}
