package expr

import (
	"bytes"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Arrays to and from text: array_to_string and string_to_array.

// appendElemText appends element j of vals as PostgreSQL's output
// function of the element type prints it (booleans as t/f).
func appendElemText(dst []byte, vals arrow.Array, j int, c *compiler) []byte {
	if b, ok := vals.(*array.Boolean); ok {
		if b.Value(j) {
			return append(dst, 't')
		}
		return append(dst, 'f')
	}
	return AppendText(dst, vals, j, c.tz)
}

// arrayToString is array_to_string(list, delimiter [, null text]): the
// elements' text joined by the delimiter; NULL elements are skipped, or
// replaced by the null text when it is given and not NULL.
func (c *compiler) arrayToString() kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		lv := readListVec(args[0])
		delim := readArrText(args[1])
		var nullText arrText
		if len(args) > 2 {
			nullText = readArrText(args[2])
		} else {
			nullText = arrText{null: true}
		}
		return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
			d, ok := delim.get(i)
			if !ok || lv.null(i) {
				return dst, false, nil
			}
			ns, hasNull := nullText.get(i)
			s, e := lv.bounds(i)
			first := true
			for j := s; j < e; j++ {
				if lv.elemNull(j) && !hasNull {
					continue
				}
				if !first {
					dst = append(dst, d...)
				}
				first = false
				if lv.elemNull(j) {
					dst = append(dst, ns...)
					continue
				}
				dst = appendElemText(dst, lv.vals, j, c)
			}
			return dst, true, nil
		})
	}
}

// stringToArray is string_to_array(text, delimiter [, null text]): a
// NULL delimiter splits into characters, an empty one keeps the string
// whole; an empty string gives an empty array; fields equal to the null
// text become NULL.
func stringToArray(ev *evalCtx, args []vec) (vec, error) {
	n, c := outLen(ev, args)
	str, delim := readArrText(args[0]), readArrText(args[1])
	nullText := arrText{null: true}
	if len(args) > 2 {
		nullText = readArrText(args[2])
	}
	lb := array.NewListBuilder(ev.mem, Text)
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.StringBuilder)
	for i := 0; i < n; i++ {
		s, ok := str.get(i)
		if !ok {
			lb.AppendNull()
			continue
		}
		lb.Append(true)
		if len(s) == 0 {
			continue
		}
		ns, hasNull := nullText.get(i)
		field := func(f []byte) {
			if hasNull && bytes.Equal(f, ns) {
				vb.AppendNull()
				return
			}
			vb.BinaryBuilder.Append(f)
		}
		d, ok := delim.get(i)
		switch {
		case !ok:
			for len(s) > 0 {
				_, w := utf8.DecodeRune(s)
				field(s[:w])
				s = s[w:]
			}
		case len(d) == 0:
			field(s)
		default:
			for {
				k := bytes.Index(s, d)
				if k < 0 {
					field(s)
					break
				}
				field(s[:k])
				s = s[k+len(d):]
			}
		}
	}
	return vec{arr: lb.NewArray(), c: c}, nil
}
