package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// Manifest entry statuses.
const (
	StatusExisting = 0
	StatusAdded    = 1
	StatusDeleted  = 2
)

// Manifest is a parsed manifest: the spec its files were written with and
// its entries, with snapshot ids, sequence numbers and first row ids
// already inherited from the manifest list.
type Manifest struct {
	Path    string
	Content ManifestContent
	// Spec is the partition spec the manifest header records (nil if the
	// header has none); planning prefers the table metadata's spec of the
	// same id.
	Spec    *PartitionSpec
	SpecID  int
	Entries []ManifestEntry
}

// ManifestEntry is one entry of a manifest.
type ManifestEntry struct {
	Status int // StatusExisting, StatusAdded, StatusDeleted
	File   *DataFile
}

// ReadManifest reads the manifest mf names. The parsed manifest is cached by
// resolved path when fio belongs to a Filesystem catalog (manifests are
// immutable); callers must not modify it.
func ReadManifest(ctx context.Context, fio FileIO, mf *ManifestFile) (*Manifest, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	local, err := fio.Resolve(mf.Path)
	if err != nil {
		return nil, FileError(fio, mf.Path, fmt.Errorf("manifest: %w", err))
	}
	cache := cacheOf(fio)
	// Everything an entry inherits from the list entry is in the key: one
	// manifest carried into a v3 snapshot gets a first_row_id the list of
	// the v2 snapshot before the upgrade did not give it.
	key := "manifest:" + strconv.FormatInt(mf.SequenceNumber, 10) + ":" + strconv.FormatInt(mf.AddedSnapshotID, 10) + ":"
	if mf.FirstRowID != nil {
		key += strconv.FormatInt(*mf.FirstRowID, 10)
	}
	key += ":" + local
	if v, ok := cache.get(key); ok {
		return v.(*Manifest), nil
	}
	data, err := readWhole(ctx, fio, mf.Path)
	if err != nil {
		return nil, FileError(fio, mf.Path, fmt.Errorf("manifest: %w", err))
	}
	m, err := decodeManifest(data, mf, cache)
	if err != nil {
		return nil, FileError(fio, mf.Path, fmt.Errorf("manifest: %w", err))
	}
	cache.put(key, m)
	return m, nil
}

// decodeManifest decodes a manifest file's bytes and applies inheritance.
func decodeManifest(data []byte, mf *ManifestFile, cache *fileCache) (*Manifest, error) {
	recs, meta, schema, err := avroRecords[avroManifestEntry](data, cache)
	if err != nil {
		return nil, err
	}
	m := &Manifest{Path: mf.Path, Content: mf.Content, SpecID: mf.SpecID}
	if c := string(meta["content"]); c == "deletes" {
		m.Content = ManifestDeletes
	}
	if s, ok := meta["partition-spec-id"]; ok {
		if id, err := strconv.Atoi(string(s)); err == nil {
			m.SpecID = id
		}
	}
	if s, ok := meta["partition-spec"]; ok {
		m.Spec = headerSpec(m.SpecID, s, cache)
	}
	cols := schema.partition
	order := partitionOrder(cols, m.Spec)

	m.Entries = make([]ManifestEntry, len(recs))
	nextRowID := mf.FirstRowID
	var rowIDs int64
	if nextRowID != nil {
		rowIDs = *nextRowID
	}
	for i := range recs {
		r := &recs[i]
		df, err := r.DataFile.toDataFile(cols, order)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		df.SpecID = m.SpecID
		df.SnapshotID = mf.AddedSnapshotID
		if r.SnapshotID != nil {
			df.SnapshotID = *r.SnapshotID
		}
		// Sequence numbers: explicit values win; a null is inherited from
		// the manifest list (the spec requires explicit values for EXISTING
		// and DELETED entries of v2+ manifests; v1 manifests have none and
		// v1 lists give 0).
		df.DataSequenceNumber = inheritSeq(r.SequenceNumber, mf.SequenceNumber)
		df.FileSequenceNumber = inheritSeq(r.FileSequenceNumber, mf.SequenceNumber)
		// v3 row lineage: data files without a first row id get consecutive
		// ranges starting at the manifest's first row id.
		if df.Content == ContentData && df.FirstRowID == nil && nextRowID != nil && r.Status != StatusDeleted {
			id := rowIDs
			df.FirstRowID = &id
			rowIDs += df.RecordCount
		}
		m.Entries[i] = ManifestEntry{Status: int(r.Status), File: df}
	}
	return m, nil
}

// headerSpec parses the partition spec a manifest header records (JSON
// fields), cached by text; nil if it does not parse.
func headerSpec(id int, fieldsJSON []byte, cache *fileCache) *PartitionSpec {
	key := "header-spec:" + strconv.Itoa(id) + ":" + string(fieldsJSON)
	if v, ok := cache.get(key); ok {
		return v.(*PartitionSpec)
	}
	var fields []jsonPartitionField
	if json.Unmarshal(fieldsJSON, &fields) != nil {
		return nil
	}
	spec, _ := specFromJSON(jsonSpec{SpecID: jsonInt64(id), Fields: fields})
	cache.put(key, spec)
	return spec
}

