package wire

import (
	"slices"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
)

// jsonbFromText renders JSON text (a string column typed jsonb, such as a
// variant read as JSON) as jsonb prints it: parsed, keys ordered and
// deduplicated, numbers normalised, whitespace canonical.
func jsonbFromText(dt arrow.DataType) binder {
	get := stringText(dt)
	return func(arr arrow.Array) appendFunc {
		f := get(arr)
		var scratch []byte
		var p jsonParser
		return func(dst []byte, i int) []byte {
			scratch = f(scratch[:0], i)
			out, err := p.canonical(dst, scratch)
			if err != nil {
				// Not JSON: send the text as it is rather than fail the
				// whole result.
				return append(dst, scratch...)
			}
			return out
		}
	}
}

// jsonNode is a parsed JSON value. Strings hold their decoded bytes.
type jsonNode struct {
	kind     byte // 'o' object, 'a' array, 's' string, 'n' number, 'l' literal
	text     []byte
	keys     [][]byte
	children []*jsonNode
}

type jsonParser struct {
	src []byte
	pos int
}

func errJSON() error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type json")
}

// canonical appends the jsonb text of src to dst.
func (p *jsonParser) canonical(dst, src []byte) ([]byte, error) {
	p.src, p.pos = src, 0
	n, err := p.value(0)
	if err != nil {
		return dst, err
	}
	p.space()
	if p.pos != len(p.src) {
		return dst, errJSON()
	}
	return appendJSONNode(dst, n), nil
}

func (p *jsonParser) space() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (*jsonNode, error) {
	if depth > 1000 {
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "stack depth limit exceeded")
	}
	p.space()
	if p.pos >= len(p.src) {
		return nil, errJSON()
	}
	switch ch := p.src[p.pos]; {
	case ch == '{':
		p.pos++
		n := &jsonNode{kind: 'o'}
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			return n, nil
		}
		for {
			p.space()
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.pos >= len(p.src) || p.src[p.pos] != ':' {
				return nil, errJSON()
			}
			p.pos++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, key)
			n.children = append(n.children, v)
			p.space()
			if p.pos < len(p.src) && p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.src) && p.src[p.pos] == '}' {
				p.pos++
				sortObject(n)
				return n, nil
			}
			return nil, errJSON()
		}
	case ch == '[':
		p.pos++
		n := &jsonNode{kind: 'a'}
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			p.pos++
			return n, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, v)
			p.space()
			if p.pos < len(p.src) && p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.src) && p.src[p.pos] == ']' {
				p.pos++
				return n, nil
			}
			return nil, errJSON()
		}
	case ch == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jsonNode{kind: 's', text: s}, nil
	case ch == '-' || (ch >= '0' && ch <= '9'):
		start := p.pos
		if ch == '-' {
			p.pos++
		}
		digits := p.digits()
		if digits == 0 || (p.src[start] == '-' && digits > 1 && p.src[start+1] == '0') || (p.src[start] == '0' && digits > 1) {
			return nil, errJSON()
		}
		if p.pos < len(p.src) && p.src[p.pos] == '.' {
			p.pos++
			if p.digits() == 0 {
				return nil, errJSON()
			}
		}
		if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
			p.pos++
			if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
				p.pos++
			}
			if p.digits() == 0 {
				return nil, errJSON()
			}
		}
		return &jsonNode{kind: 'n', text: appendNumericFromText(nil, p.src[start:p.pos])}, nil
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(p.src)-p.pos >= len(lit) && string(p.src[p.pos:p.pos+len(lit)]) == lit {
				p.pos += len(lit)
				return &jsonNode{kind: 'l', text: []byte(lit)}, nil
			}
		}
	}
	return nil, errJSON()
}

func (p *jsonParser) digits() int {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	return p.pos - start
}

// str reads a JSON string and returns its decoded bytes.
func (p *jsonParser) str() ([]byte, error) {
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return nil, errJSON()
	}
	p.pos++
	var out []byte
	for p.pos < len(p.src) {
		ch := p.src[p.pos]
		switch {
		case ch == '"':
			p.pos++
			return out, nil
		case ch < 0x20:
			return nil, errJSON()
		case ch != '\\':
			out = append(out, ch)
			p.pos++
			continue
		}
		if p.pos+1 >= len(p.src) {
			return nil, errJSON()
		}
		esc := p.src[p.pos+1]
		p.pos += 2
		switch esc {
		case '"', '\\', '/':
			out = append(out, esc)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok || r == 0 {
				return nil, errJSON()
			}
			if utf16.IsSurrogate(r) {
				if p.pos+1 < len(p.src) && p.src[p.pos] == '\\' && p.src[p.pos+1] == 'u' {
					p.pos += 2
					r2, ok := p.hex4()
					if !ok {
						return nil, errJSON()
					}
					r = utf16.DecodeRune(r, r2)
				}
				if r == utf8.RuneError {
					return nil, errJSON()
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, errJSON()
		}
	}
	return nil, errJSON()
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	var r rune
	for _, ch := range p.src[p.pos : p.pos+4] {
		r <<= 4
		switch {
		case ch >= '0' && ch <= '9':
			r |= rune(ch - '0')
		case ch >= 'a' && ch <= 'f':
			r |= rune(ch - 'a' + 10)
		case ch >= 'A' && ch <= 'F':
			r |= rune(ch - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.pos += 4
	return r, true
}

// sortObject orders keys as jsonb does and keeps the last of duplicates.
func sortObject(n *jsonNode) {
	idx := make([]int, len(n.keys))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(a, b int) int { return jsonKeyLess(n.keys[a], n.keys[b]) })
	keys := make([][]byte, 0, len(idx))
	children := make([]*jsonNode, 0, len(idx))
	for k, i := range idx {
		if k+1 < len(idx) && string(n.keys[idx[k+1]]) == string(n.keys[i]) {
			continue
		}
		keys = append(keys, n.keys[i])
		children = append(children, n.children[i])
	}
	n.keys, n.children = keys, children
}

func appendJSONNode(dst []byte, n *jsonNode) []byte {
	switch n.kind {
	case 'o':
		dst = append(dst, '{')
		for k, key := range n.keys {
			if k > 0 {
				dst = append(dst, ',', ' ')
			}
			dst = appendJSONString(dst, key)
			dst = append(dst, ':', ' ')
			dst = appendJSONNode(dst, n.children[k])
		}
		return append(dst, '}')
	case 'a':
		dst = append(dst, '[')
		for k, c := range n.children {
			if k > 0 {
				dst = append(dst, ',', ' ')
			}
			dst = appendJSONNode(dst, c)
		}
		return append(dst, ']')
	case 's':
		return appendJSONString(dst, n.text)
	}
	return append(dst, n.text...)
}
