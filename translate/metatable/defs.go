package metatable

import (
	"context"
	"sort"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// Def is one kind of metadata table: its columns (some depend on
// the table: partition is there only when the table has been
// partitioned, as in Spark) and how its rows are computed.
type Def struct {
	Name string
	// PerSnapshot tables list the state of one snapshot and take time
	// travel; the others list the whole history.
	PerSnapshot bool
	Columns     func(m *catalog.TableMetadata) []Column
	Rows        func(ctx context.Context, src *Source) ([][]any, error)
}

// Source is what a metadata table's rows are computed from.
type Source struct {
	Table    *catalog.Table
	Meta     *catalog.TableMetadata
	Snapshot *catalog.Snapshot
	Columns  []Column
}

// Has reports whether the relation has a column (partition comes and
// goes with the table's partitioning).
func (s *Source) Has(name string) bool {
	for _, c := range s.Columns {
		if c.Name == name {
			return true
		}
	}
	return false
}

var (
	tInt8Array = plan.Type{OID: pgtypes.ArrayOf(pgtypes.Int8), Typmod: -1}
	tInt4Array = plan.Type{OID: pgtypes.ArrayOf(pgtypes.Int4), Typmod: -1}
)

func fixedCols(cols ...Column) func(*catalog.TableMetadata) []Column {
	return func(*catalog.TableMetadata) []Column { return cols }
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
func withPartition(cols []Column, at int, extra ...Column) func(*catalog.TableMetadata) []Column {
	return func(m *catalog.TableMetadata) []Column {
		if !isPartitioned(m) {
			return cols
		}
		out := append([]Column(nil), cols[:at]...)
		out = append(out, Column{"partition", plan.TJSONB})
		out = append(out, extra...)
		return append(out, cols[at:]...)
	}
}

var SnapshotsColumns = []Column{
	{"committed_at", plan.TTimestamptz}, {"snapshot_id", plan.TInt8}, {"parent_id", plan.TInt8},
	{"operation", plan.TText}, {"manifest_list", plan.TText}, {"summary", plan.TJSONB},
}

var historyCols = []Column{
	{"made_current_at", plan.TTimestamptz}, {"snapshot_id", plan.TInt8}, {"parent_id", plan.TInt8}, {"is_current_ancestor", plan.TBool},
}

var metadataLogCols = []Column{
	{"timestamp", plan.TTimestamptz}, {"file", plan.TText}, {"latest_snapshot_id", plan.TInt8},
	{"latest_schema_id", plan.TInt4}, {"latest_sequence_number", plan.TInt8},
}

var refsCols = []Column{
	{"name", plan.TText}, {"type", plan.TText}, {"snapshot_id", plan.TInt8},
	{"max_reference_age_in_ms", plan.TInt8}, {"min_snapshots_to_keep", plan.TInt4}, {"max_snapshot_age_in_ms", plan.TInt8},
}

var propertiesCols = []Column{{"key", plan.TText}, {"value", plan.TText}}

var manifestsCols = []Column{
	{"content", plan.TInt4}, {"path", plan.TText}, {"length", plan.TInt8}, {"partition_spec_id", plan.TInt4},
	{"added_snapshot_id", plan.TInt8}, {"added_data_files_count", plan.TInt4}, {"existing_data_files_count", plan.TInt4},
	{"deleted_data_files_count", plan.TInt4}, {"added_delete_files_count", plan.TInt4},
	{"existing_delete_files_count", plan.TInt4}, {"deleted_delete_files_count", plan.TInt4},
	{"partition_summaries", plan.TJSONB},
}

var allManifestsCols = append(append([]Column(nil), manifestsCols...), Column{"reference_snapshot_id", plan.TInt8})

// filesCols are Spark's files columns without partition (inserted at 4).
var filesCols = []Column{
	{"content", plan.TInt4}, {"file_path", plan.TText}, {"file_format", plan.TText}, {"spec_id", plan.TInt4},
	{"record_count", plan.TInt8}, {"file_size_in_bytes", plan.TInt8},
	{"column_sizes", plan.TJSONB}, {"value_counts", plan.TJSONB}, {"null_value_counts", plan.TJSONB}, {"nan_value_counts", plan.TJSONB},
	{"lower_bounds", plan.TJSONB}, {"upper_bounds", plan.TJSONB}, {"key_metadata", plan.TBytea},
	{"split_offsets", tInt8Array}, {"equality_ids", tInt4Array}, {"sort_order_id", plan.TInt4},
	{"first_row_id", plan.TInt8}, {"referenced_data_file", plan.TText}, {"content_offset", plan.TInt8}, {"content_size_in_bytes", plan.TInt8},
	{"readable_metrics", plan.TJSONB},
}

var entriesCols = []Column{
	{"status", plan.TInt4}, {"snapshot_id", plan.TInt8}, {"sequence_number", plan.TInt8}, {"file_sequence_number", plan.TInt8},
	{"data_file", plan.TJSONB}, {"readable_metrics", plan.TJSONB},
}

// partitionsCols are Spark's partitions columns of an unpartitioned
// table; a partitioned one has partition and spec_id first.
var partitionsCols = []Column{
	{"record_count", plan.TInt8}, {"file_count", plan.TInt4}, {"total_data_file_size_in_bytes", plan.TInt8},
	{"position_delete_record_count", plan.TInt8}, {"position_delete_file_count", plan.TInt4},
	{"equality_delete_record_count", plan.TInt8}, {"equality_delete_file_count", plan.TInt4},
	{"last_updated_at", plan.TTimestamptz}, {"last_updated_snapshot_id", plan.TInt8},
}

// positionDeletesCols are Spark's position_deletes columns without
// partition (inserted at 3).
var positionDeletesCols = []Column{
	{"file_path", plan.TText}, {"pos", plan.TInt8}, {"row", plan.TJSONB}, {"spec_id", plan.TInt4}, {"delete_file_path", plan.TText},
}

// All lists every metadata table.
var All = []*Def{
	{Name: "snapshots", Columns: fixedCols(SnapshotsColumns...), Rows: snapshotsRows},
	{Name: "history", Columns: fixedCols(historyCols...), Rows: historyRows},
	{Name: "metadata_log_entries", Columns: fixedCols(metadataLogCols...), Rows: metadataLogRows},
	{Name: "refs", Columns: fixedCols(refsCols...), Rows: refsRows},
	{Name: "properties", Columns: fixedCols(propertiesCols...), Rows: propertiesRows},
	{Name: "manifests", PerSnapshot: true, Columns: fixedCols(manifestsCols...), Rows: manifestsRows},
	{Name: "all_manifests", Columns: fixedCols(allManifestsCols...), Rows: allManifestsRows},
	{Name: "files", PerSnapshot: true, Columns: withPartition(filesCols, 4), Rows: filesRows(anyContent, false)},
	{Name: "data_files", PerSnapshot: true, Columns: withPartition(filesCols, 4), Rows: filesRows(dataContent, false)},
	{Name: "delete_files", PerSnapshot: true, Columns: withPartition(filesCols, 4), Rows: filesRows(deleteContent, false)},
	{Name: "all_files", Columns: withPartition(filesCols, 4), Rows: filesRows(anyContent, true)},
	{Name: "all_data_files", Columns: withPartition(filesCols, 4), Rows: filesRows(dataContent, true)},
	{Name: "all_delete_files", Columns: withPartition(filesCols, 4), Rows: filesRows(deleteContent, true)},
	{Name: "entries", PerSnapshot: true, Columns: fixedCols(entriesCols...), Rows: entriesRows(false)},
	{Name: "all_entries", Columns: fixedCols(entriesCols...), Rows: entriesRows(true)},
	{Name: "partitions", PerSnapshot: true, Columns: withPartition(partitionsCols, 0, Column{"spec_id", plan.TInt4}), Rows: partitionsRows},
	{Name: "position_deletes", PerSnapshot: true, Columns: withPartition(positionDeletesCols, 3), Rows: positionDeletesRows},
}

// ByName finds a metadata table kind (lower case), or nil.
func ByName(name string) *Def {
	for _, d := range All {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// Names lists the metadata tables' names in order.
func Names() []string {
	out := make([]string, len(All))
	for i, d := range All {
		out[i] = d.Name
	}
	sort.Strings(out)
	return out
}
