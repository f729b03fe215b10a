package syscat

import "strings"

// QuoteIdent quotes name as quote_ident does: unquoted when it is a plain
// lower-case identifier that is not a reserved word, else in double quotes
// with inner quotes doubled.
func QuoteIdent(name string) string {
	cat, isKeyword := KeywordCategory(name)
	plain := name != "" && (!isKeyword || cat == 'U')
	for i, c := range name {
		if !(c >= 'a' && c <= 'z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
