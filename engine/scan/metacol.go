package scan

import (
	"math"
	"slices"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// Metadata columns. Every table has five columns that are not in its
// schema: the data file a row comes from (_file, the path as the manifest
// writes it), the row's position in that file (_pos, counted from 0 over
// the whole file, as position deletes count it), the partition spec the
// file was written with (_spec_id), the file's partition values
// (_partition) and whether the row is deleted (_deleted). A scan produces
// them when ScanSpec.FieldIDs holds their field ids, the ids the Iceberg
// spec reserves for them.
const (
	FieldIDFile      = math.MaxInt32 - 1
	FieldIDPos       = math.MaxInt32 - 2
	FieldIDDeleted   = math.MaxInt32 - 3
	FieldIDSpecID    = math.MaxInt32 - 4
	FieldIDPartition = math.MaxInt32 - 5
)

// Row lineage (format 3). A data file may hold a row's id and the sequence
// number of the snapshot that last changed it in columns with these
// reserved field ids; where it does not (the column is absent, or the
// value null) the row inherits them: its id is the file's first_row_id
// plus its position, its sequence number the file's data sequence number.
// A scan projecting these ids reads the file's columns and fills the
// inherited values in; writers that move rows to new files write them.
const (
	FieldIDRowID             = math.MaxInt32 - 107
	FieldIDLastUpdatedSeqNum = math.MaxInt32 - 108
	rowIDName                = "_row_id"
	lastUpdatedSeqNumName    = "_last_updated_sequence_number"
)

// IsLineageField reports whether id is the field id of a row lineage
// column.
func IsLineageField(id int) bool {
	return id == FieldIDRowID || id == FieldIDLastUpdatedSeqNum
}

// LineageFields are the row lineage columns as optional long fields.
func LineageFields() []catalog.NestedField {
	return []catalog.NestedField{
		{ID: FieldIDRowID, Name: rowIDName, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		{ID: FieldIDLastUpdatedSeqNum, Name: lastUpdatedSeqNumName, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
	}
}

// IsMetadataField reports whether id is the field id of a metadata column.
func IsMetadataField(id int) bool {
	return id >= FieldIDPartition && id <= FieldIDFile
}

// MetadataColumns returns the metadata columns of a table read with
// schema, in the order _file, _pos, _spec_id, _partition, _deleted.
// _partition is a struct with one field per partition field of any of the
// table's specs (by partition field id; named as the newest spec names
// it), typed by its transform's result (day gives a date); a file's row
// has NULL for the fields its spec lacks. An unpartitioned table's
// _partition is an empty struct.
//
// Format 3 tables also have the row lineage columns, _row_id and
// _last_updated_sequence_number, after those.
func MetadataColumns(meta *catalog.TableMetadata, schema *catalog.Schema) []catalog.NestedField {
	cols := []catalog.NestedField{
		{ID: FieldIDFile, Name: "_file", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TString}},
		{ID: FieldIDPos, Name: "_pos", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		{ID: FieldIDSpecID, Name: "_spec_id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: FieldIDPartition, Name: "_partition", Type: PartitionStruct(meta, schema)},
		{ID: FieldIDDeleted, Name: "_deleted", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TBoolean}},
	}
	if meta != nil && meta.FormatVersion >= 3 {
		cols = append(cols, LineageFields()...)
	}
	return cols
}

// metadataField is the metadata column with field id id.
func metadataField(spec engine.ScanSpec, id int) *catalog.NestedField {
	var meta *catalog.TableMetadata
	if spec.Table != nil {
		meta = spec.Table.Metadata
	}
	for _, f := range MetadataColumns(meta, spec.Schema) {
		if f.ID == id {
			return &f
		}
	}
	return nil
}

// PartitionStruct is the type of _partition: the union of the partition
// fields of every spec of meta, ordered by partition field id. A field
// whose result type cannot be known (its source column is in no schema,
// or an unknown transform) is left out.
func PartitionStruct(meta *catalog.TableMetadata, schema *catalog.Schema) *catalog.StructType {
	st := &catalog.StructType{}
	if meta == nil {
		return st
	}
	specs := slices.Clone(meta.PartitionSpecs)
	slices.SortFunc(specs, func(a, b *catalog.PartitionSpec) int { return b.ID - a.ID }) // newest first
	seen := map[int]bool{}
	for _, spec := range specs {
		for _, pf := range spec.Fields {
			if seen[pf.FieldID] {
				continue
			}
			t := partitionFieldType(pf, meta, schema)
			if t == nil {
				continue
			}
			if pf.Transform.Name == "void" && voidElsewhere(pf.FieldID, specs) {
				continue // a later spec dropped it; an older one gives its type
			}
			seen[pf.FieldID] = true
			st.Fields = append(st.Fields, catalog.NestedField{ID: pf.FieldID, Name: pf.Name, Type: t})
		}
	}
	slices.SortFunc(st.Fields, func(a, b catalog.NestedField) int { return a.ID - b.ID })
	return st
}

// voidElsewhere reports whether some spec has field id with a transform
// other than void.
func voidElsewhere(id int, specs []*catalog.PartitionSpec) bool {
	for _, s := range specs {
		for _, pf := range s.Fields {
			if pf.FieldID == id && pf.Transform.Name != "void" {
				return true
			}
		}
	}
	return false
}

// partitionFieldType is the result type of a partition field, its source
// column looked up in schema, then the current schema, then any schema.
func partitionFieldType(pf catalog.PartitionField, meta *catalog.TableMetadata, schema *catalog.Schema) *catalog.PrimitiveType {
	candidates := []*catalog.Schema{schema, meta.CurrentSchema()}
	candidates = append(candidates, meta.Schemas...)
	for _, s := range candidates {
		if s == nil || s.FindField(pf.SourceID) == nil {
			continue
		}
		t, err := catalog.PartitionResultType(pf, s)
		if err != nil {
			return nil
		}
		if pf.Transform.Name == "day" {
			return &catalog.PrimitiveType{ID: catalog.TDate} // days since 1970-01-01, shown as a date
		}
		return t
	}
	return nil
}

// partitionValue is a file's _partition value: its partition tuple keyed
// by partition field id.
func partitionValue(task *catalog.FileScanTask) map[int]any {
	m := map[int]any{}
	if task.Spec == nil || task.File == nil {
		return m
	}
	for i, pf := range task.Spec.Fields {
		if i < len(task.File.Partition) {
			m[pf.FieldID] = task.File.Partition[i]
		}
	}
	return m
}
