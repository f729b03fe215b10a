package pgtext

import (
	"cmp"
	"slices"
)

// JSONKind is the kind of a JSON value.
type JSONKind byte

// The kinds of JSON values, as jsonb holds them.
const (
	JSONNull   JSONKind = 'z'
	JSONFalse  JSONKind = 'f'
	JSONTrue   JSONKind = 't'
	JSONNumber JSONKind = 'n'
	JSONString JSONKind = 's'
	JSONArray  JSONKind = 'a'
	JSONObject JSONKind = 'o'
)

// JSON is a value as jsonb holds it: object keys in jsonb's order (shorter
// first, then bytewise) without duplicates (the last wins), numbers in
// numeric's text, strings decoded. Values are read-only once built: the
// parser shares the literals' nodes and may share byte slices between
// values.
type JSON struct {
	Kind  JSONKind
	Text  []byte   // a string's decoded bytes; a number's numeric text
	Keys  [][]byte // an object's keys
	Elems []*JSON  // an array's elements; an object's values, one per key
}

var (
	jsonNullValue  = &JSON{Kind: JSONNull}
	jsonTrueValue  = &JSON{Kind: JSONTrue}
	jsonFalseValue = &JSON{Kind: JSONFalse}
)

// JSONNullValue is JSON null.
func JSONNullValue() *JSON { return jsonNullValue }

// JSONBool is JSON true or false.
func JSONBool(b bool) *JSON {
	if b {
		return jsonTrueValue
	}
	return jsonFalseValue
}

// TypeName is jsonb_typeof's answer for v.
func (v *JSON) TypeName() string {
	switch v.Kind {
	case JSONObject:
		return "object"
	case JSONArray:
		return "array"
	case JSONString:
		return "string"
	case JSONNumber:
		return "number"
	case JSONTrue, JSONFalse:
		return "boolean"
	}
	return "null"
}

// Field is the value of key in an object (nil when absent or v is not an
// object).
func (v *JSON) Field(key []byte) *JSON {
	if v.Kind != JSONObject {
		return nil
	}
	k, ok := slices.BinarySearchFunc(v.Keys, key, CompareJSONKeys)
	if !ok {
		return nil
	}
	return v.Elems[k]
}

// Index is element k of an array, a negative k counting from the end (nil
// when out of range or v is not an array).
func (v *JSON) Index(k int64) *JSON {
	if v.Kind != JSONArray {
		return nil
	}
	if k < 0 {
		k += int64(len(v.Elems))
	}
	if k < 0 || k >= int64(len(v.Elems)) {
		return nil
	}
	return v.Elems[k]
}

// CompareJSONKeys is jsonb's key order: shorter keys first, then bytewise.
func CompareJSONKeys(a, b []byte) int {
	if len(a) != len(b) {
		return cmp.Compare(len(a), len(b))
	}
	return slices.Compare(a, b)
}

// NewJSONObject builds an object from keys and values in input order,
// ordering keys as jsonb does and keeping the last of duplicate keys. The
// slices are not retained.
func NewJSONObject(keys [][]byte, vals []*JSON) *JSON {
	o := &JSON{Kind: JSONObject}
	o.Keys, o.Elems = sortJSONObject(keys, vals, make([][]byte, 0, len(keys)), make([]*JSON, 0, len(keys)))
	return o
}

