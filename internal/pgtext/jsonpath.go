package pgtext

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// JSONPath is a compiled SQL/JSON path (jsonb_path_query's second
// argument) of the common forms: lax or strict mode, $, member accessors
// (.key, ."key", .*), array accessors ([*], [n], [n to m], last), the
// item methods .size() and .type(), filters ? (...) with comparisons
// (== != <> < <= > >=) of @ or $ paths and literals, && || ! and
// exists (...), and a predicate as the whole path (jsonb_path_match).
// Other features (arithmetic, like_regex, starts with, other
// item methods) are 0A000 naming the feature. Variables ($name) take
// their values from a vars object (QueryVars).
type JSONPath struct {
	strict bool
	root   *jpNode
}

type jpKind int

const (
	jpPath   jpKind = iota // start ($ or @) and steps
	jpLit                  // a literal
	jpCmp                  // comparison
	jpAnd                  // &&
	jpOr                   // ||
	jpNot                  // !
	jpExists               // exists (path)
)

type jpStep struct {
	kind     byte   // '.' key, '*' any member, '[' subscripts, 'w' [*], '?' filter, 'm' method
	key      string // member key or method name
	subs     [][2]jpIndex
	filter   *jpNode
	position int
}

// jpIndex is an array subscript: n, or last - n.
type jpIndex struct {
	n    int64
	last bool
}

type jpNode struct {
	kind    jpKind
	start   byte   // '$', '@' or 'v' (a variable)
	varName string // the variable of start 'v'
	steps   []jpStep
	lit     *JSON
	op      string
	args    []*jpNode
}

func jpSyntax(src string, at int) error {
	if at >= len(src) {
		return pgerr.New(pgerr.SyntaxError, "syntax error at end of jsonpath input")
	}
	tok := src[at:]
	if i := strings.IndexAny(tok, " \t\n()[]"); i > 0 {
		tok = tok[:i]
	} else if i == 0 {
		tok = tok[:1]
	}
	return pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\" of jsonpath input", tok)
}

// CompileJSONPath reads a jsonpath.
func CompileJSONPath(src string) (*JSONPath, error) {
	p := &jpParser{src: src}
	jp := &JSONPath{}
	p.space()
	if p.word("strict") {
		jp.strict = true
	} else {
		p.word("lax")
	}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(src) {
		return nil, jpSyntax(src, p.pos)
	}
	jp.root = n
	return jp, nil
}

type jpParser struct {
	src string
	pos int
}

func (p *jpParser) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\n\r", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *jpParser) peek(s string) bool {
	p.space()
	return strings.HasPrefix(p.src[p.pos:], s)
}

func (p *jpParser) eat(s string) bool {
	if p.peek(s) {
		p.pos += len(s)
		return true
	}
	return false
}

// word eats keyword w when it is a whole word.
func (p *jpParser) word(w string) bool {
	p.space()
	rest := p.src[p.pos:]
	if !strings.HasPrefix(rest, w) || len(rest) > len(w) && isJPIdent(rest[len(w)]) {
		return false
	}
	p.pos += len(w)
	return true
}

func isJPIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (p *jpParser) expr() (*jpNode, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.eat("||") {
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = &jpNode{kind: jpOr, args: []*jpNode{l, r}}
	}
	return l, nil
}

func (p *jpParser) and() (*jpNode, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.eat("&&") {
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = &jpNode{kind: jpAnd, args: []*jpNode{l, r}}
	}
	return l, nil
}

func (p *jpParser) unary() (*jpNode, error) {
	if p.peek("!") && !p.peek("!=") {
		p.eat("!")
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &jpNode{kind: jpNot, args: []*jpNode{n}}, nil
	}
	if p.word("exists") {
		if !p.eat("(") {
			return nil, jpSyntax(p.src, p.pos)
		}
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		if !p.eat(")") {
			return nil, jpSyntax(p.src, p.pos)
		}
		return &jpNode{kind: jpExists, args: []*jpNode{n}}, nil
	}
	l, err := p.operand()
	if err != nil {
		return nil, err
	}
	for _, op := range []string{"==", "!=", "<>", "<=", ">=", "<", ">"} {
		if p.eat(op) {
			r, err := p.operand()
			if err != nil {
				return nil, err
			}
			if op == "<>" {
				op = "!="
			}
			return &jpNode{kind: jpCmp, op: op, args: []*jpNode{l, r}}, nil
		}
	}
	p.space()
	for _, f := range []string{"like_regex", "starts with", "is unknown"} {
		if p.peek(f) {
			return nil, pgerr.NotYet("jsonpath " + f)
		}
	}
	if p.pos < len(p.src) && strings.IndexByte("+-*/%", p.src[p.pos]) >= 0 {
		p.pos++
		if p.space(); p.pos >= len(p.src) {
			return nil, jpSyntax(p.src, p.pos)
		}
		return nil, pgerr.NotYet("jsonpath arithmetic")
	}
	return l, nil
}

