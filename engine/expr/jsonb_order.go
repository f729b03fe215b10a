package expr

import (
	"encoding/binary"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// jsonb's order, equality and operators. The binder (bind/jsonb_ops.go)
// calls these for values it types jsonb, whatever their Arrow type (jsonb
// text, or a struct, map or list column):
//
//	function              arguments              result
//	jsonb_in              text                   jsonb text (22P02 for bad JSON): the cast ::jsonb
//	jsonb_sortkey         json                   binary whose byte order is jsonb's order, equal
//	                                             for equal values (1.0 and 1.00 are one number)
//	jsonb_exists          json, text             bool: ?  (a top-level key, or string element)
//	jsonb_exists_any      json, list<text>       bool: ?|
//	jsonb_exists_all      json, list<text>       bool: ?&
//	jsonb_contains        json, json             bool: @> (<@ with the arguments swapped)
//
// jsonb's order (PostgreSQL's "jsonb Indexing" section and
// compareJsonbContainers): object > array > boolean > number > string >
// null; objects with more pairs, and arrays with more elements, are
// greater; then pairs (key, then value) and elements in storage order;
// strings bytewise (the C collation), numbers as numeric. A top-level
// scalar is a one-element array that sorts before a real one-element
// array, so an empty top-level array sorts before every scalar.

const (
	jkNull   = 0x01
	jkString = 0x02
	jkNumber = 0x03
	jkBool   = 0x04
	jkArray  = 0x05
	jkObject = 0x06
)

// AppendJSONBSortKey appends the sort key of v (top is true for the
// value itself, false inside a container).
func AppendJSONBSortKey(dst []byte, v *pgtext.JSON, top bool) []byte {
	switch v.Kind {
	case pgtext.JSONArray, pgtext.JSONObject:
	default:
		if top { // a raw scalar: a one-element array first among those
			dst = append(dst, jkArray)
			dst = binary.BigEndian.AppendUint32(dst, 1)
			dst = append(dst, 0)
			return AppendJSONBSortKey(dst, v, false)
		}
	}
	switch v.Kind {
	case pgtext.JSONNull:
		return append(dst, jkNull)
	case pgtext.JSONString:
		return appendEscapedKey(append(dst, jkString), v.Text)
	case pgtext.JSONNumber:
		return appendNumberKey(append(dst, jkNumber), string(v.Text))
	case pgtext.JSONFalse:
		return append(dst, jkBool, 0)
	case pgtext.JSONTrue:
		return append(dst, jkBool, 1)
	case pgtext.JSONArray:
		dst = append(dst, jkArray)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(v.Elems)))
		dst = append(dst, 1)
		for _, e := range v.Elems {
			dst = AppendJSONBSortKey(dst, e, false)
		}
		return dst
	default: // object
		dst = append(dst, jkObject)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(v.Keys)))
		for k, key := range v.Keys {
			dst = appendEscapedKey(dst, key)
			dst = AppendJSONBSortKey(dst, v.Elems[k], false)
		}
		return dst
	}
}

// appendEscapedKey appends s so that bytewise order of the result is
// bytewise-then-length order of s: 0x00 is 0x00 0xFF, the end 0x00 0x00.
func appendEscapedKey(dst, s []byte) []byte {
	for _, c := range s {
		if c == 0 {
			dst = append(dst, 0, 0xFF)
			continue
		}
		dst = append(dst, c)
	}
	return append(dst, 0, 0)
}

