package pgtext

import (
	"errors"
	"fmt"
)

// MaxArrayDims is PostgreSQL's MAXDIM: arrays have at most 6 dimensions.
const MaxArrayDims = 6

// ArrayText is an array literal read by ParseArray: its dimension lengths
// (none for an empty array) and its elements in row-major order, Null[k]
// marking an unquoted NULL.
type ArrayText struct {
	Dims  []int
	Elems [][]byte
	Null  []bool
}

// ArraySyntaxError is a malformed array literal; Detail is PostgreSQL's
// DETAIL line for it.
type ArraySyntaxError struct{ Detail string }

func (e *ArraySyntaxError) Error() string { return "malformed array literal: " + e.Detail }

// ErrArrayBounds is returned for a literal with explicit bounds
// ('[0:1]={1,2}'), which ParseArray does not read.
var ErrArrayBounds = errors.New("array literal with explicit bounds")

// ArrayTooDeepError is a literal of more than MaxArrayDims dimensions.
type ArrayTooDeepError struct{ N int }

func (e *ArrayTooDeepError) Error() string {
	return fmt.Sprintf("number of array dimensions (%d) exceeds the maximum allowed (%d)", e.N, MaxArrayDims)
}

func isArraySpace(ch byte) bool {
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'
}

// ParseArray reads an array literal of any number of dimensions as
// array_in does: '{1,2}', '{{1,NULL},{"a b","c\"d"}}', '{}'. Sub-arrays of
// one level must have matching dimensions; an element beside a sub-array,
// an empty sub-array or anything after the closing brace is malformed.
// Elements are returned unescaped and with unquoted blanks trimmed.
func ParseArray(s []byte) (ArrayText, error) {
	p := &arrayParser{s: s}
	p.skipSpace()
	if p.pos < len(s) && s[p.pos] == '[' {
		return ArrayText{}, ErrArrayBounds
	}
	if p.pos >= len(s) || s[p.pos] != '{' {
		return ArrayText{}, &ArraySyntaxError{`Array value must start with "{" or dimension information.`}
	}
	p.pos++
	dims, err := p.level(1)
	if err != nil {
		return ArrayText{}, err
	}
	p.skipSpace()
	if p.pos != len(s) {
		return ArrayText{}, &ArraySyntaxError{"Junk after closing right brace."}
	}
	if len(p.out.Elems) == 0 {
		dims = nil
	}
	p.out.Dims = dims
	return p.out, nil
}

type arrayParser struct {
	s   []byte
	pos int
	out ArrayText
}

func (p *arrayParser) skipSpace() {
	for p.pos < len(p.s) && isArraySpace(p.s[p.pos]) {
		p.pos++
	}
}

func (p *arrayParser) unexpected() error {
	if p.pos >= len(p.s) {
		return &ArraySyntaxError{"Unexpected end of input."}
	}
	return &ArraySyntaxError{fmt.Sprintf("Unexpected \"%c\" character.", p.s[p.pos])}
}

// level reads the inside of one pair of braces (the '{' consumed) at
// nesting depth, and returns the dimensions it spans: its own length
// first, then those of its sub-arrays.
func (p *arrayParser) level(depth int) ([]int, error) {
	if depth > MaxArrayDims {
		return nil, &ArrayTooDeepError{N: depth}
	}
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		if depth > 1 {
			// '{{},{}}': PostgreSQL has no empty sub-arrays.
			return nil, p.unexpected()
		}
		p.pos++
		return []int{0}, nil
	}
	var sub []int // dimensions of this level's sub-arrays, once one is read
	n, scalars := 0, false
	for {
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.unexpected()
		}
		if p.s[p.pos] == '{' {
			if scalars {
				return nil, p.unexpected()
			}
			p.pos++
			d, err := p.level(depth + 1)
			if err != nil {
				return nil, err
			}
			if sub == nil {
				sub = d
			} else if !equalDims(sub, d) {
				return nil, &ArraySyntaxError{"Multidimensional arrays must have sub-arrays with matching dimensions."}
			}
		} else {
			if sub != nil {
				return nil, &ArraySyntaxError{"Unexpected array element."}
			}
			scalars = true
			if err := p.element(); err != nil {
				return nil, err
			}
		}
		n++
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.unexpected()
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
			continue
		case '}':
			p.pos++
			return append([]int{n}, sub...), nil
		}
		return nil, p.unexpected()
	}
}

func equalDims(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// element reads one element up to the ',' or '}' after it.
func (p *arrayParser) element() error {
	var el []byte
	quoted, any, hadQuote := false, false, false
	trail := 0 // length of el up to the last byte that is not unquoted space
	for {
		if p.pos >= len(p.s) {
			return p.unexpected()
		}
		ch := p.s[p.pos]
		if !quoted && (ch == ',' || ch == '}') {
			break
		}
		switch {
		case ch == '\\':
			if p.pos+1 >= len(p.s) {
				p.pos++
				return p.unexpected()
			}
			el = append(el, p.s[p.pos+1])
			p.pos += 2
			trail, any, hadQuote = len(el), true, true
			continue
		case ch == '"':
			quoted = !quoted
			trail, any, hadQuote = len(el), true, true
			p.pos++
			continue
		case ch == '{' && !quoted:
			return p.unexpected()
		}
		el = append(el, ch)
		if quoted || !isArraySpace(ch) {
			trail, any = len(el), true
		}
		p.pos++
	}
	if !any {
		return p.unexpected()
	}
	el = el[:trail]
	p.out.Elems = append(p.out.Elems, el)
	p.out.Null = append(p.out.Null, !hadQuote && len(el) == 4 && (el[0]|0x20) == 'n' && (el[1]|0x20) == 'u' && (el[2]|0x20) == 'l' && (el[3]|0x20) == 'l')
	return nil
}
