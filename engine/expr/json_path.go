package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// SQL/JSON path functions (pgtext.JSONPath has the forms supported):
//
// each with optional vars (jsonb: the values of $name) and silent (bool:
// SQL/JSON data errors make the result NULL) arguments:
//
//	jsonb_path_exists(json, text path)       bool   the path selects an item
//	jsonb_path_match(json, text path)        bool   the path's single boolean (NULL for null);
//	                                                22038 for another result
//	jsonb_path_query_array(json, text path)  json   the items selected, as an array
//	jsonb_path_query_first(json, text path)  json   the first item selected, NULL if none
//
// jsonb_path_query, the set of the items, is a table function
// (engine/exec/srf_json.go).

func resolveJSONPath(fn string, args []arrow.DataType) (Resolved, bool, error) {
	var res arrow.DataType
	switch fn {
	case "jsonb_path_exists", "jsonb_path_match":
		res = Bool
	case "jsonb_path_query_array", "jsonb_path_query_first":
		res = Text
	default:
		return Resolved{}, false, nil
	}
	textOrNull := func(t arrow.DataType) bool { return kindOf(t) == kText || kindOf(t) == kNull }
	if len(args) < 2 || len(args) > 4 || !isJSONArg(args[0]) || !textOrNull(args[1]) ||
		len(args) > 2 && !textOrNull(args[2]) || len(args) > 3 && kindOf(args[3]) != kBool && kindOf(args[3]) != kNull {
		return Resolved{}, true, noArrayFunction(fn, args)
	}
	a0 := args[0]
	if kindOf(a0) == kNull {
		a0 = Text
	}
	out := []arrow.DataType{a0, Text, Text, Bool}[:len(args)]
	return Resolved{Args: out, Result: res}, true, nil
}

// JSONPathCache compiles the paths of a column of them, once per
// distinct text in a row.
type JSONPathCache struct {
	src  string
	path *pgtext.JSONPath
}

// Get compiles src, or returns the path compiled last when it is the same.
func (c *JSONPathCache) Get(src []byte) (*pgtext.JSONPath, error) {
	if c.path != nil && string(src) == c.src {
		return c.path, nil
	}
	p, err := pgtext.CompileJSONPath(string(src))
	if err != nil {
		return nil, err
	}
	c.src, c.path = string(src), p
	return p, nil
}

func (c *compiler) jsonPathKernel(fn string) (kernelFn, bool) {
	switch fn {
	case "jsonb_path_exists", "jsonb_path_match", "jsonb_path_query_array", "jsonb_path_query_first":
	default:
		return nil, false
	}
	return func(ev *evalCtx, args []vec) (vec, error) {
		n, cst := outLen(ev, args)
		get, err := c.jsonReaderOf(args[0], false)
		if err != nil {
			return vec{}, err
		}
		paths := readArrText(args[1])
		var cache JSONPathCache
		vars := func(int) (*pgtext.JSON, bool, error) { return nil, true, nil }
		if len(args) > 2 {
			vs := readArrText(args[2])
			vars = func(i int) (*pgtext.JSON, bool, error) {
				b, ok := vs.get(i)
				if !ok {
					return nil, false, nil
				}
				v, err := pgtext.ParseJSONB(b)
				return v, err == nil, err
			}
		}
		silent := func(int) (bool, bool) { return false, true }
		if len(args) > 3 {
			sv, m := args[3], args[3].idx()
			silent = func(i int) (bool, bool) {
				if sv.arr.DataType().ID() == arrow.NULL || sv.arr.IsNull(i&m) {
					return false, false
				}
				return sv.arr.(*array.Boolean).Value(i & m), true
			}
		}
		query := func(i int) ([]*pgtext.JSON, bool, error) {
			v, err := get(i)
			if err != nil || v == nil {
				return nil, false, err
			}
			src, ok := paths.get(i)
			if !ok {
				return nil, false, nil
			}
			p, err := cache.Get(src)
			if err != nil {
				return nil, false, err
			}
			vv, ok, err := vars(i)
			if err != nil || !ok {
				return nil, false, err
			}
			quiet, ok := silent(i)
			if !ok {
				return nil, false, nil
			}
			items, err := p.QueryVars(v, vv)
			if err != nil && quiet && pgtext.SilentJSONPathError(err) {
				return nil, false, nil
			}
			return items, err == nil, err
		}
		if fn == "jsonb_path_query_array" || fn == "jsonb_path_query_first" {
			return arrTextRows(ev, n, cst, func(i int, dst []byte) ([]byte, bool, error) {
				items, ok, err := query(i)
				if err != nil || !ok {
					return dst, false, err
				}
				if fn == "jsonb_path_query_first" {
					if len(items) == 0 {
						return dst, false, nil
					}
					return pgtext.AppendJSONB(dst, items[0]), true, nil
				}
				return pgtext.AppendJSONB(dst, &pgtext.JSON{Kind: pgtext.JSONArray, Elems: items}), true, nil
			})
		}
		vals, valid := make([]bool, n), make([]bool, n)
		for i := 0; i < n; i++ {
			items, ok, err := query(i)
			if err != nil {
				return vec{}, err
			}
			if !ok {
				continue
			}
			if fn == "jsonb_path_exists" {
				vals[i], valid[i] = len(items) > 0, true
				continue
			}
			if len(items) != 1 || items[0].Kind != pgtext.JSONTrue && items[0].Kind != pgtext.JSONFalse && items[0].Kind != pgtext.JSONNull {
				return vec{}, pgerr.New(pgerr.SingletonSQLJSONItemRequired, "single boolean result is expected")
			}
			vals[i], valid[i] = items[0].Kind == pgtext.JSONTrue, items[0].Kind != pgtext.JSONNull
		}
		return arrBoolRows(ev, n, cst, func(i int) (bool, bool) { return vals[i], valid[i] }), nil
	}, true
}