// appendNumberKey appends numeric text as a key ordered as its value:
// a sign class (negative, zero, positive), then the decimal exponent and
// the significant digits (inverted for negatives).
func appendNumberKey(dst []byte, s string) []byte {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	exp10 := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		for _, c := range s[i+1:] {
			if c >= '0' && c <= '9' {
				exp10 = exp10*10 + int(c-'0')
			}
		}
		if strings.HasPrefix(s[i+1:], "-") {
			exp10 = -exp10
		}
		s = s[:i]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	// value = 0.digits × 10^e
	e := len(intPart) - (len(intPart+frac) - len(digits)) + exp10
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return append(dst, 0x02) // zero
	}
	if !neg {
		dst = append(dst, 0x03)
		dst = binary.BigEndian.AppendUint32(dst, uint32(int64(e)+1<<31))
		dst = append(dst, digits...)
		return append(dst, 0)
	}
	dst = append(dst, 0x01)
	dst = binary.BigEndian.AppendUint32(dst, uint32(1<<31-int64(e)))
	for i := 0; i < len(digits); i++ {
		dst = append(dst, 0xFF-digits[i])
	}
	return append(dst, 0xFF)
}

// JSONBContains is jsonb's @>: a scalar contains an equal scalar; an
// object contains an object whose every key it has with a value that
// contains the other's; an array contains an array whose every element
// some element of it contains; and, at the top level only, an array
// contains a scalar it has as an element.
func JSONBContains(a, b *pgtext.JSON, top bool) bool {
	switch {
	case a.Kind == pgtext.JSONObject && b.Kind == pgtext.JSONObject:
		for k, key := range b.Keys {
			av := a.Field(key)
			if av == nil || !JSONBContains(av, b.Elems[k], false) {
				return false
			}
		}
		return true
	case a.Kind == pgtext.JSONArray && b.Kind == pgtext.JSONArray:
		for _, be := range b.Elems {
			found := false
			for _, ae := range a.Elems {
				if JSONBContains(ae, be, false) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case a.Kind == pgtext.JSONArray && top && b.Kind != pgtext.JSONObject:
		for _, ae := range a.Elems {
			if ae.Kind != pgtext.JSONArray && ae.Kind != pgtext.JSONObject && JSONBContains(ae, b, false) {
				return true
			}
		}
		return false
	case a.Kind == pgtext.JSONArray || a.Kind == pgtext.JSONObject || b.Kind == pgtext.JSONArray || b.Kind == pgtext.JSONObject:
		return false
	}
	return string(AppendJSONBSortKey(nil, a, false)) == string(AppendJSONBSortKey(nil, b, false))
}

// jsonbExists is ?: key is a key of an object, or a string element of an
// array (or the string itself at the top level).
func jsonbExists(v *pgtext.JSON, key []byte) bool {
	switch v.Kind {
	case pgtext.JSONObject:
		return v.Field(key) != nil
	case pgtext.JSONArray:
		for _, e := range v.Elems {
			if e.Kind == pgtext.JSONString && string(e.Text) == string(key) {
				return true
			}
		}
		return false
	case pgtext.JSONString:
		return string(v.Text) == string(key)
	}
	return false
}

func resolveJSONB(fn string, args []arrow.DataType) (Resolved, bool, error) {
	n := len(args)
	jsonArg := func(t arrow.DataType) arrow.DataType {
		if kindOf(t) == kNull {
			return Text
		}
		return t
	}
	bad := func() (Resolved, bool, error) {
		return Resolved{}, true, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args))
	}
	switch fn {
	case "jsonb_in":
		if n != 1 || !isJSONArg(args[0]) || kindOf(args[0]) != kText && kindOf(args[0]) != kNull {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{Text}, Result: Text}, true, nil
	case "jsonb_sortkey":
		if n != 1 || !isJSONArg(args[0]) {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{jsonArg(args[0])}, Result: arrow.BinaryTypes.Binary}, true, nil
	case "jsonb_exists":
		if n != 2 || !isJSONArg(args[0]) {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{jsonArg(args[0]), Text}, Result: Bool}, true, nil
	case "jsonb_exists_any", "jsonb_exists_all":
		if n != 2 || !isJSONArg(args[0]) {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{jsonArg(args[0]), TextArray}, Result: Bool}, true, nil
	case "jsonb_contains":
		if n != 2 || !isJSONArg(args[0]) || !isJSONArg(args[1]) {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{jsonArg(args[0]), jsonArg(args[1])}, Result: Bool}, true, nil
	}
	return Resolved{}, false, nil
}

