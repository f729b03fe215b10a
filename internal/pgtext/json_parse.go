package pgtext

import (
	"unicode/utf8"

	"github.com/icegate/icegate/internal/pgerr"
)

// The JSON reader follows PostgreSQL 15's (src/common/jsonapi.c): the
// same tokens, the same order of checks, and the same error for each bad
// input, detail included. jsonb input decodes strings (rejecting \u0000
// and unpaired surrogates) and reads numbers as numeric; json input only
// checks the syntax and keeps the text as written.

// maxJSONDepth bounds nesting. PostgreSQL's limit is its stack
// (max_stack_depth 2MB): about 13,000 nested objects and 14,500 arrays.
const maxJSONDepth = 12000

type jsonToken byte

const (
	tokEnd jsonToken = iota
	tokObjectStart
	tokObjectEnd
	tokArrayStart
	tokArrayEnd
	tokComma
	tokColon
	tokString
	tokNumber
	tokTrue
	tokFalse
	tokNull
)

// JSONParser reads JSON text. Its zero value is ready; reusing one parser
// reuses its memory, so a value it returned is valid only until its next
// Parse, and only while the text parsed is unchanged.
type JSONParser struct {
	src      []byte
	pos      int
	tok      jsonToken
	tokStart int
	tokEnd   int
	str      []byte // the string token's decoded bytes (jsonb only)
	decode   bool   // jsonb: decode strings, read numbers, build values
	depth    int

	// Memory handed out to values; reset by each Parse.
	nodes []JSON
	elems []*JSON
	keys  [][]byte
	bytes []byte
	// Members of the open containers.
	stackVals []*JSON
	stackKeys [][]byte
}

// ParseJSONB reads jsonb input text into a value that owns its memory.
func ParseJSONB(src []byte) (*JSON, error) {
	var p JSONParser
	return p.Parse(append([]byte(nil), src...))
}

// ValidateJSON checks json input text as json_in does: the syntax only, so
// \u0000 and unpaired surrogates pass and the text is kept as written.
func ValidateJSON(src []byte) error {
	p := JSONParser{src: src}
	if err := p.next(); err != nil {
		return err
	}
	if _, err := p.value(); err != nil {
		return err
	}
	return p.expect(tokEnd, errExpectedEnd)
}

// AppendJSONBFromText appends jsonb's text of JSON input text: what
// SELECT 'text'::jsonb prints.
func (p *JSONParser) AppendJSONBFromText(dst, src []byte) ([]byte, error) {
	v, err := p.Parse(src)
	if err != nil {
		return dst, err
	}
	return AppendJSONB(dst, v), nil
}

// Parse reads jsonb input text. The value may point into src and into
// the parser's memory (see JSONParser).
func (p *JSONParser) Parse(src []byte) (*JSON, error) {
	p.src, p.pos, p.decode, p.depth = src, 0, true, 0
	clear(p.nodes)
	clear(p.elems)
	p.nodes, p.elems, p.keys, p.bytes = p.nodes[:0], p.elems[:0], p.keys[:0], p.bytes[:0]
	p.stackVals, p.stackKeys = p.stackVals[:0], p.stackKeys[:0]
	if err := p.next(); err != nil {
		return nil, err
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if err := p.expect(tokEnd, errExpectedEnd); err != nil {
		return nil, err
	}
	return v, nil
}

func (p *JSONParser) node(kind JSONKind) *JSON {
	if len(p.nodes) == cap(p.nodes) {
		// A new block: nodes already handed out stay where they are. The
		// first is sized for the text (a value takes about 8 bytes).
		p.nodes = make([]JSON, 0, min(max(2*cap(p.nodes), len(p.src)/8, 4), 4096))
	}
	p.nodes = append(p.nodes, JSON{Kind: kind})
	return &p.nodes[len(p.nodes)-1]
}

// The details of PostgreSQL's syntax errors, by what was expected.
const (
	errExpectedEnd         = "Expected end of input, but found \"%s\"."
	errExpectedValue       = "Expected JSON value, but found \"%s\"."
	errExpectedString      = "Expected string, but found \"%s\"."
	errExpectedObjectFirst = "Expected string or \"}\", but found \"%s\"."
	errExpectedColon       = "Expected \":\", but found \"%s\"."
	errExpectedObjectNext  = "Expected \",\" or \"}\", but found \"%s\"."
	errExpectedArrayNext   = "Expected \",\" or \"]\", but found \"%s\"."
)

func errJSONSyntax(format string, args ...any) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type json").WithDetail(format, args...)
}

