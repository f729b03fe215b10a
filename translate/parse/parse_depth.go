package parse

import (
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// The parser guard. pg_query parses in C on the calling thread's stack and
// serializes the tree recursively (one C frame or more per level), and the
// Go side decodes it with protobuf's nesting limit of 10,000 messages. A
// left-deep chain such as 1+1+...+1 is as deep as it is long: 40,000 terms
// overflow an 8 MB C stack and kill the process, and about 6,000 overflow
// the 2 MB glibc gives a thread when the stack limit is unlimited.
// PostgreSQL itself answers such statements with 54001 (it accepts about
// 4,080 terms with its default max_stack_depth of 2 MB). So before any
// cgo call, Parse estimates the depth of the tree pg_query would build
// from the statement's text (a linear scan, no allocation per token) and
// refuses a statement that may be deeper than the limit. The estimate is
// an upper bound on the protobuf nesting of the parse tree; a tree that
// passes is shallow enough for the binder, the optimizer and the engine's
// recursive walks, whose Go stacks grow as needed.

// pgerr.StatementTooComplex is SQLSTATE 54001, PostgreSQL's "stack depth
// limit exceeded".

// maxTreeDepth is the deepest parse tree (in protobuf message levels, about
// two per expression level) Parse accepts. 8,192 levels let 1+1+...+1 have
// about 4,090 terms, as PostgreSQL does, and stay well inside both
// protobuf's decoding limit and a 2 MB C stack (about 12,000 levels fit).
const maxTreeDepth = 8192

// errTooDeep is the error for a statement nested deeper than maxTreeDepth.
func errTooDeep() error {
	return pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
		WithHint("The statement nests expressions, subqueries or joins too deeply for the parser " +
			"(a chain of binary operators counts one level per operator); simplify it or split it.")
}

// checkTreeDepth returns 54001 when a statement of sql may parse to a tree
// deeper than limit levels.
func checkTreeDepth(sql string, limit int) error {
	if EstimateTreeDepth(sql, limit) > limit {
		return errTooDeep()
	}
	return nil
}

// depthFrame is one open group of the estimate: a parenthesis, a bracket
// or a CASE ... END, or the statement itself.
type depthFrame struct {
	kind   byte // '(', '[', 'c' (CASE), 's' (statement)
	called bool // "(" after a name or keyword: a call's arguments or a list
	first  bool // nothing seen inside yet
	sub    bool // a subquery: SELECT, VALUES, WITH or TABLE first inside
	commas bool // a list: a row constructor or arguments
	bools  bool // AND or OR inside (flattened into one node by the parser)
	ops    int  // levels the operators of the current term add
	child  int  // the deepest group closed in the current term
	best   int  // the deepest term finished
	rel    int  // levels of JOIN and set operation chains (never reset)
}

// finishTerm ends the current term (at a comma, AND, OR, a clause keyword).
func (f *depthFrame) finishTerm() {
	if d := f.ops + f.child; d > f.best {
		f.best = d
	}
	f.ops, f.child = 0, 0
}

// depth is the estimated depth of the finished group.
func (f *depthFrame) depth() int {
	f.finishTerm()
	d := f.best + f.rel
	switch f.kind {
	case 's':
		d += 24 // RawStmt, the statement, its clauses, a target, a window
	case 'c':
		d += 4 // CaseExpr, CaseWhen and their Node wrappers
	case '[':
		d += 2
	case '(':
		if f.called || f.commas {
			d += 2
		}
		if f.sub {
			d += 6 // SubLink or RangeSubselect, SelectStmt, ResTarget
		}
	}
	if f.bools {
		d += 4 // an OR of ANDs
	}
	return d
}

// EstimateTreeDepth returns an upper bound of the nesting depth of the
// Parse trees of the statements of sql, or a number above limit as soon as
// one exceeds it. It reads the text as PostgreSQL's lexer would (strings,
// quoted identifiers, dollar quotes, comments) without building tokens.
func EstimateTreeDepth(sql string, limit int) int {
	stack := []depthFrame{{kind: 's', first: true}}
	worst := 0
	prevClose := false // the previous token was ")" or "]"
	prevName := false  // the previous token was a name or a keyword a "(" may follow as a call
	closeTop := func() {
		d := stack[len(stack)-1].depth()
		stack = stack[:len(stack)-1]
		top := &stack[len(stack)-1]
		if d > top.child {
			top.child = d
		}
	}
	endStatement := func() {
		for len(stack) > 1 {
			closeTop()
		}
		if d := stack[0].depth(); d > worst {
			worst = d
		}
		stack[0] = depthFrame{kind: 's', first: true}
	}
	i, n := 0, len(sql)
	for i < n {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '-' && i+1 < n && sql[i+1] == '-':
			for i < n && sql[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < n && sql[i+1] == '*':
			i = skipBlockComment(sql, i)
			continue
		}
		top := &stack[len(stack)-1]
		wasClose := prevClose
		prevClose = false
		word, name := "", false
		switch {
		case c == '\'':
			i = skipQuoted(sql, i, '\'', false)
			name = false
		case c == '"':
			i = skipQuoted(sql, i, '"', false)
			name = true
		case c == '$':
			i = skipDollar(sql, i)
		case isWordStart(c):
			j := i + 1
			for j < n && isWordPart(sql[j]) {
				j++
			}
			if j < n && sql[j] == '\'' && j-i == 1 && (c == 'e' || c == 'E') {
				i = skipQuoted(sql, j, '\'', true)
				break
			}
			if j < n && sql[j] == '\'' && j-i == 1 {
				i = skipQuoted(sql, j, '\'', false) // B'', X'', N''
				break
			}
			word = strings.ToLower(sql[i:j])
			i = j
			name = true
			if top.first && (word == "select" || word == "values" || word == "with" || word == "table") {
				top.sub = true
			}
			switch word {
			case "and", "or":
				top.bools = true
				top.finishTerm()
				name = false
			case "when", "then", "else",
				"select", "from", "where", "having", "on", "using", "set", "returning",
				"group", "order", "limit", "offset", "fetch", "window", "into", "values", "as":
				top.finishTerm()
				name = false
			case "join", "union", "intersect", "except":
				top.rel += 2
				name = false
			case "not", "is", "isnull", "notnull", "like", "ilike", "similar", "between",
				"in", "collate", "at", "overlaps", "operator", "escape":
				top.ops += 2
				name = word == "in" || word == "operator"
			case "case":
				stack = append(stack, depthFrame{kind: 'c', first: true})
				name = false
			case "end":
				if top.kind == 'c' {
					closeTop()
				}
				name = false
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && sql[i+1] >= '0' && sql[i+1] <= '9':
			i++
			for i < n && (isWordPart(sql[i]) || sql[i] == '.' ||
				(sql[i] == '+' || sql[i] == '-') && (sql[i-1] == 'e' || sql[i-1] == 'E')) {
				i++
			}
		case c == '(' || c == '[':
			if len(stack) > 10000 {
				// Nesting beyond the grammar's stack of 10,000: the
				// parser reports "memory exhausted" without going deep.
				return 0
			}
			f := depthFrame{kind: c, first: true}
			if c == '(' {
				f.called = prevName
			} else if prevName {
				top.ops += 2 // a subscript: an A_Indirection over its operand
			}
			top.first = false
			stack = append(stack, f)
			i++
			prevName = false
			continue
		case c == ')' || c == ']':
			if len(stack) > 1 && stack[len(stack)-1].kind != 'c' {
				closeTop()
			} else if len(stack) > 2 && stack[len(stack)-1].kind == 'c' {
				closeTop() // an unclosed CASE: the parser reports it
				closeTop()
			}
			i++
			prevName = true // (x)[1], f(x)::t
			prevClose = true
			continue
		case c == ',':
			top.finishTerm()
			top.commas = true
			i++
		case c == ';':
			endStatement()
			if worst > limit {
				return worst
			}
			i++
			prevName = false
			continue
		case c == ':':
			if i+1 < n && sql[i+1] == ':' {
				top.ops += 2
				i += 2
			} else {
				i++ // a slice bound, or := in named arguments
			}
		case isOpChar(c):
			j := i
			k := 1
			for j < n && isOpChar(sql[j]) {
				if j > i && (sql[j] == '-' && j+1 < n && sql[j+1] == '-' || sql[j] == '/' && j+1 < n && sql[j+1] == '*') {
					break
				}
				if j > i && (sql[j] == '+' || sql[j] == '-') {
					k++ // "+-" lexes as two operators
				}
				j++
			}
			top.ops += 2 * k
			i = j
		case c == '.':
			if wasClose {
				top.ops += 2 // (x).field: an A_Indirection
			}
			i++
		default:
			i++ // bytes PostgreSQL's lexer rejects
		}
		top = &stack[len(stack)-1]
		top.first = false
		prevName = name
		// The current term alone is already too deep (a long chain):
		// stop here rather than scan the rest.
		if top.ops+top.child+top.rel > limit {
			return top.ops + top.child + top.rel
		}
	}
	endStatement()
	return worst
}

func isWordStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isWordPart(c byte) bool {
	return isWordStart(c) || c >= '0' && c <= '9' || c == '$'
}

func isOpChar(c byte) bool {
	return strings.IndexByte("+-*/<>=~!@#%^&|`?", c) >= 0
}

// skipQuoted returns the offset after the quoted token starting at i.
// backslash is set for E” strings.
func skipQuoted(s string, i int, q byte, backslash bool) int {
	for j := i + 1; j < len(s); j++ {
		switch {
		case backslash && s[j] == '\\':
			j++
		case s[j] == q:
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(s)
}

// skipBlockComment returns the offset after the (nested) comment at i.
func skipBlockComment(s string, i int) int {
	depth := 0
	for j := i; j+1 < len(s); j++ {
		switch {
		case s[j] == '/' && s[j+1] == '*':
			depth++
			j++
		case s[j] == '*' && s[j+1] == '/':
			depth--
			j++
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

// skipDollar returns the offset after a dollar-quoted string or a $n
// parameter at i.
func skipDollar(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] >= '0' && s[j] <= '9' {
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j
	}
	for j < len(s) && (isWordStart(s[j]) || s[j] >= '0' && s[j] <= '9') {
		j++
	}
	if j >= len(s) || s[j] != '$' {
		return i + 1
	}
	tag := s[i : j+1]
	if k := strings.Index(s[j+1:], tag); k >= 0 {
		return j + 1 + k + len(tag)
	}
	return len(s)
}
