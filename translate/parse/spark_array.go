package parse

import (
	"regexp"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// Spark writes a list as array(1, 2, 3), which PostgreSQL's grammar reads
// as an ARRAY subquery and refuses. RewriteSparkArray turns ARRAY( ... )
// whose contents are not a query into ARRAY[ ... ], keeping every offset
// (one byte for one byte). ARRAY(SELECT ...), ARRAY(VALUES ...),
// ARRAY(WITH ...) and ARRAY((...)) stay subqueries; array() becomes the
// untyped literal '{}' (an empty list of the type its use asks for).
// Spark's current_date() and current_timestamp() lose their empty
// parentheses (PostgreSQL's take none; current_timestamp(3) is kept).

var sparkArrayCall = regexp.MustCompile(`(?i)\b(array|current_date|current_timestamp)\s*\(`)

// RewriteSparkArray rewrites Spark's array(...) constructors in sql.
func RewriteSparkArray(sql string) string {
	if !sparkArrayCall.MatchString(sql) {
		return sql
	}
	res, err := pg.Scan(sql)
	if err != nil {
		return sql // the parser reports the syntax error
	}
	t := res.Tokens
	out := []byte(sql)
	changed := false
	for k := 0; k+2 < len(t); k++ {
		if (t[k].Token == pg.Token_CURRENT_DATE || t[k].Token == pg.Token_CURRENT_TIMESTAMP) &&
			t[k+1].Token == pg.Token_ASCII_40 && t[k+2].Token == pg.Token_ASCII_41 {
			// Spark's current_date() and current_timestamp(): PostgreSQL's
			// CURRENT_DATE and CURRENT_TIMESTAMP take no parentheses.
			out[t[k+1].Start], out[t[k+2].Start] = ' ', ' '
			changed = true
			continue
		}
		if t[k].Token != pg.Token_ARRAY || t[k+1].Token != pg.Token_ASCII_40 {
			continue
		}
		switch t[k+2].Token {
		case pg.Token_ASCII_41:
			// array(): an empty list, untyped until its use gives it a
			// type ('{}' is the empty array's text).
			copy(out[t[k].Start:t[k+2].End], "'{}'"+strings.Repeat(" ", int(t[k+2].End-t[k].Start)-4))
			changed = true
			continue
		case pg.Token_SELECT, pg.Token_VALUES, pg.Token_WITH, pg.Token_ASCII_40, pg.Token_TABLE:
			continue
		}
		if m := matchParenTok(t, k+1); m > 0 {
			out[t[k+1].Start] = '['
			out[t[m].Start] = ']'
			changed = true
		}
	}
	if !changed {
		return sql
	}
	return string(out)
}
