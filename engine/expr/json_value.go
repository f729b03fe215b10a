package expr

import (
	"cmp"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/icegate/icegate/internal/pgerr"
)

// jsonVal is a JSON value as jsonb holds it: object keys ordered (shorter
// first, then bytewise) without duplicates (the last wins), numbers in
// numeric's text, strings decoded.
type jsonVal struct {
	kind  byte // 'o' object, 'a' array, 's' string, 'n' number, 't' true, 'f' false, 'z' null
	text  []byte
	keys  [][]byte
	elems []*jsonVal
}

var (
	jsonNull  = &jsonVal{kind: 'z'}
	jsonTrue  = &jsonVal{kind: 't'}
	jsonFalse = &jsonVal{kind: 'f'}
)

// typeName is jsonb_typeof's answer.
func (v *jsonVal) typeName() string {
	switch v.kind {
	case 'o':
		return "object"
	case 'a':
		return "array"
	case 's':
		return "string"
	case 'n':
		return "number"
	case 't', 'f':
		return "boolean"
	}
	return "null"
}

// field is the value of key in an object (nil when absent or v is not an
// object).
func (v *jsonVal) field(key []byte) *jsonVal {
	if v.kind != 'o' {
		return nil
	}
	k, ok := slices.BinarySearchFunc(v.keys, key, jsonKeyOrder)
	if !ok {
		return nil
	}
	return v.elems[k]
}

// index is element k of an array, negative k counting from the end (nil
// when out of range or v is not an array).
func (v *jsonVal) index(k int64) *jsonVal {
	if v.kind != 'a' {
		return nil
	}
	if k < 0 {
		k += int64(len(v.elems))
	}
	if k < 0 || k >= int64(len(v.elems)) {
		return nil
	}
	return v.elems[k]
}

// jsonKeyOrder is jsonb's key order: shorter keys first, then bytewise.
func jsonKeyOrder(a, b []byte) int {
	if len(a) != len(b) {
		return cmp.Compare(len(a), len(b))
	}
	return slices.Compare(a, b)
}

// newObject orders keys as jsonb does, keeping the last of duplicates.
func newObject(keys [][]byte, vals []*jsonVal) *jsonVal {
	idx := make([]int, len(keys))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(a, b int) int { return jsonKeyOrder(keys[a], keys[b]) })
	o := &jsonVal{kind: 'o', keys: make([][]byte, 0, len(idx)), elems: make([]*jsonVal, 0, len(idx))}
	for k, i := range idx {
		if k+1 < len(idx) && string(keys[idx[k+1]]) == string(keys[i]) {
			continue
		}
		o.keys = append(o.keys, keys[i])
		o.elems = append(o.elems, vals[i])
	}
	return o
}

// appendJSON appends jsonb's text of v: {"k": v, ...}, [a, b].
func appendJSON(dst []byte, v *jsonVal) []byte {
	switch v.kind {
	case 'o':
		dst = append(dst, '{')
		for k, key := range v.keys {
			if k > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendJSONQuoted(dst, key)
			dst = append(dst, ": "...)
			dst = appendJSON(dst, v.elems[k])
		}
		return append(dst, '}')
	case 'a':
		dst = append(dst, '[')
		for k, e := range v.elems {
			if k > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendJSON(dst, e)
		}
		return append(dst, ']')
	case 's':
		return appendJSONQuoted(dst, v.text)
	case 'n':
		return append(dst, v.text...)
	case 't':
		return append(dst, "true"...)
	case 'f':
		return append(dst, "false"...)
	}
	return append(dst, "null"...)
}

// appendJSONText appends the text form ->> gives: a string unquoted, any
// other value as JSON. ok is false for JSON null (SQL NULL).
func appendJSONText(dst []byte, v *jsonVal) ([]byte, bool) {
	switch v.kind {
	case 's':
		return append(dst, v.text...), true
	case 'z':
		return dst, false
	}
	return appendJSON(dst, v), true
}

// appendJSONQuoted quotes s as PostgreSQL's escape_json does.
func appendJSONQuoted(dst, s []byte) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	for _, ch := range s {
		switch ch {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			if ch < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[ch>>4], hexDigits[ch&0xf])
			} else {
				dst = append(dst, ch)
			}
		}
	}
	return append(dst, '"')
}

// appendNumberText appends numeric's text of a JSON number or a float's
// shortest digits ([-]int[.frac][e[+-]exp]): no exponent, display scale
// max(0, fraction digits - exponent), negative zero as 0.
func appendNumberText(dst, txt []byte) []byte {
	neg := false
	if len(txt) > 0 && (txt[0] == '-' || txt[0] == '+') {
		neg = txt[0] == '-'
		txt = txt[1:]
	}
	k := 0
	for k < len(txt) && txt[k] >= '0' && txt[k] <= '9' {
		k++
	}
	ip := txt[:k]
	var fp []byte
	if k < len(txt) && txt[k] == '.' {
		s := k + 1
		for k = s; k < len(txt) && txt[k] >= '0' && txt[k] <= '9'; k++ {
		}
		fp = txt[s:k]
	}
	exp := 0
	if k < len(txt) && (txt[k] == 'e' || txt[k] == 'E') {
		exp, _ = strconv.Atoi(string(txt[k+1:]))
	}
	digits := append(append([]byte(nil), ip...), fp...)
	point := len(ip) + exp // digits before the decimal point
	scale := max(0, len(fp)-exp)
	at := func(p int) byte {
		if p < 0 || p >= len(digits) {
			return '0'
		}
		return digits[p]
	}
	zero := true
	for _, d := range digits {
		if d != '0' {
			zero = false
		}
	}
	if neg && !zero {
		dst = append(dst, '-')
	}
	started := false
	for p := 0; p < point; p++ {
		if d := at(p); d != '0' || started {
			started = true
			dst = append(dst, d)
		}
	}
	if !started {
		dst = append(dst, '0')
	}
	if scale > 0 {
		dst = append(dst, '.')
		for p := point; p < point+scale; p++ {
			dst = append(dst, at(p))
		}
	}
	return dst
}