func (p *jpParser) operand() (*jpNode, error) {
	p.space()
	if p.pos >= len(p.src) {
		return nil, jpSyntax(p.src, p.pos)
	}
	switch c := p.src[p.pos]; {
	case c == '(':
		p.pos++
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		if !p.eat(")") {
			return nil, jpSyntax(p.src, p.pos)
		}
		return n, p.moreSteps(n)
	case c == '$' || c == '@':
		p.pos++
		n := &jpNode{kind: jpPath, start: c}
		if c == '$' && p.pos < len(p.src) && (isJPIdent(p.src[p.pos]) || p.src[p.pos] == '"') {
			// $name: a variable of the vars argument.
			n.start = 'v'
			if p.src[p.pos] == '"' {
				s, err := p.str()
				if err != nil {
					return nil, err
				}
				n.varName = s
			} else {
				start := p.pos
				for p.pos < len(p.src) && isJPIdent(p.src[p.pos]) {
					p.pos++
				}
				n.varName = p.src[start:p.pos]
			}
		}
		return n, p.moreSteps(n)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jpNode{kind: jpLit, lit: &JSON{Kind: JSONString, Text: []byte(s)}}, nil
	case c == '-' || c >= '0' && c <= '9':
		start := p.pos
		p.pos++
		for p.pos < len(p.src) && strings.IndexByte("0123456789.eE+-", p.src[p.pos]) >= 0 {
			if (p.src[p.pos] == '+' || p.src[p.pos] == '-') && p.src[p.pos-1] != 'e' && p.src[p.pos-1] != 'E' {
				break
			}
			p.pos++
		}
		txt := p.src[start:p.pos]
		if _, ok := new(big.Rat).SetString(txt); !ok {
			return nil, jpSyntax(p.src, start)
		}
		return &jpNode{kind: jpLit, lit: &JSON{Kind: JSONNumber, Text: []byte(txt)}}, nil
	}
	for _, w := range []struct {
		w string
		v *JSON
	}{{"true", JSONBool(true)}, {"false", JSONBool(false)}, {"null", JSONNullValue()}} {
		if p.word(w.w) {
			return &jpNode{kind: jpLit, lit: w.v}, nil
		}
	}
	return nil, jpSyntax(p.src, p.pos)
}

// str reads a double-quoted string.
func (p *jpParser) str() (string, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.src) && p.src[p.pos] != '"' {
		if p.src[p.pos] == '\\' {
			p.pos++
		}
		p.pos++
	}
	if p.pos >= len(p.src) {
		return "", jpSyntax(p.src, start)
	}
	p.pos++
	v, err := ParseJSONB([]byte(p.src[start:p.pos]))
	if err != nil || v.Kind != JSONString {
		return "", jpSyntax(p.src, start)
	}
	return string(v.Text), nil
}

