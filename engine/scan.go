package engine

import (
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
)

// ScanSpec says what a table scan reads.
type ScanSpec struct {
	Table *catalog.Table
	// Tasks are the files to read with their deletes, as planned by
	// catalog.PlanFiles for the snapshot being read (empty: no rows).
	Tasks []catalog.FileScanTask
	// Schema is the read schema: the table's current schema, or the
	// snapshot's for time travel. Files written under other schemas are
	// projected onto it by field id (name mapping for files without ids).
	Schema *catalog.Schema
	// FieldIDs are the top-level field ids of Schema to produce, in output
	// order. The output schema has one column per id, named as the field,
	// typed per the Arrow column of DESIGN.md section 3.
	FieldIDs []int
	// Filters are conjuncts of the query's filter (catalog.PlanFilesFiltered
	// has already used them to drop files). The scan may skip Parquet row
	// groups whose statistics rule them out; it still returns rows of the
	// groups it reads that do not match, so Exact or a Filter above must
	// re-check.
	Filters []catalog.Predicate
	// Exact are conjuncts of the query's WHERE that read only the scan's
	// columns, over its output layout (expr.Col.Idx is the position in
	// FieldIDs). The scan applies them itself, as the Filter operator
	// would above it (NULL is not kept, the same evaluation order and
	// errors): no row it returns fails one. ExactOptions are the
	// session's compile options for them.
	Exact        []expr.Expr
	ExactOptions expr.CompileOptions
	// FilterOnly, when set, has a flag per output column (as FieldIDs):
	// a flagged column is read by Exact and by nothing above the scan.
	// The layout stays the same, but the scan may return such a column
	// as all NULL of its type, and need not decode or copy its values
	// beyond what Exact needs. Metadata columns (_file, _pos...) are
	// always built.
	FilterOnly []bool
}
