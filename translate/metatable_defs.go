package translate

import (
	"context"
	"sort"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgtypes"
)

// metaTableDef is one kind of metadata table: its columns (some depend on
// the table: partition is there only when the table has been
// partitioned, as in Spark) and how its rows are computed.
type metaTableDef struct {
	name string
	// perSnapshot tables list the state of one snapshot and take time
	// travel; the others list the whole history.
	perSnapshot bool
	columns     func(m *catalog.TableMetadata) []metaCol
	rows        func(ctx context.Context, src *metaSource) ([][]any, error)
}

// metaSource is what a metadata table's rows are computed from.
type metaSource struct {
	table    *catalog.Table
	meta     *catalog.TableMetadata
	snapshot *catalog.Snapshot
	columns  []metaCol
}

// has reports whether the relation has a column (partition comes and
// goes with the table's partitioning).
func (s *metaSource) has(name string) bool {
	for _, c := range s.columns {
		if c.name == name {
			return true
		}
	}
	return false
}

var (
	tInt8Array = pgType{pgtypes.ArrayOf(pgtypes.Int8), -1}
	tInt4Array = pgType{pgtypes.ArrayOf(pgtypes.Int4), -1}
)

func fixedCols(cols ...metaCol) func(*catalog.TableMetadata) []metaCol {
	return func(*catalog.TableMetadata) []metaCol { return cols }
}

// isPartitioned reports whether any partition spec of the table has a
// field.
func isPartitioned(m *catalog.TableMetadata) bool {
	for _, s := range m.PartitionSpecs {
		if len(s.Fields) > 0 {
			return true
		}
	}
	return false
}

// withPartition inserts the partition column (jsonb) before column at
// when the table is partitioned.
func withPartition(cols []metaCol, at int, extra ...metaCol) func(*catalog.TableMetadata) []metaCol {
	return func(m *catalog.TableMetadata) []metaCol {
		if !isPartitioned(m) {
			return cols
		}
		out := append([]metaCol(nil), cols[:at]...)
		out = append(out, metaCol{"partition", tJSONB})
		out = append(out, extra...)
		return append(out, cols[at:]...)
	}
}

var snapshotsCols = []metaCol{
	{"committed_at", tTimestamptz}, {"snapshot_id", tInt8}, {"parent_id", tInt8},
	{"operation", tText}, {"manifest_list", tText}, {"summary", tJSONB},
}

var historyCols = []metaCol{
	{"made_current_at", tTimestamptz}, {"snapshot_id", tInt8}, {"parent_id", tInt8}, {"is_current_ancestor", tBool},
}

var metadataLogCols = []metaCol{
	{"timestamp", tTimestamptz}, {"file", tText}, {"latest_snapshot_id", tInt8},
	{"latest_schema_id", tInt4}, {"latest_sequence_number", tInt8},
}

var refsCols = []metaCol{
	{"name", tText}, {"type", tText}, {"snapshot_id", tInt8},
	{"max_reference_age_in_ms", tInt8}, {"min_snapshots_to_keep", tInt4}, {"max_snapshot_age_in_ms", tInt8},
}

var propertiesCols = []metaCol{{"key", tText}, {"value", tText}}

var manifestsCols = []metaCol{
	{"content", tInt4}, {"path", tText}, {"length", tInt8}, {"partition_spec_id", tInt4},
	{"added_snapshot_id", tInt8}, {"added_data_files_count", tInt4}, {"existing_data_files_count", tInt4},
	{"deleted_data_files_count", tInt4}, {"added_delete_files_count", tInt4},
	{"existing_delete_files_count", tInt4}, {"deleted_delete_files_count", tInt4},
	{"partition_summaries", tJSONB},
}

var allManifestsCols = append(append([]metaCol(nil), manifestsCols...), metaCol{"reference_snapshot_id", tInt8})

