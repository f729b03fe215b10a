package expr

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// JSON building. The binder turns each value into a JSON fragment first
// (to_json or to_jsonb of it, a json or jsonb value as it is) and passes
// fragments as text; these functions only assemble them, so a nested json
// value keeps its own text as PostgreSQL keeps it.
//
//	name                          arguments                         result
//	to_json                       any                               json text (arrays compact: [1,2])
//	json_build_object             text key, text fragment, ...      {"k" : v, "k2" : v2}
//	jsonb_build_object            text key, text fragment, ...      jsonb's text
//	json_build_array              text fragment, ...                [v, v2]
//	jsonb_build_array             text fragment, ...                jsonb's text
//	json_row                      text key, text fragment, ...      {"k":v,"k2":v2} (a row as row_to_json)
//	json_row_pretty               text key, text fragment, ...      {"k":v,\n "k2":v2} (row_to_json(x, true))
//	json_object_pair              text key, text fragment           "k" : v (NULL for a NULL key)
//	json_agg_finish               list<text> of fragments           [v, v2]
//	json_agg_finish_nl            list<text> of fragments           [v, \n v2] (rows and arrays)
//	jsonb_agg_finish              list<text> of fragments           jsonb's text
//	json_object_agg_finish        list<text> of pairs               { "k" : v, "k2" : v2 } (22023 for a NULL pair)
//	jsonb_object_agg_finish       list<text> of pairs               jsonb's text
//
// A NULL fragment is JSON null.