// unexpected is the error for the current token where another was
// expected: the input ended, or the token is named.
func (p *JSONParser) unexpected(detail string) error {
	if p.tok == tokEnd {
		return errJSONSyntax("The input string ended unexpectedly.")
	}
	return errJSONSyntax(detail, p.src[p.tokStart:p.tokEnd])
}

func (p *JSONParser) invalidToken() error {
	return errJSONSyntax("Token \"%s\" is invalid.", p.src[p.tokStart:p.tokEnd])
}

// expect consumes a token of kind tok or fails with detail.
func (p *JSONParser) expect(tok jsonToken, detail string) error {
	if p.tok != tok {
		return p.unexpected(detail)
	}
	return p.next()
}

// value reads the value starting at the current token.
func (p *JSONParser) value() (*JSON, error) {
	switch p.tok {
	case tokObjectStart:
		return p.object()
	case tokArrayStart:
		return p.array()
	case tokString, tokNumber, tokTrue, tokFalse, tokNull:
		return p.scalar()
	}
	return nil, p.unexpected(errExpectedValue)
}

func (p *JSONParser) scalar() (*JSON, error) {
	tok, start, end := p.tok, p.tokStart, p.tokEnd
	var text []byte
	if p.decode && tok == tokString {
		text = p.str
	}
	// As PostgreSQL, the next token is read before the value is taken.
	if err := p.next(); err != nil {
		return nil, err
	}
	switch tok {
	case tokTrue:
		return jsonTrueValue, nil
	case tokFalse:
		return jsonFalseValue, nil
	case tokNull:
		return jsonNullValue, nil
	}
	if !p.decode {
		return nil, nil
	}
	if tok == tokString {
		v := p.node(JSONString)
		v.Text = text
		return v, nil
	}
	v := p.node(JSONNumber)
	num := p.src[start:end]
	if len(num) < 1000 && numberIsCanonical(num) {
		v.Text = num
		return v, nil
	}
	if err := checkNumericText(num); err != nil {
		return nil, err
	}
	mark := len(p.bytes)
	p.bytes = AppendNumericText(p.bytes, num)
	v.Text = p.bytes[mark:len(p.bytes):len(p.bytes)]
	return v, nil
}

func (p *JSONParser) enter() error {
	p.depth++
	if p.depth > maxJSONDepth {
		return pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
			WithHint("Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), after ensuring the platform's stack depth limit is adequate.")
	}
	return nil
}

