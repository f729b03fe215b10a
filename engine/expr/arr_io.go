package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// Array text input and output: array_in ('{1,2,NULL}'::int[]) and
// array_out (an array's text, as ::text and the wire print it).

func malformedArray(s []byte, detail string) *pgerr.Error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "malformed array literal: \"%s\"", s).WithDetail("%s", detail)
}

// splitArrayText reads a one-dimensional array literal into its element
// texts; null[k] marks an unquoted NULL.
func splitArrayText(s []byte) (elems [][]byte, null []bool, err error) {
	isSpace := func(ch byte) bool {
		return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'
	}
	p := 0
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	if p < len(s) && s[p] == '[' {
		return nil, nil, pgerr.Unsupported("array literals with dimensions")
	}
	if p >= len(s) || s[p] != '{' {
		return nil, nil, malformedArray(s, `Array value must start with "{" or dimension information.`)
	}
	p++
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	if p < len(s) && s[p] == '}' {
		p++
		for p < len(s) && isSpace(s[p]) {
			p++
		}
		if p != len(s) {
			return nil, nil, malformedArray(s, "Junk after closing right brace.")
		}
		return nil, nil, nil
	}
	for {
		for p < len(s) && isSpace(s[p]) {
			p++
		}
		if p < len(s) && s[p] == '{' {
			return nil, nil, pgerr.Unsupported("multidimensional arrays")
		}
		var el []byte
		quoted, any, hadQuote := false, false, false
		trail := 0 // length of el up to the last byte that is not unquoted space
		for {
			if p >= len(s) {
				return nil, nil, malformedArray(s, "Unexpected end of input.")
			}
			ch := s[p]
			if !quoted && (ch == ',' || ch == '}') {
				break
			}
			switch {
			case ch == '\\':
				if p+1 >= len(s) {
					return nil, nil, malformedArray(s, "Unexpected end of input.")
				}
				el = append(el, s[p+1])
				p += 2
				trail, any, hadQuote = len(el), true, true
				continue
			case ch == '"':
				quoted = !quoted
				trail, any, hadQuote = len(el), true, true
				p++
				continue
			case ch == '{' && !quoted:
				return nil, nil, malformedArray(s, `Unexpected "{" character.`)
			}
			el = append(el, ch)
			if quoted || !isSpace(ch) {
				trail, any = len(el), true
			}
			p++
		}
		if !any {
			return nil, nil, malformedArray(s, `Unexpected "`+string(s[p])+`" character.`)
		}
		el = el[:trail]
		elems = append(elems, el)
		null = append(null, !hadQuote && len(el) == 4 && (el[0]|0x20) == 'n' && (el[1]|0x20) == 'u' && (el[2]|0x20) == 'l' && (el[3]|0x20) == 'l')
		if s[p] == '}' {
			p++
			break
		}
		p++
	}
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	if p != len(s) {
		return nil, nil, malformedArray(s, "Junk after closing right brace.")
	}
	return elems, null, nil
}

// arrayIn is array_in: text -> list<T>, each element read by T's input.
func (c *compiler) arrayIn(t *arrow.ListType) (kernelFn, error) {
	conv, err := castKernel(Text, t.Elem(), c.tz)
	if err != nil {
		return nil, err
	}
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		src := readArrText(args[0])
		sb := array.NewStringBuilder(ev.mem)
		defer sb.Release()
		o := newListOut(ev.mem, n)
		for i := 0; i < n; i++ {
			s, ok := src.get(i)
			if !ok {
				o.endRow(true)
				continue
			}
			elems, nulls, err := splitArrayText(s)
			if err != nil {
				o.idx.Release()
				return vec{}, err
			}
			for k, el := range elems {
				if nulls[k] {
					o.elem(-1)
					continue
				}
				o.elem(sb.Len())
				sb.BinaryBuilder.Append(el)
			}
			o.endRow(false)
		}
		texts := sb.NewArray()
		defer texts.Release()
		vals, err := conv(arrSubEval(ev, texts.Len()), []vec{{arr: texts}})
		if err != nil {
			o.idx.Release()
			return vec{}, err
		}
		defer vals.arr.Release()
		out, err := o.finish(ev, t, vals.arr)
		if err != nil {
			return vec{}, fmt.Errorf("array input: %w", err)
		}
		return vec{arr: out, c: cst}, nil
	}, nil
}

// arrayOut is array_out: {a,b,NULL}, elements double-quoted when empty,
// NULL in any case, or holding braces, commas, quotes, backslashes or
// white space.
func (c *compiler) arrayOut() kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		lv := readListVec(args[0])
		var scratch []byte
		return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
			if lv.null(i) {
				return dst, false, nil
			}
			s, e := lv.bounds(i)
			dst = append(dst, '{')
			for j := s; j < e; j++ {
				if j > s {
					dst = append(dst, ',')
				}
				if lv.elemNull(j) {
					dst = pgtext.AppendArrayNull(dst)
					continue
				}
				scratch = appendElemText(scratch[:0], lv.vals, j, c)
				dst = pgtext.AppendArrayElement(dst, scratch)
			}
			return append(dst, '}'), true, nil
		})
	}
}
