package pgtext

import (
	"slices"
	"strconv"

	"github.com/icegate/icegate/internal/pgerr"
)

// jsonb's modification functions and operators, as PostgreSQL 15 defines
// them: jsonb_set, jsonb_insert, ||, - and #-, jsonb_strip_nulls. They
// build new values and never change their arguments (values share nodes).

// ConcatJSONB is a || b: two objects merge (b's value wins for a key both
// have), two arrays concatenate, and otherwise a non-array side counts as a
// one-element array.
func ConcatJSONB(a, b *JSON) *JSON {
	if a.Kind == JSONObject && b.Kind == JSONObject {
		keys := append(slices.Clone(a.Keys), b.Keys...)
		vals := append(slices.Clone(a.Elems), b.Elems...)
		return NewJSONObject(keys, vals)
	}
	elems := func(v *JSON) []*JSON {
		if v.Kind == JSONArray {
			return v.Elems
		}
		return []*JSON{v}
	}
	return &JSON{Kind: JSONArray, Elems: append(slices.Clone(elems(a)), elems(b)...)}
}

// DeleteJSONBKey is v - key: the object without key, or the array without
// its string elements equal to key.
func DeleteJSONBKey(v *JSON, key []byte) (*JSON, error) {
	switch v.Kind {
	case JSONObject:
		k, ok := slices.BinarySearchFunc(v.Keys, key, CompareJSONKeys)
		if !ok {
			return v, nil
		}
		return &JSON{Kind: JSONObject, Keys: slices.Delete(slices.Clone(v.Keys), k, k+1), Elems: slices.Delete(slices.Clone(v.Elems), k, k+1)}, nil
	case JSONArray:
		out := &JSON{Kind: JSONArray, Elems: make([]*JSON, 0, len(v.Elems))}
		for _, e := range v.Elems {
			if e.Kind != JSONString || string(e.Text) != string(key) {
				out.Elems = append(out.Elems, e)
			}
		}
		return out, nil
	}
	return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot delete from scalar")
}

// DeleteJSONBIndex is v - index: the array without element index (a
// negative one counting from the end).
func DeleteJSONBIndex(v *JSON, index int64) (*JSON, error) {
	switch v.Kind {
	case JSONArray:
		n := int64(len(v.Elems))
		if index < 0 {
			index += n
		}
		if index < 0 || index >= n {
			return v, nil
		}
		return &JSON{Kind: JSONArray, Elems: slices.Delete(slices.Clone(v.Elems), int(index), int(index)+1)}, nil
	case JSONObject:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot delete from object using integer index")
	}
	return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot delete from scalar")
}

// jsonPathIndex reads path element pos (1-based, for messages) as an array
// index.
func jsonPathIndex(step []byte, pos int) (int64, error) {
	n, err := strconv.ParseInt(string(step), 10, 32)
	if err != nil {
		return 0, pgerr.New(pgerr.InvalidTextRepresentation, "path element at position %d is not an integer: \"%s\"", pos, step)
	}
	return n, nil
}

// jsonPathOp is what happens at the end of a path.
type jsonPathOp int

const (
	jsonPathSet    jsonPathOp = iota // jsonb_set
	jsonPathInsert                   // jsonb_insert
	jsonPathDelete                   // #-
)

// SetJSONBPath is jsonb_set(v, path, nv, create): v with the value at path
// replaced by nv, or added when the last step is missing and create is
// set. A missing intermediate step leaves v as it is.
func SetJSONBPath(v *JSON, path [][]byte, nv *JSON, create bool) (*JSON, error) {
	return editJSONBPath(v, path, nv, jsonPathSet, create)
}

// InsertJSONBPath is jsonb_insert(v, path, nv, after): nv inserted before
// (after) the array element at path, or added under the missing object
// key at path.
func InsertJSONBPath(v *JSON, path [][]byte, nv *JSON, after bool) (*JSON, error) {
	return editJSONBPath(v, path, nv, jsonPathInsert, after)
}

// DeleteJSONBPath is v #- path: v without the value at path.
func DeleteJSONBPath(v *JSON, path [][]byte) (*JSON, error) {
	return editJSONBPath(v, path, nil, jsonPathDelete, false)
}

func editJSONBPath(v *JSON, path [][]byte, nv *JSON, op jsonPathOp, flag bool) (*JSON, error) {
	if v.Kind != JSONObject && v.Kind != JSONArray {
		switch op {
		case jsonPathSet:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot set path in scalar")
		case jsonPathInsert:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot set path in scalar")
		}
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot delete path in scalar")
	}
	if len(path) == 0 {
		return v, nil
	}
	return editJSONBStep(v, path, 0, nv, op, flag)
}