func resolveJSONBuild(fn string, args []arrow.DataType) (Resolved, bool, error) {
	n := len(args)
	texts := func() (Resolved, bool, error) {
		out := make([]arrow.DataType, n)
		for i, a := range args {
			if k := kindOf(a); k != kText && k != kNull {
				return Resolved{}, true, noArrayFunction(fn, args)
			}
			out[i] = Text
		}
		return Resolved{Args: out, Result: Text}, true, nil
	}
	switch fn {
	case "to_json":
		if n != 1 {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		t := args[0]
		if kindOf(t) == kNull {
			t = Text
		}
		return Resolved{Args: []arrow.DataType{t}, Result: Text}, true, nil
	case "json_build_object", "jsonb_build_object", "json_row", "json_row_pretty":
		if n%2 != 0 {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		return texts()
	case "json_object_pair":
		if n != 2 {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		return texts()
	case "json_build_array", "jsonb_build_array":
		return texts()
	case "json_agg_finish", "json_agg_finish_nl", "jsonb_agg_finish", "json_object_agg_finish", "jsonb_object_agg_finish":
		if n != 1 {
			return Resolved{}, true, noArrayFunction(fn, args)
		}
		if e, ok := listElem(args[0]); ok && kindOf(e) == kText || kindOf(args[0]) == kNull {
			return Resolved{Args: []arrow.DataType{TextArray}, Result: Text}, true, nil
		}
		return Resolved{}, true, noArrayFunction(fn, args)
	}
	return Resolved{}, false, nil
}

func (c *compiler) jsonBuildKernel(fn string, ts []arrow.DataType) (kernelFn, bool, error) {
	switch fn {
	case "to_json":
		return c.toJSON(ts[0]), true, nil
	case "json_build_object":
		return jsonAssemble(func(dst []byte, f [][]byte) ([]byte, error) {
			if k := nullKey(f); k >= 0 {
				return dst, pgerr.New(pgerr.InvalidParameterValue, "argument %d cannot be null", k+1).WithHint("Object keys should be text.")
			}
			return appendJSONPairs(dst, f, "{", " : ", ", ", "}"), nil
		}), true, nil
	case "json_row":
		return jsonAssemble(func(dst []byte, f [][]byte) ([]byte, error) {
			return appendJSONPairs(dst, f, "{", ":", ",", "}"), nil
		}), true, nil
	case "json_row_pretty":
		return jsonAssemble(func(dst []byte, f [][]byte) ([]byte, error) {
			return appendJSONPairs(dst, f, "{", ":", ",\n ", "}"), nil
		}), true, nil
	case "jsonb_build_object":
		return jsonAssemble(func(dst []byte, f [][]byte) ([]byte, error) {
			if k := nullKey(f); k >= 0 {
				return dst, pgerr.New(pgerr.InvalidParameterValue, "argument %d: key must not be null", k+1)
			}
			return reparseJSONB(dst, appendJSONPairs(nil, f, "{", ":", ",", "}"))
		}), true, nil
	case "json_object_pair":
		return func(ev *evalCtx, args []vec) (vec, error) {
			n, cst := outLen(ev, args)
			k, v := readArrText(args[0]), readArrText(args[1])
			return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
				key, ok := k.get(i)
				if !ok {
					// NULL: the aggregate fails on it if a row brings it
					// in (a FILTER may leave it out).
					return dst, false, nil
				}
				dst = pgtext.AppendJSONString(dst, key)
				dst = append(dst, " : "...)
				return appendFragment(dst, v, i), true, nil
			})
		}, true, nil
	case "json_build_array":
		return jsonAssemble(func(dst []byte, f [][]byte) ([]byte, error) {
			return appendJSONList(dst, f, "[", ", ", "]"), nil
		}), true, nil
	case "jsonb_build_array":
		return jsonAssemble(func(dst []byte, f [][]byte) ([]byte, error) {
			return reparseJSONB(dst, appendJSONList(nil, f, "[", ",", "]"))
		}), true, nil
	case "json_agg_finish":
		return jsonFinish(func(dst []byte, f [][]byte) ([]byte, error) {
			return appendJSONList(dst, f, "[", ", ", "]"), nil
		}), true, nil
	case "json_agg_finish_nl":
		return jsonFinish(func(dst []byte, f [][]byte) ([]byte, error) {
			dst = append(dst, '[')
			for k, v := range f {
				if k > 0 {
					dst = append(dst, ", "...)
					if v != nil {
						dst = append(dst, "\n "...)
					}
				}
				dst = appendJSONFrag(dst, v)
			}
			return append(dst, ']'), nil
		}), true, nil
	case "jsonb_agg_finish":
		return jsonFinish(func(dst []byte, f [][]byte) ([]byte, error) {
			return reparseJSONB(dst, appendJSONList(nil, f, "[", ",", "]"))
		}), true, nil
	case "json_object_agg_finish":
		return jsonFinish(func(dst []byte, f [][]byte) ([]byte, error) {
			if err := nullPair(f); err != nil {
				return dst, err
			}
			return appendJSONList(dst, f, "{ ", ", ", " }"), nil
		}), true, nil
	case "jsonb_object_agg_finish":
		return jsonFinish(func(dst []byte, f [][]byte) ([]byte, error) {
			if err := nullPair(f); err != nil {
				return dst, err
			}
			return reparseJSONB(dst, appendJSONList(nil, f, "{", ",", "}"))
		}), true, nil
	}
	return nil, false, nil
}

// nullPair fails for a NULL pair of json_object_agg: a NULL key.
func nullPair(f [][]byte) error {
	for _, v := range f {
		if v == nil {
			return pgerr.New(pgerr.InvalidParameterValue, "field name must not be null")
		}
	}
	return nil
}

// nullKey is the position of the first NULL key among key, value
// fragments, or -1.
func nullKey(f [][]byte) int {
	for k := 0; k < len(f); k += 2 {
		if f[k] == nil {
			return k
		}
	}
	return -1
}

// appendFragment appends row i's fragment, null for NULL.
func appendFragment(dst []byte, v arrText, i int) []byte {
	f, ok := v.get(i)
	if !ok {
		return append(dst, "null"...)
	}
	return append(dst, f...)
}

// jsonAssemble builds one JSON text per row from its fragments (nil for a
// NULL one).
func jsonAssemble(f func(dst []byte, frags [][]byte) ([]byte, error)) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		rs := make([]arrText, len(args))
		for k := range args {
			rs[k] = readArrText(args[k])
		}
		frags := make([][]byte, len(args))
		return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
			for k, r := range rs {
				v, ok := r.get(i)
				switch {
				case !ok:
					v = nil
				case v == nil:
					v = []byte{} // an empty string, not NULL
				}
				frags[k] = v
			}
			out, err := f(dst, frags)
			return out, err == nil, err
		})
	}
}

