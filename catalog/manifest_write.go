package catalog

import (
	"fmt"
	"math"
	"sort"
	"strconv"
)

// inheritedSeq in a ManifestFile's sequence numbers stands for "the
// sequence number of the snapshot that commits this manifest": the manifest
// list writer replaces it, the way ADDED entries inherit theirs.
const inheritedSeq = -1

// v1BlockSize is the block_size_in_bytes written into v1 manifests, which
// require the field.
const v1BlockSize = 64 << 20

// EncodeManifest encodes a manifest of a table of formatVersion holding
// entries written with spec over schema, as committed by snapshotID. ADDED
// entries get null sequence numbers (inherited from the manifest list) and,
// in v3, a null first row id; EXISTING and DELETED entries keep their
// file's explicit values. It returns the file's bytes and its manifest list
// entry (path as given, counts and partition summaries filled; sequence
// numbers inheritedSeq when any entry inherits).
func EncodeManifest(path string, formatVersion int, schema *Schema, spec *PartitionSpec, content ManifestContent,
	snapshotID int64, entries []ManifestEntry) ([]byte, ManifestFile, error) {
	mf := ManifestFile{Path: path, SpecID: spec.ID, Content: content, AddedSnapshotID: snapshotID}
	types, err := PartitionType(spec, schema)
	if err != nil {
		return nil, mf, fmt.Errorf("write manifest %s: %w", path, err)
	}
	cols := make([]partitionColumnOut, len(spec.Fields))
	for i, f := range spec.Fields {
		cols[i] = partitionColumnOut{name: avroName(f.Name), fieldID: f.FieldID, typ: types[i]}
	}
	avroSchema, err := manifestEntrySchema(formatVersion, cols)
	if err != nil {
		return nil, mf, fmt.Errorf("write manifest %s: %w", path, err)
	}
	sums := newSummaryBuilder(types)
	var counts [3]int32
	var rows [3]int64
	minSeq := int64(math.MaxInt64)
	recs := make([]map[string]any, len(entries))
	for i, e := range entries {
		df := e.File
		if df == nil || e.Status < StatusExisting || e.Status > StatusDeleted {
			return nil, mf, fmt.Errorf("write manifest %s: entry %d: %w", path, i, ErrDataInvalid)
		}
		if (content == ManifestData) != (df.Content == ContentData) {
			return nil, mf, fmt.Errorf("write manifest %s: %s file %s in a %s manifest: %w", path, contentName(df.Content), df.Path, manifestContentName(content), ErrDataInvalid)
		}
		if len(df.Partition) != len(cols) {
			return nil, mf, fmt.Errorf("write manifest %s: file %s has %d partition values for a spec of %d fields: %w", path, df.Path, len(df.Partition), len(cols), ErrDataInvalid)
		}
		rec, err := manifestEntryRecord(formatVersion, e, cols, snapshotID)
		if err != nil {
			return nil, mf, fmt.Errorf("write manifest %s: file %s: %w", path, df.Path, err)
		}
		recs[i] = rec
		counts[e.Status]++
		rows[e.Status] += df.RecordCount
		if e.Status != StatusDeleted {
			if err := sums.add(df.Partition); err != nil {
				return nil, mf, fmt.Errorf("write manifest %s: file %s: %w", path, df.Path, err)
			}
		}
		if e.Status == StatusAdded {
			minSeq = inheritedSeq
		} else if minSeq != inheritedSeq {
			minSeq = min(minSeq, df.DataSequenceNumber)
		}
	}
	if minSeq == math.MaxInt64 {
		minSeq = inheritedSeq
	}
	meta := map[string]string{
		"schema":            string(schemaJSON(schema)),
		"schema-id":         strconv.Itoa(schema.ID),
		"partition-spec":    string(specFieldsJSON(spec)),
		"partition-spec-id": strconv.Itoa(spec.ID),
		"format-version":    strconv.Itoa(formatVersion),
	}
	if formatVersion >= 2 {
		meta["content"] = manifestContentName(content)
	}
	data, err := encodeAvroFile(avroSchema, meta, recs)
	if err != nil {
		return nil, mf, fmt.Errorf("write manifest %s: %w", path, err)
	}
	mf.Length = int64(len(data))
	mf.SequenceNumber = inheritedSeq
	mf.MinSequenceNumber = minSeq
	if counts[StatusAdded] == 0 {
		// Nothing inherits: the manifest's own data sequence numbers.
		mf.SequenceNumber = max(minSeq, 0)
		mf.MinSequenceNumber = max(minSeq, 0)
	}
	mf.AddedFilesCount, mf.ExistingFilesCount, mf.DeletedFilesCount = &counts[StatusAdded], &counts[StatusExisting], &counts[StatusDeleted]
	mf.AddedRowsCount, mf.ExistingRowsCount, mf.DeletedRowsCount = &rows[StatusAdded], &rows[StatusExisting], &rows[StatusDeleted]
	if mf.Partitions, err = sums.summaries(); err != nil {
		return nil, mf, fmt.Errorf("write manifest %s: %w", path, err)
	}
	return data, mf, nil
}

func manifestContentName(c ManifestContent) string {
	if c == ManifestDeletes {
		return "deletes"
	}
	return "data"
}

func contentName(c FileContent) string {
	switch c {
	case ContentData:
		return "data"
	case ContentPositionDelete:
		return "position delete"
	case ContentEqualityDelete:
		return "equality delete"
	}
	return "content " + strconv.Itoa(int(c))
}

