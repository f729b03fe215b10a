package parse

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// Spark's MERGE actions UPDATE SET * and INSERT * (every target column
// from the source column of the same name) are not PostgreSQL grammar.
// Before parsing, the dialect pass replaces each by DO NOTHING, which the
// parser accepts in any WHEN clause, and records in the statement's
// DDLExtras which WHEN clause it was; bind's BindMerge expands the marker
// once it knows the target's and the source's columns. DO NOTHING is two bytes
// longer than INSERT *: the binder moves the positions of its errors back
// (unshiftMergeError), but a syntax error after that clause points two
// characters too far.

// MergeStar is a Spark action the dialect pass replaced.
type MergeStar struct {
	Insert bool  // INSERT * (else UPDATE SET *)
	Loc    int32 // byte offset of UPDATE / INSERT in the rewritten text
	Grow   int   // bytes the replacement added to the text
}

// MergeStarText is what a star action is replaced by.
const MergeStarText = "DO NOTHING"

// RewriteMergeStars replaces the star actions of the MERGE statements of
// sql. The extras it returns hold the markers, with the byte ranges of
// their statements in the returned text.
func RewriteMergeStars(sql string) (string, []*DDLExtras) {
	if !mayHaveMergeStar(sql) {
		return sql, nil
	}
	toks, err := ScanTokens(sql)
	if err != nil {
		return sql, nil // the parser reports the syntax error
	}
	var out strings.Builder
	copied := 0 // bytes of sql already written to out
	var extras []*DDLExtras
	stmtStart := 0 // in out's coordinates
	for i := 0; i < len(toks); {
		j := i
		depth := 0
		for j < len(toks) && !(toks[j].Tok == pg.Token_ASCII_59 && depth == 0) {
			switch toks[j].Tok {
			case pg.Token_ASCII_40:
				depth++
			case pg.Token_ASCII_41:
				depth--
			}
			j++
		}
		stmt := toks[i:j]
		var x *DDLExtras
		for _, r := range mergeStarSpans(stmt) {
			out.WriteString(sql[copied:r.from])
			if x == nil {
				x = &DDLExtras{MergeStars: map[int]MergeStar{}}
			}
			repl := MergeStarText
			if n := r.to - r.from; n > len(repl) {
				repl += strings.Repeat(" ", n-len(repl))
			}
			x.MergeStars[r.clause] = MergeStar{Insert: r.insert, Loc: int32(out.Len()), Grow: len(repl) - (r.to - r.from)}
			out.WriteString(repl)
			copied = r.to
		}
		end := len(sql)
		if j < len(toks) {
			end = toks[j].End
		}
		out.WriteString(sql[copied:end])
		copied = end
		if x != nil {
			x.Start, x.End = stmtStart, out.Len()
			extras = append(extras, x)
		}
		stmtStart = out.Len()
		i = j + 1
	}
	out.WriteString(sql[copied:])
	return out.String(), extras
}

// mergeStarSpan is the byte range of one star action in the original text.
type mergeStarSpan struct {
	from, to int
	clause   int // the WHEN clause's index in the statement
	insert   bool
}

// mergeStarSpans finds the star actions of one statement's tokens (none
// unless it is a MERGE, possibly after WITH).
func mergeStarSpans(t []DialectTok) []mergeStarSpan {
	low := func(k int) string {
		if k >= 0 && k < len(t) {
			return t[k].Low
		}
		return ""
	}
	isStar := func(k int) bool { return k < len(t) && t[k].Tok == pg.Token_ASCII_42 }
	if low(0) != "merge" && low(0) != "with" {
		return nil
	}
	var spans []mergeStarSpan
	depth, caseDepth, clause := 0, 0, -1
	inMerge := low(0) == "merge"
	for k := 0; k < len(t); k++ {
		switch t[k].Tok {
		case pg.Token_ASCII_40:
			depth++
			continue
		case pg.Token_ASCII_41:
			depth--
			continue
		}
		if depth != 0 {
			continue
		}
		switch low(k) {
		case "merge":
			inMerge = true
		case "case":
			caseDepth++
		case "end":
			if caseDepth > 0 {
				caseDepth--
			}
		case "when":
			if inMerge && caseDepth == 0 && (low(k+1) == "matched" || (low(k+1) == "not" && low(k+2) == "matched")) {
				clause++
			}
		case "then":
			if !inMerge || caseDepth != 0 || clause < 0 {
				continue
			}
			switch {
			case low(k+1) == "update" && low(k+2) == "set" && isStar(k+3):
				spans = append(spans, mergeStarSpan{from: t[k+1].Start, to: t[k+3].End, clause: clause})
			case low(k+1) == "insert" && isStar(k+2):
				spans = append(spans, mergeStarSpan{from: t[k+1].Start, to: t[k+2].End, clause: clause, insert: true})
			}
		}
	}
	return spans
}

// mayHaveMergeStar is a quick test that spares statements without the
// word MERGE and a "*" the scan.
func mayHaveMergeStar(sql string) bool {
	if !strings.Contains(sql, "*") {
		return false
	}
	for i := 0; i+5 <= len(sql); i++ {
		if sql[i]|0x20 == 'm' && strings.EqualFold(sql[i:i+5], "merge") {
			return true
		}
	}
	return false
}
