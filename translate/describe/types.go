package describe

import (
	"fmt"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// sparkFieldType is a column's type as DESCRIBE shows it: the PostgreSQL
// type recorded for it (plan.PGTypesProperty) in Spark's spelling where
// Spark has one (smallint, varchar(n), char(n)), else its Iceberg type in
// Spark's names.
func sparkFieldType(f *catalog.NestedField, rec map[int]plan.Type) string {
	if t, ok := rec[f.ID]; ok && plan.Recordable(t, f.Type) {
		switch t.OID {
		case pgtypes.Int2:
			return "smallint"
		case pgtypes.Varchar:
			if t.Typmod >= 5 {
				return fmt.Sprintf("varchar(%d)", t.Typmod-4)
			}
			return "varchar"
		case pgtypes.BPChar:
			if t.Typmod >= 5 {
				return fmt.Sprintf("char(%d)", t.Typmod-4)
			}
			return "bpchar"
		case pgtypes.JSON:
			return "json"
		case pgtypes.JSONB:
			return "jsonb"
		case pgtypes.Interval:
			return "interval"
		}
	}
	return SparkTypeName(f.Type)
}

// sparkFieldSQLType is sparkFieldType as SHOW CREATE TABLE writes it
// (upper case), which icegate's CREATE TABLE reads back as the same type.
func sparkFieldSQLType(f *catalog.NestedField, rec map[int]plan.Type) string {
	if t, ok := rec[f.ID]; ok && plan.Recordable(t, f.Type) {
		return strings.ToUpper(sparkFieldType(f, rec))
	}
	return sparkSQLType(f.Type)
}
