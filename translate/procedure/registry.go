package procedure

import "slices"

// Builtins lists every procedure: one line per family file.
func Builtins() []*Procedure {
	return slices.Concat(
		snapshotProcedures(),  // snapshot.go
		statsProcedures(),     // stats.go
		changelogProcedures(), // changelog_view.go
	)
}