// moreSteps reads the accessors after a path's start.
func (p *jpParser) moreSteps(n *jpNode) error {
	for {
		p.space()
		if p.pos >= len(p.src) {
			return nil
		}
		at := p.pos
		switch p.src[p.pos] {
		case '.':
			p.pos++
			switch {
			case p.pos < len(p.src) && p.src[p.pos] == '*':
				p.pos++
				if p.pos < len(p.src) && p.src[p.pos] == '*' {
					return pgerr.NotYet("jsonpath .** accessor")
				}
				n.steps = append(n.steps, jpStep{kind: '*', position: at})
			case p.pos < len(p.src) && p.src[p.pos] == '"':
				s, err := p.str()
				if err != nil {
					return err
				}
				n.steps = append(n.steps, jpStep{kind: '.', key: s, position: at})
			default:
				start := p.pos
				for p.pos < len(p.src) && isJPIdent(p.src[p.pos]) {
					p.pos++
				}
				if start == p.pos {
					return jpSyntax(p.src, start)
				}
				key := p.src[start:p.pos]
				if p.eat("(") {
					if !p.eat(")") {
						return jpSyntax(p.src, p.pos)
					}
					if key != "size" && key != "type" {
						return pgerr.NotYet("jsonpath item method ." + key + "()")
					}
					n.steps = append(n.steps, jpStep{kind: 'm', key: key, position: at})
					continue
				}
				n.steps = append(n.steps, jpStep{kind: '.', key: key, position: at})
			}
		case '[':
			p.pos++
			if p.eat("*") {
				if !p.eat("]") {
					return jpSyntax(p.src, p.pos)
				}
				n.steps = append(n.steps, jpStep{kind: 'w', position: at})
				continue
			}
			st := jpStep{kind: '[', position: at}
			for {
				lo, err := p.index()
				if err != nil {
					return err
				}
				hi := lo
				if p.word("to") {
					if hi, err = p.index(); err != nil {
						return err
					}
				}
				st.subs = append(st.subs, [2]jpIndex{lo, hi})
				if p.eat("]") {
					break
				}
				if !p.eat(",") {
					return jpSyntax(p.src, p.pos)
				}
			}
			n.steps = append(n.steps, st)
		case '?':
			p.pos++
			if !p.eat("(") {
				return jpSyntax(p.src, p.pos)
			}
			f, err := p.expr()
			if err != nil {
				return err
			}
			if !p.eat(")") {
				return jpSyntax(p.src, p.pos)
			}
			n.steps = append(n.steps, jpStep{kind: '?', filter: f, position: at})
		default:
			return nil
		}
	}
}

func (p *jpParser) index() (jpIndex, error) {
	if p.word("last") {
		var ix jpIndex
		ix.last = true
		if p.eat("-") {
			v, err := p.integer()
			if err != nil {
				return ix, err
			}
			ix.n = v
		}
		return ix, nil
	}
	v, err := p.integer()
	return jpIndex{n: v}, err
}

func (p *jpParser) integer() (int64, error) {
	p.space()
	start := p.pos
	if p.pos < len(p.src) && p.src[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	v, err := strconv.ParseInt(p.src[start:p.pos], 10, 64)
	if err != nil {
		if strings.IndexByte("+-*/%", p.src[min(p.pos, len(p.src)-1)]) >= 0 {
			return 0, pgerr.NotYet("jsonpath arithmetic")
		}
		return 0, jpSyntax(p.src, start)
	}
	return v, nil
}

// jpTruth is a predicate's value: true, false or unknown.
type jpTruth int8

const (
	jpFalse jpTruth = iota
	jpTrue
	jpUnknown
)

// Query evaluates the path over v: the items it selects (a predicate path
// selects its boolean, or null when unknown).
func (jp *JSONPath) Query(v *JSON) ([]*JSON, error) {
	return jp.QueryVars(v, nil)
}

// QueryVars is Query with the values of the path's variables ($name):
// the members of object vars (nil: none).
func (jp *JSONPath) QueryVars(v, vars *JSON) ([]*JSON, error) {
	if vars != nil && vars.Kind != JSONObject {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "\"vars\" argument is not an object").
			WithDetail("Jsonpath parameters should be encoded as key-value pairs of \"vars\" object.")
	}
	e := &jpEval{strict: jp.strict, root: v, vars: vars}
	return e.items(jp.root, v)
}

// SilentJSONPathError reports whether err is one the silent argument of
// jsonb_path_query and the @? and @@ operators suppress: the SQL/JSON
// data errors (a missing member or element, a wrong item type), not a
// missing variable.
func SilentJSONPathError(err error) bool {
	pe := pgerr.As(err)
	return pe != nil && strings.HasPrefix(pe.Code, "22")
}

type jpEval struct {
	strict bool
	root   *JSON
	vars   *JSON
}

func (e *jpEval) items(n *jpNode, cur *JSON) ([]*JSON, error) {
	switch n.kind {
	case jpLit:
		return []*JSON{n.lit}, nil
	case jpPath:
		start := e.root
		switch n.start {
		case '@':
			start = cur
		case 'v':
			if e.vars != nil {
				start = e.vars.Field([]byte(n.varName))
			} else {
				start = nil
			}
			if start == nil {
				return nil, pgerr.New(pgerr.UndefinedObject, "could not find jsonpath variable \"%s\"", n.varName)
			}
		}
		return e.steps([]*JSON{start}, n.steps, cur)
	}
	t, err := e.pred(n, cur)
	if err != nil {
		return nil, err
	}
	switch t {
	case jpTrue:
		return []*JSON{JSONBool(true)}, nil
	case jpFalse:
		return []*JSON{JSONBool(false)}, nil
	}
	return []*JSON{JSONNullValue()}, nil
}

