package parse

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
// into the text the client sent) and keeps their content in a DDLExtras
// the binder reads. Spark type names in a column list are replaced by a
// quoted placeholder type name ("@n") that the binder resolves through the
// same side structure.

// DDLExtras is what the dialect pass took out of one statement.
type DDLExtras struct {
	Start, End int // byte range of the statement in the query string
	// Spark is set when the statement uses a Spark clause: Spark's type
	// names then take Spark's meaning (TIMESTAMP is timestamptz, FLOAT is
	// a 4-byte float).
	Spark       bool
	Types       map[string]*SparkType // by placeholder name
	Comments    map[string]string     // column comments, by column name as written
	Partitioned []PartitionItem
	HasPartBy   bool
	Props       map[string]string
	PropOrder   []string
	Location    *string
	Using       string
	Comment     *string
	Purge       bool
	Alter       *SparkAlter // a Spark clause of ALTER TABLE
	RenameNS    *string     // the namespace of ALTER TABLE ... RENAME TO ns.t
	// MergeStars are MERGE's Spark actions UPDATE SET * and INSERT *, by
	// the index of their WHEN clause (dialect_merge.go).
	MergeStars map[int]MergeStar
	Insert     *SparkInsert // INSERT OVERWRITE / PARTITION (dialect_insert.go)
	Replace    string       // REPLACE TABLE / CREATE OR REPLACE TABLE (dialect_replace.go)
	// Catalog is the catalog part of a namespace name in CREATE / DROP
	// NAMESPACE | DATABASE | SCHEMA cat.ns (cut from the text; folded),
	// and CatalogQualified the name as written (dialect_namespace.go).
	Catalog, CatalogQualified string
}

// SparkType is a type written in Spark's syntax.
type SparkType struct {
	Name     string // lower case: int, string, decimal, array, map, struct...
	Args     []int  // decimal(p,s), char(n)...
	Elem     *SparkType
	Key, Val *SparkType
	Fields   []sparkField
	Loc      int32
}

type sparkField struct {
	Name    string
	T       *SparkType
	NotNull bool
	Comment string
}

// PartitionItem is one partition field as written: a transform applied to
// a column.
type PartitionItem struct {
	Transform string // lower case, as written: days, bucket, identity...
	Column    string
	Param     int // bucket count or truncate width (0: none)
	HasParam  bool
	Loc       int32
}

// DialectTok is a scanned token with its text.
type DialectTok struct {
	Tok        pg.Token
	Start, End int
	Text       string // as written
	Low        string // lower case
}

