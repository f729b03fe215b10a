package parse

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v6"
	pgparser "github.com/pganalyze/pg_query_go/v6/parser"

	_ "github.com/icegate/icegate/internal/needcgo" // a build without cgo stops there, saying why
	"github.com/icegate/icegate/internal/pgerr"
)

// Stmt is one statement of a query string: its AST and its text.
type Stmt struct {
	Node *pg.Node
	Text string // the statement's own text, for messages
	// Quoted holds the byte offsets (in the whole query string) where a
	// quoted identifier starts; unquoted identifiers were folded to lower
	// case by the parser and may match a column case-insensitively.
	Quoted map[int32]bool
	SQL    string // the whole query string (locations are offsets into it)
	// Extras holds the Spark clauses the dialect pass cut out of this
	// statement (dialect.go); nil when there were none.
	Extras *DDLExtras
	// Meta is set (and Node nil) for a Spark metadata statement
	// (describe_parse.go).
	Meta *MetaStmt
	// AsOf holds the time-travel clauses cut out of the query string, by
	// the offset of the table name each follows (asof.go).
	AsOf map[int32]*AsOfClause
	// Hints holds the OPTIONS hints after table names, by the same offsets
	// (hints.go).
	Hints map[int32]*Hint
	// Call is what the procedure-call dialect pass changed in this
	// statement (dialect_call.go); nil when nothing.
	Call *CallDialect
}

// Config is what parsing needs to know of the layers above it.
type Config struct {
	// IsMetaTable reports whether a (lower-case) name is a metadata
	// table's, which a four-part name in a table position may end with
	// (catalog.schema.table.files); nil: none is.
	IsMetaTable func(name string) bool
}

// parseInBackground is the length from which ParseContext parses in another
// goroutine so that a cancel or statement_timeout can end the wait; the
// parser itself (C code) cannot be interrupted and finishes unobserved.
const parseInBackground = 64 << 10

// ParseContext is Parse, abandoned when ctx ends first.
func ParseContext(ctx context.Context, sql string, o Config) ([]Stmt, error) {
	if len(sql) < parseInBackground || ctx.Done() == nil {
		return Parse(sql, o)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		stmts []Stmt
		err   error
	}
	done := make(chan result, 1)
	go func() {
		stmts, err := Parse(sql, o)
		done <- result{stmts, err}
	}()
	select {
	case r := <-done:
		return r.stmts, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Parse splits sql into its statements. Empty statements (";") are dropped.
// Syntax errors are 42601 with Position set.
func Parse(sql string, o Config) ([]Stmt, error) {
	// Before any cgo call: a tree too deep would overflow the C parser's
	// stack (parse_depth.go).
	if err := checkTreeDepth(sql, maxTreeDepth); err != nil {
		return nil, err
	}
	sql = RewriteSparkArray(sql)    // spark_array.go
	sql = RewriteSparkSetNames(sql) // spark_set.go
	if mayHaveMeta(sql) {
		if out, ok, err := parseWithMeta(sql, o); ok || err != nil {
			return out, err
		}
	}
	sql, calls, err := RewriteCalls(sql)
	if err != nil {
		return nil, err
	}
	sql, extras, err := RewriteDialect(sql, o)
	if err != nil {
		return nil, err
	}
	sql, asOf, err := RewriteAsOf(sql)
	if err != nil {
		return nil, err
	}
	hints, err := ScanHints(sql)
	if err != nil {
		return nil, err
	}
	tree, err := pg.Parse(sql)
	if err != nil {
		return nil, syntaxError(sql, err)
	}
	quoted := QuotedIdents(sql)
	var out []Stmt
	for _, raw := range tree.Stmts {
		if raw.Stmt == nil {
			continue
		}
		start := int(raw.StmtLocation)
		end := len(sql)
		if raw.StmtLen > 0 {
			end = start + int(raw.StmtLen)
		}
		if start > len(sql) {
			start = len(sql)
		}
		if end > len(sql) {
			end = len(sql)
		}
		ps := Stmt{
			Node:   raw.Stmt,
			Text:   strings.TrimSpace(sql[start:end]),
			Quoted: quoted,
			SQL:    sql,
			AsOf:   asOf,
			Hints:  hints,
		}
		for _, x := range extras {
			if x.Start < end && x.End > start {
				ps.Extras = x
			}
		}
		for _, c := range calls {
			if c.Start < end && c.End > start {
				ps.Call = c
			}
		}
		out = append(out, ps)
	}
	return out, nil
}

// syntaxError converts a pg_query error to a 42601 error with PostgreSQL's
// message and cursor position.
func syntaxError(sql string, err error) error {
	var pe *pgparser.Error
	if !errors.As(err, &pe) {
		if strings.Contains(err.Error(), "exceeded maximum recursion depth") {
			// protobuf's decoding limit: a tree the estimate let through
			return errTooDeep()
		}
		return pgerr.Wrap(err, pgerr.SyntaxError, "%s", err.Error())
	}
	e := pgerr.New(pgerr.SyntaxError, "%s", pe.Message)
	if pe.Cursorpos > 0 {
		e.Position = int32(pe.Cursorpos)
	}
	return e
}

// QuotedIdents returns the byte offsets of quoted identifiers in sql. It
// reads the text as PostgreSQL's lexer does (strings, dollar quotes,
// comments) rather than asking pg_query's scanner, which costs as much as
// a parse on a long VALUES list.
func QuotedIdents(sql string) map[int32]bool {
	var m map[int32]bool
	n := len(sql)
	for i := 0; i < n; {
		c := sql[i]
		switch {
		case c == '-' && i+1 < n && sql[i+1] == '-':
			for i < n && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && sql[i+1] == '*':
			i = skipBlockComment(sql, i)
		case c == '\'':
			i = skipQuoted(sql, i, '\'', false)
		case c == '"':
			if i < 2 || sql[i-1] != '&' || (sql[i-2] != 'u' && sql[i-2] != 'U') { // not U&"..."
				if m == nil {
					m = map[int32]bool{}
				}
				m[int32(i)] = true
			}
			i = skipQuoted(sql, i, '"', false)
		case c == '$':
			i = skipDollar(sql, i)
		case isWordStart(c):
			j := i + 1
			for j < n && isWordPart(sql[j]) {
				j++
			}
			if j < n && sql[j] == '\'' && j-i == 1 {
				i = skipQuoted(sql, j, '\'', c == 'e' || c == 'E')
			} else {
				i = j
			}
		default:
			i++
		}
	}
	return m
}

// CharPos converts a byte offset in sql to PostgreSQL's 1-based character
// position.
func CharPos(sql string, off int32) int32 {
	if off < 0 {
		return 0
	}
	if int(off) > len(sql) {
		off = int32(len(sql))
	}
	return int32(utf8.RuneCountInString(sql[:off])) + 1
}