// filesCols are Spark's files columns without partition (inserted at 4).
var filesCols = []metaCol{
	{"content", tInt4}, {"file_path", tText}, {"file_format", tText}, {"spec_id", tInt4},
	{"record_count", tInt8}, {"file_size_in_bytes", tInt8},
	{"column_sizes", tJSONB}, {"value_counts", tJSONB}, {"null_value_counts", tJSONB}, {"nan_value_counts", tJSONB},
	{"lower_bounds", tJSONB}, {"upper_bounds", tJSONB}, {"key_metadata", tBytea},
	{"split_offsets", tInt8Array}, {"equality_ids", tInt4Array}, {"sort_order_id", tInt4},
	{"first_row_id", tInt8}, {"referenced_data_file", tText}, {"content_offset", tInt8}, {"content_size_in_bytes", tInt8},
	{"readable_metrics", tJSONB},
}

var entriesCols = []metaCol{
	{"status", tInt4}, {"snapshot_id", tInt8}, {"sequence_number", tInt8}, {"file_sequence_number", tInt8},
	{"data_file", tJSONB}, {"readable_metrics", tJSONB},
}

// partitionsCols are Spark's partitions columns of an unpartitioned
// table; a partitioned one has partition and spec_id first.
var partitionsCols = []metaCol{
	{"record_count", tInt8}, {"file_count", tInt4}, {"total_data_file_size_in_bytes", tInt8},
	{"position_delete_record_count", tInt8}, {"position_delete_file_count", tInt4},
	{"equality_delete_record_count", tInt8}, {"equality_delete_file_count", tInt4},
	{"last_updated_at", tTimestamptz}, {"last_updated_snapshot_id", tInt8},
}

// positionDeletesCols are Spark's position_deletes columns without
// partition (inserted at 3).
var positionDeletesCols = []metaCol{
	{"file_path", tText}, {"pos", tInt8}, {"row", tJSONB}, {"spec_id", tInt4}, {"delete_file_path", tText},
}

// metaTables lists every metadata table.
var metaTables = []*metaTableDef{
	{name: "snapshots", columns: fixedCols(snapshotsCols...), rows: snapshotsRows},
	{name: "history", columns: fixedCols(historyCols...), rows: historyRows},
	{name: "metadata_log_entries", columns: fixedCols(metadataLogCols...), rows: metadataLogRows},
	{name: "refs", columns: fixedCols(refsCols...), rows: refsRows},
	{name: "properties", columns: fixedCols(propertiesCols...), rows: propertiesRows},
	{name: "manifests", perSnapshot: true, columns: fixedCols(manifestsCols...), rows: manifestsRows},
	{name: "all_manifests", columns: fixedCols(allManifestsCols...), rows: allManifestsRows},
	{name: "files", perSnapshot: true, columns: withPartition(filesCols, 4), rows: filesRows(anyContent, false)},
	{name: "data_files", perSnapshot: true, columns: withPartition(filesCols, 4), rows: filesRows(dataContent, false)},
	{name: "delete_files", perSnapshot: true, columns: withPartition(filesCols, 4), rows: filesRows(deleteContent, false)},
	{name: "all_files", columns: withPartition(filesCols, 4), rows: filesRows(anyContent, true)},
	{name: "all_data_files", columns: withPartition(filesCols, 4), rows: filesRows(dataContent, true)},
	{name: "all_delete_files", columns: withPartition(filesCols, 4), rows: filesRows(deleteContent, true)},
	{name: "entries", perSnapshot: true, columns: fixedCols(entriesCols...), rows: entriesRows(false)},
	{name: "all_entries", columns: fixedCols(entriesCols...), rows: entriesRows(true)},
	{name: "partitions", perSnapshot: true, columns: withPartition(partitionsCols, 0, metaCol{"spec_id", tInt4}), rows: partitionsRows},
	{name: "position_deletes", perSnapshot: true, columns: withPartition(positionDeletesCols, 3), rows: positionDeletesRows},
}

// metaTableByName finds a metadata table kind (lower case), or nil.
func metaTableByName(name string) *metaTableDef {
	for _, d := range metaTables {
		if d.name == name {
			return d
		}
	}
	return nil
}

// metaTableNames lists the metadata tables' names in order.
func metaTableNames() []string {
	out := make([]string, len(metaTables))
	for i, d := range metaTables {
		out[i] = d.name
	}
	sort.Strings(out)
	return out
}