// RewriteDialect returns sql with the Spark clauses of its CREATE TABLE
// and DROP TABLE statements blanked out, and what they said. Four-part
// metadata table names are joined first (dialect_metaname.go), and MERGE's
// Spark actions (UPDATE SET *, INSERT *) replaced (dialect_merge.go).
func RewriteDialect(sql string, o Config) (string, []*DDLExtras, error) {
	sql = RewriteMetaNames(sql, o.IsMetaTable)
	sql, mergeExtras := RewriteMergeStars(sql)
	if !mayHaveDDL(sql) {
		return sql, mergeExtras, nil
	}
	toks, err := ScanTokens(sql)
	if err != nil {
		return sql, mergeExtras, nil // the parser reports the syntax error
	}
	out := []byte(sql)
	var extras []*DDLExtras
	stmtStart := 0
	for i := 0; i < len(toks); {
		// find the statement's end
		j := i
		depth := 0
		for j < len(toks) && !(toks[j].Tok == pg.Token_ASCII_59 && depth == 0) {
			switch toks[j].Tok {
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
			end = toks[j].End
		}
		r := &DialectRewriter{SQL: sql, out: out, toks: stmt, X: &DDLExtras{Start: stmtStart, End: end}}
		changed, err := r.rewrite()
		if err != nil {
			return sql, nil, err
		}
		if changed {
			extras = append(extras, r.X)
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
		case 'r':
			if i+7 <= len(sql) && strings.EqualFold(sql[i:i+7], "replace") {
				return true
			}
		}
	}
	return mayHaveSparkInsert(sql)
}

// DialectRewriter rewrites one statement.
type DialectRewriter struct {
	SQL  string
	out  []byte
	toks []DialectTok
	X    *DDLExtras
	n    int // placeholders made
}

func (r *DialectRewriter) blank(from, to int) {
	for k := from; k < to && k < len(r.out); k++ {
		if r.out[k] != '\n' {
			r.out[k] = ' '
		}
	}
}

func (r *DialectRewriter) low(i int) string {
	if i < len(r.toks) {
		return r.toks[i].Low
	}
	return ""
}

func (r *DialectRewriter) rewrite() (bool, error) {
	t := r.toks
	if handled, extras := r.rewriteNamespace(); handled { // dialect_namespace.go
		return extras, nil
	}
	if r.low(0) == "insert" {
		return r.rewriteInsert() // dialect_insert.go
	}
	if r.rewriteReplace() { // dialect_replace.go: then as CREATE TABLE
		_, err := r.rewrite()
		return err == nil, err
	}
	if len(t) >= 4 && r.low(0) == "drop" && r.low(1) == "table" && r.low(len(t)-1) == "purge" && t[len(t)-2].Tok != pg.Token_ASCII_44 {
		r.blank(t[len(t)-1].Start, t[len(t)-1].End)
		r.X.Purge = true
		return true, nil
	}
	if n := len(t); n >= 7 && r.low(0) == "alter" && r.low(1) == "table" && r.low(n-5) == "rename" && r.low(n-4) == "to" &&
		IsWordTok(t[n-3]) && t[n-2].Tok == pg.Token_ASCII_46 && IsWordTok(t[n-1]) {
		// Spark's RENAME TO ns.t: PostgreSQL takes a bare name; the
		// namespace is kept aside.
		ns := IdentText(t[n-3].Text)
		r.X.RenameNS = &ns
		r.blank(t[n-3].Start, t[n-2].End)
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
	for i < len(t) && (t[i].Tok == pg.Token_ASCII_46 || IsWordTok(t[i])) {
		if r.low(i) == "using" || r.low(i) == "partitioned" || r.low(i) == "tblproperties" || r.low(i) == "location" || r.low(i) == "comment" || r.low(i) == "as" || r.low(i) == "with" {
			break
		}
		i++
	}
	changed := false
	if i < len(t) && t[i].Tok == pg.Token_ASCII_40 {
		close := MatchParen(t, i)
		if close < 0 {
			return false, nil
		}
		for k := close + 1; k < len(t); k++ {
			switch r.low(k) {
			case "using", "partitioned", "tblproperties", "location", "comment":
				r.X.Spark = true
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
			r.X.Using = r.low(i + 1)
			r.blank(t[i].Start, t[i+1].End)
			r.X.Spark, changed = true, true
			i += 2
		case "partitioned":
			if r.low(i+1) != "by" || i+2 >= len(t) || t[i+2].Tok != pg.Token_ASCII_40 {
				return changed, nil
			}
			close := MatchParen(t, i+2)
			if close < 0 {
				return changed, nil
			}
			items, err := ParsePartitionItems(t[i+3 : close])
			if err != nil {
				return false, err
			}
			r.X.Partitioned, r.X.HasPartBy = items, true
			r.blank(t[i].Start, t[close].End)
			r.X.Spark, changed = true, true
			i = close + 1
		case "tblproperties", "options":
			if i+1 >= len(t) || t[i+1].Tok != pg.Token_ASCII_40 {
				return changed, nil
			}
			close := MatchParen(t, i+1)
			if close < 0 {
				return changed, nil
			}
			if err := r.Properties(t[i+2 : close]); err != nil {
				return false, err
			}
			r.blank(t[i].Start, t[close].End)
			r.X.Spark, changed = true, true
			i = close + 1
		case "location", "comment":
			if i+1 >= len(t) || t[i+1].Tok != pg.Token_SCONST {
				return changed, nil
			}
			v := SConst(t[i+1].Text)
			if r.low(i) == "location" {
				r.X.Location = &v
			} else {
				r.X.Comment = &v
			}
			r.blank(t[i].Start, t[i+1].End)
			r.X.Spark, changed = true, true
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

func IsWordTok(t DialectTok) bool {
	c := t.Text[0]
	return c == '"' || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// MatchParen returns the index of the ")" closing the "(" at i, or -1.
func MatchParen(t []DialectTok, i int) int {
	depth := 0
	for k := i; k < len(t); k++ {
		switch t[k].Tok {
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
func (r *DialectRewriter) columnList(from, to int) (bool, error) {
	t := r.toks
	changed := false
	k := from
	for k < to {
		// one element: up to the next "," at this depth
		e := k
		depth := 0
		for e < to && !(depth == 0 && t[e].Tok == pg.Token_ASCII_44) {
			// Spark's type brackets nest like parentheses here.
			switch t[e].Tok {
			case pg.Token_ASCII_40, pg.Token_ASCII_60:
				depth++
			case pg.Token_ASCII_41, pg.Token_ASCII_62:
				depth--
			case pg.Token_Op:
				depth += strings.Count(t[e].Text, "<") - strings.Count(t[e].Text, ">")
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
func (r *DialectRewriter) columnDef(from, to int) (bool, error) {
	t := r.toks
	if to-from < 2 {
		return false, nil
	}
	switch r.low(from) {
	case "constraint", "primary", "unique", "check", "foreign", "like", "exclude":
		return false, nil
	}
	name := IdentText(t[from].Text)
	changed := false
	// COMMENT 'x' anywhere after the type
	for k := from + 2; k+1 < to; k++ {
		if r.low(k) == "comment" && t[k+1].Tok == pg.Token_SCONST {
			if r.X.Comments == nil {
				r.X.Comments = map[string]string{}
			}
			r.X.Comments[name] = SConst(t[k+1].Text)
			r.blank(t[k].Start, t[k+1].End)
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
		case t[te].Tok == pg.Token_ASCII_60 || t[te].Tok == pg.Token_ASCII_40:
			depth++
		case t[te].Tok == pg.Token_ASCII_62 || t[te].Tok == pg.Token_ASCII_41:
			depth--
		case t[te].Tok == pg.Token_Op:
			depth += strings.Count(t[te].Text, "<") - strings.Count(t[te].Text, ">")
		}
		te++
	}
done:
	if te <= ts {
		return changed, nil
	}
	nested := te-ts > 1 && (t[ts+1].Tok == pg.Token_ASCII_60 || (t[ts+1].Tok == pg.Token_Op && strings.HasPrefix(t[ts+1].Text, "<")))
	if !nested && !r.X.Spark && !sparkOnlyName(r.low(ts)) {
		return changed, nil
	}
	p := &SparkTypeParser{Toks: t[ts:te]}
	st, err := p.Parse()
	if err != nil || p.I != len(p.Toks) {
		if nested {
			return false, pgerr.New(pgerr.SyntaxError, "syntax error in type of column \"%s\"", name).WithPosition(CharPos(r.SQL, int32(t[ts].Start)))
		}
		return changed, nil // a PostgreSQL type: the parser reads it
	}
	if !nested && !knownSparkName(st.Name) {
		return changed, nil
	}
	span := t[te-1].End - t[ts].Start
	r.n++
	ph := `"@` + strconv.Itoa(r.n) + `"`
	if span < len(ph) {
		return changed, nil // short names (INT) mean the same in both dialects
	}
	if r.X.Types == nil {
		r.X.Types = map[string]*SparkType{}
	}
	st.Loc = int32(t[ts].Start)
	r.X.Types["@"+strconv.Itoa(r.n)] = st
	r.blank(t[ts].Start, t[te-1].End)
	copy(r.out[t[ts].Start:], ph)
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

// SparkTypeParser parses a type in Spark's syntax from tokens.
type SparkTypeParser struct {
	Toks []DialectTok
	I    int
	// pending counts ">" characters of an Op token (">>") not yet consumed.
	pending int
}

func (p *SparkTypeParser) peek() string {
	if p.I < len(p.Toks) {
		return p.Toks[p.I].Low
	}
	return ""
}

func (p *SparkTypeParser) expect(s string) bool {
	if p.pending > 0 && s == ">" {
		p.pending--
		if p.pending == 0 {
			p.I++
		}
		return true
	}
	if p.I >= len(p.Toks) {
		return false
	}
	tk := p.Toks[p.I]
	if tk.Low == s {
		p.I++
		return true
	}
	if s == ">" && tk.Tok == pg.Token_Op && strings.Trim(tk.Text, ">") == "" {
		p.pending = len(tk.Text) - 1
		if p.pending == 0 {
			p.I++
		}
		return true
	}
	if s == "<" && tk.Tok == pg.Token_Op && strings.HasPrefix(tk.Text, "<") {
		return false
	}
	return false
}

func (p *SparkTypeParser) Parse() (*SparkType, error) {
	if p.I >= len(p.Toks) || p.pending > 0 {
		return nil, errSparkType
	}
	tk := p.Toks[p.I]
	name := IdentText(tk.Text)
	if tk.Tok != pg.Token_IDENT {
		name = tk.Low
	}
	p.I++
	st := &SparkType{Name: strings.ToLower(name), Loc: int32(tk.Start)}
	switch st.Name {
	case "array":
		if !p.expect("<") {
			return nil, errSparkType
		}
		e, err := p.Parse()
		if err != nil {
			return nil, err
		}
		st.Elem = e
		if !p.expect(">") {
			return nil, errSparkType
		}
	case "map":
		if !p.expect("<") {
			return nil, errSparkType
		}
		k, err := p.Parse()
		if err != nil {
			return nil, err
		}
		if !p.expect(",") {
			return nil, errSparkType
		}
		v, err := p.Parse()
		if err != nil {
			return nil, err
		}
		st.Key, st.Val = k, v
		if !p.expect(">") {
			return nil, errSparkType
		}
	case "struct":
		if !p.expect("<") {
			return nil, errSparkType
		}
		for !p.expect(">") {
			if len(st.Fields) > 0 && !p.expect(",") {
				return nil, errSparkType
			}
			if p.I >= len(p.Toks) {
				return nil, errSparkType
			}
			f := sparkField{Name: IdentText(p.Toks[p.I].Text)}
			p.I++
			p.expect(":")
			ft, err := p.Parse()
			if err != nil {
				return nil, err
			}
			f.T = ft
			if p.peek() == "not" {
				p.I++
				if !p.expect("null") {
					return nil, errSparkType
				}
				f.NotNull = true
			}
			if p.peek() == "comment" && p.I+1 < len(p.Toks) && p.Toks[p.I+1].Tok == pg.Token_SCONST {
				f.Comment = SConst(p.Toks[p.I+1].Text)
				p.I += 2
			}
			st.Fields = append(st.Fields, f)
		}
	default:
		if p.peek() == "(" {
			p.I++
			for {
				if p.I >= len(p.Toks) || p.Toks[p.I].Tok != pg.Token_ICONST {
					return nil, errSparkType
				}
				n, _ := strconv.Atoi(p.Toks[p.I].Text)
				st.Args = append(st.Args, n)
				p.I++
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

// Properties reads 'k' = 'v', ... of TBLPROPERTIES.
func (r *DialectRewriter) Properties(t []DialectTok) error {
	if r.X.Props == nil {
		r.X.Props = map[string]string{}
	}
	for k := 0; k < len(t); {
		if k+2 >= len(t) || t[k+1].Tok != pg.Token_ASCII_61 {
			return pgerr.New(pgerr.SyntaxError, "syntax error in TBLPROPERTIES: expected 'key' = 'value'").WithPosition(CharPos(r.SQL, int32(t[min(k, len(t)-1)].Start)))
		}
		key, val := PropText(t[k]), PropText(t[k+2])
		if _, ok := r.X.Props[key]; !ok {
			r.X.PropOrder = append(r.X.PropOrder, key)
		}
		r.X.Props[key] = val
		k += 3
		if k < len(t) {
			if t[k].Tok != pg.Token_ASCII_44 {
				return pgerr.New(pgerr.SyntaxError, "syntax error in TBLPROPERTIES").WithPosition(CharPos(r.SQL, int32(t[k].Start)))
			}
			k++
		}
	}
	return nil
}

func PropText(t DialectTok) string {
	if t.Tok == pg.Token_SCONST {
		return SConst(t.Text)
	}
	return IdentText(t.Text)
}

// ParsePartitionItems reads "days(ts), bucket(16, id), country" from
// tokens.
func ParsePartitionItems(t []DialectTok) ([]PartitionItem, error) {
	t = JoinDottedNames(t) // st.a: a field of a struct column
	var items []PartitionItem
	bad := func(k int) error {
		e := pgerr.New(pgerr.SyntaxError, "syntax error in partitioning: expected column or transform(column)")
		if k < len(t) {
			e.Position = int32(t[k].Start) // a byte offset; callers convert
		}
		return e
	}
	for k := 0; k < len(t); {
		if !IsWordTok(t[k]) {
			return nil, bad(k)
		}
		it := PartitionItem{Loc: int32(t[k].Start)}
		if k+1 < len(t) && t[k+1].Tok == pg.Token_ASCII_40 {
			it.Transform = t[k].Low
			k += 2
			for args := 0; k < len(t) && t[k].Tok != pg.Token_ASCII_41; args++ {
				if args > 0 {
					if t[k].Tok != pg.Token_ASCII_44 {
						return nil, bad(k)
					}
					k++
					if k >= len(t) {
						return nil, bad(k)
					}
				}
				switch {
				case t[k].Tok == pg.Token_ICONST && !it.HasParam:
					it.Param, _ = strconv.Atoi(t[k].Text)
					it.HasParam = true
				case IsWordTok(t[k]) && it.Column == "":
					it.Column = IdentText(t[k].Text)
				default:
					return nil, bad(k)
				}
				k++
			}
			if k >= len(t) {
				return nil, bad(k)
			}
			k++
		} else if t[k].Low == "identity" && k+1 < len(t) && IsWordTok(t[k+1]) {
			it.Transform, it.Column = "identity", IdentText(t[k+1].Text)
			k += 2
		} else {
			it.Transform, it.Column = "identity", IdentText(t[k].Text)
			k++
		}
		if it.Column == "" {
			return nil, bad(k - 1)
		}
		items = append(items, it)
		if k < len(t) {
			if t[k].Tok != pg.Token_ASCII_44 {
				return nil, bad(k)
			}
			k++
		}
	}
	return items, nil
}

// ParsePartitioning reads the partitioning option of the PostgreSQL form
// (WITH (partitioning = 'days(ts), bucket(16, id)')).
func ParsePartitioning(s string) ([]PartitionItem, error) {
	toks, err := ScanTokens(s)
	if err != nil {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid partitioning \"%s\": %v", s, err)
	}
	items, err := ParsePartitionItems(toks)
	if err != nil {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid partitioning \"%s\": %s", s, err.Error())
	}
	for i := range items {
		items[i].Loc = -1
	}
	return items, nil
}

// IdentText is an identifier token's name: a quoted one unquoted, an
// unquoted one folded to lower case.
func IdentText(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return ASCIILower(s)
}

// SConst is the value of a string constant token ('it”s').
func SConst(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], `''`, `'`)
	}
	return s
}

// JoinDottedNames turns each name a.b.c (a path to a field inside struct
// columns) into one quoted identifier token "a.b.c", which the partition
// term reader takes as a column and translate's schemaEdit.lookup resolves
// as a path.
func JoinDottedNames(t []DialectTok) []DialectTok {
	var out []DialectTok
	for k := 0; k < len(t); k++ {
		if !IsWordTok(t[k]) || k+2 >= len(t) || t[k+1].Tok != pg.Token_ASCII_46 || !IsWordTok(t[k+2]) {
			out = append(out, t[k])
			continue
		}
		parts := []string{IdentText(t[k].Text)}
		first := t[k]
		for k+2 < len(t) && t[k+1].Tok == pg.Token_ASCII_46 && IsWordTok(t[k+2]) {
			parts = append(parts, IdentText(t[k+2].Text))
			k += 2
		}
		joined := strings.Join(parts, ".")
		out = append(out, DialectTok{Tok: pg.Token_IDENT, Start: first.Start, End: t[k].End,
			Text: `"` + strings.ReplaceAll(joined, `"`, `""`) + `"`, Low: strings.ToLower(joined)})
	}
	return out
}

// ASCIILower folds ASCII letters as PostgreSQL folds unquoted identifiers.
func ASCIILower(s string) string {
	bs := []byte(s)
	for i, c := range bs {
		if 'A' <= c && c <= 'Z' {
			bs[i] = c + 32
		}
	}
	return string(bs)
}
