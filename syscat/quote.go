package syscat

import "strings"

// QuoteIdent quotes name as quote_ident does: unquoted when it is a plain
// lower-case identifier that is not a reserved word, else in double quotes
// with inner quotes doubled.
func QuoteIdent(name string) string {
	plain := name != "" && !reservedWords[name]
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

// reservedWords are PostgreSQL's keywords that quote_ident quotes: the
// reserved ones and those that cannot be function or type names.
var reservedWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`all analyse analyze and any array as asc asymmetric authorization
		between bigint binary bit boolean both case cast char character check coalesce collate collation
		column concurrently constraint create cross current_catalog current_date current_role
		current_schema current_time current_timestamp current_user dec decimal default deferrable desc
		distinct do else end except exists extract false fetch float for foreign freeze from full grant
		greatest group grouping having ilike in initially inner inout int integer intersect interval into
		is isnull join lateral leading least left like limit localtime localtimestamp national natural
		nchar none normalize not notnull null nullif numeric offset on only or order out outer overlaps
		overlay placing position precision primary real references returning right row select
		session_user setof similar smallint some substring symmetric table tablesample then
		time timestamp to trailing treat trim true union unique user using values varchar variadic verbose
		when where window with xmlattributes xmlconcat xmlelement xmlexists xmlforest xmlnamespaces
		xmlparse xmlpi xmlroot xmlserialize xmltable`) {
		m[w] = true
	}
	return m
}()