func inheritSeq(explicit *int64, manifestSeq int64) int64 {
	if explicit != nil {
		return *explicit
	}
	return manifestSeq
}

// partitionOrder maps each Avro partition column to its index in the spec's
// field order (by partition field id when both sides have it, else by
// position).
func partitionOrder(cols []partitionColumn, spec *PartitionSpec) []int {
	order := make([]int, len(cols))
	for i, c := range cols {
		order[i] = i
		if spec == nil || c.fieldID < 0 {
			continue
		}
		for j, f := range spec.Fields {
			if f.FieldID == c.fieldID {
				order[i] = j
				break
			}
		}
	}
	return order
}

func (r *avroDataFile) toDataFile(cols []partitionColumn, order []int) (*DataFile, error) {
	df := &DataFile{
		Content:            FileContent(r.Content),
		Path:               r.FilePath,
		Format:             normalizeFormat(r.FileFormat),
		RecordCount:        r.RecordCount,
		FileSizeInBytes:    r.FileSizeInBytes,
		ColumnSizes:        intLongMap(r.ColumnSizes),
		ValueCounts:        intLongMap(r.ValueCounts),
		NullValueCounts:    intLongMap(r.NullValueCounts),
		NaNValueCounts:     intLongMap(r.NaNValueCounts),
		LowerBounds:        intBytesMap(r.LowerBounds),
		UpperBounds:        intBytesMap(r.UpperBounds),
		KeyMetadata:        r.KeyMetadata,
		SplitOffsets:       r.SplitOffsets,
		FirstRowID:         r.FirstRowID,
		ReferencedDataFile: r.ReferencedDataFile,
		ContentOffset:      r.ContentOffset,
		ContentSizeInBytes: r.ContentSizeInBytes,
	}
	if r.SortOrderID != nil {
		id := int(*r.SortOrderID)
		df.SortOrderID = &id
	}
	if len(r.EqualityIDs) > 0 {
		df.EqualityIDs = make([]int, len(r.EqualityIDs))
		for i, id := range r.EqualityIDs {
			df.EqualityIDs[i] = int(id)
		}
	}
	if len(cols) > 0 {
		df.Partition = make([]any, len(cols))
		for i, c := range cols {
			v, err := c.value(r.Partition[c.name])
			if err != nil {
				return nil, fmt.Errorf("file %s: partition field %s: %w", r.FilePath, c.name, err)
			}
			if order[i] < len(df.Partition) {
				df.Partition[order[i]] = v
			}
		}
	}
	return df, nil
}

func normalizeFormat(s string) FileFormat {
	switch s {
	case "parquet", "PARQUET", "Parquet":
		return FormatParquet
	case "avro", "AVRO", "Avro":
		return FormatAvro
	case "orc", "ORC", "Orc":
		return FormatORC
	case "puffin", "PUFFIN", "Puffin":
		return FormatPuffin
	}
	return FileFormat(s)
}

func intLongMap(kvs []avroIntLong) map[int]int64 {
	if kvs == nil {
		return nil
	}
	m := make(map[int]int64, len(kvs))
	for _, kv := range kvs {
		m[int(kv.Key)] = kv.Value
	}
	return m
}

func intBytesMap(kvs []avroIntBytes) map[int][]byte {
	if kvs == nil {
		return nil
	}
	m := make(map[int][]byte, len(kvs))
	for _, kv := range kvs {
		m[int(kv.Key)] = kv.Value
	}
	return m
}

// value converts a raw Avro partition value to the Go value of value.go.
func (c *partitionColumn) value(raw any) (any, error) {
	if raw == nil {
		return nil, nil
	}
	switch c.logical {
	case "date":
		if v, ok := raw.(int32); ok {
			return v, nil
		}
	case "time-micros", "timestamp-micros", "local-timestamp-micros", "timestamp-nanos", "local-timestamp-nanos":
		if v, ok := raw.(int64); ok {
			return v, nil
		}
	case "time-millis":
		if v, ok := raw.(int32); ok {
			return int64(v) * 1000, nil
		}
	case "timestamp-millis", "local-timestamp-millis":
		if v, ok := raw.(int64); ok {
			return v * 1000, nil
		}
	case "decimal":
		if b := rawBytes(raw); b != nil {
			return Decimal{Unscaled: BigIntFromTwosComplement(b), Scale: c.scale}, nil
		}
	case "uuid":
		if s, ok := raw.(string); ok {
			return ParseUUID(s)
		}
		if b := rawBytes(raw); len(b) == 16 {
			var u [16]byte
			copy(u[:], b)
			return u, nil
		}
	default:
		switch v := raw.(type) {
		case bool, int32, int64, float32, float64, string:
			return v, nil
		}
		if b := rawBytes(raw); b != nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("value %v (%T) for Avro %s/%s: %w", raw, raw, c.avroType, c.logical, ErrDataInvalid)
}

// rawBytes returns the bytes of a decoded bytes or fixed value.
func rawBytes(raw any) []byte {
	switch v := raw.(type) {
	case []byte:
		return v
	case [16]byte:
		return v[:]
	}
	return nil
}
