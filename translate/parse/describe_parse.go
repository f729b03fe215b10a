package parse

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// Spark's metadata statements (DESCRIBE, SHOW TABLES, SHOW TBLPROPERTIES,
// SHOW CREATE TABLE, SHOW SCHEMAS) are not in PostgreSQL's grammar, which
// reads SHOW x as a setting. They are recognised here from the scanner's
// tokens before the parser runs; any other statement goes to the parser.

// metaKind names a metadata statement.
type metaKind int

const (
	MetaDescribe metaKind = iota + 1
	MetaTblProperties
	MetaShowCreate
	MetaShowTables
	MetaShowSchemas
)

// MetaStmt is a recognised metadata statement.
type MetaStmt struct {
	Kind     metaKind
	Extended bool
	Table    TableName
	Key      *string // SHOW TBLPROPERTIES t ('key')
	Schema   string  // SHOW TABLES IN schema ("" = first of search_path)
	Column   string  // DESCRIBE t col: the column (dotted into structs)
	Pattern  *string // SHOW TABLES / SCHEMAS [LIKE] 'pattern'
}

// mayHaveMeta is a quick test that spares other queries the scan.
func mayHaveMeta(sql string) bool {
	l := strings.ToLower(sql)
	return strings.Contains(l, "desc") || strings.Contains(l, "show")
}

// parseWithMeta splits sql into statements when one of them is a metadata
// statement; ok is false when none is (the caller parses as usual).
func parseWithMeta(sql string, o Config) (out []Stmt, ok bool, err error) {
	toks, err := ScanTokens(sql)
	if err != nil {
		return nil, false, nil
	}
	type piece struct {
		toks       []DialectTok
		start, end int
	}
	var pieces []piece
	start := 0
	for i := 0; i <= len(toks); {
		j := i
		for j < len(toks) && toks[j].Tok != pg.Token_ASCII_59 {
			j++
		}
		end := len(sql)
		if j < len(toks) {
			end = toks[j].Start
		}
		if j > i {
			pieces = append(pieces, piece{toks: toks[i:j], start: start, end: end})
		}
		if j < len(toks) {
			start = toks[j].End
		}
		i = j + 1
	}
	any := false
	metas := make([]*MetaStmt, len(pieces))
	for k, p := range pieces {
		m, err := readMeta(sql, p.toks)
		if err != nil {
			return nil, true, err
		}
		metas[k] = m
		any = any || m != nil
	}
	if !any {
		return nil, false, nil
	}
	for k, p := range pieces {
		text := sql[p.start:p.end]
		if metas[k] != nil {
			out = append(out, Stmt{Text: strings.TrimSpace(text), SQL: sql, Meta: metas[k]})
			continue
		}
		// Blank out what comes before, one space per character, so that
		// error positions count from the start of the whole string.
		var pad strings.Builder
		for _, c := range sql[:p.start] {
			if c == '\n' {
				pad.WriteByte('\n')
			} else {
				pad.WriteByte(' ')
			}
		}
		sub, err := Parse(pad.String()+text, o)
		if err != nil {
			return nil, true, err
		}
		out = append(out, sub...)
	}
	return out, true, nil
}

// metaReader reads the tokens of one statement.
type metaReader struct {
	sql  string
	toks []DialectTok
	i    int
}

func (r *metaReader) low() string {
	if r.i < len(r.toks) {
		return r.toks[r.i].Low
	}
	return ""
}

func (r *metaReader) accept(words ...string) bool {
	for _, w := range words {
		if r.low() == w {
			r.i++
			return true
		}
	}
	return false
}

func (r *metaReader) done() bool { return r.i >= len(r.toks) }

func (r *metaReader) syntaxErr() error {
	e := pgerr.New(pgerr.SyntaxError, "syntax error at end of input")
	if !r.done() {
		e = pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", r.toks[r.i].Text)
		e = e.WithPosition(CharPos(r.sql, int32(r.toks[r.i].Start)))
	}
	return e
}