func errJSONInput() error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type json")
}

// parseJSON reads JSON text into a jsonVal.
func parseJSON(src []byte) (*jsonVal, error) {
	p := jsonReader{src: src}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(src) {
		return nil, errJSONInput()
	}
	return v, nil
}

type jsonReader struct {
	src []byte
	pos int
}

func (p *jsonReader) space() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonReader) peek(ch byte) bool {
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == ch {
		p.pos++
		return true
	}
	return false
}

func (p *jsonReader) value(depth int) (*jsonVal, error) {
	if depth > 6400 {
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "stack depth limit exceeded")
	}
	p.space()
	if p.pos >= len(p.src) {
		return nil, errJSONInput()
	}
	switch ch := p.src[p.pos]; {
	case ch == '{':
		p.pos++
		var keys [][]byte
		var vals []*jsonVal
		if p.peek('}') {
			return &jsonVal{kind: 'o'}, nil
		}
		for {
			p.space()
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			if !p.peek(':') {
				return nil, errJSONInput()
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			keys, vals = append(keys, key), append(vals, v)
			if p.peek(',') {
				continue
			}
			if p.peek('}') {
				return newObject(keys, vals), nil
			}
			return nil, errJSONInput()
		}
	case ch == '[':
		p.pos++
		a := &jsonVal{kind: 'a'}
		if p.peek(']') {
			return a, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a.elems = append(a.elems, v)
			if p.peek(',') {
				continue
			}
			if p.peek(']') {
				return a, nil
			}
			return nil, errJSONInput()
		}
	case ch == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jsonVal{kind: 's', text: s}, nil
	case ch == '-' || (ch >= '0' && ch <= '9'):
		return p.number()
	}
	for _, lit := range [...]struct {
		s string
		v *jsonVal
	}{{"true", jsonTrue}, {"false", jsonFalse}, {"null", jsonNull}} {
		end := p.pos + len(lit.s)
		if end <= len(p.src) && string(p.src[p.pos:end]) == lit.s && (end == len(p.src) || !isJSONWordByte(p.src[end])) {
			p.pos = end
			return lit.v, nil
		}
	}
	return nil, errJSONInput()
}

func isJSONWordByte(ch byte) bool {
	return ch == '_' || (ch >= '0' && ch <= '9') || (ch|0x20 >= 'a' && ch|0x20 <= 'z') || ch >= 0x80
}

func (p *jsonReader) digits() int {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	return p.pos - start
}

func (p *jsonReader) number() (*jsonVal, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	first := p.pos
	nd := p.digits()
	if nd == 0 || (nd > 1 && p.src[first] == '0') {
		return nil, errJSONInput()
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			return nil, errJSONInput()
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			return nil, errJSONInput()
		}
	}
	if p.pos < len(p.src) && isJSONWordByte(p.src[p.pos]) {
		return nil, errJSONInput()
	}
	return &jsonVal{kind: 'n', text: appendNumberText(nil, p.src[start:p.pos])}, nil
}

// str reads a JSON string and returns its decoded bytes.
func (p *jsonReader) str() ([]byte, error) {
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return nil, errJSONInput()
	}
	p.pos++
	var out []byte
	for p.pos < len(p.src) {
		ch := p.src[p.pos]
		switch {
		case ch == '"':
			p.pos++
			if out == nil {
				out = []byte{}
			}
			return out, nil
		case ch < 0x20:
			return nil, errJSONInput()
		case ch != '\\':
			out = append(out, ch)
			p.pos++
			continue
		}
		if p.pos+1 >= len(p.src) {
			return nil, errJSONInput()
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
			if !ok {
				return nil, errJSONInput()
			}
			if r == 0 {
				return nil, pgerr.New("22P05", "unsupported Unicode escape sequence").
					WithDetail(`\u0000 cannot be converted to text.`)
			}
			if utf16.IsSurrogate(r) {
				var r2 rune = -1
				if p.pos+1 < len(p.src) && p.src[p.pos] == '\\' && p.src[p.pos+1] == 'u' {
					p.pos += 2
					if r2, ok = p.hex4(); !ok {
						return nil, errJSONInput()
					}
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					return nil, errJSONInput()
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, errJSONInput()
		}
	}
	return nil, errJSONInput()
}

func (p *jsonReader) hex4() (rune, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.src[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(v), true
}
