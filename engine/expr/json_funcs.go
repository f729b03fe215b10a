package expr

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// JSON access. A json argument is a struct, map or list value, or text
// holding JSON; a json result is text holding jsonb's canonical text (the
// binder types it jsonb).
//
//	name                          arguments                         result
//	->                            json, text key | int4 index       json (NULL when absent; a
//	                                                                negative index counts from the end)
//	->>                           json, text key | int4 index       text (strings unquoted, JSON null
//	                                                                is NULL)
//	#>  #>>                       json, list<text> path             json | text
//	jsonb_extract_path            json, text, text, ...             json (as #>)
//	jsonb_extract_path_text       json, text, text, ...             text (as #>>)
//	jsonb_array_length            json                              int4 (22023 for a non-array)
//	jsonb_typeof                  json                              text
//	to_jsonb                      any (text is a JSON string)       json

// isJSONArg reports whether t can be a json argument.
func isJSONArg(t arrow.DataType) bool {
	switch t.(type) {
	case *arrow.StructType, *arrow.MapType, *arrow.ListType:
		return true
	}
	k := kindOf(t)
	return k == kText || k == kNull
}

func resolveJSON(fn string, args []arrow.DataType) (Resolved, bool, error) {
	n := len(args)
	// json keeps a json argument's type (NULL becomes text).
	json := func(t arrow.DataType) arrow.DataType {
		if kindOf(t) == kNull {
			return Text
		}
		return t
	}
	switch fn {
	case "->", "->>":
		if n != 2 || !isJSONArg(args[0]) {
			break
		}
		switch k := kindOf(args[1]); {
		case k == kText || k == kNull:
			return Resolved{Args: []arrow.DataType{json(args[0]), Text}, Result: Text}, true, nil
		case k.isInt():
			return Resolved{Args: []arrow.DataType{json(args[0]), Int4}, Result: Text}, true, nil
		}
		return Resolved{}, true, noArrayOperator(fn, args[0], args[1])
	case "#>", "#>>":
		if n != 2 || !isJSONArg(args[0]) {
			break
		}
		if e, ok := listElem(args[1]); (ok && kindOf(e) == kText) || kindOf(args[1]) == kNull {
			path := args[1]
			if !ok {
				path = TextArray
			}
			return Resolved{Args: []arrow.DataType{json(args[0]), path}, Result: Text}, true, nil
		}
		return Resolved{}, true, noArrayOperator(fn, args[0], args[1])
	case "jsonb_extract_path", "jsonb_extract_path_text":
		if n < 2 || !isJSONArg(args[0]) {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		out := []arrow.DataType{json(args[0])}
		if e, ok := listElem(args[n-1]); n == 2 && ok && kindOf(e) == kText {
			return Resolved{Args: append(out, args[1]), Result: Text}, true, nil
		}
		if !allKinds(args[1:], kText) {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		for range args[1:] {
			out = append(out, Text)
		}
		return Resolved{Args: out, Result: Text}, true, nil
	case "jsonb_array_length", "jsonb_typeof":
		if n != 1 || !isJSONArg(args[0]) {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		res := Text
		if fn == "jsonb_array_length" {
			res = Int4
		}
		return Resolved{Args: []arrow.DataType{json(args[0])}, Result: res}, true, nil
	case "to_jsonb":
		if n != 1 {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		return Resolved{Args: []arrow.DataType{json(args[0])}, Result: Text}, true, nil
	default:
		return Resolved{}, false, nil
	}
	return Resolved{}, true, noArrayFunction(fn, args)
}

// jsonReaderOf reads row i of a json argument as a value (nil for NULL),
// valid until the next row is read.
func (c *compiler) jsonReaderOf(v vec, asText bool) (func(i int) (*pgtext.JSON, error), error) {
	t := v.arr.DataType()
	m := v.idx()
	if t.ID() == arrow.NULL {
		return func(int) (*pgtext.JSON, error) { return nil, nil }, nil
	}
	if kindOf(t) == kText && !asText {
		s := readArrText(v)
		var p pgtext.JSONParser
		return func(i int) (*pgtext.JSON, error) {
			b, ok := s.get(i)
			if !ok {
				return nil, nil
			}
			return p.Parse(b)
		}, nil
	}
	conv, err := jsonOf(t, c.tz)
	if err != nil {
		return nil, err
	}
	f := conv(v.arr)
	return func(i int) (*pgtext.JSON, error) {
		if v.arr.IsNull(i & m) {
			return nil, nil
		}
		return f(i & m), nil
	}, nil
}

func (c *compiler) jsonKernel(fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	switch fn {
	case "->", "->>", "#>", "#>>", "jsonb_extract_path", "jsonb_extract_path_text",
		"jsonb_array_length", "jsonb_typeof", "to_jsonb":
	default:
		return nil, false, nil
	}
	if len(ts) == 0 || (fn != "to_jsonb" && !isJSONArg(ts[0])) {
		return nil, true, noArrayFunction(fn, ts)
	}
	asText := strings.HasSuffix(fn, ">>") || fn == "jsonb_extract_path_text"
	switch fn {
	case "to_jsonb":
		return c.jsonUnary(func(v *pgtext.JSON, dst []byte) ([]byte, bool, error) { return pgtext.AppendJSONB(dst, v), true, nil }, true), true, nil
	case "jsonb_typeof":
		return c.jsonUnary(func(v *pgtext.JSON, dst []byte) ([]byte, bool, error) {
			return append(dst, v.TypeName()...), true, nil
		}, false), true, nil
	case "jsonb_array_length":
		return c.jsonArrayLength(), true, nil
	case "->", "->>":
		if len(ts) != 2 {
			return nil, true, noArrayFunction(fn, ts)
		}
		return c.jsonPath(asText, false, func(args []vec) func(i int) ([][]byte, []int64, bool) {
			if kindOf(args[1].arr.DataType()) == kInt4 {
				k := readArrInt4(args[1])
				return func(i int) ([][]byte, []int64, bool) {
					v, ok := k.get(i)
					return nil, []int64{int64(v)}, ok
				}
			}
			k := readArrText(args[1])
			return func(i int) ([][]byte, []int64, bool) {
				v, ok := k.get(i)
				return [][]byte{v}, nil, ok
			}
		}), true, nil
	}
	// #>, #>>, jsonb_extract_path[_text]: a path of text steps.
	if e, ok := listElem(ts[len(ts)-1]); len(ts) == 2 && ok && kindOf(e) == kText || len(ts) == 2 && kindOf(ts[1]) == kNull && fn[0] == '#' {
		return c.jsonPath(asText, true, func(args []vec) func(i int) ([][]byte, []int64, bool) {
			lv := readListVec(args[1])
			return func(i int) ([][]byte, []int64, bool) {
				if lv.null(i) {
					return nil, nil, false
				}
				s, e := lv.bounds(i)
				steps := make([][]byte, 0, e-s)
				txt := binaryOf(vec{arr: lv.vals})
				for k := s; k < e; k++ {
					if lv.elemNull(k) {
						return nil, nil, false
					}
					steps = append(steps, txt.get(k))
				}
				return steps, nil, true
			}
		}), true, nil
	}
	if !allKinds(ts[1:], kText) {
		return nil, true, noArrayFunction(fn, ts)
	}
	return c.jsonPath(asText, true, func(args []vec) func(i int) ([][]byte, []int64, bool) {
		rs := make([]arrText, len(args)-1)
		for k := range rs {
			rs[k] = readArrText(args[k+1])
		}
		return func(i int) ([][]byte, []int64, bool) {
			steps := make([][]byte, len(rs))
			for k, r := range rs {
				v, ok := r.get(i)
				if !ok {
					return nil, nil, false
				}
				steps[k] = v
			}
			return steps, nil, true
		}
	}), true, nil
}

// jsonUnary applies f to each non-NULL json value (a text argument is a
// JSON string when asValue, else JSON text to parse).
func (c *compiler) jsonUnary(f func(v *pgtext.JSON, dst []byte) ([]byte, bool, error), asValue bool) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		get, err := c.jsonReaderOf(args[0], asValue)
		if err != nil {
			return vec{}, err
		}
		return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
			v, err := get(i)
			if err != nil || v == nil {
				return dst, false, err
			}
			return f(v, dst)
		})
	}
}

