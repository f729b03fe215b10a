package translate

import (
	"sync/atomic"

	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/metrics"
)

// ScanTotals is where the session's scans add up their work (lower's
// scanTotaler).
func (s *session) ScanTotals() *scan.Totals { return &s.backend.scans }

// registerMetrics adds the backend's scan totals to r, read at each
// scrape; nothing when r is nil.
func (b *backend) registerMetrics(r *metrics.Registry) {
	if r == nil {
		return
	}
	counter := func(name, help string, v *atomic.Int64) {
		r.CounterFunc(name, help, nil, func(emit func(float64, ...string)) { emit(float64(v.Load())) })
	}
	t := &b.scans
	counter("icegate_scan_rows_total", "Rows table scans produced, after deletes.", &t.Rows)
	counter("icegate_scan_files_total", "Data files scans planned to read.", &t.Files)
	counter("icegate_scan_files_pruned_total", "Data files planning skipped by partition values and column statistics.", &t.FilesSkipped)
	counter("icegate_scan_file_bytes_total", "Bytes of the data files scans planned to read (their whole size: more than the columns read).", &t.FileBytes)
	counter("icegate_scan_row_groups_total", "Parquet row groups and ORC stripes scans considered.", &t.RowGroups)
	counter("icegate_scan_row_groups_pruned_total", "Parquet row groups scans skipped by their statistics or bloom filters.", &t.RowGroupsSkipped)
}
