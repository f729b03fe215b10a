package translate

import (
	"errors"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// The Spark/Iceberg dialect of DDL. PostgreSQL's grammar lacks Spark's
// CREATE TABLE clauses (USING, PARTITIONED BY, TBLPROPERTIES, LOCATION,
// COMMENT), its nested type syntax (ARRAY<..>, MAP<..>, STRUCT<..>) and
// DROP TABLE ... PURGE. Before parsing, the dialect pass walks the tokens
// pg_query's scanner finds, cuts those clauses out of the statement text
// (blanking them, so that every byte offset the parser reports still points
// into the text the client sent) and keeps their content in a ddlExtras
// the binder reads. Spark type names in a column list are replaced by a
// quoted placeholder type name ("@n") that the binder resolves through the
// same side structure.

// ddlExtras is what the dialect pass took out of one statement.
type ddlExtras struct {
	start, end int // byte range of the statement in the query string
	// spark is set when the statement uses a Spark clause: Spark's type
	// names then take Spark's meaning (TIMESTAMP is timestamptz, FLOAT is
	// a 4-byte float).
	spark       bool
	types       map[string]*sparkType // by placeholder name
	comments    map[string]string     // column comments, by column name as written
	partitioned []partitionItem
	hasPartBy   bool
	props       map[string]string
	propOrder   []string
	location    *string
	using       string
	comment     *string
	purge       bool
	alter       *sparkAlter // a Spark clause of ALTER TABLE
	renameNS    *string     // the namespace of ALTER TABLE ... RENAME TO ns.t
	// mergeStars are MERGE's Spark actions UPDATE SET * and INSERT *, by
	// the index of their WHEN clause (dialect_merge.go).
	mergeStars map[int]mergeStar
}

// sparkType is a type written in Spark's syntax.
type sparkType struct {
	name     string // lower case: int, string, decimal, array, map, struct...
	args     []int  // decimal(p,s), char(n)...
	elem     *sparkType
	key, val *sparkType
	fields   []sparkField
	loc      int32
}

type sparkField struct {
	name    string
	t       *sparkType
	notNull bool
	comment string
}

// partitionItem is one partition field as written: a transform applied to
// a column.
type partitionItem struct {
	transform string // lower case, as written: days, bucket, identity...
	column    string
	param     int // bucket count or truncate width (0: none)
	hasParam  bool
	loc       int32
}

// dialectTok is a scanned token with its text.
type dialectTok struct {
	tok        pg.Token
	start, end int
	text       string // as written
	low        string // lower case
}

// rewriteDialect returns sql with the Spark clauses of its CREATE TABLE
// and DROP TABLE statements blanked out, and what they said. Four-part
// metadata table names are joined first (dialect_metaname.go), and MERGE's
// Spark actions (UPDATE SET *, INSERT *) replaced (dialect_merge.go).
func rewriteDialect(sql string, o parseConfig) (string, []*ddlExtras, error) {
	sql = rewriteMetaNames(sql, o.isMetaTable)
	sql, mergeExtras := rewriteMergeStars(sql)
	if !mayHaveDDL(sql) {
		return sql, mergeExtras, nil
	}
	res, err := pg.Scan(sql)
	if err != nil {
		return sql, mergeExtras, nil // the parser reports the syntax error
	}
	toks := make([]dialectTok, 0, len(res.Tokens))
	for _, t := range res.Tokens {
		if int(t.End) > len(sql) || t.Start < 0 {
			continue
		}
		txt := sql[t.Start:t.End]
		toks = append(toks, dialectTok{tok: t.Token, start: int(t.Start), end: int(t.End), text: txt, low: strings.ToLower(txt)})
	}
	out := []byte(sql)
	var extras []*ddlExtras
	stmtStart := 0
	for i := 0; i < len(toks); {
		// find the statement's end
		j := i
		depth := 0
		for j < len(toks) && !(toks[j].tok == pg.Token_ASCII_59 && depth == 0) {
			switch toks[j].tok {
			case pg.Token_ASCII_40:
				depth++
			case pg.Token_ASCII_41:
				depth--
			}
			j++
		}
		stmt := toks[i:j]
		end := len(sql)
		if j < len(toks) {
			end = toks[j].end
		}
		r := &dialectRewriter{sql: sql, out: out, toks: stmt, x: &ddlExtras{start: stmtStart, end: end}}
		changed, err := r.rewrite()
		if err != nil {
			return sql, nil, err
		}
		if changed {
			extras = append(extras, r.x)
		}
		stmtStart = end
		i = j + 1
	}
	return string(out), append(mergeExtras, extras...), nil
}

// mayHaveDDL is a quick test that spares queries without the words
// CREATE, DROP or ALTER the scan.
func mayHaveDDL(sql string) bool {
	for i := 0; i+4 <= len(sql); i++ {
		switch sql[i] | 0x20 {
		case 'c':
			if i+6 <= len(sql) && strings.EqualFold(sql[i:i+6], "create") {
				return true
			}
		case 'd':
			if strings.EqualFold(sql[i:i+4], "drop") {
				return true
			}
		case 'a':
			if i+5 <= len(sql) && strings.EqualFold(sql[i:i+5], "alter") {
				return true
			}
		}
	}
	return false
}

// dialectRewriter rewrites one statement.
type dialectRewriter struct {
	sql  string
	out  []byte
	toks []dialectTok
	x    *ddlExtras
	n    int // placeholders made
}

func (r *dialectRewriter) blank(from, to int) {
	for k := from; k < to && k < len(r.out); k++ {
		if r.out[k] != '\n' {
			r.out[k] = ' '
		}
	}
}

func (r *dialectRewriter) low(i int) string {
	if i < len(r.toks) {
		return r.toks[i].low
	}
	return ""
}

func (r *dialectRewriter) rewrite() (bool, error) {
	t := r.toks
	if len(t) >= 4 && r.low(0) == "drop" && r.low(1) == "table" && r.low(len(t)-1) == "purge" && t[len(t)-2].tok != pg.Token_ASCII_44 {
		r.blank(t[len(t)-1].start, t[len(t)-1].end)
		r.x.purge = true
		return true, nil
	}
	if n := len(t); n >= 7 && r.low(0) == "alter" && r.low(1) == "table" && r.low(n-5) == "rename" && r.low(n-4) == "to" &&
		isWordTok(t[n-3]) && t[n-2].tok == pg.Token_ASCII_46 && isWordTok(t[n-1]) {
		// Spark's RENAME TO ns.t: PostgreSQL takes a bare name; the
		// namespace is kept aside.
		ns := identText(t[n-3].text)
		r.x.renameNS = &ns
		r.blank(t[n-3].start, t[n-2].end)
		return true, nil
	}
	if len(t) >= 4 && r.low(0) == "alter" && r.low(1) == "table" {
		return r.rewriteAlter()
	}
	if len(t) < 3 || r.low(0) != "create" {
		return false, nil
	}
	i := 1
	if r.low(i) == "or" && r.low(i+1) == "replace" {
		return false, nil // left to the parser and the binder
	}
	for r.low(i) == "external" || r.low(i) == "temporary" || r.low(i) == "temp" || r.low(i) == "unlogged" {
		i++
	}
	if r.low(i) != "table" {
		return false, nil
	}
	i++
	if r.low(i) == "if" && r.low(i+1) == "not" && r.low(i+2) == "exists" {
		i += 3
	}
	// the table name: ident (. ident)*
	for i < len(t) && (t[i].tok == pg.Token_ASCII_46 || isWordTok(t[i])) {
		if r.low(i) == "using" || r.low(i) == "partitioned" || r.low(i) == "tblproperties" || r.low(i) == "location" || r.low(i) == "comment" || r.low(i) == "as" || r.low(i) == "with" {
			break
		}
		i++
	}
	changed := false
	if i < len(t) && t[i].tok == pg.Token_ASCII_40 {
		close := matchParen(t, i)
		if close < 0 {
			return false, nil
		}
		for k := close + 1; k < len(t); k++ {
			switch r.low(k) {
			case "using", "partitioned", "tblproperties", "location", "comment":
				r.x.spark = true
			}
		}
		c, err := r.columnList(i+1, close)
		if err != nil {
			return false, err
		}
		changed = changed || c
		i = close + 1
	}
	// trailing clauses
	for i < len(t) {
		switch r.low(i) {
		case "using":
			if i+1 >= len(t) {
				return changed, nil
			}
			r.x.using = r.low(i + 1)
			r.blank(t[i].start, t[i+1].end)
			r.x.spark, changed = true, true
			i += 2
		case "partitioned":
			if r.low(i+1) != "by" || i+2 >= len(t) || t[i+2].tok != pg.Token_ASCII_40 {
				return changed, nil
			}
			close := matchParen(t, i+2)
			if close < 0 {
				return changed, nil
			}
			items, err := parsePartitionItems(t[i+3 : close])
			if err != nil {
				return false, err
			}
			r.x.partitioned, r.x.hasPartBy = items, true
			r.blank(t[i].start, t[close].end)
			r.x.spark, changed = true, true
			i = close + 1
		case "tblproperties", "options":
			if i+1 >= len(t) || t[i+1].tok != pg.Token_ASCII_40 {
				return changed, nil
			}
			close := matchParen(t, i+1)
			if close < 0 {
				return changed, nil
			}
			if err := r.properties(t[i+2 : close]); err != nil {
				return false, err
			}
			r.blank(t[i].start, t[close].end)
			r.x.spark, changed = true, true
			i = close + 1
		case "location", "comment":
			if i+1 >= len(t) || t[i+1].tok != pg.Token_SCONST {
				return changed, nil
			}
			v := sconst(t[i+1].text)
			if r.low(i) == "location" {
				r.x.location = &v
			} else {
				r.x.comment = &v
			}
			r.blank(t[i].start, t[i+1].end)
			r.x.spark, changed = true, true
			i += 2
		case "stored":
			return false, pgerr.Unsupported("STORED AS in CREATE TABLE").WithHint("Iceberg data files are written as Parquet.")
		default:
			// WITH (...), AS SELECT ...: PostgreSQL's; leave them.
			return changed, nil
		}
	}
	return changed, nil
}

func isWordTok(t dialectTok) bool {
	c := t.text[0]
	return c == '"' || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// matchParen returns the index of the ")" closing the "(" at i, or -1.
func matchParen(t []dialectTok, i int) int {
	depth := 0
	for k := i; k < len(t); k++ {
		switch t[k].tok {
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

// columnList rewrites the column definitions between from and to (the
// tokens inside the parentheses): column COMMENTs are cut out, types in
// Spark's syntax replaced by placeholders.
func (r *dialectRewriter) columnList(from, to int) (bool, error) {
	t := r.toks
	changed := false
	k := from
	for k < to {
		// one element: up to the next "," at this depth
		e := k
		depth := 0
		for e < to && !(depth == 0 && t[e].tok == pg.Token_ASCII_44) {
			// Spark's type brackets nest like parentheses here.
			switch t[e].tok {
			case pg.Token_ASCII_40, pg.Token_ASCII_60:
				depth++
			case pg.Token_ASCII_41, pg.Token_ASCII_62:
				depth--
			case pg.Token_Op:
				depth += strings.Count(t[e].text, "<") - strings.Count(t[e].text, ">")
			}
			e++
		}
		c, err := r.columnDef(k, e)
		if err != nil {
			return false, err
		}
		changed = changed || c
		k = e + 1
	}
	return changed, nil
}

// columnDef rewrites one element of a column list (tokens from..to).
func (r *dialectRewriter) columnDef(from, to int) (bool, error) {
	t := r.toks
	if to-from < 2 {
		return false, nil
	}
	switch r.low(from) {
	case "constraint", "primary", "unique", "check", "foreign", "like", "exclude":
		return false, nil
	}
	name := identText(t[from].text)
	changed := false
	// COMMENT 'x' anywhere after the type
	for k := from + 2; k+1 < to; k++ {
		if r.low(k) == "comment" && t[k+1].tok == pg.Token_SCONST {
			if r.x.comments == nil {
				r.x.comments = map[string]string{}
			}
			r.x.comments[name] = sconst(t[k+1].text)
			r.blank(t[k].start, t[k+1].end)
			changed = true
			to = k
			break
		}
	}
	// the type: tokens after the name up to a constraint keyword
	ts := from + 1
	te := ts
	depth := 0
	for te < to {
		if depth == 0 && te > ts {
			switch r.low(te) {
			case "not", "null", "default", "primary", "unique", "constraint", "check", "references", "generated", "collate", "comment":
				goto done
			}
		}
		switch {
		case t[te].tok == pg.Token_ASCII_60 || t[te].tok == pg.Token_ASCII_40:
			depth++
		case t[te].tok == pg.Token_ASCII_62 || t[te].tok == pg.Token_ASCII_41:
			depth--
		case t[te].tok == pg.Token_Op:
			depth += strings.Count(t[te].text, "<") - strings.Count(t[te].text, ">")
		}
		te++
	}
done:
	if te <= ts {
		return changed, nil
	}
	nested := te-ts > 1 && (t[ts+1].tok == pg.Token_ASCII_60 || (t[ts+1].tok == pg.Token_Op && strings.HasPrefix(t[ts+1].text, "<")))
	if !nested && !r.x.spark && !sparkOnlyName(r.low(ts)) {
		return changed, nil
	}
	p := &sparkTypeParser{toks: t[ts:te]}
	st, err := p.parse()
	if err != nil || p.i != len(p.toks) {
		if nested {
			return false, pgerr.New(pgerr.SyntaxError, "syntax error in type of column \"%s\"", name).WithPosition(charPos(r.sql, int32(t[ts].start)))
		}
		return changed, nil // a PostgreSQL type: the parser reads it
	}
	if !nested && !knownSparkName(st.name) {
		return changed, nil
	}
	span := t[te-1].end - t[ts].start
	r.n++
	ph := `"@` + strconv.Itoa(r.n) + `"`
	if span < len(ph) {
		return changed, nil // short names (INT) mean the same in both dialects
	}
	if r.x.types == nil {
		r.x.types = map[string]*sparkType{}
	}
	st.loc = int32(t[ts].start)
	r.x.types["@"+strconv.Itoa(r.n)] = st
	r.blank(t[ts].start, t[te-1].end)
	copy(r.out[t[ts].start:], ph)
	return true, nil
}

// sparkOnlyName reports type names PostgreSQL lacks, which mark a column
// list as Spark's even without a Spark clause.
func sparkOnlyName(n string) bool {
	switch n {
	case "string", "long", "byte", "tinyint", "short", "binary", "timestamp_ntz", "timestamp_ltz", "array", "map", "struct":
		return true
	}
	return false
}

func knownSparkName(n string) bool {
	switch n {
	case "string", "long", "bigint", "int", "integer", "byte", "tinyint", "short", "smallint", "double", "float", "real",
		"binary", "timestamp", "timestamp_ntz", "timestamp_ltz", "decimal", "numeric", "dec", "boolean", "bool", "date",
		"array", "map", "struct", "varchar", "char", "uuid", "time":
		return true
	}
	return false
}

// sparkTypeParser parses a type in Spark's syntax from tokens.
type sparkTypeParser struct {
	toks []dialectTok
	i    int
	// pending counts ">" characters of an Op token (">>") not yet consumed.
	pending int
}

func (p *sparkTypeParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].low
	}
	return ""
}

func (p *sparkTypeParser) expect(s string) bool {
	if p.pending > 0 && s == ">" {
		p.pending--
		if p.pending == 0 {
			p.i++
		}
		return true
	}
	if p.i >= len(p.toks) {
		return false
	}
	tk := p.toks[p.i]
	if tk.low == s {
		p.i++
		return true
	}
	if s == ">" && tk.tok == pg.Token_Op && strings.Trim(tk.text, ">") == "" {
		p.pending = len(tk.text) - 1
		if p.pending == 0 {
			p.i++
		}
		return true
	}
	if s == "<" && tk.tok == pg.Token_Op && strings.HasPrefix(tk.text, "<") {
		return false
	}
	return false
}

func (p *sparkTypeParser) parse() (*sparkType, error) {
	if p.i >= len(p.toks) || p.pending > 0 {
		return nil, errSparkType
	}
	tk := p.toks[p.i]
	name := identText(tk.text)
	if tk.tok != pg.Token_IDENT {
		name = tk.low
	}
	p.i++
	st := &sparkType{name: strings.ToLower(name), loc: int32(tk.start)}
	switch st.name {
	case "array":
		if !p.expect("<") {
			return nil, errSparkType
		}
		e, err := p.parse()
		if err != nil {
			return nil, err
		}
		st.elem = e
		if !p.expect(">") {
			return nil, errSparkType
		}
	case "map":
		if !p.expect("<") {
			return nil, errSparkType
		}
		k, err := p.parse()
		if err != nil {
			return nil, err
		}
		if !p.expect(",") {
			return nil, errSparkType
		}
		v, err := p.parse()
		if err != nil {
			return nil, err
		}
		st.key, st.val = k, v
		if !p.expect(">") {
			return nil, errSparkType
		}
	case "struct":
		if !p.expect("<") {
			return nil, errSparkType
		}
		for !p.expect(">") {
			if len(st.fields) > 0 && !p.expect(",") {
				return nil, errSparkType
			}
			if p.i >= len(p.toks) {
				return nil, errSparkType
			}
			f := sparkField{name: identText(p.toks[p.i].text)}
			p.i++
			p.expect(":")
			ft, err := p.parse()
			if err != nil {
				return nil, err
			}
			f.t = ft
			if p.peek() == "not" {
				p.i++
				if !p.expect("null") {
					return nil, errSparkType
				}
				f.notNull = true
			}
			if p.peek() == "comment" && p.i+1 < len(p.toks) && p.toks[p.i+1].tok == pg.Token_SCONST {
				f.comment = sconst(p.toks[p.i+1].text)
				p.i += 2
			}
			st.fields = append(st.fields, f)
		}
	default:
		if p.peek() == "(" {
			p.i++
			for {
				if p.i >= len(p.toks) || p.toks[p.i].tok != pg.Token_ICONST {
					return nil, errSparkType
				}
				n, _ := strconv.Atoi(p.toks[p.i].text)
				st.args = append(st.args, n)
				p.i++
				if p.expect(")") {
					break
				}
				if !p.expect(",") {
					return nil, errSparkType
				}
			}
		}
	}
	return st, nil
}

// errSparkType marks a type the Spark parser cannot read; callers report
// the column.
var errSparkType = errors.New("not a type in Spark's syntax")

// properties reads 'k' = 'v', ... of TBLPROPERTIES.
func (r *dialectRewriter) properties(t []dialectTok) error {
	if r.x.props == nil {
		r.x.props = map[string]string{}
	}
	for k := 0; k < len(t); {
		if k+2 >= len(t) || t[k+1].tok != pg.Token_ASCII_61 {
			return pgerr.New(pgerr.SyntaxError, "syntax error in TBLPROPERTIES: expected 'key' = 'value'").WithPosition(charPos(r.sql, int32(t[min(k, len(t)-1)].start)))
		}
		key, val := propText(t[k]), propText(t[k+2])
		if _, ok := r.x.props[key]; !ok {
			r.x.propOrder = append(r.x.propOrder, key)
		}
		r.x.props[key] = val
		k += 3
		if k < len(t) {
			if t[k].tok != pg.Token_ASCII_44 {
				return pgerr.New(pgerr.SyntaxError, "syntax error in TBLPROPERTIES").WithPosition(charPos(r.sql, int32(t[k].start)))
			}
			k++
		}
	}
	return nil
}

func propText(t dialectTok) string {
	if t.tok == pg.Token_SCONST {
		return sconst(t.text)
	}
	return identText(t.text)
}

// parsePartitionItems reads "days(ts), bucket(16, id), country" from
// tokens.
func parsePartitionItems(t []dialectTok) ([]partitionItem, error) {
	t = joinDottedNames(t) // st.a: a field of a struct column
	var items []partitionItem
	bad := func(k int) error {
		e := pgerr.New(pgerr.SyntaxError, "syntax error in partitioning: expected column or transform(column)")
		if k < len(t) {
			e.Position = int32(t[k].start) // a byte offset; callers convert
		}
		return e
	}
	for k := 0; k < len(t); {
		if !isWordTok(t[k]) {
			return nil, bad(k)
		}
		it := partitionItem{loc: int32(t[k].start)}
		if k+1 < len(t) && t[k+1].tok == pg.Token_ASCII_40 {
			it.transform = t[k].low
			k += 2
			for args := 0; k < len(t) && t[k].tok != pg.Token_ASCII_41; args++ {
				if args > 0 {
					if t[k].tok != pg.Token_ASCII_44 {
						return nil, bad(k)
					}
					k++
					if k >= len(t) {
						return nil, bad(k)
					}
				}
				switch {
				case t[k].tok == pg.Token_ICONST && !it.hasParam:
					it.param, _ = strconv.Atoi(t[k].text)
					it.hasParam = true
				case isWordTok(t[k]) && it.column == "":
					it.column = identText(t[k].text)
				default:
					return nil, bad(k)
				}
				k++
			}
			if k >= len(t) {
				return nil, bad(k)
			}
			k++
		} else if t[k].low == "identity" && k+1 < len(t) && isWordTok(t[k+1]) {
			it.transform, it.column = "identity", identText(t[k+1].text)
			k += 2
		} else {
			it.transform, it.column = "identity", identText(t[k].text)
			k++
		}
		if it.column == "" {
			return nil, bad(k - 1)
		}
		items = append(items, it)
		if k < len(t) {
			if t[k].tok != pg.Token_ASCII_44 {
				return nil, bad(k)
			}
			k++
		}
	}
	return items, nil
}

// parsePartitioning reads the partitioning option of the PostgreSQL form
// (WITH (partitioning = 'days(ts), bucket(16, id)')).
func parsePartitioning(s string) ([]partitionItem, error) {
	res, err := pg.Scan(s)
	if err != nil {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid partitioning \"%s\": %v", s, err)
	}
	toks := make([]dialectTok, 0, len(res.Tokens))
	for _, t := range res.Tokens {
		txt := s[t.Start:t.End]
		toks = append(toks, dialectTok{tok: t.Token, start: int(t.Start), end: int(t.End), text: txt, low: strings.ToLower(txt)})
	}
	items, err := parsePartitionItems(toks)
	if err != nil {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid partitioning \"%s\": %s", s, err.Error())
	}
	for i := range items {
		items[i].loc = -1
	}
	return items, nil
}

// identText is an identifier token's name: a quoted one unquoted, an
// unquoted one folded to lower case.
func identText(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return asciiLower(s)
}

// sconst is the value of a string constant token ('it”s').
func sconst(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], `''`, `'`)
	}
	return s
}