func (c *compiler) jsonArrayLength() kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		get, err := c.jsonReaderOf(args[0], false)
		if err != nil {
			return vec{}, err
		}
		vals := make([]int32, n)
		valid := make([]bool, n)
		for i := 0; i < n; i++ {
			v, err := get(i)
			if err != nil {
				return vec{}, err
			}
			if v == nil {
				continue
			}
			switch v.Kind {
			case pgtext.JSONArray:
				vals[i], valid[i] = int32(len(v.Elems)), true
			case pgtext.JSONObject:
				return vec{}, pgerr.New(pgerr.InvalidParameterValue, "cannot get array length of a non-array")
			default:
				return vec{}, pgerr.New(pgerr.InvalidParameterValue, "cannot get array length of a scalar")
			}
		}
		return arrInt4Rows(ev, n, cst, func(i int) (int32, bool) { return vals[i], valid[i] }), nil
	}
}

// jsonPath follows a path of steps from each json value: text steps are
// object keys (or, on arrays when arrayKeys, integer indexes), int steps
// array indexes.
// steps answers row i's path (ok false: a NULL step, NULL result).
func (c *compiler) jsonPath(asText, arrayKeys bool, steps func(args []vec) func(i int) ([][]byte, []int64, bool)) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		get, err := c.jsonReaderOf(args[0], false)
		if err != nil {
			return vec{}, err
		}
		path := steps(args)
		return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
			keys, idx, ok := path(i)
			if !ok {
				return dst, false, nil
			}
			v, err := get(i)
			if err != nil || v == nil {
				return dst, false, err
			}
			for _, k := range idx {
				if v = v.Index(k); v == nil {
					return dst, false, nil
				}
			}
			for _, k := range keys {
				switch v.Kind {
				case pgtext.JSONObject:
					v = v.Field(k)
				case pgtext.JSONArray:
					if !arrayKeys {
						return dst, false, nil
					}
					p, err := strconv.ParseInt(strings.TrimSpace(string(k)), 10, 32)
					if err != nil {
						return dst, false, nil
					}
					v = v.Index(p)
				default:
					v = nil
				}
				if v == nil {
					return dst, false, nil
				}
			}
			if asText {
				out, ok := pgtext.AppendJSONBText(dst, v)
				return out, ok, nil
			}
			return pgtext.AppendJSONB(dst, v), true, nil
		})
	}
}