func editJSONBStep(v *JSON, path [][]byte, i int, nv *JSON, op jsonPathOp, flag bool) (*JSON, error) {
	step, last := path[i], i == len(path)-1
	switch v.Kind {
	case JSONObject:
		k, found := slices.BinarySearchFunc(v.Keys, step, CompareJSONKeys)
		if !last {
			if !found {
				return v, nil
			}
			child := v.Elems[k]
			if child.Kind != JSONObject && child.Kind != JSONArray {
				return v, nil
			}
			nc, err := editJSONBStep(child, path, i+1, nv, op, flag)
			if err != nil || nc == child {
				return v, err
			}
			out := &JSON{Kind: JSONObject, Keys: v.Keys, Elems: slices.Clone(v.Elems)}
			out.Elems[k] = nc
			return out, nil
		}
		switch {
		case op == jsonPathDelete:
			if !found {
				return v, nil
			}
			return DeleteJSONBKey(v, step)
		case found && op == jsonPathInsert:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot replace existing key").
				WithHint("Try using the function jsonb_set to replace key value.")
		case found:
			out := &JSON{Kind: JSONObject, Keys: v.Keys, Elems: slices.Clone(v.Elems)}
			out.Elems[k] = nv
			return out, nil
		case op == jsonPathSet && !flag:
			return v, nil
		}
		return NewJSONObject(append(slices.Clone(v.Keys), step), append(slices.Clone(v.Elems), nv)), nil
	case JSONArray:
		idx, err := jsonPathIndex(step, i+1)
		if err != nil {
			return nil, err
		}
		n := int64(len(v.Elems))
		at := idx
		if at < 0 {
			at += n
		}
		if !last {
			if at < 0 || at >= n {
				return v, nil
			}
			child := v.Elems[at]
			if child.Kind != JSONObject && child.Kind != JSONArray {
				return v, nil
			}
			nc, err := editJSONBStep(child, path, i+1, nv, op, flag)
			if err != nil || nc == child {
				return v, err
			}
			out := &JSON{Kind: JSONArray, Elems: slices.Clone(v.Elems)}
			out.Elems[at] = nc
			return out, nil
		}
		switch op {
		case jsonPathDelete:
			return DeleteJSONBIndex(v, idx)
		case jsonPathSet:
			switch {
			case at >= 0 && at < n:
				out := &JSON{Kind: JSONArray, Elems: slices.Clone(v.Elems)}
				out.Elems[at] = nv
				return out, nil
			case !flag:
				return v, nil
			case at < 0:
				return &JSON{Kind: JSONArray, Elems: append([]*JSON{nv}, v.Elems...)}, nil
			}
			return &JSON{Kind: JSONArray, Elems: append(slices.Clone(v.Elems), nv)}, nil
		}
		// Insert before the element (after it with flag); past either end
		// at that end.
		pos := at
		if flag {
			pos++
		}
		pos = max(0, min(pos, n))
		return &JSON{Kind: JSONArray, Elems: slices.Insert(slices.Clone(v.Elems), int(pos), nv)}, nil
	}
	return v, nil
}

// StripJSONBNulls is jsonb_strip_nulls(v): v without the object members
// whose value is null, at every depth (array elements stay).
func StripJSONBNulls(v *JSON) *JSON {
	switch v.Kind {
	case JSONObject:
		out := &JSON{Kind: JSONObject}
		for k, e := range v.Elems {
			if e.Kind == JSONNull {
				continue
			}
			out.Keys = append(out.Keys, v.Keys[k])
			out.Elems = append(out.Elems, StripJSONBNulls(e))
		}
		return out
	case JSONArray:
		out := &JSON{Kind: JSONArray, Elems: make([]*JSON, len(v.Elems))}
		for k, e := range v.Elems {
			out.Elems[k] = StripJSONBNulls(e)
		}
		return out
	}
	return v
}

// AppendJSONBPretty appends jsonb_pretty's text of v: one member or
// element a line, indented by four spaces a level.
func AppendJSONBPretty(dst []byte, v *JSON) []byte {
	return appendJSONBPretty(dst, v, 0)
}

func appendJSONBPretty(dst []byte, v *JSON, depth int) []byte {
	indent := func(d int) {
		dst = append(dst, '\n')
		for range d {
			dst = append(dst, "    "...)
		}
	}
	switch v.Kind {
	case JSONObject:
		if len(v.Keys) == 0 {
			dst = append(dst, '{')
			indent(depth)
			return append(dst, '}')
		}
		dst = append(dst, '{')
		for k := range v.Keys {
			if k > 0 {
				dst = append(dst, ',')
			}
			indent(depth + 1)
			dst = AppendJSONString(dst, v.Keys[k])
			dst = append(dst, ": "...)
			dst = appendJSONBPretty(dst, v.Elems[k], depth+1)
		}
		indent(depth)
		return append(dst, '}')
	case JSONArray:
		if len(v.Elems) == 0 {
			dst = append(dst, '[')
			indent(depth)
			return append(dst, ']')
		}
		dst = append(dst, '[')
		for k, e := range v.Elems {
			if k > 0 {
				dst = append(dst, ',')
			}
			indent(depth + 1)
			dst = appendJSONBPretty(dst, e, depth+1)
		}
		indent(depth)
		return append(dst, ']')
	}
	return AppendJSONB(dst, v)
}
