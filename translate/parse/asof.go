package parse

import (
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
	pg "github.com/pganalyze/pg_query_go/v6"
)

// AsOfClause is one time-travel clause.
type AsOfClause struct {
	Timestamp bool   // TIMESTAMP / SYSTEM_TIME; else VERSION / SYSTEM_VERSION
	Value     string // the value's SQL text: a literal, a typed literal, a call or (expression)
	Loc       int32  // offset of the clause, for errors
	// Node, when set, is the value as already parsed (the table
	// functions' argument) and Value is unused.
	Node *pg.Node
	// Changes marks CHANGES BETWEEN ... AND ... (changes_parse.go): Value
	// / Node is the start and To / ToNode the end.
	Changes bool
	To      string
	ToNode  *pg.Node
}

// mayHaveAsOf is a fast check for RewriteAsOf.
func mayHaveAsOf(sql string) bool {
	low := strings.ToLower(sql)
	return strings.Contains(low, "of") || strings.Contains(low, "changes")
}

// RewriteAsOf blanks the time-travel clauses of sql and returns them by
// the offset of the table name each follows.
func RewriteAsOf(sql string) (string, map[int32]*AsOfClause, error) {
	if !mayHaveAsOf(sql) {
		return sql, nil, nil
	}
	toks, err := ScanTokens(sql)
	if err != nil {
		return sql, nil, nil // the parser reports it
	}
	low := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return toks[i].Low
	}
	var out map[int32]*AsOfClause
	buf := []byte(sql)
	for i := 0; i+2 < len(toks); i++ {
		if c, at, end, err := cutChanges(sql, toks, i); c != nil || err != nil {
			if err != nil {
				return sql, nil, err
			}
			if out == nil {
				out = map[int32]*AsOfClause{}
			}
			out[at] = c
			blankText(buf, toks[i].Start, toks[end].End)
			i = end
			continue
		}
		kind := low(i)
		if (kind != "version" && kind != "system_version" && kind != "timestamp" && kind != "system_time") ||
			low(i+1) != "as" || low(i+2) != "of" {
			continue
		}
		j := i
		if low(i-1) == "for" {
			j = i - 1
		}
		// The table name before the clause: word (. word)*.
		k := j - 1
		if k < 0 || !IsWordTok(toks[k]) {
			continue
		}
		for k-2 >= 0 && toks[k-1].Text == "." && IsWordTok(toks[k-2]) {
			k -= 2
		}
		v := i + 3
		if v >= len(toks) {
			return sql, nil, pgerr.New(pgerr.SyntaxError, "syntax error at end of input: %s AS OF needs a value", strings.ToUpper(kind))
		}
		end := asOfValueEnd(toks, v)
		if end < 0 {
			e := pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", toks[v].Text)
			e.Position = CharPos(sql, int32(toks[v].Start))
			return sql, nil, e
		}
		if out == nil {
			out = map[int32]*AsOfClause{}
		}
		out[int32(toks[k].Start)] = &AsOfClause{
			Timestamp: kind == "timestamp" || kind == "system_time",
			Value:     sql[toks[v].Start:toks[end].End],
			Loc:       int32(toks[j].Start),
		}
		for p := toks[j].Start; p < toks[end].End; p++ {
			if buf[p] != '\n' {
				buf[p] = ' '
			}
		}
		i = end
	}
	return string(buf), out, nil
}

// asOfValueEnd returns the index of the last token of the value starting
// at v, or -1: a literal (optionally signed), a typed literal (TIMESTAMP
// '...'), a function call, or a parenthesized expression.
func asOfValueEnd(toks []DialectTok, v int) int {
	t := toks[v]
	switch {
	case t.Text == "(":
		return MatchParen(toks, v)
	case t.Text == "-" || t.Text == "+":
		if v+1 < len(toks) && (toks[v+1].Tok == pg.Token_ICONST || toks[v+1].Tok == pg.Token_FCONST) {
			return v + 1
		}
		return -1
	case t.Tok == pg.Token_ICONST || t.Tok == pg.Token_FCONST || t.Tok == pg.Token_SCONST:
		return v
	case IsWordTok(t):
		if v+1 < len(toks) && toks[v+1].Tok == pg.Token_SCONST {
			return v + 1
		}
		if v+1 < len(toks) && toks[v+1].Text == "(" {
			return MatchParen(toks, v+1)
		}
		switch t.Low {
		case "current_timestamp", "now", "localtimestamp", "current_date":
			return v
		}
	}
	return -1
}
