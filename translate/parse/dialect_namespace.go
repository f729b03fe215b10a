package parse

import pg "github.com/pganalyze/pg_query_go/v6"

// Spark's CREATE NAMESPACE | DATABASE [IF NOT EXISTS] n and DROP
// NAMESPACE | DATABASE [IF EXISTS] n [CASCADE | RESTRICT] are PostgreSQL's
// CREATE / DROP SCHEMA: a namespace of the catalog is a schema. The
// keyword is overwritten in place with SCHEMA (padded with blanks, so that
// offsets keep pointing at what the client wrote).
//
// Spark also writes the catalog in front of the namespace (CREATE
// NAMESPACE local.db); PostgreSQL's schema names have one part. The
// catalog part and its dot are blanked and kept in DDLExtras.Catalog for
// the session to check against its database.

// rewriteNamespace rewrites the keyword of CREATE / DROP NAMESPACE |
// DATABASE, and the catalog part of a namespace name (also after SCHEMA).
// handled reports whether the statement is one of these; extras whether
// DDLExtras were filled.
func (r *DialectRewriter) rewriteNamespace() (handled, extras bool) {
	if len(r.toks) < 3 || (r.low(0) != "create" && r.low(0) != "drop") {
		return false, false
	}
	switch r.low(1) {
	case "namespace", "database":
		t := r.toks[1]
		r.blank(t.Start, t.End)
		copy(r.out[t.Start:], "SCHEMA")
	case "schema":
	default:
		return false, false
	}
	i := 2
	if r.low(i) == "if" && r.low(i+1) == "not" && r.low(i+2) == "exists" {
		i += 3
	} else if r.low(i) == "if" && r.low(i+1) == "exists" {
		i += 2
	}
	if i+2 < len(r.toks) && r.toks[i+1].Tok == pg.Token_ASCII_46 && IsWordTok(r.toks[i]) && IsWordTok(r.toks[i+2]) &&
		(i+3 == len(r.toks) || r.toks[i+3].Tok != pg.Token_ASCII_46) {
		cat := r.toks[i]
		r.X.Catalog = IdentText(cat.Text)
		r.X.CatalogQualified = cat.Text + "." + r.toks[i+2].Text
		r.blank(cat.Start, r.toks[i+1].End)
		return true, true
	}
	return true, false
}