// manifestEntryRecord is one manifest_entry as the Avro encoder takes it.
func manifestEntryRecord(version int, e ManifestEntry, cols []partitionColumnOut, snapshotID int64) (map[string]any, error) {
	df := e.File
	part := make(map[string]any, len(cols))
	for i, c := range cols {
		v, err := avroPartitionValue(c.typ, df.Partition[i])
		if err != nil {
			return nil, fmt.Errorf("partition field %s: %w", c.name, err)
		}
		part[c.name] = v
	}
	file := map[string]any{
		"file_path":          df.Path,
		"file_format":        string(df.Format),
		"partition":          part,
		"record_count":       df.RecordCount,
		"file_size_in_bytes": df.FileSizeInBytes,
		"column_sizes":       intLongRecords(df.ColumnSizes),
		"value_counts":       intLongRecords(df.ValueCounts),
		"null_value_counts":  intLongRecords(df.NullValueCounts),
		"nan_value_counts":   intLongRecords(df.NaNValueCounts),
		"lower_bounds":       intBytesRecords(df.LowerBounds),
		"upper_bounds":       intBytesRecords(df.UpperBounds),
		"key_metadata":       nilIfEmpty(df.KeyMetadata),
		"split_offsets":      nil,
		"sort_order_id":      nil,
	}
	if len(df.SplitOffsets) > 0 {
		file["split_offsets"] = df.SplitOffsets
	}
	if df.SortOrderID != nil {
		file["sort_order_id"] = int32(*df.SortOrderID)
	}
	snap := snapshotID
	if e.Status != StatusAdded && df.SnapshotID != 0 {
		snap = df.SnapshotID
	}
	rec := map[string]any{"status": int32(e.Status), "snapshot_id": snap, "data_file": file}
	if version == 1 {
		file["block_size_in_bytes"] = int64(v1BlockSize)
		return rec, nil
	}
	file["content"] = int32(df.Content)
	file["equality_ids"] = nil
	if len(df.EqualityIDs) > 0 {
		ids := make([]int32, len(df.EqualityIDs))
		for i, id := range df.EqualityIDs {
			ids[i] = int32(id)
		}
		file["equality_ids"] = ids
	}
	rec["sequence_number"], rec["file_sequence_number"] = nil, nil
	if e.Status != StatusAdded {
		rec["sequence_number"] = df.DataSequenceNumber
		rec["file_sequence_number"] = df.FileSequenceNumber
	}
	if version >= 3 {
		file["first_row_id"] = nil
		if e.Status != StatusAdded && df.FirstRowID != nil {
			file["first_row_id"] = *df.FirstRowID
		}
		file["referenced_data_file"] = optValue(df.ReferencedDataFile)
		file["content_offset"] = optValue(df.ContentOffset)
		file["content_size_in_bytes"] = optValue(df.ContentSizeInBytes)
	}
	return rec, nil
}

func optValue[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func nilIfEmpty(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

func intLongRecords(m map[int]int64) any {
	if m == nil {
		return nil
	}
	keys := sortedKeys(m)
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = map[string]any{"key": int32(k), "value": m[k]}
	}
	return out
}

func intBytesRecords(m map[int][]byte) any {
	if m == nil {
		return nil
	}
	keys := sortedKeys(m)
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = map[string]any{"key": int32(k), "value": m[k]}
	}
	return out
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

// avroPartitionValue converts a partition value of value.go to what the
// Avro encoder writes for type t.
func avroPartitionValue(t *PrimitiveType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	bad := fmt.Errorf("value %v (%T) for %s: %w", v, v, t, ErrDataInvalid)
	switch t.ID {
	case TBoolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case TInt, TDate:
		if n, ok := asInt64(v); ok && n >= math.MinInt32 && n <= math.MaxInt32 {
			return int32(n), nil
		}
	case TLong, TTime, TTimestamp, TTimestamptz, TTimestampNs, TTimestamptzNs:
		if n, ok := asInt64(v); ok {
			return n, nil
		}
	case TFloat:
		switch f := v.(type) {
		case float32:
			return f, nil
		case float64:
			return float32(f), nil
		}
	case TDouble:
		switch f := v.(type) {
		case float32:
			return float64(f), nil
		case float64:
			return f, nil
		}
	case TString:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case TBinary:
		if b, ok := v.([]byte); ok {
			return b, nil
		}
	case TFixed:
		if b, ok := v.([]byte); ok && len(b) == t.Length {
			return b, nil
		}
	case TUUID:
		if u, ok := v.([16]byte); ok {
			return u[:], nil
		}
	case TDecimal:
		if d, ok := v.(Decimal); ok && d.Unscaled != nil && d.Scale == t.Scale {
			return TwosComplement(d.Unscaled, decimalBytes(t.Precision)), nil
		}
	}
	return nil, bad
}

// schemaJSON is a schema as metadata JSON writes it.
func schemaJSON(s *Schema) []byte {
	w := &jsonWriter{first: []bool{true}}
	if err := w.schema(s); err != nil || w.err != nil {
		return nil
	}
	return w.buf.Bytes()
}

// specFieldsJSON is a spec's field list as metadata JSON writes it.
func specFieldsJSON(s *PartitionSpec) []byte {
	w := &jsonWriter{first: []bool{true}}
	w.specFields(s)
	return w.buf.Bytes()
}
