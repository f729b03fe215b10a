package parse

// Spark's REPLACE TABLE t ... and CREATE OR REPLACE TABLE t ... (with or
// without AS SELECT) replace an Iceberg table's schema, partitioning and
// rows while keeping its history. The dialect pass writes CREATE over
// REPLACE (blanking OR REPLACE), records which form it was in
// DDLExtras.Replace and reads the rest as CREATE TABLE;
// translate/replace_exec.go runs it.

// The forms of DDLExtras.Replace.
const (
	ReplaceOnly     = "replace"           // REPLACE TABLE: the table must exist
	CreateOrReplace = "create-or-replace" // CREATE OR REPLACE TABLE
)

// rewriteReplace rewrites the words of REPLACE TABLE / CREATE OR REPLACE
// TABLE, and the statement's tokens to those of CREATE TABLE; it reports
// whether it did.
func (r *DialectRewriter) rewriteReplace() bool {
	t := r.toks
	switch {
	case r.X.Replace != "":
		return false
	case r.low(0) == "replace" && r.low(1) == "table":
		r.blank(t[0].Start, t[0].End)
		copy(r.out[t[0].Start:], "CREATE")
		r.X.Replace = ReplaceOnly
		first := t[0]
		first.Text, first.Low = "CREATE", "create"
		r.toks = append([]DialectTok{first}, t[1:]...)
		return true
	case r.low(0) == "create" && r.low(1) == "or" && r.low(2) == "replace" && r.low(3) == "table":
		r.blank(t[1].Start, t[2].End)
		r.X.Replace = CreateOrReplace
		r.toks = append([]DialectTok{t[0]}, t[3:]...)
		return true
	}
	return false
}
