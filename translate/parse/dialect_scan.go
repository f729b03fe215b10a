package parse

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// ScanTokens scans sql into the tokens the dialect passes read. SQL
// comments (-- and /* */) are left out: a comment may stand wherever a
// space may, so a pass that matches words in sequence must not see them.
// Passes that blank or replace a span of tokens blank the comments inside
// it too, which keeps every offset.
func ScanTokens(sql string) ([]DialectTok, error) {
	res, err := pg.Scan(sql)
	if err != nil {
		return nil, err
	}
	toks := make([]DialectTok, 0, len(res.Tokens))
	for _, t := range res.Tokens {
		if t.Start < 0 || int(t.End) > len(sql) || t.Start > t.End {
			continue
		}
		if t.Token == pg.Token_SQL_COMMENT || t.Token == pg.Token_C_COMMENT {
			continue
		}
		txt := sql[t.Start:t.End]
		toks = append(toks, DialectTok{Tok: t.Token, Start: int(t.Start), End: int(t.End), Text: txt, Low: strings.ToLower(txt)})
	}
	return toks, nil
}