// name reads ident(.ident)*.
func (r *metaReader) name() ([]string, error) {
	var parts []string
	for {
		if r.done() || !IsWordTok(r.toks[r.i]) {
			return nil, r.syntaxErr()
		}
		parts = append(parts, IdentText(r.toks[r.i].Text))
		r.i++
		if r.done() || r.toks[r.i].Tok != pg.Token_ASCII_46 {
			return parts, nil
		}
		r.i++
	}
}

func (r *metaReader) tableName() (TableName, error) {
	parts, err := r.name()
	if err != nil {
		return TableName{}, err
	}
	if len(parts) > 3 {
		return TableName{}, pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(parts, "."))
	}
	tn := TableName{Written: strings.Join(parts, ".")}
	tn.Name = parts[len(parts)-1]
	if len(parts) >= 2 {
		tn.Schema = parts[len(parts)-2]
	}
	if len(parts) == 3 {
		tn.Catalog = parts[0]
	}
	return tn, nil
}

// readMeta recognises a metadata statement; nil when toks is another
// statement (SHOW of a setting among them).
func readMeta(sql string, toks []DialectTok) (*MetaStmt, error) {
	r := &metaReader{sql: sql, toks: toks}
	m := &MetaStmt{}
	switch {
	case r.accept("describe", "desc"):
		m.Kind = MetaDescribe
		r.accept("table")
		if r.low() == "extended" || r.low() == "formatted" {
			if r.i+1 < len(toks) { // DESCRIBE extended: a table named extended
				r.i++
				m.Extended = true
			}
		}
		tn, err := r.tableName()
		if err != nil {
			return nil, err
		}
		m.Table = tn
		if r.low() == "partition" {
			return nil, pgerr.NotYet("DESCRIBE ... PARTITION")
		}
		if !r.done() {
			parts, err := r.name()
			if err != nil {
				return nil, err
			}
			m.Column = strings.Join(parts, ".")
		}
	case r.accept("show"):
		switch {
		case r.accept("tables"):
			m.Kind = MetaShowTables
			if r.accept("in", "from") {
				parts, err := r.name()
				if err != nil {
					return nil, err
				}
				m.Schema = strings.Join(parts, ".")
			}
			if err := r.pattern(m); err != nil {
				return nil, err
			}
		case r.accept("schemas", "namespaces", "databases"):
			m.Kind = MetaShowSchemas
			if err := r.pattern(m); err != nil {
				return nil, err
			}
		case r.low() == "tblproperties":
			r.i++
			m.Kind = MetaTblProperties
			tn, err := r.tableName()
			if err != nil {
				return nil, err
			}
			m.Table = tn
			if r.accept("(") {
				if r.done() || r.toks[r.i].Tok != pg.Token_SCONST {
					return nil, r.syntaxErr()
				}
				k := SConst(r.toks[r.i].Text)
				m.Key = &k
				r.i++
				if !r.accept(")") {
					return nil, r.syntaxErr()
				}
			}
		case r.low() == "create" && r.i+1 < len(toks) && toks[r.i+1].Low == "table":
			r.i += 2
			m.Kind = MetaShowCreate
			tn, err := r.tableName()
			if err != nil {
				return nil, err
			}
			m.Table = tn
		default:
			return nil, nil
		}
	default:
		return nil, nil
	}
	if !r.done() {
		return nil, r.syntaxErr()
	}
	return m, nil
}

// pattern reads Spark's optional [LIKE] 'pattern' of SHOW TABLES and SHOW
// SCHEMAS.
func (r *metaReader) pattern(m *MetaStmt) error {
	like := r.accept("like")
	if r.done() {
		if like {
			return r.syntaxErr()
		}
		return nil
	}
	if r.toks[r.i].Tok != pg.Token_SCONST {
		return r.syntaxErr()
	}
	p := SConst(r.toks[r.i].Text)
	m.Pattern = &p
	r.i++
	return nil
}