func (e *jpEval) steps(in []*JSON, steps []jpStep, cur *JSON) ([]*JSON, error) {
	for _, st := range steps {
		var out []*JSON
		for _, v := range in {
			got, err := e.step(v, st, true)
			if err != nil {
				return nil, err
			}
			out = append(out, got...)
		}
		in = out
	}
	return in, nil
}

// step applies one accessor to v; unwrap: a lax member accessor or
// filter may unwrap an array.
func (e *jpEval) step(v *JSON, st jpStep, unwrap bool) ([]*JSON, error) {
	switch st.kind {
	case '.', '*':
		if v.Kind == JSONArray && !e.strict && unwrap {
			var out []*JSON
			for _, el := range v.Elems {
				got, err := e.step(el, st, false)
				if err != nil {
					return nil, err
				}
				out = append(out, got...)
			}
			return out, nil
		}
		if v.Kind != JSONObject {
			if !e.strict {
				return nil, nil
			}
			if st.kind == '*' {
				return nil, pgerr.New(pgerr.SQLJSONObjectNotFound, "jsonpath wildcard member accessor can only be applied to an object")
			}
			return nil, pgerr.New(pgerr.SQLJSONMemberNotFound, "jsonpath member accessor can only be applied to an object")
		}
		if st.kind == '*' {
			return append([]*JSON(nil), v.Elems...), nil
		}
		if f := v.Field([]byte(st.key)); f != nil {
			return []*JSON{f}, nil
		}
		if e.strict {
			return nil, pgerr.New(pgerr.SQLJSONMemberNotFound, "JSON object does not contain key \"%s\"", st.key)
		}
		return nil, nil
	case 'w':
		if v.Kind != JSONArray {
			if e.strict {
				return nil, pgerr.New(pgerr.SQLJSONArrayNotFound, "jsonpath wildcard array accessor can only be applied to an array")
			}
			return []*JSON{v}, nil
		}
		return append([]*JSON(nil), v.Elems...), nil
	case '[':
		elems := []*JSON{v}
		if v.Kind == JSONArray {
			elems = v.Elems
		} else if e.strict {
			return nil, pgerr.New(pgerr.SQLJSONArrayNotFound, "jsonpath array accessor can only be applied to an array")
		}
		var out []*JSON
		at := func(ix jpIndex) int64 {
			if ix.last {
				return int64(len(elems)) - 1 - ix.n
			}
			return ix.n
		}
		for _, s := range st.subs {
			lo, hi := at(s[0]), at(s[1])
			if lo < 0 || hi >= int64(len(elems)) || lo > hi {
				if e.strict {
					return nil, pgerr.New(pgerr.InvalidSQLJSONSubscript, "jsonpath array subscript is out of bounds")
				}
				lo, hi = max(lo, 0), min(hi, int64(len(elems))-1)
			}
			for k := lo; k <= hi; k++ {
				out = append(out, elems[k])
			}
		}
		return out, nil
	case '?':
		if v.Kind == JSONArray && !e.strict && unwrap {
			var out []*JSON
			for _, el := range v.Elems {
				got, err := e.step(el, st, false)
				if err != nil {
					return nil, err
				}
				out = append(out, got...)
			}
			return out, nil
		}
		t, err := e.pred(st.filter, v)
		if err != nil || t != jpTrue {
			return nil, err
		}
		return []*JSON{v}, nil
	case 'm':
		if st.key == "type" {
			return []*JSON{{Kind: JSONString, Text: []byte(v.TypeName())}}, nil
		}
		if v.Kind != JSONArray {
			if e.strict {
				return nil, pgerr.New(pgerr.SQLJSONArrayNotFound, "jsonpath item method .size() can only be applied to an array")
			}
			return []*JSON{{Kind: JSONNumber, Text: []byte("1")}}, nil
		}
		return []*JSON{{Kind: JSONNumber, Text: []byte(strconv.Itoa(len(v.Elems)))}}, nil
	}
	return nil, nil
}

