package catalog

// Predicate is one conjunct of a scan filter over a top-level or nested
// field (by field id) of the table's current schema. Op is one of "=",
// "<>", "<", "<=", ">", ">=", "isnull", "isnotnull", "in". Values holds the
// constant(s) in the Go form of value.go, already converted to the field's
// Iceberg type by the caller: one value for the comparisons, any number for
// "in", none for the null tests.
//
// Comparisons follow PostgreSQL's semantics, which the filter above the scan
// applies: NULL never matches a comparison, NaN equals NaN and sorts above
// every other float, text compares by bytes.
type Predicate struct {
	FieldID int
	Op      string
	Values  []any
}

// The operators of a Predicate.
const (
	OpEq        = "="
	OpNotEq     = "<>"
	OpLt        = "<"
	OpLtEq      = "<="
	OpGt        = ">"
	OpGtEq      = ">="
	OpIsNull    = "isnull"
	OpIsNotNull = "isnotnull"
	OpIn        = "in"
)

// PlanStats counts the work of planning: data manifests in the manifest
// list and those skipped by their partition summaries; live data files in
// the manifests read and those skipped by partition values or metrics.
type PlanStats struct {
	Manifests, ManifestsSkipped, Files, FilesSkipped int
}
