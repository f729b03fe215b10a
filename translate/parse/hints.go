package parse

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// Per-statement read and write options, written as Flink's hint after a
// table name: SELECT ... FROM t /*+ OPTIONS('snapshot-id'='123') */.
// PostgreSQL's parser drops comments, so before parsing the hints are
// found among the scanner's tokens and kept by the offset of the table
// name each follows (the RangeVar's location), as the time-travel
// clauses are (asof.go). snapshot-id and as-of-timestamp become such a
// clause; the other options are checked against the registry
// (conf/iceberg_options.go) and, when icegate does not act on them,
// answered with a NOTICE.

// Hint is the OPTIONS hint of one table reference.
type Hint struct {
	Loc int32 // offset of the comment
	// Pairs are the options as written: key and value. Parsing checks
	// only their syntax; hints.Check checks them against the registry.
	Pairs [][2]string
	// Options holds the checked values by lower-case Iceberg name, Keys
	// the names in order (filled by hints.Check).
	Options map[string]string
	Keys    []string
}

// ScanHints finds the OPTIONS hints of sql, by the offset of the name each
// follows, checking their syntax only.
func ScanHints(sql string) (map[int32]*Hint, error) {
	if !strings.Contains(sql, "/*+") {
		return nil, nil
	}
	res, err := pg.Scan(sql)
	if err != nil {
		return nil, nil // the parser reports it
	}
	toks := make([]DialectTok, len(res.Tokens))
	for i, t := range res.Tokens {
		text := sql[t.Start:t.End]
		toks[i] = DialectTok{Tok: t.Token, Start: int(t.Start), End: int(t.End), Text: text, Low: strings.ToLower(text)}
	}
	var hints map[int32]*Hint
	for i, t := range toks {
		if t.Tok != pg.Token_C_COMMENT || !strings.HasPrefix(t.Text, "/*+") {
			continue
		}
		body := strings.TrimSpace(strings.TrimSuffix(t.Text[3:], "*/"))
		if !strings.HasPrefix(strings.ToLower(body), "options") {
			continue // another engine's hint: a comment to icegate
		}
		key, ok := hintedName(toks, i)
		if !ok {
			e := pgerr.New(pgerr.SyntaxError, "an OPTIONS hint must follow a table name")
			e.Position = CharPos(sql, int32(t.Start))
			return nil, e
		}
		h, err := parseHint(body, int32(t.Start))
		if err != nil {
			if pe := pgerr.As(err); pe != nil && pe.Position == 0 {
				pe.Position = CharPos(sql, int32(t.Start))
			}
			return nil, err
		}
		if hints == nil {
			hints = map[int32]*Hint{}
		}
		hints[key] = h
	}
	return hints, nil
}

// hintedName returns the offset of the name the hint at toks[i] follows:
// a table name (word(.word)*) or a function call (name(...)).
func hintedName(toks []DialectTok, i int) (int32, bool) {
	k := i - 1
	if k >= 0 && toks[k].Tok == pg.Token_ASCII_41 {
		depth := 0
		for ; k >= 0; k-- {
			switch toks[k].Tok {
			case pg.Token_ASCII_41:
				depth++
			case pg.Token_ASCII_40:
				depth--
			}
			if depth == 0 {
				break
			}
		}
		k--
	}
	if k < 0 || !IsWordTok(toks[k]) {
		return 0, false
	}
	for k-2 >= 0 && toks[k-1].Text == "." && IsWordTok(toks[k-2]) {
		k -= 2
	}
	return int32(toks[k].Start), true
}

// parseHint reads OPTIONS('key' = 'value', ...).
func parseHint(body string, loc int32) (*Hint, error) {
	res, err := pg.Scan(body)
	if err != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "invalid OPTIONS hint: %v", err)
	}
	toks := res.Tokens
	text := func(i int) string { return body[toks[i].Start:toks[i].End] }
	bad := func(i int) error {
		if i >= len(toks) {
			return pgerr.New(pgerr.SyntaxError, "invalid OPTIONS hint: it ends too early").
				WithHint("Write /*+ OPTIONS('key' = 'value', ...) */.")
		}
		return pgerr.New(pgerr.SyntaxError, "invalid OPTIONS hint at or near \"%s\"", text(i)).
			WithHint("Write /*+ OPTIONS('key' = 'value', ...) */.")
	}
	if len(toks) < 2 || toks[1].Token != pg.Token_ASCII_40 {
		return nil, bad(1)
	}
	h := &Hint{Loc: loc}
	i := 2
	for {
		if i >= len(toks) {
			return nil, bad(i)
		}
		if toks[i].Token != pg.Token_SCONST {
			return nil, bad(i)
		}
		key := unquoteSQL(text(i))
		if i+2 >= len(toks) || toks[i+1].Token != pg.Token_ASCII_61 {
			return nil, bad(i + 1)
		}
		j := i + 2
		var val string
		switch toks[j].Token {
		case pg.Token_SCONST:
			val = unquoteSQL(text(j))
		case pg.Token_ICONST, pg.Token_FCONST:
			val = text(j)
		case pg.Token_ASCII_45:
			if j+1 < len(toks) && toks[j+1].Token == pg.Token_ICONST {
				j++
				val = "-" + text(j)
				break
			}
			return nil, bad(j)
		default:
			return nil, bad(j)
		}
		h.Pairs = append(h.Pairs, [2]string{key, val})
		i = j + 1
		if i < len(toks) && toks[i].Token == pg.Token_ASCII_44 {
			i++
			continue
		}
		if i < len(toks) && toks[i].Token == pg.Token_ASCII_41 && i == len(toks)-1 {
			return h, nil
		}
		return nil, bad(i)
	}
}

// unquoteSQL removes the quotes of a string constant and undoubles the
// quotes inside it.
func unquoteSQL(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}
