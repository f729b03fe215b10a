package catalog

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/twmb/avro"
)

// This file holds the write side's use of the Avro library: the spec's
// manifest and manifest list schemas (with field ids) and the encoding of
// records given as maps keyed by Avro field name.

// avroField renders one record field with its Iceberg field id; optional
// fields are ["null", T] unions defaulting to null.
func avroField(name string, id int, typ string, optional bool) string {
	n, _ := json.Marshal(name)
	if optional {
		return fmt.Sprintf(`{"name":%s,"type":["null",%s],"default":null,"field-id":%d}`, n, typ, id)
	}
	return fmt.Sprintf(`{"name":%s,"type":%s,"field-id":%d}`, n, typ, id)
}

func avroRecord(name string, fields []string) string {
	return fmt.Sprintf(`{"type":"record","name":%q,"fields":[%s]}`, name, strings.Join(fields, ","))
}

// avroIntMap is an Iceberg map<int, V> as Avro writes it: an array of
// key/value records.
func avroIntMap(keyID, valueID int, value string) string {
	rec := avroRecord(fmt.Sprintf("k%d_v%d", keyID, valueID), []string{
		avroField("key", keyID, `"int"`, false),
		avroField("value", valueID, value, false),
	})
	return fmt.Sprintf(`{"type":"array","items":%s,"logicalType":"map"}`, rec)
}

func avroList(elementID int, elem string) string {
	return fmt.Sprintf(`{"type":"array","items":%s,"element-id":%d}`, elem, elementID)
}

// avroPrimitive is the Avro type of an Iceberg primitive; fixed types are
// named after the field so two fields never define one name twice.
func avroPrimitive(t *PrimitiveType, fixedName string) (string, error) {
	switch t.ID {
	case TBoolean:
		return `"boolean"`, nil
	case TInt:
		return `"int"`, nil
	case TLong:
		return `"long"`, nil
	case TFloat:
		return `"float"`, nil
	case TDouble:
		return `"double"`, nil
	case TDate:
		return `{"type":"int","logicalType":"date"}`, nil
	case TTime:
		return `{"type":"long","logicalType":"time-micros"}`, nil
	case TTimestamp, TTimestamptz:
		return fmt.Sprintf(`{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":%t}`, t.ID == TTimestamptz), nil
	case TTimestampNs, TTimestamptzNs:
		return fmt.Sprintf(`{"type":"long","logicalType":"timestamp-nanos","adjust-to-utc":%t}`, t.ID == TTimestamptzNs), nil
	case TString:
		return `"string"`, nil
	case TUUID:
		return fmt.Sprintf(`{"type":"fixed","name":%q,"size":16,"logicalType":"uuid"}`, fixedName), nil
	case TFixed:
		return fmt.Sprintf(`{"type":"fixed","name":%q,"size":%d}`, fixedName, t.Length), nil
	case TBinary:
		return `"bytes"`, nil
	case TDecimal:
		return fmt.Sprintf(`{"type":"fixed","name":%q,"size":%d,"logicalType":"decimal","precision":%d,"scale":%d}`,
			fixedName, decimalBytes(t.Precision), t.Precision, t.Scale), nil
	}
	return "", fmt.Errorf("partition value of type %s in a manifest: %w", t, ErrUnsupported)
}

// avroName makes a partition field name a valid Avro name the way other
// Iceberg writers do: invalid characters become _x<HEX>.
func avroName(name string) string {
	var b strings.Builder
	for i, r := range name {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		switch {
		case ok:
			b.WriteRune(r)
		case i == 0 && r >= '0' && r <= '9':
			b.WriteString("_" + string(r))
		default:
			b.WriteString("_x" + strings.ToUpper(strconv.FormatInt(int64(r), 16)))
		}
	}
	return b.String()
}

// partitionColumnOut is one partition field as a written manifest encodes it.
type partitionColumnOut struct {
	name    string // Avro field name
	fieldID int
	typ     *PrimitiveType
}

