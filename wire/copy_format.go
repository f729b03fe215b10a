package wire

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate"
)

const (
	maxCopyDataDisplay = 100 // bytes of a value or line quoted in an error
	copyFormatText     = "text"
	copyFormatCSV      = "csv"
	copyFormatBinary   = "binary"
)

// Line endings of COPY input.
const (
	eolUnknown eolType = iota
	eolNL
	eolCR
	eolCRNL
)

// eolType is the line ending of a COPY input, fixed by its first line as
// PostgreSQL does; a different ending later is an error.
type eolType int

// copyParser splits COPY FROM input, fed in arbitrary pieces, into records
// and fields by PostgreSQL's rules for the text and csv formats. Values are
// unescaped into arena; a record's fields are offsets into it.
type copyParser struct {
	opts     translate.CopyOptions
	csv      bool
	ncols    int
	colNames []string

	binary     bool     // the binary format (copy_binary.go)
	oids       []uint32 // binary: the type of each column
	headerDone bool     // binary: the header was read
	errColumn  string   // binary: the column of the last value error

	buf      []byte // input not yet consumed, from pos
	pos      int
	eol      eolType
	line     int  // physical input lines consumed
	done     bool // the end-of-data marker was seen
	afterEnd bool // input arrived after it

	resume scanState

	forceNotNull []bool
	forceNull    []bool

	arena  []byte
	fields []fieldSpan
}

// scanState is where nextRecord stopped for more input, relative to the
// record's start.
type scanState struct {
	ok                  bool
	off, line           int
	inQuote, lastWasEsc bool
}

// fieldSpan is one value of a record: arena[start:end], or NULL.
type fieldSpan struct {
	start, end int
	null       bool
}

func newCopyParser(opts translate.CopyOptions, colNames []string, oids []uint32) *copyParser {
	p := &copyParser{opts: opts, csv: opts.Format == copyFormatCSV, ncols: len(colNames), colNames: colNames,
		binary: opts.Format == copyFormatBinary, oids: oids}
	if p.csv {
		p.forceNotNull = columnFlags(opts.ForceNotNull, len(colNames))
		p.forceNull = columnFlags(opts.ForceNull, len(colNames))
	}
	return p
}

func columnFlags(idx []int, n int) []bool {
	flags := make([]bool, n)
	for _, i := range idx {
		if i >= 0 && i < n {
			flags[i] = true
		}
	}
	return flags
}

// feed appends a piece of input (it is copied).
func (p *copyParser) feed(data []byte) {
	if p.done {
		p.afterEnd = p.afterEnd || len(data) > 0
		return
	}
	if p.pos > 0 {
		n := copy(p.buf, p.buf[p.pos:])
		p.buf = p.buf[:n]
		p.pos = 0
	}
	p.buf = append(p.buf, data...)
}

