package catalog

import (
	"fmt"
	"strconv"
)

// EncodeManifestList encodes the manifest list of a snapshot: manifests in
// order, inheritedSeq sequence numbers replaced by sequenceNumber (the
// snapshot's). In v3, data manifests must carry their first row id
// (AssignFirstRowIDs). Partition summaries, counts and key metadata are
// written as the ManifestFile values give them; v2+ requires the counts.
func EncodeManifestList(formatVersion int, snapshotID int64, parentID *int64, sequenceNumber int64,
	firstRowID *int64, manifests []ManifestFile) ([]byte, error) {
	recs := make([]map[string]any, len(manifests))
	for i := range manifests {
		mf := &manifests[i]
		rec := map[string]any{
			"manifest_path":       mf.Path,
			"manifest_length":     mf.Length,
			"partition_spec_id":   int32(mf.SpecID),
			"added_snapshot_id":   mf.AddedSnapshotID,
			"added_rows_count":    optValue(mf.AddedRowsCount),
			"existing_rows_count": optValue(mf.ExistingRowsCount),
			"deleted_rows_count":  optValue(mf.DeletedRowsCount),
			"partitions":          summaryRecords(mf.Partitions),
			"key_metadata":        nilIfEmpty(mf.KeyMetadata),
		}
		if formatVersion == 1 {
			rec["added_data_files_count"] = optValue(mf.AddedFilesCount)
			rec["existing_data_files_count"] = optValue(mf.ExistingFilesCount)
			rec["deleted_data_files_count"] = optValue(mf.DeletedFilesCount)
			recs[i] = rec
			continue
		}
		if mf.AddedFilesCount == nil || mf.ExistingFilesCount == nil || mf.DeletedFilesCount == nil ||
			mf.AddedRowsCount == nil || mf.ExistingRowsCount == nil || mf.DeletedRowsCount == nil {
			return nil, fmt.Errorf("write manifest list: manifest %s has no file and row counts: %w", mf.Path, ErrDataInvalid)
		}
		seq, minSeq := mf.SequenceNumber, mf.MinSequenceNumber
		if seq == inheritedSeq {
			seq = sequenceNumber
		}
		if minSeq == inheritedSeq {
			minSeq = sequenceNumber
		}
		rec["content"] = int32(mf.Content)
		rec["sequence_number"] = seq
		rec["min_sequence_number"] = minSeq
		rec["added_files_count"] = *mf.AddedFilesCount
		rec["existing_files_count"] = *mf.ExistingFilesCount
		rec["deleted_files_count"] = *mf.DeletedFilesCount
		if formatVersion >= 3 {
			if mf.Content == ManifestData && mf.FirstRowID == nil {
				return nil, fmt.Errorf("write manifest list: v3 data manifest %s has no first row id: %w", mf.Path, ErrDataInvalid)
			}
			rec["first_row_id"] = optValue(mf.FirstRowID)
		}
		recs[i] = rec
	}
	meta := map[string]string{
		"snapshot-id":        strconv.FormatInt(snapshotID, 10),
		"parent-snapshot-id": "null",
		"format-version":     strconv.Itoa(formatVersion),
	}
	if parentID != nil {
		meta["parent-snapshot-id"] = strconv.FormatInt(*parentID, 10)
	}
	if formatVersion >= 2 {
		meta["sequence-number"] = strconv.FormatInt(sequenceNumber, 10)
	}
	if formatVersion >= 3 && firstRowID != nil {
		meta["first-row-id"] = strconv.FormatInt(*firstRowID, 10)
	}
	data, err := encodeAvroFile(manifestListSchema(formatVersion), meta, recs)
	if err != nil {
		return nil, fmt.Errorf("write manifest list of snapshot %d: %w", snapshotID, err)
	}
	return data, nil
}

// AssignFirstRowIDs gives every v3 data manifest without a first row id
// consecutive row id ranges starting at next (sized by its added and
// existing rows), and returns the next free row id; the difference from
// next is the snapshot's added-rows.
func AssignFirstRowIDs(manifests []ManifestFile, next int64) int64 {
	for i := range manifests {
		mf := &manifests[i]
		if mf.Content != ManifestData || mf.FirstRowID != nil {
			continue
		}
		id := next
		mf.FirstRowID = &id
		if mf.AddedRowsCount != nil {
			next += *mf.AddedRowsCount
		}
		if mf.ExistingRowsCount != nil {
			next += *mf.ExistingRowsCount
		}
	}
	return next
}

func summaryRecords(sums []FieldSummary) any {
	if sums == nil {
		return nil
	}
	out := make([]any, len(sums))
	for i, s := range sums {
		out[i] = map[string]any{
			"contains_null": s.ContainsNull,
			"contains_nan":  optValue(s.ContainsNaN),
			"lower_bound":   bytesOrNil(s.LowerBound),
			"upper_bound":   bytesOrNil(s.UpperBound),
		}
	}
	return out
}

func bytesOrNil(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}
