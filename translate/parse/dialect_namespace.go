package parse

// Spark's CREATE NAMESPACE | DATABASE [IF NOT EXISTS] n and DROP
// NAMESPACE | DATABASE [IF EXISTS] n [CASCADE | RESTRICT] are PostgreSQL's
// CREATE / DROP SCHEMA: a namespace of the catalog is a schema. The
// keyword is overwritten in place with SCHEMA (padded with blanks, so that
// offsets keep pointing at what the client wrote).

// rewriteNamespace rewrites the keyword of CREATE / DROP NAMESPACE |
// DATABASE; it reports whether it did.
func (r *DialectRewriter) rewriteNamespace() bool {
	if len(r.toks) < 3 || (r.low(0) != "create" && r.low(0) != "drop") {
		return false
	}
	switch r.low(1) {
	case "namespace", "database":
	default:
		return false
	}
	t := r.toks[1]
	r.blank(t.Start, t.End)
	copy(r.out[t.Start:], "SCHEMA")
	return true
}