// nextRecord finds the next record of the input and returns its raw bytes
// (without the line ending; valid until the next feed). ok is false when
// more input is needed, or, with atEOF, when the input is finished.
func (p *copyParser) nextRecord(atEOF bool) (raw []byte, ok bool, err error) {
	if p.done {
		if p.binary && p.afterEnd {
			p.afterEnd = false
			return nil, false, errDataAfterTrailer()
		}
		return nil, false, nil
	}
	if p.binary {
		return p.nextTuple(atEOF)
	}
	buf := p.buf
	start := p.pos
	line := p.line + 1
	inQuote, lastWasEsc := false, false
	from := start
	if r := p.resume; r.ok {
		// Go on where the last call stopped for more input rather than
		// scan a long record again from its start.
		from, line, inQuote, lastWasEsc = start+r.off, r.line, r.inQuote, r.lastWasEsc
	}
	p.resume = scanState{}
	// suspend stops the scan for more input; the next call resumes at buf[at]
	// (scanning buf[at] again is harmless: it is a line ending or a
	// backslash outside quotes).
	suspend := func(at int) ([]byte, bool, error) {
		p.resume = scanState{ok: true, off: at - start, line: line, inQuote: inQuote, lastWasEsc: lastWasEsc}
		return nil, false, nil
	}
	quote, escape := byte(0), byte(0)
	if p.csv {
		quote, escape = p.opts.Quote, p.opts.Escape
		if escape == quote {
			escape = 0
		}
	}
	for i := from; i < len(buf); i++ {
		c := buf[i]
		if c != '\n' && c != '\r' && c != '\\' && (!p.csv || c != quote && c != escape) {
			lastWasEsc = false
			continue // the common case: a plain byte
		}
		if p.csv {
			if inQuote && c == escape {
				lastWasEsc = !lastWasEsc
			}
			if c == quote && !lastWasEsc {
				inQuote = !inQuote
			}
			if c != escape {
				lastWasEsc = false
			}
			if inQuote && ((p.eol == eolNL && c == '\n') || (p.eol != eolNL && c == '\r')) {
				line++
			}
		}
		if (c == '\r' || c == '\n') && !inQuote {
			end, next, eol, err := p.lineEnd(buf, i, atEOF)
			if err != nil {
				p.line = line
				return nil, false, err
			}
			if next < 0 {
				return suspend(i)
			}
			p.eol = eol
			p.line, p.pos = line, next
			return buf[start:end], true, nil
		}
		if c == '\\' && (!p.csv || i == start) {
			if i+1 >= len(buf) {
				if !atEOF {
					return suspend(i)
				}
				break
			}
			if buf[i+1] != '.' {
				if !p.csv {
					i++ // the escaped character is data, even a line ending
				}
				continue
			}
			next, isMarker, err := p.endMarker(buf, i+2, atEOF)
			if err != nil {
				p.line = line
				return nil, false, err
			}
			if next < 0 {
				return suspend(i)
			}
			if !isMarker {
				continue // csv: \. followed by more data is a value
			}
			p.done = true
			p.line, p.pos = line, len(buf)
			if i > start {
				return buf[start:i], true, nil
			}
			return nil, false, nil
		}
	}
	if !atEOF {
		return suspend(len(buf))
	}
	if start >= len(buf) {
		return nil, false, nil
	}
	p.line, p.pos = line, len(buf)
	return buf[start:], true, nil
}

// lineEnd checks the line ending at buf[i] against the input's and returns
// the end of the record's data, where the next record starts (-1: more
// input needed) and the input's line ending.
func (p *copyParser) lineEnd(buf []byte, i int, atEOF bool) (end, next int, eol eolType, err error) {
	eol = p.eol
	if buf[i] == '\n' {
		if eol == eolCR || eol == eolCRNL {
			return 0, 0, eol, p.strayEOL("newline", `\n`)
		}
		return i, i + 1, eolNL, nil
	}
	switch eol {
	case eolNL:
		return 0, 0, eol, p.strayEOL("carriage return", `\r`)
	case eolCR:
		return i, i + 1, eol, nil
	}
	if i+1 >= len(buf) {
		if !atEOF {
			return 0, -1, eol, nil
		}
		if eol == eolCRNL {
			return 0, 0, eol, p.strayEOL("carriage return", `\r`)
		}
		return i, i + 1, eolCR, nil
	}
	if buf[i+1] == '\n' {
		return i, i + 2, eolCRNL, nil
	}
	if eol == eolCRNL {
		return 0, 0, eol, p.strayEOL("carriage return", `\r`)
	}
	return i, i + 1, eolCR, nil
}

// strayEOL is the error for a line ending that differs from the input's.
func (p *copyParser) strayEOL(what, escaped string) error {
	if p.csv {
		return pgerr.New(pgerr.BadCopyFileFormat, "unquoted %s found in data", what).
			WithHint("Use quoted CSV field to represent %s.", what)
	}
	return pgerr.New(pgerr.BadCopyFileFormat, "literal %s found in data", what).
		WithHint("Use \"%s\" to represent %s.", escaped, what)
}