// manifestEntrySchema is the manifest_entry schema of a format version with
// the given partition record.
func manifestEntrySchema(version int, part []partitionColumnOut) (string, error) {
	pf := make([]string, len(part))
	for i, c := range part {
		t, err := avroPrimitive(c.typ, fmt.Sprintf("fixed_%d", c.fieldID))
		if err != nil {
			return "", err
		}
		pf[i] = avroField(c.name, c.fieldID, t, true)
	}
	var df []string
	if version >= 2 {
		df = append(df, avroField("content", 134, `"int"`, false))
	}
	df = append(df,
		avroField("file_path", 100, `"string"`, false),
		avroField("file_format", 101, `"string"`, false),
		avroField("partition", 102, avroRecord("r102", pf), false),
		avroField("record_count", 103, `"long"`, false),
		avroField("file_size_in_bytes", 104, `"long"`, false),
	)
	if version == 1 {
		df = append(df, avroField("block_size_in_bytes", 105, `"long"`, false))
	}
	df = append(df,
		avroField("column_sizes", 108, avroIntMap(117, 118, `"long"`), true),
		avroField("value_counts", 109, avroIntMap(119, 120, `"long"`), true),
		avroField("null_value_counts", 110, avroIntMap(121, 122, `"long"`), true),
		avroField("nan_value_counts", 137, avroIntMap(138, 139, `"long"`), true),
		avroField("lower_bounds", 125, avroIntMap(126, 127, `"bytes"`), true),
		avroField("upper_bounds", 128, avroIntMap(129, 130, `"bytes"`), true),
		avroField("key_metadata", 131, `"bytes"`, true),
		avroField("split_offsets", 132, avroList(133, `"long"`), true),
	)
	if version >= 2 {
		df = append(df, avroField("equality_ids", 135, avroList(136, `"int"`), true))
	}
	df = append(df, avroField("sort_order_id", 140, `"int"`, true))
	if version >= 3 {
		df = append(df,
			avroField("first_row_id", 142, `"long"`, true),
			avroField("referenced_data_file", 143, `"string"`, true),
			avroField("content_offset", 144, `"long"`, true),
			avroField("content_size_in_bytes", 145, `"long"`, true),
		)
	}
	entry := []string{avroField("status", 0, `"int"`, false)}
	if version == 1 {
		entry = append(entry, avroField("snapshot_id", 1, `"long"`, false))
	} else {
		entry = append(entry,
			avroField("snapshot_id", 1, `"long"`, true),
			avroField("sequence_number", 3, `"long"`, true),
			avroField("file_sequence_number", 4, `"long"`, true),
		)
	}
	entry = append(entry, avroField("data_file", 2, avroRecord("r2", df), false))
	return avroRecord("manifest_entry", entry), nil
}

// manifestListSchema is the manifest_file schema of a format version.
func manifestListSchema(version int) string {
	summary := avroRecord("r508", []string{
		avroField("contains_null", 509, `"boolean"`, false),
		avroField("contains_nan", 518, `"boolean"`, true),
		avroField("lower_bound", 510, `"bytes"`, true),
		avroField("upper_bound", 511, `"bytes"`, true),
	})
	f := []string{
		avroField("manifest_path", 500, `"string"`, false),
		avroField("manifest_length", 501, `"long"`, false),
		avroField("partition_spec_id", 502, `"int"`, false),
	}
	if version == 1 {
		f = append(f,
			avroField("added_snapshot_id", 503, `"long"`, true),
			avroField("added_data_files_count", 504, `"int"`, true),
			avroField("existing_data_files_count", 505, `"int"`, true),
			avroField("deleted_data_files_count", 506, `"int"`, true),
			avroField("partitions", 507, avroList(508, summary), true),
			avroField("added_rows_count", 512, `"long"`, true),
			avroField("existing_rows_count", 513, `"long"`, true),
			avroField("deleted_rows_count", 514, `"long"`, true),
			avroField("key_metadata", 519, `"bytes"`, true),
		)
		return avroRecord("manifest_file", f)
	}
	f = append(f,
		avroField("content", 517, `"int"`, false),
		avroField("sequence_number", 515, `"long"`, false),
		avroField("min_sequence_number", 516, `"long"`, false),
		avroField("added_snapshot_id", 503, `"long"`, false),
		avroField("added_files_count", 504, `"int"`, false),
		avroField("existing_files_count", 505, `"int"`, false),
		avroField("deleted_files_count", 506, `"int"`, false),
		avroField("added_rows_count", 512, `"long"`, false),
		avroField("existing_rows_count", 513, `"long"`, false),
		avroField("deleted_rows_count", 514, `"long"`, false),
		avroField("partitions", 507, avroList(508, summary), true),
		avroField("key_metadata", 519, `"bytes"`, true),
	)
	if version >= 3 {
		f = append(f, avroField("first_row_id", 520, `"long"`, true))
	}
	return avroRecord("manifest_file", f)
}

// encodeAvroFile encodes records (maps keyed by Avro field name, nil for
// null) against schemaText into a container file with the given metadata.
func encodeAvroFile(schemaText string, meta map[string]string, recs []map[string]any) ([]byte, error) {
	schema, err := avro.Parse(schemaText, rawLogicalTypes...)
	if err != nil {
		return nil, fmt.Errorf("avro schema: %w", err)
	}
	w, err := newContainerWriter([]byte(schemaText), meta)
	if err != nil {
		return nil, err
	}
	var buf []byte
	for i, r := range recs {
		if buf, err = schema.AppendEncode(buf[:0], r); err != nil {
			return nil, fmt.Errorf("encode record %d: %w", i, err)
		}
		if err := w.add(buf); err != nil {
			return nil, err
		}
	}
	return w.finish()
}
