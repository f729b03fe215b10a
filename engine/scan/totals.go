package scan

import "sync/atomic"

// Totals add up the work of many scans, for the server's metrics: each
// scan given Totals (Options.Totals) adds its ScanStats when it closes,
// and planning adds the files it kept and pruned. Safe for concurrent use.
type Totals struct {
	Rows, RowGroups, RowGroupsSkipped atomic.Int64
	Files, FilesSkipped, FileBytes    atomic.Int64
}

// AddPlanned counts the files planning kept (and their bytes) and those it
// pruned.
func (t *Totals) AddPlanned(files, skipped int, bytes int64) {
	if t == nil {
		return
	}
	t.Files.Add(int64(files))
	t.FilesSkipped.Add(int64(skipped))
	t.FileBytes.Add(bytes)
}

func (t *Totals) addScan(st ScanStats) {
	if t == nil {
		return
	}
	t.Rows.Add(st.Rows)
	t.RowGroups.Add(int64(st.RowGroups))
	t.RowGroupsSkipped.Add(int64(st.RowGroupsSkipped))
}
