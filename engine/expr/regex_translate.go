package expr

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/icegate/icegate/internal/pgerr"
)

// PostgreSQL's regular expressions (ARE, the advanced flavour) translated
// to Go's RE2 syntax. The common subset translates: literals, escapes,
// classes (\d \s \w and their negations, [[:alpha:]] and the other named
// classes, bracket expressions), anchors (^ $ \A \Z), word boundaries \y
// \Y, quantifiers (greedy and non-greedy, bounds up to 255), groups,
// non-capturing groups, alternation, the embedded options (?i) (?n) ...
// and the ***= / ***: directors. What RE2 cannot do - back references,
// lookahead and lookbehind, \m \M word starts and ends, [[:<:]] - is
// rejected with 2201B.
//
// Semantics: PostgreSQL's . and [^...] match newline unless the n (or p, w)
// option asks otherwise, ^ and $ anchor the whole string; a pattern
// without non-greedy quantifiers prefers the longest match at the leftmost
// position (POSIX), as PostgreSQL does. With non-greedy quantifiers the
// submatches follow Perl's rules, which may differ from PostgreSQL's when
// greedy and non-greedy quantifiers are mixed.

// reFlags are the options of one regular expression.
type reFlags struct {
	icase    bool
	newline  byte // 0 none, 'n' newline-sensitive, 'p' partial, 'w' inverse partial
	expanded bool
	literal  bool
	global   bool // regexp_replace's g
}

// parseREFlags reads a flags argument ("gi", "n", ...).
func parseREFlags(s []byte, allowGlobal bool, fn string) (reFlags, error) {
	var f reFlags
	for _, c := range string(s) {
		switch c {
		case 'g':
			if !allowGlobal {
				e := pgerr.New(pgerr.InvalidParameterValue, "%s() does not support the \"global\" option", fn)
				if fn == "regexp_match" {
					e = e.WithHint("Use the regexp_matches function instead.")
				}
				return f, e
			}
			f.global = true
		case 'i':
			f.icase = true
		case 'c':
			f.icase = false
		case 'n', 'm':
			f.newline = 'n'
		case 'p':
			f.newline = 'p'
		case 'w':
			f.newline = 'w'
		case 's':
			f.newline = 0
		case 'x':
			f.expanded = true
		case 't':
			f.expanded = false
		case 'q':
			f.literal = true
		case 'b', 'e':
			return f, pgerr.Unsupported("basic and extended (non-advanced) regular expression syntax")
		default:
			return f, pgerr.New(pgerr.InvalidParameterValue, "invalid regular expression option: \"%c\"", c)
		}
	}
	return f, nil
}

func invalidRE(msg string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidRegularExpression, "invalid regular expression: %s", msg)
}

func unsupportedRE(what string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidRegularExpression, "invalid regular expression: %s are not supported", what)
}

