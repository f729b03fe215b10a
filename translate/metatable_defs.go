package translate

import (
	"context"
	"sort"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
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
func (s *metaSource) Has(name string) bool {
	for _, c := range s.columns {
		if c.name == name {
			return true
		}
	}
	return false
}

var (
	tInt8Array = plan.Type{OID: pgtypes.ArrayOf(pgtypes.Int8), Typmod: -1}
	tInt4Array = plan.Type{OID: pgtypes.ArrayOf(pgtypes.Int4), Typmod: -1}
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
		out = append(out, metaCol{"partition", plan.TJSONB})
		out = append(out, extra...)
		return append(out, cols[at:]...)
	}
}

var snapshotsCols = []metaCol{
	{"committed_at", plan.TTimestamptz}, {"snapshot_id", plan.TInt8}, {"parent_id", plan.TInt8},
	{"operation", plan.TText}, {"manifest_list", plan.TText}, {"summary", plan.TJSONB},
}

var historyCols = []metaCol{
	{"made_current_at", plan.TTimestamptz}, {"snapshot_id", plan.TInt8}, {"parent_id", plan.TInt8}, {"is_current_ancestor", plan.TBool},
}

var metadataLogCols = []metaCol{
	{"timestamp", plan.TTimestamptz}, {"file", plan.TText}, {"latest_snapshot_id", plan.TInt8},
	{"latest_schema_id", plan.TInt4}, {"latest_sequence_number", plan.TInt8},
}

var refsCols = []metaCol{
	{"name", plan.TText}, {"type", plan.TText}, {"snapshot_id", plan.TInt8},
	{"max_reference_age_in_ms", plan.TInt8}, {"min_snapshots_to_keep", plan.TInt4}, {"max_snapshot_age_in_ms", plan.TInt8},
}

var propertiesCols = []metaCol{{"key", plan.TText}, {"value", plan.TText}}

var manifestsCols = []metaCol{
	{"content", plan.TInt4}, {"path", plan.TText}, {"length", plan.TInt8}, {"partition_spec_id", plan.TInt4},
	{"added_snapshot_id", plan.TInt8}, {"added_data_files_count", plan.TInt4}, {"existing_data_files_count", plan.TInt4},
	{"deleted_data_files_count", plan.TInt4}, {"added_delete_files_count", plan.TInt4},
	{"existing_delete_files_count", plan.TInt4}, {"deleted_delete_files_count", plan.TInt4},
	{"partition_summaries", plan.TJSONB},
}

var allManifestsCols = append(append([]metaCol(nil), manifestsCols...), metaCol{"reference_snapshot_id", plan.TInt8})

// filesCols are Spark's files columns without partition (inserted at 4).
var filesCols = []metaCol{
	{"content", plan.TInt4}, {"file_path", plan.TText}, {"file_format", plan.TText}, {"spec_id", plan.TInt4},
	{"record_count", plan.TInt8}, {"file_size_in_bytes", plan.TInt8},
	{"column_sizes", plan.TJSONB}, {"value_counts", plan.TJSONB}, {"null_value_counts", plan.TJSONB}, {"nan_value_counts", plan.TJSONB},
	{"lower_bounds", plan.TJSONB}, {"upper_bounds", plan.TJSONB}, {"key_metadata", plan.TBytea},
	{"split_offsets", tInt8Array}, {"equality_ids", tInt4Array}, {"sort_order_id", plan.TInt4},
	{"first_row_id", plan.TInt8}, {"referenced_data_file", plan.TText}, {"content_offset", plan.TInt8}, {"content_size_in_bytes", plan.TInt8},
	{"readable_metrics", plan.TJSONB},
}

var entriesCols = []metaCol{
	{"status", plan.TInt4}, {"snapshot_id", plan.TInt8}, {"sequence_number", plan.TInt8}, {"file_sequence_number", plan.TInt8},
	{"data_file", plan.TJSONB}, {"readable_metrics", plan.TJSONB},
}

// partitionsCols are Spark's partitions columns of an unpartitioned
// table; a partitioned one has partition and spec_id first.
var partitionsCols = []metaCol{
	{"record_count", plan.TInt8}, {"file_count", plan.TInt4}, {"total_data_file_size_in_bytes", plan.TInt8},
	{"position_delete_record_count", plan.TInt8}, {"position_delete_file_count", plan.TInt4},
	{"equality_delete_record_count", plan.TInt8}, {"equality_delete_file_count", plan.TInt4},
	{"last_updated_at", plan.TTimestamptz}, {"last_updated_snapshot_id", plan.TInt8},
}

// positionDeletesCols are Spark's position_deletes columns without
// partition (inserted at 3).
var positionDeletesCols = []metaCol{
	{"file_path", plan.TText}, {"pos", plan.TInt8}, {"row", plan.TJSONB}, {"spec_id", plan.TInt4}, {"delete_file_path", plan.TText},
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
	{name: "partitions", perSnapshot: true, columns: withPartition(partitionsCols, 0, metaCol{"spec_id", plan.TInt4}), rows: partitionsRows},
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