// jsonFinish builds one JSON text per list of fragments; a NULL list (no
// rows aggregated) is NULL.
func jsonFinish(f func(dst []byte, frags [][]byte) ([]byte, error)) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		lv := readListVec(args[0])
		var txt bytesOf
		if lv.vals != nil {
			txt = binaryOf(vec{arr: lv.vals})
		}
		var frags [][]byte
		return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
			if lv.null(i) {
				return dst, false, nil
			}
			s, e := lv.bounds(i)
			frags = frags[:0]
			for k := s; k < e; k++ {
				if lv.elemNull(k) {
					frags = append(frags, nil)
				} else {
					v := txt.get(k)
					if v == nil {
						v = []byte{} // an empty string, not NULL
					}
					frags = append(frags, v)
				}
			}
			out, err := f(dst, frags)
			return out, err == nil, err
		})
	}
}

func appendJSONPairs(dst []byte, f [][]byte, open, colon, sep, end string) []byte {
	dst = append(dst, open...)
	for k := 0; k+1 < len(f); k += 2 {
		if k > 0 {
			dst = append(dst, sep...)
		}
		dst = pgtext.AppendJSONString(dst, f[k])
		dst = append(dst, colon...)
		dst = appendJSONFrag(dst, f[k+1])
	}
	return append(dst, end...)
}

func appendJSONList(dst []byte, f [][]byte, open, sep, end string) []byte {
	dst = append(dst, open...)
	for k, v := range f {
		if k > 0 {
			dst = append(dst, sep...)
		}
		dst = appendJSONFrag(dst, v)
	}
	return append(dst, end...)
}

func appendJSONFrag(dst, f []byte) []byte {
	if f == nil {
		return append(dst, "null"...)
	}
	return append(dst, f...)
}

// reparseJSONB appends jsonb's text of the JSON text src.
func reparseJSONB(dst, src []byte) ([]byte, error) {
	var p pgtext.JSONParser
	v, err := p.Parse(src)
	if err != nil {
		return dst, err
	}
	return pgtext.AppendJSONB(dst, v), nil
}

// toJSON is to_json: values as json writes them (arrays and maps
// compact, floats as float8 prints them).
func (c *compiler) toJSON(t arrow.DataType) kernelFn {
	switch t.(type) { // Resolve gave a dictionary's value type
	case *arrow.Float32Type, *arrow.Float64Type:
		bits := 64
		if _, ok := t.(*arrow.Float32Type); ok {
			bits = 32
		}
		return func(ev *evalCtx, args []vec) (vec, error) {
			n, cst := outLen(ev, args)
			a, m := args[0].arr, args[0].idx()
			return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
				if a.IsNull(i & m) {
					return dst, false, nil
				}
				var f float64
				if bits == 32 {
					f = float64(a.(*array.Float32).Value(i & m))
				} else {
					f = a.(*array.Float64).Value(i & m)
				}
				if math.IsNaN(f) || math.IsInf(f, 0) {
					return pgtext.AppendJSONString(dst, AppendFloat(nil, f, bits)), true, nil
				}
				return AppendFloat(dst, f, bits), true, nil
			})
		}
	}
	return c.jsonUnary(func(v *pgtext.JSON, dst []byte) ([]byte, bool, error) { return appendJSONCompact(dst, v), true, nil }, true)
}

// appendJSONCompact writes v as json writes arrays and composite values:
// no blanks between elements.
func appendJSONCompact(dst []byte, v *pgtext.JSON) []byte {
	switch v.Kind {
	case pgtext.JSONObject:
		dst = append(dst, '{')
		for k, key := range v.Keys {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = pgtext.AppendJSONString(dst, key)
			dst = append(dst, ':')
			dst = appendJSONCompact(dst, v.Elems[k])
		}
		return append(dst, '}')
	case pgtext.JSONArray:
		dst = append(dst, '[')
		for k, e := range v.Elems {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONCompact(dst, e)
		}
		return append(dst, ']')
	}
	return pgtext.AppendJSONB(dst, v)
}
