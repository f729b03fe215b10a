package catalog

import "context"

// PlanFilesFiltered is PlanFiles keeping only the data files that may hold
// rows matching every predicate; it never drops a file that could match.
// It skips whole data manifests whose partition summaries rule the
// predicates out (each manifest judged under its own partition spec, so
// spec evolution is followed), then files by their partition values
// (predicates projected through each partition transform) and by their
// column metrics (bounds, null and NaN counts; missing metrics match).
// Delete manifests are always read: their deletes are matched to the kept
// data files as in PlanFiles. nil preds plans like PlanFiles.
func PlanFilesFiltered(ctx context.Context, t *Table, snap *Snapshot, preds []Predicate) ([]FileScanTask, PlanStats, error) {
	var filter *scanFilter
	if len(preds) > 0 {
		filter = newScanFilter(t, preds)
	}
	return planFiles(ctx, t, snap, filter)
}
