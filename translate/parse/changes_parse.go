package parse

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// The change log of a table between two of its snapshots is written
// after the table's name, like a time-travel clause:
//
//	SELECT * FROM ns.t CHANGES BETWEEN VERSION 123 AND 456
//	SELECT * FROM ns.t CHANGES BETWEEN TIMESTAMP '2024-01-01' AND now()
//
// PostgreSQL's grammar has no such clause: the time-travel pass
// (RewriteAsOf) blanks it and keeps it by the offset of the table name,
// as an AsOfClause with changes set.

// cutChanges recognizes CHANGES BETWEEN VERSION|TIMESTAMP v AND w at
// token i. It returns the clause, the offset of the table name it
// follows and the index of its last token; a nil clause and error when
// the tokens at i are not such a clause.
func cutChanges(sql string, toks []DialectTok, i int) (*AsOfClause, int32, int, error) {
	low := func(k int) string {
		if k < 0 || k >= len(toks) {
			return ""
		}
		return toks[k].Low
	}
	if low(i) != "changes" || low(i+1) != "between" || (low(i+2) != "version" && low(i+2) != "timestamp") {
		return nil, 0, 0, nil
	}
	// The table name before the clause: word (. word)*.
	k := i - 1
	if k < 0 || !IsWordTok(toks[k]) || notTableName[toks[k].Low] {
		return nil, 0, 0, nil // "WHERE changes BETWEEN version AND 5": columns
	}
	for k-2 >= 0 && toks[k-1].Text == "." && IsWordTok(toks[k-2]) {
		k -= 2
	}
	valueAt := func(v int) (int, error) {
		if v >= len(toks) {
			return 0, pgerr.New(pgerr.SyntaxError, "syntax error at end of input: CHANGES BETWEEN needs two values")
		}
		end := asOfValueEnd(toks, v)
		if end < 0 {
			e := pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", toks[v].Text)
			e.Position = CharPos(sql, int32(toks[v].Start))
			return 0, e
		}
		return end, nil
	}
	v := i + 3
	end, err := valueAt(v)
	if err != nil {
		return nil, 0, 0, err
	}
	if low(end+1) != "and" {
		if end+1 >= len(toks) {
			return nil, 0, 0, pgerr.New(pgerr.SyntaxError, "syntax error at end of input: CHANGES BETWEEN needs AND")
		}
		e := pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", toks[end+1].Text).WithHint("Write CHANGES BETWEEN VERSION a AND b.")
		e.Position = CharPos(sql, int32(toks[end+1].Start))
		return nil, 0, 0, e
	}
	w := end + 2
	last, err := valueAt(w)
	if err != nil {
		return nil, 0, 0, err
	}
	c := &AsOfClause{
		Changes:   true,
		Timestamp: low(i+2) == "timestamp",
		Value:     sql[toks[v].Start:toks[end].End],
		To:        sql[toks[w].Start:toks[last].End],
		Loc:       int32(toks[i].Start),
	}
	return c, int32(toks[k].Start), last, nil
}

// notTableName are the reserved words a column named changes may follow.
var notTableName = map[string]bool{"where": true, "and": true, "or": true, "not": true, "on": true, "when": true,
	"then": true, "else": true, "select": true, "having": true, "by": true, "case": true, "set": true, "returning": true}

// blankText replaces the bytes from..to of buf by spaces, keeping line
// breaks (the parser's offsets and line numbers stay right).
func blankText(buf []byte, from, to int) {
	for p := from; p < to && p < len(buf); p++ {
		if buf[p] != '\n' {
			buf[p] = ' '
		}
	}
}

// IsTableChangesCall reports whether fc is iceberg.table_changes(...) or
// table_changes(...).
func IsTableChangesCall(fc *pg.FuncCall) bool {
	if fc == nil {
		return false
	}
	switch len(fc.Funcname) {
	case 1:
		return fc.Funcname[0].GetString_().GetSval() == "table_changes"
	case 2:
		return fc.Funcname[0].GetString_().GetSval() == "iceberg" && fc.Funcname[1].GetString_().GetSval() == "table_changes"
	}
	return false
}