// compilePGRegex translates and compiles a PostgreSQL regular expression.
func compilePGRegex(pat string, f reFlags) (*regexp.Regexp, error) {
	src, err := translateRegex(pat, f)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, invalidRE(strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

// translateRegex returns the Go syntax of a PostgreSQL pattern.
func translateRegex(pat string, f reFlags) (string, error) {
	switch {
	case strings.HasPrefix(pat, "***="):
		pat, f.literal = pat[4:], true
	case strings.HasPrefix(pat, "***:"):
		pat = pat[4:]
	}
	// Embedded options at the start: (?letters).
	for !f.literal && strings.HasPrefix(pat, "(?") {
		end := strings.IndexByte(pat, ')')
		opts := ""
		if end > 0 {
			opts = pat[2:end]
		}
		if opts == "" || strings.Trim(opts, "bceimnpqstwx") != "" {
			break
		}
		g := f.global
		nf, err := parseREFlags([]byte(opts), true, "")
		if err != nil {
			return "", err
		}
		nf.icase = nf.icase || f.icase && !strings.ContainsRune(opts, 'c')
		if nf.newline == 0 && !strings.ContainsRune(opts, 's') {
			nf.newline = f.newline
		}
		nf.expanded = nf.expanded || f.expanded && !strings.ContainsRune(opts, 't')
		f, f.global = nf, g
		pat = pat[end+1:]
	}
	var b strings.Builder
	switch {
	case f.newline == 'n':
		b.WriteString("(?m)")
	case f.newline == 'w':
		b.WriteString("(?ms)")
	case f.newline == 0:
		b.WriteString("(?s)")
	}
	if f.icase {
		b.WriteString("(?i)")
	}
	if f.literal {
		b.WriteString(regexp.QuoteMeta(pat))
		return b.String(), nil
	}
	t := reTranslator{p: pat, b: &b, f: f}
	if err := t.run(); err != nil {
		return "", err
	}
	return b.String(), nil
}

type reTranslator struct {
	p string
	i int
	b *strings.Builder
	f reFlags
	// groups counts the capturing groups opened so far.
	groups int
}

func (t *reTranslator) run() error {
	for t.i < len(t.p) {
		c := t.p[t.i]
		switch {
		case t.f.expanded && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			t.i++
		case t.f.expanded && c == '#':
			for t.i < len(t.p) && t.p[t.i] != '\n' {
				t.i++
			}
		case c == '\\':
			if err := t.escape(false); err != nil {
				return err
			}
		case c == '[':
			if err := t.bracket(); err != nil {
				return err
			}
		case c == '(':
			if strings.HasPrefix(t.p[t.i:], "(?") {
				switch {
				case strings.HasPrefix(t.p[t.i:], "(?:"):
					t.b.WriteString("(?:")
					t.i += 3
				case strings.HasPrefix(t.p[t.i:], "(?="), strings.HasPrefix(t.p[t.i:], "(?!"),
					strings.HasPrefix(t.p[t.i:], "(?<="), strings.HasPrefix(t.p[t.i:], "(?<!"):
					return unsupportedRE("lookahead and lookbehind constraints")
				default:
					return invalidRE("quantifier operand invalid")
				}
				continue
			}
			t.b.WriteByte('(')
			t.groups++
			t.i++
		case c == '{':
			if err := t.bound(); err != nil {
				return err
			}
		default:
			_, w := utf8.DecodeRuneInString(t.p[t.i:])
			t.b.WriteString(t.p[t.i : t.i+w])
			t.i += w
		}
	}
	return nil
}

// bound copies a {m}, {m,} or {m,n} bound; a brace not followed by a digit
// is literal.
func (t *reTranslator) bound() error {
	rest := t.p[t.i+1:]
	if len(rest) == 0 || rest[0] < '0' || rest[0] > '9' {
		t.b.WriteString(`\{`)
		t.i++
		return nil
	}
	end := strings.IndexByte(rest, '}')
	if end < 0 {
		return invalidRE("braces {} not balanced")
	}
	body := rest[:end]
	lo, hi, hasComma := body, "", false
	if k := strings.IndexByte(body, ','); k >= 0 {
		lo, hi, hasComma = body[:k], body[k+1:], true
	}
	m, err := strconv.Atoi(lo)
	if err != nil {
		return invalidRE("braces {} not balanced")
	}
	n := m
	if hasComma && hi != "" {
		if n, err = strconv.Atoi(hi); err != nil {
			return invalidRE("braces {} not balanced")
		}
	}
	if m > 255 || n > 255 || n < m {
		return invalidRE("invalid repetition count(s)")
	}
	t.b.WriteString("{" + body + "}")
	t.i += end + 2
	return nil
}

// bracket copies a bracket expression [...].
func (t *reTranslator) bracket() error {
	t.b.WriteByte('[')
	t.i++
	if t.i < len(t.p) && t.p[t.i] == '^' {
		t.b.WriteByte('^')
		t.i++
		if t.f.newline == 'n' || t.f.newline == 'p' {
			t.b.WriteString(`\n`)
		}
	}
	if t.i < len(t.p) && t.p[t.i] == ']' {
		t.b.WriteString(`\]`)
		t.i++
	}
	for t.i < len(t.p) {
		c := t.p[t.i]
		switch {
		case c == ']':
			t.b.WriteByte(']')
			t.i++
			return nil
		case c == '\\':
			if err := t.escape(true); err != nil {
				return err
			}
		case c == '[' && t.i+1 < len(t.p) && (t.p[t.i+1] == ':' || t.p[t.i+1] == '.' || t.p[t.i+1] == '='):
			kind := t.p[t.i+1]
			end := strings.Index(t.p[t.i+2:], string(kind)+"]")
			if end < 0 {
				return invalidRE("brackets [] not balanced")
			}
			name := t.p[t.i+2 : t.i+2+end]
			t.i += end + 4
			switch kind {
			case ':':
				if name == "<" || name == ">" {
					return unsupportedRE("word start and end constraints")
				}
				if u, ok := unicodeClasses[name]; ok {
					t.b.WriteString(u)
				} else {
					t.b.WriteString("[:" + name + ":]")
				}
			default:
				if utf8.RuneCountInString(name) != 1 {
					return invalidRE("invalid collating element")
				}
				t.b.WriteString(regexp.QuoteMeta(name))
			}
		case c == '[':
			t.b.WriteString(`\[`)
			t.i++
		default:
			_, w := utf8.DecodeRuneInString(t.p[t.i:])
			t.b.WriteString(t.p[t.i : t.i+w])
			t.i += w
		}
	}
	return invalidRE("brackets [] not balanced")
}

// unicodeClasses are the bracket contents standing for PostgreSQL's
// character classes under a UTF-8 locale (Go's named classes are ASCII).
var unicodeClasses = map[string]string{
	"alpha": `\p{L}`,
	"lower": `\p{Ll}`,
	"upper": `\p{Lu}`,
	"alnum": `\p{L}\p{Nd}`,
	"word":  `\p{L}\p{Nd}_`,
	"space": `\s\v\x{1680}\x{2000}-\x{2006}\x{2008}-\x{200a}\x{2028}\x{2029}\x{205f}\x{3000}`, // not the no-break spaces
	"punct": `[:punct:]\p{P}`,
}

// escape translates the escape at t.i (a backslash).
func (t *reTranslator) escape(inBracket bool) error {
	if t.i+1 >= len(t.p) {
		return invalidRE("invalid escape \\ sequence")
	}
	c := t.p[t.i+1]
	t.i += 2
	code := func(v int64) {
		t.b.WriteString(`\x{` + strconv.FormatInt(v, 16) + `}`)
	}
	hexRun := func(max int) (int64, bool) {
		j := t.i
		for j < len(t.p) && j-t.i < max && strings.IndexByte("0123456789abcdefABCDEF", t.p[j]) >= 0 {
			j++
		}
		if j == t.i {
			return 0, false
		}
		v, err := strconv.ParseInt(t.p[t.i:j], 16, 64)
		t.i = j
		return v, err == nil && v <= utf8.MaxRune
	}
	switch c {
	case 'a':
		code(7)
	case 'b':
		code(8)
	case 'B':
		t.b.WriteString(`\\`)
	case 'e':
		code(0x1b)
	case 'f', 'n', 'r', 't', 'v':
		t.b.WriteString(`\` + string(c))
	case 'c':
		if t.i >= len(t.p) {
			return invalidRE("invalid escape \\ sequence")
		}
		code(int64(t.p[t.i] & 0x1f))
		t.i++
	case 'u', 'U', 'x':
		max := map[byte]int{'u': 4, 'U': 8, 'x': 8}[c]
		v, ok := hexRun(max)
		if !ok {
			return invalidRE("invalid escape \\ sequence")
		}
		code(v)
	case '0':
		v := int64(0)
		for k := 0; k < 2 && t.i < len(t.p) && isOct(t.p[t.i]); k++ {
			v = v*8 + int64(t.p[t.i]-'0')
			t.i++
		}
		code(v)
	case 'w', 's':
		// Letters, digits and spaces beyond ASCII, as PostgreSQL's locale
		// classes have them.
		if inBracket {
			t.b.WriteString(unicodeClasses[map[byte]string{'w': "word", 's': "space"}[c]])
		} else {
			t.b.WriteString("[" + unicodeClasses[map[byte]string{'w': "word", 's': "space"}[c]] + "]")
		}
	case 'W', 'S':
		if inBracket {
			t.b.WriteString(`\` + string(c))
		} else {
			t.b.WriteString("[^" + unicodeClasses[map[byte]string{'W': "word", 'S': "space"}[c]] + "]")
		}
	case 'd', 'D':
		t.b.WriteString(`\` + string(c))
	case 'A', 'Z', 'y', 'Y', 'm', 'M':
		if inBracket {
			return invalidRE("invalid escape \\ sequence")
		}
		switch c {
		case 'A':
			t.b.WriteString(`\A`)
		case 'Z':
			t.b.WriteString(`\z`)
		case 'y':
			t.b.WriteString(`\b`)
		case 'Y':
			t.b.WriteString(`\B`)
		default:
			return unsupportedRE(`word start and end constraints (\m, \M)`)
		}
	default:
		switch {
		case c >= '1' && c <= '9':
			// \xyz of three octal digits, when not a group number, is a
			// character; otherwise a back reference.
			if c <= '7' && t.i+1 < len(t.p) && isOct(t.p[t.i]) && isOct(t.p[t.i+1]) {
				v := int64(c-'0')<<6 | int64(t.p[t.i]-'0')<<3 | int64(t.p[t.i+1]-'0')
				if inBracket || v > int64(t.groups) {
					t.i += 2
					code(v)
					return nil
				}
			}
			if inBracket {
				return invalidRE("invalid escape \\ sequence")
			}
			return unsupportedRE("back references")
		case c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'):
			return invalidRE("invalid escape \\ sequence")
		}
		// Any other character stands for itself.
		t.i--
		_, w := utf8.DecodeRuneInString(t.p[t.i:])
		if c < utf8.RuneSelf {
			t.b.WriteByte('\\')
		}
		t.b.WriteString(t.p[t.i : t.i+w])
		t.i += w
	}
	return nil
}

// hasNonGreedy reports whether a translated pattern has a non-greedy
// quantifier (*? +? ?? }?) outside brackets.
func hasNonGreedy(src string) bool {
	inBr := false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case inBr:
			if c == ']' {
				inBr = false
			}
		case c == '[':
			inBr = true
			if i+1 < len(src) && src[i+1] == '^' {
				i++
			}
			if i+1 < len(src) && src[i+1] == ']' {
				i++
			}
		case (c == '*' || c == '+' || c == '?' || c == '}') && i+1 < len(src) && src[i+1] == '?':
			if c == '?' && i > 0 && src[i-1] == '(' {
				continue
			}
			return true
		}
	}
	return false
}

// similarToRegex is similar_to_escape: a SIMILAR TO pattern as a regular
// expression (^(?: ... )$), with esc the escape character (-1 none).
func similarToRegex(pat []byte, esc rune) ([]byte, error) {
	out := []byte("^(?:")
	inBr := false
	for len(pat) > 0 {
		c, w := utf8.DecodeRune(pat)
		pat = pat[w:]
		switch {
		case esc >= 0 && c == esc:
			if len(pat) == 0 {
				return nil, pgerr.New(pgerr.InvalidRegularExpression, "invalid regular expression: invalid escape \\ sequence")
			}
			c, w = utf8.DecodeRune(pat)
			pat = pat[w:]
			out = append(out, '\\')
			out = utf8.AppendRune(out, c)
		case inBr:
			if c == ']' {
				inBr = false
			}
			if c == '\\' {
				out = append(out, '\\')
			}
			out = utf8.AppendRune(out, c)
		case c == '[':
			inBr = true
			out = append(out, '[')
		case c == '%':
			out = append(out, '.', '*')
		case c == '_':
			out = append(out, '.')
		case c == '(':
			out = append(out, "(?:"...)
		case c == '\\' || c == '.' || c == '^' || c == '$':
			out = append(out, '\\', byte(c))
		default:
			out = utf8.AppendRune(out, c)
		}
	}
	return append(out, ")$"...), nil
}
