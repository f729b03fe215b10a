// Package changelog is the change log of an Iceberg table as a plan leaf:
// the rows CHANGES BETWEEN (and table_changes()) read, one snapshot step
// at a time, each row with _change_type, _change_ordinal and
// _commit_snapshot_id.
//
// The binder (package bind) resolves the snapshots a statement names and
// builds a Rel with the steps between them (Steps); Rel is a plan.Source,
// so it estimates, describes and lowers itself. At run time, planner.go
// works out for each step the files it appended and the rows it deleted
// (position and equality deletes, deletion vectors, rewritten files), and
// exec.go reads them through engine/scan and adds the change columns.
//
// changelog imports plan and metatable (for the change columns' types) and
// nothing else of translate.
package changelog
