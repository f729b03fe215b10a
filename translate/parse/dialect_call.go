package parse

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// The dialect of procedure calls. Spark writes named arguments with bare
// names that PostgreSQL's grammar reserves (CALL system.fast_forward(table
// => 'db.t', branch => 'main', to => 'b')), lists as array(1, 2), and
// Trino runs procedures as ALTER TABLE t EXECUTE name(...). Before
// parsing, RewriteCalls makes these parse, keeping every byte offset: a
// keyword before => becomes a placeholder identifier of the same length
// (its name is kept in CallDialect.ArgNames by offset), array( ... )
// becomes ARRAY[ ... ], and ALTER TABLE t EXECUTE name(...) becomes CALL
// name(...) with the table kept in CallDialect.ExecuteTable.

// CallDialect is what RewriteCalls changed in one statement.
type CallDialect struct {
	Start, End int // byte range of the statement in the query string
	// ArgNames are the names of named arguments that are SQL keywords, by
	// the byte offset of the name (NamedArgExpr.Location).
	ArgNames map[int32]string
	// ExecuteTable is set for Trino's ALTER TABLE <t> EXECUTE <name>(...):
	// the table as written (db."T"); the statement parses as CALL <name>(...).
	ExecuteTable string
}

// RewriteCalls rewrites the CALL and ALTER TABLE ... EXECUTE statements of
// sql as described above.
func RewriteCalls(sql string) (string, []*CallDialect, error) {
	if !containsFold(sql, "call") && !containsFold(sql, "execute") {
		return sql, nil, nil
	}
	res, err := pg.Scan(sql)
	if err != nil {
		return sql, nil, nil // the parser reports the syntax error
	}
	toks := res.Tokens
	out := []byte(sql)
	var found []*CallDialect
	stmtStart := 0
	for i := 0; i < len(toks); {
		j, depth := i, 0
		for j < len(toks) && !(toks[j].Token == pg.Token_ASCII_59 && depth == 0) {
			switch toks[j].Token {
			case pg.Token_ASCII_40:
				depth++
			case pg.Token_ASCII_41:
				depth--
			}
			j++
		}
		end := len(sql)
		if j < len(toks) {
			end = int(toks[j].End)
		}
		c := &CallDialect{Start: stmtStart, End: end}
		changed, err := rewriteCall(sql, out, toks[i:j], c)
		if err != nil {
			return sql, nil, err
		}
		if changed {
			found = append(found, c)
		}
		stmtStart = end
		i = j + 1
	}
	return string(out), found, nil
}

func rewriteCall(sql string, out []byte, t []*pg.ScanToken, c *CallDialect) (bool, error) {
	text := func(k int) string { return sql[t[k].Start:t[k].End] }
	if len(t) < 3 {
		return false, nil
	}
	switch {
	case t[0].Token == pg.Token_CALL:
		open := indexTok(t, 1, pg.Token_ASCII_40)
		if open < 0 {
			return false, nil
		}
		return rewriteCallArgs(sql, out, t, open, c), nil
	case t[0].Token == pg.Token_ALTER && t[1].Token == pg.Token_TABLE:
		// ALTER TABLE name[.name...] EXECUTE proc [(args)]
		k := 2
		for k < len(t) && callNameTok(t[k]) && (k+1 < len(t) && t[k+1].Token == pg.Token_ASCII_46) {
			k += 2
		}
		if k+2 >= len(t) || !callNameTok(t[k]) || t[k+1].Token != pg.Token_EXECUTE || !callNameTok(t[k+2]) {
			return false, nil
		}
		table := sql[t[2].Start:t[k].End]
		name := k + 2
		switch {
		case name+1 == len(t):
			// No argument list: CALL name() written over the table.
			blankBytes(out, int(t[1].Start), int(t[name].End))
			copy(out[t[1].Start:], text(name)+"()")
		case t[name+1].Token == pg.Token_ASCII_40 && matchParenTok(t, name+1) == len(t)-1:
			blankBytes(out, int(t[1].Start), int(t[k+1].End))
			rewriteCallArgs(sql, out, t, name+1, c)
		default:
			rest := name + 1
			if t[rest].Token == pg.Token_ASCII_40 {
				rest = matchParenTok(t, rest) + 1
			}
			if rest > 0 && rest < len(t) && t[rest].Token == pg.Token_WHERE {
				return false, pgerr.NotYet("ALTER TABLE ... EXECUTE ... WHERE")
			}
			return false, nil
		}
		copy(out[t[0].Start:], "CALL ")
		c.ExecuteTable = strings.TrimSpace(table)
		return true, nil
	}
	return false, nil
}

// rewriteCallArgs rewrites the argument list opened at t[open].
func rewriteCallArgs(sql string, out []byte, t []*pg.ScanToken, open int, c *CallDialect) bool {
	closeAt := matchParenTok(t, open)
	if closeAt < 0 {
		return false
	}
	changed := false
	depth := 0
	for k := open + 1; k < closeAt; k++ {
		switch t[k].Token {
		case pg.Token_ASCII_40:
			depth++
			continue
		case pg.Token_ASCII_41:
			depth--
			continue
		}
		// name => value with name a keyword, at the list's own level
		if depth == 0 && t[k].KeywordKind != pg.KeywordKind_NO_KEYWORD && k+1 < closeAt &&
			t[k+1].Token == pg.Token_EQUALS_GREATER && (t[k-1].Token == pg.Token_ASCII_40 || t[k-1].Token == pg.Token_ASCII_44) {
			s, e := int(t[k].Start), int(t[k].End)
			if c.ArgNames == nil {
				c.ArgNames = map[int32]string{}
			}
			c.ArgNames[t[k].Start] = strings.ToLower(sql[s:e])
			copy(out[s:], "x"+strings.Repeat("_", e-s-1))
			changed = true
		}
		// array(a, b): Spark's list constructor, not an array subquery
		if t[k].Token == pg.Token_ARRAY && k+2 < closeAt && t[k+1].Token == pg.Token_ASCII_40 {
			switch t[k+2].Token {
			case pg.Token_SELECT, pg.Token_VALUES, pg.Token_WITH, pg.Token_ASCII_40:
				continue
			}
			if m := matchParenTok(t, k+1); m > 0 && m < closeAt {
				out[t[k+1].Start] = '['
				out[t[m].Start] = ']'
				changed = true
			}
		}
	}
	return changed
}

// callNameTok reports whether a token can be (part of) a name: an
// identifier or a keyword that is not reserved.
func callNameTok(t *pg.ScanToken) bool {
	return t.Token == pg.Token_IDENT || (t.KeywordKind != pg.KeywordKind_NO_KEYWORD && t.KeywordKind != pg.KeywordKind_RESERVED_KEYWORD)
}

func indexTok(t []*pg.ScanToken, from int, tok pg.Token) int {
	for k := from; k < len(t); k++ {
		if t[k].Token == tok {
			return k
		}
	}
	return -1
}

// matchParenTok returns the index of the ")" closing the "(" at i, or -1.
func matchParenTok(t []*pg.ScanToken, i int) int {
	depth := 0
	for k := i; k < len(t); k++ {
		switch t[k].Token {
		case pg.Token_ASCII_40:
			depth++
		case pg.Token_ASCII_41:
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

func blankBytes(out []byte, from, to int) {
	for k := from; k < to && k < len(out); k++ {
		if out[k] != '\n' {
			out[k] = ' '
		}
	}
}

// containsFold reports whether s contains the lower-case ASCII word w in
// any case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i]|0x20 == w[0] && strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}