func (p *JSONParser) object() (*JSON, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	if err := p.next(); err != nil {
		return nil, err
	}
	base, baseKeys := len(p.stackVals), len(p.stackKeys)
	switch p.tok {
	case tokString:
		for {
			if p.tok != tokString {
				return nil, p.unexpected(errExpectedString)
			}
			key := p.str
			if err := p.next(); err != nil {
				return nil, err
			}
			if err := p.expect(tokColon, errExpectedColon); err != nil {
				return nil, err
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			if p.decode {
				p.stackKeys = append(p.stackKeys, key)
				p.stackVals = append(p.stackVals, v)
			}
			if p.tok != tokComma {
				break
			}
			if err := p.next(); err != nil {
				return nil, err
			}
		}
	case tokObjectEnd:
	default:
		return nil, p.unexpected(errExpectedObjectFirst)
	}
	if err := p.expect(tokObjectEnd, errExpectedObjectNext); err != nil {
		return nil, err
	}
	p.depth--
	if !p.decode {
		return nil, nil
	}
	o := p.node(JSONObject)
	keys, vals := p.stackKeys[baseKeys:], p.stackVals[base:]
	mk, mv := len(p.keys), len(p.elems)
	p.keys, p.elems = sortJSONObject(keys, vals, p.keys, p.elems)
	o.Keys = p.keys[mk:len(p.keys):len(p.keys)]
	o.Elems = p.elems[mv:len(p.elems):len(p.elems)]
	clear(p.stackVals[base:])
	p.stackKeys, p.stackVals = p.stackKeys[:baseKeys], p.stackVals[:base]
	return o, nil
}

func (p *JSONParser) array() (*JSON, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	if err := p.next(); err != nil {
		return nil, err
	}
	base := len(p.stackVals)
	if p.tok != tokArrayEnd {
		for {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			if p.decode {
				p.stackVals = append(p.stackVals, v)
			}
			if p.tok != tokComma {
				break
			}
			if err := p.next(); err != nil {
				return nil, err
			}
		}
	}
	if err := p.expect(tokArrayEnd, errExpectedArrayNext); err != nil {
		return nil, err
	}
	p.depth--
	if !p.decode {
		return nil, nil
	}
	a := p.node(JSONArray)
	mv := len(p.elems)
	p.elems = append(p.elems, p.stackVals[base:]...)
	a.Elems = p.elems[mv:len(p.elems):len(p.elems)]
	clear(p.stackVals[base:])
	p.stackVals = p.stackVals[:base]
	return a, nil
}

// isJSONWordByte is PostgreSQL's JSON_ALPHANUMERIC_CHAR: the bytes of a
// bare word (true, an invalid token).
func isJSONWordByte(ch byte) bool {
	return ch == '_' || (ch >= '0' && ch <= '9') || (ch|0x20 >= 'a' && ch|0x20 <= 'z') || ch >= 0x80
}

// next reads the next token.
func (p *JSONParser) next() error {
	src := p.src
	for p.pos < len(src) && (src[p.pos] == ' ' || src[p.pos] == '\t' || src[p.pos] == '\n' || src[p.pos] == '\r') {
		p.pos++
	}
	p.tokStart = p.pos
	if p.pos >= len(src) {
		p.tok, p.tokEnd = tokEnd, p.pos
		return nil
	}
	single := tokEnd
	switch ch := src[p.pos]; ch {
	case '{':
		single = tokObjectStart
	case '}':
		single = tokObjectEnd
	case '[':
		single = tokArrayStart
	case ']':
		single = tokArrayEnd
	case ',':
		single = tokComma
	case ':':
		single = tokColon
	case '"':
		return p.lexString()
	case '-':
		return p.lexNumber(p.pos + 1)
	default:
		if ch >= '0' && ch <= '9' {
			return p.lexNumber(p.pos)
		}
	}
	if single != tokEnd {
		p.pos++
		p.tok, p.tokEnd = single, p.pos
		return nil
	}
	// A bare word: true, false, null, or an invalid token.
	end := p.pos
	for end < len(src) && isJSONWordByte(src[end]) {
		end++
	}
	if end == p.pos {
		end++ // one byte that cannot start a token (no multibyte: those are word bytes)
	}
	p.tokEnd, p.pos = end, end
	switch string(src[p.tokStart:end]) {
	case "true":
		p.tok = tokTrue
	case "false":
		p.tok = tokFalse
	case "null":
		p.tok = tokNull
	default:
		return p.invalidToken()
	}
	return nil
}

// lexNumber reads a number whose digits start at s (after any '-'): an
// integer without leading zeros, an optional fraction and exponent; any
// word bytes after it belong to the (invalid) token.
func (p *JSONParser) lexNumber(s int) error {
	src := p.src
	bad := false
	digits := func() bool {
		if s >= len(src) || src[s] < '0' || src[s] > '9' {
			return false
		}
		for s < len(src) && src[s] >= '0' && src[s] <= '9' {
			s++
		}
		return true
	}
	switch {
	case s < len(src) && src[s] == '0':
		s++
	case !digits():
		bad = true
	}
	if s < len(src) && src[s] == '.' {
		s++
		if !digits() {
			bad = true
		}
	}
	if s < len(src) && (src[s] == 'e' || src[s] == 'E') {
		s++
		if s < len(src) && (src[s] == '+' || src[s] == '-') {
			s++
		}
		if !digits() {
			bad = true
		}
	}
	for s < len(src) && isJSONWordByte(src[s]) {
		s++
		bad = true
	}
	p.tok, p.tokEnd, p.pos = tokNumber, s, s
	if bad {
		return p.invalidToken()
	}
	return nil
}

// lexString reads a string token; for jsonb its decoded bytes go to
// p.str.
func (p *JSONParser) lexString() error {
	src := p.src
	s := p.pos + 1
	p.tok = tokString
	if !p.decode {
		return p.skipString(s)
	}
	// The common case, no escapes: the bytes themselves.
	for k := s; k < len(src); k++ {
		ch := src[k]
		if ch == '"' {
			p.str = src[s:k:k]
			p.tokEnd, p.pos = k+1, k+1
			return nil
		}
		if ch == '\\' || ch < 0x20 {
			break
		}
	}
	mark := len(p.bytes)
	hi := rune(-1) // a high surrogate waiting for its low half
	for ; ; s++ {
		if s >= len(src) {
			p.tokEnd = s
			return p.invalidToken()
		}
		ch := src[s]
		switch {
		case ch == '"':
			if hi >= 0 {
				return errLowSurrogate()
			}
			p.str = p.bytes[mark:len(p.bytes):len(p.bytes)]
			p.tokEnd, p.pos = s+1, s+1
			return nil
		case ch < 0x20:
			p.tokEnd = s
			return errJSONSyntax("Character with value 0x%02x must be escaped.", ch)
		case ch != '\\':
			if hi >= 0 {
				return errLowSurrogate()
			}
			p.bytes = append(p.bytes, ch)
			continue
		}
		s++
		if s >= len(src) {
			p.tokEnd = s
			return p.invalidToken()
		}
		if src[s] == 'u' {
			r, end, err := p.hex4(s)
			if err != nil {
				return err
			}
			s = end - 1
			switch {
			case r >= 0xd800 && r <= 0xdbff:
				if hi >= 0 {
					return errJSONSyntax("Unicode high surrogate must not follow a high surrogate.")
				}
				hi = r
				continue
			case r >= 0xdc00 && r <= 0xdfff:
				if hi < 0 {
					return errLowSurrogate()
				}
				r = (hi-0xd800)<<10 + (r - 0xdc00) + 0x10000
				hi = -1
			}
			if hi >= 0 {
				return errLowSurrogate()
			}
			if r == 0 {
				return pgerr.New(pgerr.UntranslatableCharacter, "unsupported Unicode escape sequence").
					WithDetail(`\u0000 cannot be converted to text.`)
			}
			p.bytes = utf8.AppendRune(p.bytes, r)
			continue
		}
		if hi >= 0 {
			return errLowSurrogate()
		}
		switch e := src[s]; e {
		case '"', '\\', '/':
			p.bytes = append(p.bytes, e)
		case 'b':
			p.bytes = append(p.bytes, '\b')
		case 'f':
			p.bytes = append(p.bytes, '\f')
		case 'n':
			p.bytes = append(p.bytes, '\n')
		case 'r':
			p.bytes = append(p.bytes, '\r')
		case 't':
			p.bytes = append(p.bytes, '\t')
		default:
			return p.invalidEscape(s)
		}
	}
}

// skipString checks a string token for json input: escapes well formed,
// nothing decoded.
func (p *JSONParser) skipString(s int) error {
	src := p.src
	for ; ; s++ {
		if s >= len(src) {
			p.tokEnd = s
			return p.invalidToken()
		}
		switch ch := src[s]; {
		case ch == '"':
			p.tokEnd, p.pos = s+1, s+1
			return nil
		case ch < 0x20:
			p.tokEnd = s
			return errJSONSyntax("Character with value 0x%02x must be escaped.", ch)
		case ch != '\\':
			continue
		}
		s++
		if s >= len(src) {
			p.tokEnd = s
			return p.invalidToken()
		}
		switch src[s] {
		case 'u':
			_, end, err := p.hex4(s)
			if err != nil {
				return err
			}
			s = end - 1
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		default:
			return p.invalidEscape(s)
		}
	}
}

// hex4 reads the four hex digits after the 'u' at s; end is just past them.
func (p *JSONParser) hex4(s int) (r rune, end int, err error) {
	src := p.src
	for k := 1; k <= 4; k++ {
		s++
		if s >= len(src) {
			p.tokEnd = s
			return 0, 0, p.invalidToken()
		}
		ch := src[s]
		switch {
		case ch >= '0' && ch <= '9':
			r = r<<4 | rune(ch-'0')
		case ch >= 'a' && ch <= 'f':
			r = r<<4 | rune(ch-'a'+10)
		case ch >= 'A' && ch <= 'F':
			r = r<<4 | rune(ch-'A'+10)
		default:
			return 0, 0, errJSONSyntax(`"\u" must be followed by four hexadecimal digits.`)
		}
	}
	return r, s + 1, nil
}

// invalidEscape is the error for the escape character at s (one character,
// however many bytes).
func (p *JSONParser) invalidEscape(s int) error {
	n := utf8Len(p.src[s])
	end := min(s+n, len(p.src))
	return errJSONSyntax(`Escape sequence "\%s" is invalid.`, p.src[s:end])
}

// utf8Len is the length of the UTF-8 sequence that lead starts, as
// PostgreSQL's pg_utf_mblen reads it.
func utf8Len(lead byte) int {
	switch {
	case lead&0xe0 == 0xc0:
		return 2
	case lead&0xf0 == 0xe0:
		return 3
	case lead&0xf8 == 0xf0:
		return 4
	}
	return 1
}

func errLowSurrogate() error {
	return errJSONSyntax("Unicode low surrogate must follow a high surrogate.")
}
