package parse

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// Four-part metadata table names. Spark names a metadata table of a table
// in a catalog catalog.ns.t.snapshots; PostgreSQL's grammar refuses a
// relation name of four parts ("improper qualified name"). Before parsing,
// the last two parts of such a name in a table position are joined into
// the one part the binder reads as a metadata table (t$snapshots, or
// "t$snapshots" when either part was quoted): catalog.ns.t$snapshots is
// then an ordinary three-part name whose catalog the binder checks like
// any other. The joined part is never longer than what it replaces; the
// rest is blanked, so every offset after it is unchanged and a time-travel
// clause after the name still follows it.
//
// Only names in a table position are joined: after FROM (of a SELECT,
// DELETE or UPDATE), JOIN, UPDATE, INTO, TABLE, ONLY, USING or COPY, or after a
// comma of a FROM list; a four-part column reference (catalog.ns.t.col)
// elsewhere stays as written. The last part must name a metadata table.

// RewriteMetaNames joins the last two parts of four-part metadata table
// names in table positions.
func RewriteMetaNames(sql string, isMetaTable func(string) bool) string {
	if strings.Count(sql, ".") < 3 {
		return sql
	}
	toks, err := ScanTokens(sql)
	if err != nil {
		return sql // the parser reports it
	}
	var out []byte
	// Per parenthesis depth: whether a SELECT, DELETE or UPDATE began
	// there (its FROM lists tables) and whether a FROM list is open.
	type level struct{ query, fromList bool }
	levels := []level{{}}
	for i := 0; i < len(toks); i++ {
		lv := &levels[len(levels)-1]
		t := toks[i]
		switch t.Tok {
		case pg.Token_ASCII_40: // (
			levels = append(levels, level{})
			continue
		case pg.Token_ASCII_41: // )
			if len(levels) > 1 {
				levels = levels[:len(levels)-1]
			}
			continue
		case pg.Token_ASCII_59: // ;
			levels = []level{{}}
			continue
		}
		tablePos := false
		switch t.Low {
		case "select", "delete", "update":
			lv.query = true
			tablePos = t.Low == "update" && (i == 0 || toks[i-1].Low != "for")
		case "from":
			if lv.query && (i == 0 || toks[i-1].Low != "distinct") {
				lv.fromList, tablePos = true, true
			}
		case "where", "group", "having", "window", "order", "limit", "offset", "fetch",
			"union", "intersect", "except", "returning", "set", "values":
			lv.fromList = false
		case "for":
			// FOR UPDATE / SHARE ends a FROM list; FOR SYSTEM_TIME AS OF
			// (time travel) does not.
			if i+1 < len(toks) && (toks[i+1].Low == "update" || toks[i+1].Low == "share" || toks[i+1].Low == "no" || toks[i+1].Low == "key") {
				lv.fromList = false
			}
		case "join", "into", "table", "only", "using", "copy":
			tablePos = true
		case ",":
			tablePos = lv.fromList
		}
		if !tablePos {
			continue
		}
		n := i + 1
		// After COPY and INTO a column list may follow the name; elsewhere
		// a "(" makes it a function's name.
		if !fourPartName(toks, n, t.Low == "copy" || t.Low == "into", isMetaTable) {
			continue
		}
		rel, kind := toks[n+4], toks[n+6]
		joined, ok := joinMetaParts(rel.Text, kind.Text)
		if !ok {
			continue
		}
		if out == nil {
			out = []byte(sql)
		}
		blankText(out, rel.Start, kind.End)
		copy(out[rel.Start:], joined)
		i = n + 6
	}
	if out == nil {
		return sql
	}
	return string(out)
}

// fourPartName reports whether toks[n:] opens a name of exactly four
// parts (w . w . w . w, not followed by "." or, unless parenOK, "(")
// whose last part names a metadata table.
func fourPartName(toks []DialectTok, n int, parenOK bool, isMetaTable func(string) bool) bool {
	if n+6 >= len(toks) {
		return false
	}
	for k := 0; k < 7; k++ {
		t := toks[n+k]
		if k%2 == 1 {
			if t.Tok != pg.Token_ASCII_46 {
				return false
			}
		} else if !isNameTok(t) {
			return false
		}
	}
	if n+7 < len(toks) && (toks[n+7].Tok == pg.Token_ASCII_46 || toks[n+7].Tok == pg.Token_ASCII_40 && !parenOK) {
		return false
	}
	return isMetaTable != nil && isMetaTable(strings.ToLower(IdentText(toks[n+6].Text)))
}

// isNameTok reports an identifier or keyword token (not a string
// constant, a Unicode-escaped identifier or an operator).
func isNameTok(t DialectTok) bool {
	if t.Text == "" || strings.ContainsAny(t.Text, "'&") || t.Tok == pg.Token_UIDENT {
		return false
	}
	return IsWordTok(t)
}

// joinMetaParts joins a table part and a metadata-table part as written
// into one part: rel$kind unquoted when both were unquoted (the parser
// folds it as it would have folded each), else quoted with the unquoted
// part folded. ok is false when the result would be longer than the text
// it replaces (it never is for well-formed tokens).
func joinMetaParts(rel, kind string) (string, bool) {
	quoted := func(s string) bool { return strings.HasPrefix(s, `"`) }
	var j string
	if !quoted(rel) && !quoted(kind) {
		j = rel + "$" + kind
	} else {
		inner := func(s string) string {
			if quoted(s) {
				return s[1 : len(s)-1] // escapes ("") kept: the result is quoted too
			}
			return ASCIILower(s)
		}
		j = `"` + inner(rel) + "$" + inner(kind) + `"`
	}
	return j, len(j) <= len(rel)+1+len(kind)
}
