package catalog

import (
	"fmt"

	"github.com/twmb/avro"
)

// This file is the only one that talks to the Avro library: it decodes the
// records of manifest lists and manifests into the plain structs below,
// against the writer schema in each file. Logical types are decoded raw
// (date as int32 days, timestamps as int64, decimals as two's-complement
// bytes) and converted to the values of value.go by partitionLayout.

// rawLogicalTypes makes the library hand back the Avro-native value of every
// logical type instead of time.Time, *big.Rat and the like.
var rawLogicalTypes = func() []avro.SchemaOpt {
	var opts []avro.SchemaOpt
	for _, lt := range []string{
		"date", "time-millis", "time-micros", "timestamp-millis", "timestamp-micros",
		"timestamp-nanos", "local-timestamp-millis", "local-timestamp-micros",
		"local-timestamp-nanos", "decimal", "uuid", "duration",
	} {
		opts = append(opts, avro.WithCustomType(avro.CustomType{LogicalType: lt}))
	}
	// Partition field names are column names and may hold any character.
	return append(opts, avro.WithLaxNames(nil))
}()

// avroSchema is a parsed writer schema with what we read off it once.
type avroSchema struct {
	schema    *avro.Schema
	partition []partitionColumn
}

// parseAvroSchema parses a writer schema, cached by its JSON text: every
// manifest of a table usually carries the same schema, and parsing costs
// more than decoding a manifest's records.
func parseAvroSchema(text []byte, cache *fileCache) (*avroSchema, error) {
	key := "avro-schema:" + string(text)
	if v, ok := cache.get(key); ok {
		return v.(*avroSchema), nil
	}
	s, err := avro.Parse(string(text), rawLogicalTypes...)
	if err != nil {
		return nil, fmt.Errorf("avro schema: %w: %w", ErrDataInvalid, err)
	}
	as := &avroSchema{schema: s, partition: partitionColumns(s.Root())}
	cache.put(key, as)
	return as, nil
}

// avroRecords decodes every record of an Avro object container file into T
// against the writer schema the file holds, and returns the file's
// key-value metadata and the schema.
func avroRecords[T any](data []byte, cache *fileCache) ([]T, map[string][]byte, *avroSchema, error) {
	c, err := readContainer(data)
	if err != nil {
		return nil, nil, nil, err
	}
	schema, err := parseAvroSchema(c.meta["avro.schema"], cache)
	if err != nil {
		return nil, nil, nil, err
	}
	out := make([]T, 0, c.count)
	for _, blk := range c.blocks {
		block, err := c.decompress(blk.data, cache)
		if err != nil {
			return nil, nil, nil, err
		}
		for range blk.count {
			var rec T
			if block, err = schema.schema.Decode(block, &rec, avro.SkipUnknown()); err != nil {
				return nil, nil, nil, fmt.Errorf("record %d: %w: %w", len(out), ErrDataInvalid, err)
			}
			out = append(out, rec)
		}
		if len(block) != 0 {
			return nil, nil, nil, fmt.Errorf("avro block has %d trailing bytes: %w", len(block), ErrDataInvalid)
		}
	}
	return out, c.meta, schema, nil
}

// avroManifestFile is a manifest list record, v1 and v2/v3 field names.
type avroManifestFile struct {
	ManifestPath       string             `avro:"manifest_path"`
	ManifestLength     int64              `avro:"manifest_length"`
	PartitionSpecID    int32              `avro:"partition_spec_id"`
	Content            int32              `avro:"content"`
	SequenceNumber     int64              `avro:"sequence_number"`
	MinSequenceNumber  int64              `avro:"min_sequence_number"`
	AddedSnapshotID    *int64             `avro:"added_snapshot_id"`
	AddedFilesCount    *int32             `avro:"added_files_count"`
	ExistingFilesCount *int32             `avro:"existing_files_count"`
	DeletedFilesCount  *int32             `avro:"deleted_files_count"`
	AddedDataFiles     *int32             `avro:"added_data_files_count"`
	ExistingDataFiles  *int32             `avro:"existing_data_files_count"`
	DeletedDataFiles   *int32             `avro:"deleted_data_files_count"`
	AddedRowsCount     *int64             `avro:"added_rows_count"`
	ExistingRowsCount  *int64             `avro:"existing_rows_count"`
	DeletedRowsCount   *int64             `avro:"deleted_rows_count"`
	Partitions         []avroFieldSummary `avro:"partitions"`
	KeyMetadata        []byte             `avro:"key_metadata"`
	FirstRowID         *int64             `avro:"first_row_id"`
}

