package scan

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/icegate/icegate/catalog"
)

// NameMappingProperty is the table property holding the default name
// mapping for data files written without field ids.
const NameMappingProperty = catalog.NameMappingProperty

// mappedField is one entry of a name mapping (Iceberg spec "Column
// Projection"): the names a field may have in files, and its nested fields.
type mappedField struct {
	FieldID *int          `json:"field-id"`
	Names   []string      `json:"names"`
	Fields  []mappedField `json:"fields"`
}

// parseNameMapping decodes the table's name mapping; nil when absent.
func parseNameMapping(props map[string]string) ([]mappedField, error) {
	s, ok := props[NameMappingProperty]
	if !ok || strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var m []mappedField
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, fmt.Errorf("parse table property %s: %w", NameMappingProperty, err)
	}
	return m, nil
}

func findMapped(m []mappedField, name string) *mappedField {
	for i := range m {
		for _, n := range m[i].Names {
			if n == name {
				return &m[i]
			}
		}
	}
	return nil
}

// fileField is the view projection needs of a data file's schema node,
// shared by the Parquet and Avro readers: a name, an assignable id, and the
// nested shape (struct children, list element, map key and value).
type fileField interface {
	fieldName() string
	setID(id int)
	structChildren() []fileField
	listElement() fileField
	mapKeyValue() (fileField, fileField)
}

// applyNameMapping assigns ids to the fields of a file written without
// field ids, from the table's name mapping. Unmapped fields get id 0 and
// read as missing.
func applyNameMapping(fields []fileField, m []mappedField) {
	for _, f := range fields {
		mf := findMapped(m, f.fieldName())
		if mf == nil || mf.FieldID == nil {
			f.setID(0)
			clearIDs(f)
			continue
		}
		f.setID(*mf.FieldID)
		applyNestedMapping(f, mf.Fields)
	}
}

func applyNestedMapping(f fileField, m []mappedField) {
	if el := f.listElement(); el != nil {
		applyNameMappingRole(el, m, "element")
		return
	}
	if k, v := f.mapKeyValue(); k != nil {
		applyNameMappingRole(k, m, "key")
		applyNameMappingRole(v, m, "value")
		return
	}
	applyNameMapping(f.structChildren(), m)
}

func applyNameMappingRole(f fileField, m []mappedField, role string) {
	mf := findMapped(m, role)
	if mf == nil || mf.FieldID == nil {
		f.setID(0)
		clearIDs(f)
		return
	}
	f.setID(*mf.FieldID)
	applyNestedMapping(f, mf.Fields)
}

func clearIDs(f fileField) {
	for _, c := range fileChildren(f) {
		c.setID(0)
		clearIDs(c)
	}
}

func fileChildren(f fileField) []fileField {
	if el := f.listElement(); el != nil {
		return []fileField{el}
	}
	if k, v := f.mapKeyValue(); k != nil {
		return []fileField{k, v}
	}
	return f.structChildren()
}

// applyNames assigns ids to the fields of a file without field ids and
// without a name mapping by matching names with the read schema (exact
// first, then case-insensitively), as for migrated Hive files.
func applyNames(fields []fileField, schema []catalog.NestedField) {
	for _, f := range fields {
		rf := fieldByName(schema, f.fieldName())
		if rf == nil {
			f.setID(0)
			clearIDs(f)
			continue
		}
		f.setID(rf.ID)
		applyNamesType(f, rf.Type)
	}
}

func applyNamesType(f fileField, t catalog.Type) {
	switch t := t.(type) {
	case *catalog.StructType:
		applyNames(f.structChildren(), t.Fields)
	case *catalog.ListType:
		if el := f.listElement(); el != nil {
			el.setID(t.ElementID)
			applyNamesType(el, t.Element)
		}
	case *catalog.MapType:
		if k, v := f.mapKeyValue(); k != nil {
			k.setID(t.KeyID)
			applyNamesType(k, t.Key)
			v.setID(t.ValueID)
			applyNamesType(v, t.Value)
		}
	}
}

func fieldByName(fs []catalog.NestedField, name string) *catalog.NestedField {
	for i := range fs {
		if fs[i].Name == name {
			return &fs[i]
		}
	}
	for i := range fs {
		if strings.EqualFold(fs[i].Name, name) {
			return &fs[i]
		}
	}
	return nil
}

// assignIDs gives the fields of a data file the Iceberg ids projection
// matches on: the file's own field ids when it has them, else the table's
// name mapping, else names.
func assignIDs(fields []fileField, hasIDs bool, mapping []mappedField, schema []catalog.NestedField) {
	switch {
	case hasIDs:
	case mapping != nil:
		applyNameMapping(fields, mapping)
	default:
		applyNames(fields, schema)
	}
}

// identityPartitionValue returns the partition value of an identity
// partition field over field id, from the data file's partition tuple.
func identityPartitionValue(task *catalog.FileScanTask, id int) (any, bool) {
	if task.Spec == nil || task.File == nil {
		return nil, false
	}
	for i, pf := range task.Spec.Fields {
		if pf.SourceID == id && pf.Transform.Name == "identity" && i < len(task.File.Partition) {
			return task.File.Partition[i], true
		}
	}
	return nil, false
}

// mappingConsistent reports whether a name mapping agrees with schema.
// Some writers (Impala migrations) store mappings whose ids were assigned
// in another order than the schema's: the mapping then gives id X to a
// name that the schema calls field Y, while the schema's name of X is
// mapped to another id. Such a mapping would pair columns with the wrong
// fields, so the scan falls back to matching names. A mapping that merely
// lacks a newer name of a renamed field is consistent.
func mappingConsistent(m []mappedField, schema *catalog.Schema) bool {
	idsByName := map[string][]int{}
	var collect func(m []mappedField)
	collect = func(m []mappedField) {
		for _, mf := range m {
			if mf.FieldID != nil {
				for _, n := range mf.Names {
					idsByName[n] = append(idsByName[n], *mf.FieldID)
				}
			}
			collect(mf.Fields)
		}
	}
	collect(m)
	var check func(m []mappedField) bool
	check = func(m []mappedField) bool {
		for _, mf := range m {
			if mf.FieldID != nil {
				f := schema.FindField(*mf.FieldID)
				if f != nil && !containsName(mf.Names, f.Name) {
					for _, other := range idsByName[f.Name] {
						if other != *mf.FieldID {
							return false
						}
					}
				}
			}
			if !check(mf.Fields) {
				return false
			}
		}
		return true
	}
	return check(m)
}

func containsName(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
