package parse

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// The Spark/Iceberg forms of ALTER TABLE (ADD COLUMNS (...), ALTER COLUMN
// ... COMMENT/FIRST/AFTER, DROP COLUMNS, SET/UNSET TBLPROPERTIES, ADD/DROP/
// REPLACE PARTITION FIELD, WRITE ORDERED BY, SET/DROP IDENTIFIER FIELDS)
// are not PostgreSQL grammar. The dialect pass keeps the clause's tokens
// in DDLExtras.alter and overwrites the clause with a PostgreSQL command
// of no more bytes (RESET (x)) so that the statement still parses; the
// statement then runs from the tokens (translate/alter_spark.go), not
// from the tree.

// SparkAlter is a Spark ALTER TABLE clause: its kind and its tokens after
// the words that name the kind.
type SparkAlter struct {
	Kind string // add-columns, alter-column, drop-columns, rename-column, set-props, unset-props, add-part, drop-part, replace-part, write-order, set-ident, drop-ident
	Toks []DialectTok
	Loc  int      // byte offset of the clause
	Ref  *RefStmt // Kind "ref": branch and tag DDL (dialect_refs.go)
}

// placeholderCmd is the PostgreSQL command that stands in for the clause.
const placeholderCmd = "RESET(x)"

// rewriteAlter recognises a Spark clause of ALTER TABLE name.
func (r *DialectRewriter) rewriteAlter() (bool, error) {
	t := r.toks
	i := 2
	if r.low(i) == "if" && r.low(i+1) == "exists" {
		i += 2
	}
	for i+1 < len(t) && t[i+1].Tok == pg.Token_ASCII_46 {
		i += 2
	}
	i++ // past the last part of the name
	if i >= len(t) {
		return false, nil
	}
	clause := t[i:]
	if isRefClause(clause) {
		return r.rewriteRef(clause)
	}
	kind, skip := sparkAlterKind(clause)
	if kind == "" {
		return r.alterColumnTypes(i)
	}
	from, to := clause[0].Start, clause[len(clause)-1].End
	if to-from < len(placeholderCmd) {
		return false, nil
	}
	r.X.Alter = &SparkAlter{Kind: kind, Toks: append([]DialectTok(nil), clause[skip:]...), Loc: from}
	r.X.Spark = true
	r.blank(from, to)
	copy(r.out[from:], placeholderCmd)
	return true, nil
}

// sparkAlterKind names the Spark clause that clause starts with ("" for a
// PostgreSQL one) and how many tokens name it.
func sparkAlterKind(c []DialectTok) (string, int) {
	low := func(i int) string {
		if i < len(c) {
			return c[i].Low
		}
		return ""
	}
	has := func(words ...string) bool {
		depth := 0
		for _, tk := range c {
			switch tk.Tok {
			case pg.Token_ASCII_40:
				depth++
			case pg.Token_ASCII_41:
				depth--
			}
			if depth == 0 {
				for _, w := range words {
					if tk.Low == w {
						return true
					}
				}
			}
		}
		return false
	}
	// a dotted column name (Spark's path into a struct) after k tokens
	dotted := func(k int) bool {
		if low(k) == "if" {
			k += 2
			if low(k) == "exists" {
				k++
			}
		}
		return k+1 < len(c) && c[k+1].Tok == pg.Token_ASCII_46
	}
	switch {
	case low(0) == "add" && low(1) == "column" && dotted(2):
		return "add-columns", 2
	case low(0) == "drop" && low(1) == "column" && dotted(2):
		return "drop-columns", 2
	case low(0) == "alter" && low(1) == "column" && dotted(2):
		return "alter-column", 2
	case low(0) == "rename" && low(1) == "column" && dotted(2):
		return "rename-column", 2
	case low(0) == "add" && low(1) == "columns":
		return "add-columns", 2
	case low(0) == "add" && low(1) == "column" && low(2) == "(":
		return "add-columns", 2
	case low(0) == "add" && low(1) == "column" && has("comment", "first", "after"):
		return "add-columns", 2
	case low(0) == "add" && low(1) == "partition" && low(2) == "field":
		return "add-part", 3
	case low(0) == "drop" && low(1) == "partition" && low(2) == "field":
		return "drop-part", 3
	case low(0) == "replace" && low(1) == "partition" && low(2) == "field":
		return "replace-part", 3
	case low(0) == "drop" && low(1) == "columns":
		return "drop-columns", 2
	case low(0) == "alter" && low(1) == "column" && (has("comment", "first", "after") || sparkOnlyTypeAfter(c)):
		return "alter-column", 2
	case low(0) == "set" && low(1) == "tblproperties":
		return "set-props", 2
	case low(0) == "unset" && low(1) == "tblproperties":
		return "unset-props", 2
	case low(0) == "write":
		return "write-order", 1
	case low(0) == "set" && low(1) == "identifier" && low(2) == "fields":
		return "set-ident", 3
	case low(0) == "drop" && low(1) == "identifier" && low(2) == "fields":
		return "drop-ident", 3
	}
	return "", 0
}

// sparkOnlyTypeAfter reports ALTER COLUMN c TYPE <a type name only Spark
// has> (long, string, double without precision...).
func sparkOnlyTypeAfter(c []DialectTok) bool {
	for k := 0; k+1 < len(c); k++ {
		if c[k].Low == "type" {
			n := c[k+1].Low
			if n == "double" && (k+2 >= len(c) || c[k+2].Low != "precision") {
				return true
			}
			return sparkOnlyName(n) || n == "float"
		}
	}
	return false
}

// alterColumnTypes rewrites the column definitions of the ADD [COLUMN]
// commands of a PostgreSQL ALTER TABLE from token i on, as in CREATE
// TABLE: Spark's nested types become placeholders, COMMENTs are cut out.
func (r *DialectRewriter) alterColumnTypes(i int) (bool, error) {
	t := r.toks
	changed := false
	for i < len(t) {
		e := i
		depth := 0
		for e < len(t) && !(depth == 0 && t[e].Tok == pg.Token_ASCII_44) {
			switch t[e].Tok {
			case pg.Token_ASCII_40, pg.Token_ASCII_60:
				depth++
			case pg.Token_ASCII_41, pg.Token_ASCII_62:
				depth--
			case pg.Token_Op:
				depth += strings.Count(t[e].Text, "<") - strings.Count(t[e].Text, ">")
			}
			e++
		}
		if r.low(i) == "add" {
			k := i + 1
			if r.low(k) == "column" {
				k++
			}
			if r.low(k) == "if" && r.low(k+1) == "not" && r.low(k+2) == "exists" {
				k += 3
			}
			if r.low(k) != "constraint" {
				c, err := r.columnDef(k, e)
				if err != nil {
					return false, err
				}
				changed = changed || c
			}
		}
		i = e + 1
	}
	return changed, nil
}