// endMarker checks what follows `\.` at buf[i:]: a line ending (or the end
// of input) makes it the end-of-data marker. next is -1 when more input is
// needed.
func (p *copyParser) endMarker(buf []byte, i int, atEOF bool) (next int, isMarker bool, err error) {
	need := 1
	if p.eol == eolCRNL {
		need = 2
	}
	if len(buf)-i < need && !atEOF {
		return -1, false, nil
	}
	rest := buf[i:]
	corrupt := func() (int, bool, error) {
		if p.csv {
			return 0, false, nil
		}
		return 0, false, pgerr.New(pgerr.BadCopyFileFormat, "end-of-copy marker corrupt")
	}
	if len(rest) == 0 {
		return corrupt() // PostgreSQL 15 wants a line ending after \.
	}
	if p.eol == eolCRNL {
		if rest[0] == '\n' {
			if p.csv {
				return 0, false, nil
			}
			return 0, false, pgerr.New(pgerr.BadCopyFileFormat, "end-of-copy marker does not match previous newline style")
		}
		if rest[0] != '\r' {
			return corrupt()
		}
		rest = rest[1:]
		if len(rest) == 0 {
			return corrupt()
		}
	}
	c := rest[0]
	if c != '\r' && c != '\n' {
		return corrupt()
	}
	if (p.eol == eolNL && c != '\n') || (p.eol == eolCRNL && c != '\n') || (p.eol == eolCR && c != '\r') {
		return 0, false, pgerr.New(pgerr.BadCopyFileFormat, "end-of-copy marker does not match previous newline style")
	}
	return i + need, true, nil
}

// splitRecord parses raw into p.fields (values in p.arena) and checks the
// field count.
func (p *copyParser) splitRecord(raw []byte) error {
	var err error
	switch {
	case p.binary:
		return p.splitTuple(raw)
	case p.csv:
		err = p.splitCSV(raw)
	default:
		err = p.splitText(raw)
	}
	if err != nil {
		return err
	}
	if p.ncols > 0 && len(p.fields) > p.ncols {
		return pgerr.New(pgerr.BadCopyFileFormat, "extra data after last expected column")
	}
	if len(p.fields) < p.ncols {
		return pgerr.New(pgerr.BadCopyFileFormat, "missing data for column %q", p.colNames[len(p.fields)])
	}
	return nil
}

// splitText splits a text-format record on the delimiter and resolves its
// backslash escapes. The NULL string matches the raw, still escaped field.
func (p *copyParser) splitText(raw []byte) error {
	p.fields = p.fields[:0]
	delim := p.opts.Delimiter
	null := p.opts.Null
	i := 0
	for {
		rawStart, start := i, len(p.arena)
		sawNonASCII, foundDelim := false, false
		for i < len(raw) {
			j := i
			for j < len(raw) && raw[j] != delim && raw[j] != '\\' {
				j++
			}
			p.arena = append(p.arena, raw[i:j]...)
			if i = j; i >= len(raw) {
				break
			}
			c := raw[i]
			i++
			if c == delim {
				foundDelim = true
				break
			}
			if i >= len(raw) {
				break
			}
			c = raw[i]
			i++
			switch c {
			case '0', '1', '2', '3', '4', '5', '6', '7':
				v := int(c - '0')
				for k := 0; k < 2 && i < len(raw) && raw[i] >= '0' && raw[i] <= '7'; k++ {
					v = v<<3 + int(raw[i]-'0')
					i++
				}
				c = byte(v)
				sawNonASCII = sawNonASCII || c == 0 || c >= 0x80
			case 'x':
				if i < len(raw) && isHexDigit(raw[i]) {
					v := hexValue(raw[i])
					i++
					if i < len(raw) && isHexDigit(raw[i]) {
						v = v<<4 + hexValue(raw[i])
						i++
					}
					c = byte(v)
					sawNonASCII = sawNonASCII || c == 0 || c >= 0x80
				}
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'v':
				c = '\v'
			}
			p.arena = append(p.arena, c)
		}
		rawEnd := i
		if foundDelim {
			rawEnd--
		}
		f := fieldSpan{start: start, end: len(p.arena)}
		if string(raw[rawStart:rawEnd]) == null {
			f = fieldSpan{start: start, end: start, null: true}
			p.arena = p.arena[:start]
		} else if sawNonASCII {
			if v := p.arena[start:]; !utf8.Valid(v) || slices.Contains(v, 0) {
				return invalidUTF8(v)
			}
		}
		p.fields = append(p.fields, f)
		if !foundDelim {
			return nil
		}
	}
}