// pred evaluates a predicate with @ = cur. Errors inside a predicate
// make it unknown, as PostgreSQL's do.
func (e *jpEval) pred(n *jpNode, cur *JSON) (jpTruth, error) {
	switch n.kind {
	case jpAnd, jpOr:
		l, err := e.pred(n.args[0], cur)
		if err != nil {
			return 0, err
		}
		r, err := e.pred(n.args[1], cur)
		if err != nil {
			return 0, err
		}
		if n.kind == jpAnd {
			switch {
			case l == jpFalse || r == jpFalse:
				return jpFalse, nil
			case l == jpUnknown || r == jpUnknown:
				return jpUnknown, nil
			}
			return jpTrue, nil
		}
		switch {
		case l == jpTrue || r == jpTrue:
			return jpTrue, nil
		case l == jpUnknown || r == jpUnknown:
			return jpUnknown, nil
		}
		return jpFalse, nil
	case jpNot:
		t, err := e.pred(n.args[0], cur)
		if err != nil || t == jpUnknown {
			return t, err
		}
		return 1 - t, nil
	case jpExists:
		got, err := e.items(n.args[0], cur)
		if err != nil {
			if !SilentJSONPathError(err) {
				return 0, err
			}
			return jpUnknown, nil
		}
		if len(got) > 0 {
			return jpTrue, nil
		}
		return jpFalse, nil
	case jpCmp:
		ls, err := e.operandItems(n.args[0], cur)
		if err != nil {
			return jpUnknown, err
		}
		rs, err := e.operandItems(n.args[1], cur)
		if err != nil {
			return jpUnknown, err
		}
		if ls == nil || rs == nil {
			return jpUnknown, nil // an error in an operand
		}
		found, unknown := false, false
		for _, l := range ls {
			for _, r := range rs {
				switch jpCompare(n.op, l, r) {
				case jpTrue:
					found = true
				case jpUnknown:
					unknown = true
				}
			}
		}
		switch {
		case found:
			return jpTrue, nil
		case unknown:
			return jpUnknown, nil
		}
		return jpFalse, nil
	}
	// A path or literal as a predicate: its boolean value.
	got, err := e.items(n, cur)
	if err != nil {
		return jpUnknown, err
	}
	if len(got) == 1 && (got[0].Kind == JSONTrue || got[0].Kind == JSONFalse) {
		if got[0].Kind == JSONTrue {
			return jpTrue, nil
		}
		return jpFalse, nil
	}
	return jpUnknown, nil
}

// operandItems are a comparison operand's items, arrays unwrapped in lax
// mode; nil (not empty) after an error, which makes the comparison
// unknown.
func (e *jpEval) operandItems(n *jpNode, cur *JSON) ([]*JSON, error) {
	got, err := e.items(n, cur)
	if err != nil {
		if !SilentJSONPathError(err) {
			return nil, err
		}
		return nil, nil
	}
	if e.strict {
		if got == nil {
			got = []*JSON{}
		}
		return got, nil
	}
	out := []*JSON{}
	for _, v := range got {
		if v.Kind == JSONArray {
			out = append(out, v.Elems...)
		} else {
			out = append(out, v)
		}
	}
	return out, nil
}

func jpCompare(op string, l, r *JSON) jpTruth {
	var c int
	switch {
	case l.Kind == JSONNull || r.Kind == JSONNull:
		if l.Kind != r.Kind {
			if op == "!=" {
				return jpTrue
			}
			if op == "==" {
				return jpFalse
			}
			return jpUnknown
		}
		c = 0
	case l.Kind == JSONNumber && r.Kind == JSONNumber:
		a, ok1 := new(big.Rat).SetString(string(l.Text))
		b, ok2 := new(big.Rat).SetString(string(r.Text))
		if !ok1 || !ok2 {
			return jpUnknown
		}
		c = a.Cmp(b)
	case l.Kind == JSONString && r.Kind == JSONString:
		c = strings.Compare(string(l.Text), string(r.Text))
	case (l.Kind == JSONTrue || l.Kind == JSONFalse) && (r.Kind == JSONTrue || r.Kind == JSONFalse):
		c = int(l.Kind) - int(r.Kind)
		if c != 0 {
			// false < true
			if l.Kind == JSONFalse {
				c = -1
			} else {
				c = 1
			}
		}
	default:
		return jpUnknown
	}
	var ok bool
	switch op {
	case "==":
		ok = c == 0
	case "!=":
		ok = c != 0
	case "<":
		ok = c < 0
	case "<=":
		ok = c <= 0
	case ">":
		ok = c > 0
	case ">=":
		ok = c >= 0
	}
	if ok {
		return jpTrue
	}
	return jpFalse
}
