package procedure

import "slices"

// Builtins lists every procedure: one line per family file.
func Builtins() []*Procedure {
	return slices.Concat(
		snapshotProcedures(),      // snapshot.go
		addFilesProcedures(),      // add_files.go
		registerProcedures(),      // register.go
		expireProcedures(),        // expire.go, orphans.go
		rewriteProcedures(),       // rewrite.go
		statsProcedures(),         // stats.go
		changelogProcedures(),     // changelog_view.go
		snapshotTableProcedures(), // snapshot_table.go
		migrateProcedures(),       // migrate.go
	)
}