// splitCSV splits a csv-format record: quoted sections may hold the
// delimiter and line endings; inside them the escape character escapes the
// quote and itself. An unquoted field equal to the NULL string is NULL.
func (p *copyParser) splitCSV(raw []byte) error {
	p.fields = p.fields[:0]
	delim, quote, escape := p.opts.Delimiter, p.opts.Quote, p.opts.Escape
	null := p.opts.Null
	i := 0
	for {
		rawStart, start := i, len(p.arena)
		sawQuote, foundDelim := false, false
		rawEnd := i
	field:
		for {
			for { // not in quotes
				rawEnd = i
				if i >= len(raw) {
					break field
				}
				c := raw[i]
				i++
				if c == delim {
					foundDelim = true
					break field
				}
				if c == quote {
					sawQuote = true
					break
				}
				p.arena = append(p.arena, c)
			}
			for { // in quotes
				if i >= len(raw) {
					return pgerr.New(pgerr.BadCopyFileFormat, "unterminated CSV quoted field")
				}
				c := raw[i]
				i++
				if c == escape && i < len(raw) && (raw[i] == escape || raw[i] == quote) {
					p.arena = append(p.arena, raw[i])
					i++
					continue
				}
				if c == quote {
					break
				}
				p.arena = append(p.arena, c)
			}
		}
		f := fieldSpan{start: start, end: len(p.arena)}
		if !sawQuote && string(raw[rawStart:rawEnd]) == null {
			f.null = true
		}
		k := len(p.fields)
		if k < len(p.forceNotNull) && f.null && p.forceNotNull[k] {
			p.arena = append(p.arena[:start], null...)
			f = fieldSpan{start: start, end: len(p.arena)}
		} else if k < len(p.forceNull) && !f.null && p.forceNull[k] && string(p.arena[start:]) == null {
			f.null = true
		}
		if f.null {
			p.arena = p.arena[:start]
			f.end = start
		}
		p.fields = append(p.fields, f)
		if !foundDelim {
			return nil
		}
	}
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexValue(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

// invalidUTF8 is PostgreSQL's error for the first bad sequence of b.
func invalidUTF8(b []byte) error {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if b[i] != 0 && (r != utf8.RuneError || n > 1) {
			i += n
			continue
		}
		want := 1
		switch c := b[i]; {
		case c&0xf8 == 0xf0:
			want = 4
		case c&0xf0 == 0xe0:
			want = 3
		case c&0xe0 == 0xc0:
			want = 2
		}
		var hex []string
		for k := i; k < len(b) && k < i+want; k++ {
			hex = append(hex, fmt.Sprintf("0x%02x", b[k]))
		}
		return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", strings.Join(hex, " "))
	}
	return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
}

// clipForDisplay shortens s for an error context as PostgreSQL does.
func clipForDisplay(s string) string {
	if len(s) <= maxCopyDataDisplay {
		return s
	}
	n := maxCopyDataDisplay
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// appendCopyText appends v escaped for the text format.
func appendCopyText(dst []byte, v []byte, delim byte) []byte {
	for _, c := range v {
		if c < 0x20 {
			var e byte
			switch c {
			case '\b':
				e = 'b'
			case '\f':
				e = 'f'
			case '\n':
				e = 'n'
			case '\r':
				e = 'r'
			case '\t':
				e = 't'
			case '\v':
				e = 'v'
			default:
				if c == delim {
					e = c
				}
			}
			if e == 0 {
				dst = append(dst, c)
			} else {
				dst = append(dst, '\\', e)
			}
			continue
		}
		if c == '\\' || c == delim {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return dst
}

// appendCopyCSV appends v for the csv format, quoted when it must be (or
// when forced).
func appendCopyCSV(dst []byte, v []byte, opts *translate.CopyOptions, force, singleColumn bool) []byte {
	quote := force || string(v) == opts.Null
	if !quote {
		if singleColumn && string(v) == `\.` {
			quote = true
		} else {
			for _, c := range v {
				if c == opts.Delimiter || c == opts.Quote || c == '\n' || c == '\r' {
					quote = true
					break
				}
			}
		}
	}
	if !quote {
		return append(dst, v...)
	}
	dst = append(dst, opts.Quote)
	for _, c := range v {
		if c == opts.Quote || c == opts.Escape {
			dst = append(dst, opts.Escape)
		}
		dst = append(dst, c)
	}
	return append(dst, opts.Quote)
}
