package parse

import (
	"regexp"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// Spark's configuration names have dashes (SET spark.sql.iceberg.
// distribution-mode = hash), which PostgreSQL's grammar does not take in a
// SET, SHOW or RESET name. RewriteSparkSetNames turns each dash inside a
// dotted name after SET [SESSION|LOCAL], SHOW or RESET into '_' (one byte
// for one; the option registry takes '_' for '-'), when the name's words,
// dots and dashes touch each other with no space between.

var sparkSetName = regexp.MustCompile(`(?i)\b(set|show|reset)\b[^;]*\.[A-Za-z0-9_]+-`)

// RewriteSparkSetNames rewrites the dashes of dotted names in SET, SHOW
// and RESET statements.
func RewriteSparkSetNames(sql string) string {
	if !sparkSetName.MatchString(sql) {
		return sql
	}
	res, err := pg.Scan(sql)
	if err != nil {
		return sql
	}
	t := res.Tokens
	out := []byte(sql)
	changed := false
	stmtStart := true
	for k := 0; k < len(t); k++ {
		if t[k].Token == pg.Token_ASCII_59 {
			stmtStart = true
			continue
		}
		first := stmtStart
		stmtStart = false
		if !first || t[k].Token != pg.Token_SET && t[k].Token != pg.Token_SHOW && t[k].Token != pg.Token_RESET {
			continue
		}
		j := k + 1
		if j < len(t) && t[k].Token == pg.Token_SET && (t[j].Token == pg.Token_SESSION || t[j].Token == pg.Token_LOCAL) {
			j++
		}
		// The name: words joined by '.' and '-' with nothing between.
		dotted, dashes := false, []int{}
		for e := j; e < len(t); e++ {
			if e > j && t[e].Start != t[e-1].End {
				break
			}
			switch {
			case t[e].Token == pg.Token_ASCII_46:
				dotted = true
			case t[e].Token == pg.Token_ASCII_45 || t[e].Token == pg.Token_Op && sql[t[e].Start:t[e].End] == "-":
				dashes = append(dashes, int(t[e].Start))
			case t[e].Token == pg.Token_IDENT || t[e].Token == pg.Token_ICONST || t[e].KeywordKind != pg.KeywordKind_NO_KEYWORD:
			default:
				e = len(t)
			}
		}
		if dotted && len(dashes) > 0 {
			for _, d := range dashes {
				out[d] = '_'
			}
			changed = true
		}
	}
	if !changed {
		return sql
	}
	return string(out)
}