func kernelJSONB(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	switch fn {
	case "jsonb_in":
		return dtTextRows(func(args []vec) func(dst []byte, i int) ([]byte, error) {
			s := dtText(args[0])
			var p pgtext.JSONParser
			return func(dst []byte, i int) ([]byte, error) { return p.AppendJSONBFromText(dst, []byte(s(i))) }
		}), true, nil
	case "jsonb_sortkey":
		return c.jsonbRows(func(ev *evalCtx, n int, read []func(int) (*pgtext.JSON, error), _ []vec) (arrow.Array, error) {
			b := array.NewBinaryBuilder(ev.mem, arrow.BinaryTypes.Binary)
			defer b.Release()
			var buf []byte
			for i := 0; i < n; i++ {
				v, err := read[0](i)
				if err != nil {
					return nil, err
				}
				if v == nil {
					b.AppendNull()
					continue
				}
				buf = AppendJSONBSortKey(buf[:0], v, true)
				b.Append(buf)
			}
			return b.NewArray(), nil
		}, 1), true, nil
	case "jsonb_exists", "jsonb_exists_any", "jsonb_exists_all", "jsonb_contains":
		return c.jsonbRows(func(ev *evalCtx, n int, read []func(int) (*pgtext.JSON, error), args []vec) (arrow.Array, error) {
			b := array.NewBooleanBuilder(ev.mem)
			defer b.Release()
			var key func(i int) ([]byte, bool)
			var list listVec
			if fn == "jsonb_exists" {
				key = readArrText(args[1]).get
			} else if fn != "jsonb_contains" {
				list = readListVec(args[1])
			}
			for i := 0; i < n; i++ {
				v, err := read[0](i)
				if err != nil {
					return nil, err
				}
				if v == nil {
					b.AppendNull()
					continue
				}
				switch fn {
				case "jsonb_exists":
					k, ok := key(i)
					if !ok {
						b.AppendNull()
						continue
					}
					b.Append(jsonbExists(v, k))
				case "jsonb_contains":
					w, err := read[1](i)
					if err != nil {
						return nil, err
					}
					if w == nil {
						b.AppendNull()
						continue
					}
					b.Append(JSONBContains(v, w, true))
				default:
					if list.null(i) {
						b.AppendNull()
						continue
					}
					s, e := list.bounds(i)
					txt := binaryOf(vec{arr: list.vals})
					all := fn == "jsonb_exists_all"
					out := all
					for k := s; k < e; k++ {
						if list.elemNull(k) {
							continue // PostgreSQL skips NULL keys
						}
						if jsonbExists(v, txt.get(k)) != all {
							out = !all
							break
						}
					}
					b.Append(out)
				}
			}
			return b.NewArray(), nil
		}, max(1, map[string]int{"jsonb_contains": 2}[fn])), true, nil
	}
	return nil, false, nil
}

// jsonbRows is a kernel over rows whose first nJSON arguments are read as
// JSON values (nil for NULL); body builds the result column.
func (c *compiler) jsonbRows(body func(ev *evalCtx, n int, read []func(int) (*pgtext.JSON, error), args []vec) (arrow.Array, error), nJSON int) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		read := make([]func(int) (*pgtext.JSON, error), nJSON)
		for k := 0; k < nJSON; k++ {
			r, err := c.jsonReaderOf(args[k], false)
			if err != nil {
				return vec{}, err
			}
			// A text reader's value is valid until its next row; the
			// readers here finish with a row before reading the next.
			read[k] = r
		}
		arr, err := body(ev, n, read, args)
		if err != nil {
			return vec{}, err
		}
		return vec{arr: arr, c: cst}, nil
	}
}