// sortJSONObject appends to outKeys and outVals the members in jsonb's
// order, the last of duplicate keys kept. keys and vals are not modified.
func sortJSONObject(keys [][]byte, vals []*JSON, outKeys [][]byte, outVals []*JSON) ([][]byte, []*JSON) {
	if jsonKeysOrdered(keys) {
		for k := range keys {
			if k+1 < len(keys) && string(keys[k+1]) == string(keys[k]) {
				continue
			}
			outKeys = append(outKeys, keys[k])
			outVals = append(outVals, vals[k])
		}
		return outKeys, outVals
	}
	// A stable sort keeps duplicates in input order, so the last of a run
	// is the one that wins.
	type member struct {
		key []byte
		val *JSON
	}
	ms := make([]member, len(keys))
	for k := range keys {
		ms[k] = member{keys[k], vals[k]}
	}
	slices.SortStableFunc(ms, func(a, b member) int { return CompareJSONKeys(a.key, b.key) })
	for k := range ms {
		if k+1 < len(ms) && string(ms[k+1].key) == string(ms[k].key) {
			continue
		}
		outKeys = append(outKeys, ms[k].key)
		outVals = append(outVals, ms[k].val)
	}
	return outKeys, outVals
}

// jsonKeysOrdered reports keys already in jsonb's order (equal keys
// allowed), the common case of generated JSON.
func jsonKeysOrdered(keys [][]byte) bool {
	for k := 1; k < len(keys); k++ {
		if CompareJSONKeys(keys[k-1], keys[k]) > 0 {
			return false
		}
	}
	return true
}

// AppendJSONB appends jsonb's text of v: {"k": v, ...}, [a, b], strings
// escaped as PostgreSQL's escape_json does, numbers as numeric prints them.
func AppendJSONB(dst []byte, v *JSON) []byte {
	switch v.Kind {
	case JSONObject:
		dst = append(dst, '{')
		for k, key := range v.Keys {
			if k > 0 {
				dst = append(dst, ", "...)
			}
			dst = AppendJSONString(dst, key)
			dst = append(dst, ": "...)
			dst = AppendJSONB(dst, v.Elems[k])
		}
		return append(dst, '}')
	case JSONArray:
		dst = append(dst, '[')
		for k, e := range v.Elems {
			if k > 0 {
				dst = append(dst, ", "...)
			}
			dst = AppendJSONB(dst, e)
		}
		return append(dst, ']')
	case JSONString:
		return AppendJSONString(dst, v.Text)
	case JSONNumber:
		return append(dst, v.Text...)
	case JSONTrue:
		return append(dst, "true"...)
	case JSONFalse:
		return append(dst, "false"...)
	}
	return append(dst, "null"...)
}

// AppendJSONBText appends the text ->> gives of v: a string unquoted, any
// other value as jsonb prints it. ok is false for JSON null (SQL NULL).
func AppendJSONBText(dst []byte, v *JSON) (out []byte, ok bool) {
	switch v.Kind {
	case JSONString:
		return append(dst, v.Text...), true
	case JSONNull:
		return dst, false
	}
	return AppendJSONB(dst, v), true
}

// jsonEscapes maps each byte escape_json escapes to its escape's second
// byte ('u' for \u00XX); 0 for bytes written as they are.
var jsonEscapes = [256]byte{
	'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't',
	0x00: 'u', 0x01: 'u', 0x02: 'u', 0x03: 'u', 0x04: 'u', 0x05: 'u', 0x06: 'u', 0x07: 'u',
	0x0b: 'u', 0x0e: 'u', 0x0f: 'u', 0x10: 'u', 0x11: 'u', 0x12: 'u', 0x13: 'u', 0x14: 'u',
	0x15: 'u', 0x16: 'u', 0x17: 'u', 0x18: 'u', 0x19: 'u', 0x1a: 'u', 0x1b: 'u', 0x1c: 'u',
	0x1d: 'u', 0x1e: 'u', 0x1f: 'u',
}

// AppendJSONString appends s as a JSON string, escaped as PostgreSQL's
// escape_json does: \" \\ \b \f \n \r \t, other control bytes as \u00XX,
// every other byte (DEL, non-ASCII) as it is.
func AppendJSONString(dst, s []byte) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for k, ch := range s {
		e := jsonEscapes[ch]
		if e == 0 {
			continue
		}
		dst = append(dst, s[start:k]...)
		start = k + 1
		if e == 'u' {
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[ch>>4], hexDigits[ch&0xf])
		} else {
			dst = append(dst, '\\', e)
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
