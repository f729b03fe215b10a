package parse

import (
	"regexp"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// Spark writes its configuration as SET spark.sql.iceberg.
// distribution-mode = hash and SET spark.wap.branch = audit-branch: dashes
// in the name and values that are no single SQL token, which PostgreSQL's
// grammar refuses. RewriteSparkSetNames rewrites, in SET [SESSION|LOCAL],
// SHOW and RESET statements whose name is dotted (a placeholder or an
// option; PostgreSQL's own settings have no dots), a name with dashes as a
// quoted identifier and a value made of several touching tokens
// (audit-branch, 1g, /tmp/x) as a string literal. A statement it rewrites
// changes length, so an error in it points into the rewritten text.

var sparkSetStmt = regexp.MustCompile(`(?i)(^|;)\s*(set|show|reset)\s+((session|local)\s+)?[a-z_][a-z0-9_$]*\.`)

// RewriteSparkSetNames rewrites Spark's SET, SHOW and RESET forms.
func RewriteSparkSetNames(sql string) string {
	if !sparkSetStmt.MatchString(sql) {
		return sql
	}
	res, err := pg.Scan(sql)
	if err != nil {
		return sql
	}
	t := res.Tokens
	var out strings.Builder
	done := 0 // sql[:done] is in out
	for s := 0; s < len(t); {
		e := s
		for e < len(t) && t[e].Token != pg.Token_ASCII_59 {
			e++
		}
		if from, to, repl, ok := rewriteSparkSet(sql, t[s:e]); ok {
			out.WriteString(sql[done:from])
			out.WriteString(repl)
			done = to
		}
		s = e + 1
	}
	if done == 0 {
		return sql
	}
	out.WriteString(sql[done:])
	return out.String()
}

// rewriteSparkSet rewrites one statement's tokens: the text from..to
// becomes repl.
func rewriteSparkSet(sql string, t []*pg.ScanToken) (from, to int, repl string, ok bool) {
	if len(t) < 2 || t[0].Token != pg.Token_SET && t[0].Token != pg.Token_SHOW && t[0].Token != pg.Token_RESET {
		return 0, 0, "", false
	}
	j := 1
	if t[0].Token == pg.Token_SET && (t[j].Token == pg.Token_SESSION || t[j].Token == pg.Token_LOCAL) {
		j++
	}
	// The name: words joined by '.' and '-' with nothing between.
	n := j
	dotted, dashed := false, false
	for ; n < len(t); n++ {
		if n > j && t[n].Start != t[n-1].End {
			break
		}
		switch {
		case t[n].Token == pg.Token_ASCII_46:
			dotted = true
			continue
		case t[n].Token == pg.Token_ASCII_45 || t[n].Token == pg.Token_Op && sql[t[n].Start:t[n].End] == "-":
			dashed = true
			continue
		case t[n].Token == pg.Token_IDENT || t[n].Token == pg.Token_ICONST || t[n].KeywordKind != pg.KeywordKind_NO_KEYWORD:
			continue
		}
		break
	}
	if !dotted || n == j {
		return 0, 0, "", false
	}
	name := sql[t[j].Start:t[n-1].End]
	var b strings.Builder
	b.WriteString(sql[t[0].Start:t[j].Start])
	if dashed {
		b.WriteString(`"` + strings.ReplaceAll(name, `"`, `""`) + `"`)
	} else {
		b.WriteString(name)
	}
	changed := dashed
	end := int(t[n-1].End)
	if t[0].Token == pg.Token_SET && n+1 < len(t) && (t[n].Token == pg.Token_ASCII_61 || t[n].Token == pg.Token_TO) {
		// The value: several tokens that touch (no space or comma
		// between) are one string, as Spark reads the rest of the line.
		vs, ve := n+1, len(t)
		single := true
		for k := vs + 1; k < ve; k++ {
			if t[k].Start == t[k-1].End && t[k].Token != pg.Token_ASCII_44 && t[k-1].Token != pg.Token_ASCII_44 {
				single = false
			}
		}
		if !single && t[vs].Token != pg.Token_SCONST {
			b.WriteString(sql[t[n-1].End:t[vs].Start])
			b.WriteString("'" + strings.ReplaceAll(sql[t[vs].Start:t[ve-1].End], "'", "''") + "'")
			end = int(t[ve-1].End)
			changed = true
		}
	}
	if !changed {
		return 0, 0, "", false
	}
	return int(t[0].Start), end, b.String(), true
}
