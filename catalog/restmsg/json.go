package restmsg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/icegate/icegate/catalog"
)

// object is a decoded JSON object whose members are read one by one, each
// read checking presence and JSON type. what names the object in errors
// ("update add-schema", "snapshot").
type object struct {
	what string
	m    map[string]json.RawMessage
}

func invalid(what, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", what, fmt.Sprintf(format, args...), catalog.ErrDataInvalid)
}

// openObject decodes raw, which must be a JSON object.
func openObject(what string, raw []byte) (object, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return object{}, invalid(what, "not a JSON object")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return object{}, fmt.Errorf("%s: %w: %w", what, catalog.ErrDataInvalid, err)
	}
	return object{what: what, m: m}, nil
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// has reports whether the member is present and not null.
func (o object) has(name string) bool { return !isNull(o.m[name]) }

func (o object) missing(name string) error {
	return invalid(o.what, "field %q is missing", name)
}

func (o object) wrongType(name, want string) error {
	return invalid(o.what, "field %q must be %s", name, want)
}

// member returns a required member whose JSON value starts with one of
// the bytes of starts (the JSON type).
func (o object) member(name, want, starts string) (json.RawMessage, error) {
	raw := bytes.TrimSpace(o.m[name])
	if isNull(raw) {
		return nil, o.missing(name)
	}
	if !bytes.ContainsAny(raw[:1], starts) {
		return nil, o.wrongType(name, want)
	}
	return raw, nil
}

func (o object) str(name string) (string, error) {
	raw, err := o.member(name, "a string", `"`)
	if err != nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", o.wrongType(name, "a string")
	}
	return s, nil
}

func (o object) boolean(name string) (bool, error) {
	raw, err := o.member(name, "a boolean", "tf")
	if err != nil {
		return false, err
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, o.wrongType(name, "a boolean")
	}
	return b, nil
}

// parseInteger reads a JSON number that is an integer, from its literal
// text (never through float64: ids need all 64 bits).
func parseInteger(raw []byte) (int64, bool) {
	if v, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return v, true
	}
	if !json.Valid(raw) {
		return 0, false
	}
	r, ok := new(big.Rat).SetString(string(raw))
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

func (o object) int64(name string) (int64, error) {
	raw, err := o.member(name, "an integer", "-0123456789")
	if err != nil {
		return 0, err
	}
	v, ok := parseInteger(raw)
	if !ok {
		return 0, o.wrongType(name, "a 64-bit integer")
	}
	return v, nil
}

func (o object) int(name string) (int, error) {
	v, err := o.int64(name)
	if err != nil {
		return 0, err
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, o.wrongType(name, "a 32-bit integer")
	}
	return int(v), nil
}

// optInt64 is an integer member that may be missing or null (nil).
func (o object) optInt64(name string) (*int64, error) {
	if !o.has(name) {
		return nil, nil
	}
	v, err := o.int64(name)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

func (o object) obj(name string) (json.RawMessage, error) {
	return o.member(name, "an object", "{")
}

func (o object) array(name string) ([]json.RawMessage, error) {
	raw, err := o.member(name, "an array", "[")
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, o.wrongType(name, "an array")
	}
	if out == nil {
		out = []json.RawMessage{}
	}
	return out, nil
}

func (o object) strings(name string) ([]string, error) {
	elems, err := o.array(name)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		var s string
		if e = bytes.TrimSpace(e); len(e) == 0 || e[0] != '"' || json.Unmarshal(e, &s) != nil {
			return nil, o.wrongType(name, "an array of strings")
		}
		out = append(out, s)
	}
	return out, nil
}

func (o object) int64s(name string) ([]int64, error) {
	elems, err := o.array(name)
	if err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(elems))
	for _, e := range elems {
		v, ok := parseInteger(bytes.TrimSpace(e))
		if !ok {
			return nil, o.wrongType(name, "an array of 64-bit integers")
		}
		out = append(out, v)
	}
	return out, nil
}

func (o object) stringMap(name string) (map[string]string, error) {
	raw, err := o.obj(name)
	if err != nil {
		return nil, err
	}
	var out map[string]string
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, o.wrongType(name, "an object of strings")
	}
	return out, nil
}

// check verifies the JSON types of members of a nested object that the
// catalog's metadata codec reads without checking them: required and
// optional integers, required strings, arrays and objects.
type shape struct {
	ints, optInts, strs, arrays, objs []string
}

func (o object) check(s shape) error {
	for _, n := range s.ints {
		if _, err := o.int64(n); err != nil {
			return err
		}
	}
	for _, n := range s.optInts {
		if _, err := o.optInt64(n); err != nil {
			return err
		}
	}
	for _, n := range s.strs {
		if _, err := o.str(n); err != nil {
			return err
		}
	}
	for _, n := range s.arrays {
		if _, err := o.array(n); err != nil {
			return err
		}
	}
	for _, n := range s.objs {
		if _, err := o.obj(n); err != nil {
			return err
		}
	}
	return nil
}

// writer writes a JSON object with members in the order put.
type writer struct {
	buf bytes.Buffer
	err error
}

func newWriter() *writer {
	w := &writer{}
	w.buf.WriteByte('{')
	return w
}

func (w *writer) sep() {
	if w.buf.Len() > 1 {
		w.buf.WriteByte(',')
	}
}

func (w *writer) put(key string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		if w.err == nil {
			w.err = fmt.Errorf("%s: %w", key, err)
		}
		return
	}
	w.raw(key, b)
}

func (w *writer) raw(key string, v json.RawMessage) {
	w.sep()
	k, _ := json.Marshal(key)
	w.buf.Write(k)
	w.buf.WriteByte(':')
	w.buf.Write(v)
}

// splice writes the members of a JSON object into this one.
func (w *writer) splice(obj json.RawMessage) {
	obj = bytes.TrimSpace(obj)
	inner := bytes.TrimSpace(obj[1 : len(obj)-1])
	if len(inner) == 0 {
		return
	}
	w.sep()
	w.buf.Write(inner)
}

func (w *writer) done() (json.RawMessage, error) {
	if w.err != nil {
		return nil, w.err
	}
	w.buf.WriteByte('}')
	return w.buf.Bytes(), nil
}