type avroFieldSummary struct {
	ContainsNull bool   `avro:"contains_null"`
	ContainsNaN  *bool  `avro:"contains_nan"`
	LowerBound   []byte `avro:"lower_bound"`
	UpperBound   []byte `avro:"upper_bound"`
}

// avroManifestEntry is a manifest record (manifest_entry), v1 to v3.
type avroManifestEntry struct {
	Status             int32        `avro:"status"`
	SnapshotID         *int64       `avro:"snapshot_id"`
	SequenceNumber     *int64       `avro:"sequence_number"`
	FileSequenceNumber *int64       `avro:"file_sequence_number"`
	DataFile           avroDataFile `avro:"data_file"`
}

type avroDataFile struct {
	Content            int32          `avro:"content"`
	FilePath           string         `avro:"file_path"`
	FileFormat         string         `avro:"file_format"`
	Partition          map[string]any `avro:"partition"`
	RecordCount        int64          `avro:"record_count"`
	FileSizeInBytes    int64          `avro:"file_size_in_bytes"`
	ColumnSizes        []avroIntLong  `avro:"column_sizes"`
	ValueCounts        []avroIntLong  `avro:"value_counts"`
	NullValueCounts    []avroIntLong  `avro:"null_value_counts"`
	NaNValueCounts     []avroIntLong  `avro:"nan_value_counts"`
	LowerBounds        []avroIntBytes `avro:"lower_bounds"`
	UpperBounds        []avroIntBytes `avro:"upper_bounds"`
	KeyMetadata        []byte         `avro:"key_metadata"`
	SplitOffsets       []int64        `avro:"split_offsets"`
	EqualityIDs        []int32        `avro:"equality_ids"`
	SortOrderID        *int32         `avro:"sort_order_id"`
	FirstRowID         *int64         `avro:"first_row_id"`
	ReferencedDataFile *string        `avro:"referenced_data_file"`
	ContentOffset      *int64         `avro:"content_offset"`
	ContentSizeInBytes *int64         `avro:"content_size_in_bytes"`
}

type avroIntLong struct {
	Key   int32 `avro:"key"`
	Value int64 `avro:"value"`
}

type avroIntBytes struct {
	Key   int32  `avro:"key"`
	Value []byte `avro:"value"`
}

// partitionColumn is one field of a manifest's partition record as its Avro
// schema declares it.
type partitionColumn struct {
	name      string
	fieldID   int // -1 when the schema does not say
	avroType  string
	logical   string
	scale     int
	fixedSize int
}

// partitionColumns reads the partition record's fields from a manifest's
// writer schema (manifest_entry.data_file.partition).
func partitionColumns(root *avro.SchemaNode) []partitionColumn {
	df := recordField(root, "data_file")
	if df == nil {
		return nil
	}
	part := recordField(df, "partition")
	if part == nil {
		return nil
	}
	cols := make([]partitionColumn, 0, len(part.Fields))
	for _, f := range part.Fields {
		t := nonNull(&f.Type)
		c := partitionColumn{name: f.Name, fieldID: -1, avroType: t.Type, logical: t.LogicalType, scale: t.Scale, fixedSize: t.Size}
		if id, ok := f.Props["field-id"].(int64); ok {
			c.fieldID = int(id)
		}
		cols = append(cols, c)
	}
	return cols
}

// recordField returns the (non-null) record type of field name of record n.
func recordField(n *avro.SchemaNode, name string) *avro.SchemaNode {
	n = nonNull(n)
	for i := range n.Fields {
		if n.Fields[i].Name == name {
			return nonNull(&n.Fields[i].Type)
		}
	}
	return nil
}

// nonNull returns the non-null branch of a ["null", T] union, or n.
func nonNull(n *avro.SchemaNode) *avro.SchemaNode {
	if n.Type == "union" {
		for i := range n.Branches {
			if n.Branches[i].Type != "null" {
				return &n.Branches[i]
			}
		}
	}
	return n
}
