package exec

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// The set-returning functions of json and jsonb values, each a column of
// text (JSON text for a json or jsonb result: the binder types it):
//
//	jsonb_array_elements(j)       the elements of an array
//	jsonb_array_elements_text(j)  the same as text (a string unquoted, null NULL)
//	jsonb_object_keys(j)          the keys of an object
//	jsonb_each_keys(j)            jsonb_each's key column
//	jsonb_each_values(j)          jsonb_each's value column
//	jsonb_each_text_keys(j)       jsonb_each_text's key column
//	jsonb_each_text_values(j)     jsonb_each_text's value column (as text)
//	jsonb_to_record_input(j)      the object jsonb_to_record reads (one row, NULL for NULL)
//	jsonb_to_recordset_input(j)   the objects jsonb_to_recordset reads
//
// and the same of json_ (json_each_keys...), which keep the input as
// written: keys in their order, duplicates included, values' text
// unchanged. jsonb_each(j) is zip(jsonb_each_keys:1,jsonb_each_values:1):
// the two columns walk one object in step. A NULL argument makes no rows.
var jsonSRFs = map[string]bool{}

func init() {
	jsonSRFs["jsonb_path_query"] = true
	for _, p := range []string{"json", "jsonb"} {
		for _, f := range []string{"_array_elements", "_array_elements_text", "_object_keys",
			"_each_keys", "_each_values", "_each_text_keys", "_each_text_values",
			"_to_record_input", "_to_recordset_input", "_populate_record_input", "_populate_recordset_input",
			"_each_records", "_each_text_records"} {
			jsonSRFs[p+f] = true
		}
	}
}

// jsonSRFGen is one of jsonSRFs over one input row at a time.
type jsonSRFGen struct {
	fn    string
	paths expr.JSONPathCache // jsonb_path_query's
	b     *array.StringBuilder
	vals  [][]byte // the rows of the current input row; nil is NULL
	pos   int
}

func newJSONSRFGen(fn string, mem memory.Allocator) *jsonSRFGen {
	return &jsonSRFGen{fn: fn, b: array.NewStringBuilder(mem)}
}

// sqlName is the function PostgreSQL's errors name.
func (g *jsonSRFGen) sqlName() string {
	n := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(g.fn, "_keys"), "_values"), "_records")
	if strings.HasSuffix(g.fn, "object_keys") {
		return g.fn
	}
	return n
}

func (g *jsonSRFGen) begin(args []arrow.Array, i int) error {
	g.vals, g.pos = g.vals[:0], 0
	src, ok, err := textArg(args[0], i)
	if err != nil || !ok {
		if err == nil && strings.HasSuffix(g.fn, "_record_input") {
			g.vals = append(g.vals, nil) // a record of NULLs
		}
		return err
	}
	if g.fn == "jsonb_path_query" {
		return g.pathQuery(src, args[1:], i)
	}
	raw := strings.HasPrefix(g.fn, "json_")
	v, err := readJSONMembers(src, raw)
	if err != nil {
		return err
	}
	if strings.HasSuffix(g.fn, "_input") {
		return g.recordInput(v, src, raw)
	}
	asText := strings.HasSuffix(g.fn, "_text") || strings.HasSuffix(g.fn, "_text_values")
	switch {
	case strings.Contains(g.fn, "_array_elements"):
		if v.kind != pgtext.JSONArray {
			return g.notArray(v.kind, raw)
		}
		for _, e := range v.vals {
			g.vals = append(g.vals, jsonSRFValue(e, asText))
		}
	case strings.HasSuffix(g.fn, "_object_keys"):
		if v.kind != pgtext.JSONObject {
			what := "a scalar"
			if v.kind == pgtext.JSONArray {
				what = "an array"
			}
			return pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on %s", g.fn, what)
		}
		g.vals = append(g.vals, v.keys...)
	default: // _each
		if v.kind != pgtext.JSONObject {
			if raw {
				what := "a scalar"
				if v.kind == pgtext.JSONArray {
					what = "an array"
				}
				return pgerr.New(pgerr.InvalidParameterValue, "cannot deconstruct %s as an object", what)
			}
			return pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a non-object", g.sqlName())
		}
		if strings.HasSuffix(g.fn, "_keys") {
			g.vals = append(g.vals, v.keys...)
			break
		}
		if strings.HasSuffix(g.fn, "_records") {
			// (key,value) as a record's text, in a select list.
			for k, e := range v.vals {
				rec := appendRecordField(append([]byte{}, '('), v.keys[k])
				rec = append(rec, ',')
				if val := jsonSRFValue(e, strings.HasSuffix(g.fn, "_text_records")); val != nil {
					rec = appendRecordField(rec, val)
				}
				g.vals = append(g.vals, append(rec, ')'))
			}
			break
		}
		for _, e := range v.vals {
			g.vals = append(g.vals, jsonSRFValue(e, asText))
		}
	}
	return nil
}

// pathQuery is jsonb_path_query(j, path) of row i: the items selected.
// The optional vars and silent arguments follow path.
func (g *jsonSRFGen) pathQuery(src []byte, rest []arrow.Array, i int) error {
	path, ok, err := textArg(rest[0], i)
	if err != nil || !ok {
		return err
	}
	p, err := g.paths.Get(path)
	if err != nil {
		return err
	}
	v, err := pgtext.ParseJSONB(src)
	if err != nil {
		return err
	}
	var vars *pgtext.JSON
	if len(rest) > 1 {
		vs, ok, err := textArg(rest[1], i)
		if err != nil || !ok {
			return err
		}
		if vars, err = pgtext.ParseJSONB(vs); err != nil {
			return err
		}
	}
	silent := false
	if len(rest) > 2 {
		b, ok := rest[2].(*array.Boolean)
		if !ok || b.IsNull(i) {
			return nil
		}
		silent = b.Value(i)
	}
	items, err := p.QueryVars(v, vars)
	if err != nil {
		if silent && pgtext.SilentJSONPathError(err) {
			return nil
		}
		return err
	}
	for _, it := range items {
		g.vals = append(g.vals, pgtext.AppendJSONB(nil, it))
	}
	return nil
}

// recordInput is the input of [json|jsonb]_to_record[set] (v of text
// src): the object, or the objects of the array, as JSON text.
func (g *jsonSRFGen) recordInput(v jsonMembers, src []byte, raw bool) error {
	what := func(k pgtext.JSONKind) string {
		switch k {
		case pgtext.JSONArray:
			return "an array"
		case pgtext.JSONObject:
			return "an object"
		}
		return "a scalar"
	}
	name := strings.TrimSuffix(g.fn, "_input")
	if strings.HasSuffix(g.fn, "_record_input") {
		if v.kind != pgtext.JSONObject {
			return pgerr.New(pgerr.InvalidParameterValue, "cannot call populate_composite on %s", what(v.kind))
		}
		g.vals = append(g.vals, src)
		return nil
	}
	if v.kind != pgtext.JSONArray {
		if raw {
			return pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on %s", name, what(v.kind))
		}
		return pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a non-array", name)
	}
	for _, e := range v.vals {
		k := pgtext.JSONObject
		if e.v != nil {
			k = e.v.Kind
		} else if t := strings.TrimLeft(string(e.raw), " \t\n\r"); t == "" || t[0] != '{' {
			k = pgtext.JSONArray
		}
		if k != pgtext.JSONObject {
			return pgerr.New(pgerr.InvalidParameterValue, "argument of %s must be an array of objects", name)
		}
		g.vals = append(g.vals, jsonSRFValue(e, false))
	}
	return nil
}

func (g *jsonSRFGen) notArray(k pgtext.JSONKind, raw bool) error {
	if raw {
		if k == pgtext.JSONObject {
			return pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a non-array", g.fn)
		}
		return pgerr.New(pgerr.InvalidParameterValue, "cannot call %s on a scalar", g.fn)
	}
	if k == pgtext.JSONObject {
		return pgerr.New(pgerr.InvalidParameterValue, "cannot extract elements from an object")
	}
	return pgerr.New(pgerr.InvalidParameterValue, "cannot extract elements from a scalar")
}

func (g *jsonSRFGen) fill(n int) (int, error) {
	k := 0
	for ; k < n && g.pos < len(g.vals); k++ {
		if v := g.vals[g.pos]; v == nil {
			g.b.AppendNull()
		} else {
			g.b.BinaryBuilder.Append(v)
		}
		g.pos++
	}
	return k, nil
}

func (g *jsonSRFGen) appendNull() { g.b.AppendNull() }

func (g *jsonSRFGen) finish(context.Context) (arrow.Array, error) { return g.b.NewArray(), nil }

func (g *jsonSRFGen) release() { g.b.Release() }

// textArg reads row i of a text argument; ok false for NULL.
func textArg(a arrow.Array, i int) ([]byte, bool, error) {
	if a.IsNull(i) {
		return nil, false, nil
	}
	switch a := a.(type) {
	case *array.String:
		return []byte(a.Value(i)), true, nil
	case *array.LargeString:
		return []byte(a.Value(i)), true, nil
	case *array.Dictionary:
		return textArg(a.Dictionary(), a.GetValueIndex(i))
	case *array.Null:
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("json set-returning function over %s", a.DataType())
}

// jsonMember is one value of an object or array: jsonb's value, or for
// json its text as written.
type jsonMember struct {
	v   *pgtext.JSON
	raw []byte
}

// jsonMembers is a JSON value's kind and, for an object or array, its
// members.
type jsonMembers struct {
	kind pgtext.JSONKind
	keys [][]byte
	vals []jsonMember
}

// readJSONMembers reads JSON text src: as jsonb (keys sorted, duplicates
// merged, values normalized) or, raw, as json keeps it.
func readJSONMembers(src []byte, raw bool) (jsonMembers, error) {
	if !raw {
		v, err := pgtext.ParseJSONB(src)
		if err != nil {
			return jsonMembers{}, err
		}
		m := jsonMembers{kind: v.Kind}
		if v.Kind == pgtext.JSONObject {
			m.keys = v.Keys
		}
		if v.Kind == pgtext.JSONObject || v.Kind == pgtext.JSONArray {
			for _, e := range v.Elems {
				m.vals = append(m.vals, jsonMember{v: e})
			}
		}
		return m, nil
	}
	if err := pgtext.ValidateJSON(src); err != nil {
		return jsonMembers{}, err
	}
	s := jsonScanner{src: src}
	s.space()
	if s.pos >= len(src) {
		return jsonMembers{}, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type json")
	}
	switch src[s.pos] {
	case '[':
		m := jsonMembers{kind: pgtext.JSONArray}
		s.pos++
		for s.space(); s.pos < len(src) && src[s.pos] != ']'; s.space() {
			m.vals = append(m.vals, jsonMember{raw: s.value()})
			s.space()
			if s.pos < len(src) && src[s.pos] == ',' {
				s.pos++
			}
		}
		return m, nil
	case '{':
		m := jsonMembers{kind: pgtext.JSONObject}
		s.pos++
		for s.space(); s.pos < len(src) && src[s.pos] != '}'; s.space() {
			k, err := pgtext.ParseJSONB(s.value())
			if err != nil {
				return jsonMembers{}, err
			}
			m.keys = append(m.keys, k.Text)
			s.space()
			s.pos++ // ':'
			s.space()
			m.vals = append(m.vals, jsonMember{raw: s.value()})
			s.space()
			if s.pos < len(src) && src[s.pos] == ',' {
				s.pos++
			}
		}
		return m, nil
	}
	return jsonMembers{kind: pgtext.JSONNumber}, nil // a scalar
}

// jsonSRFValue is a member as a row: JSON text, or with asText as ->>
// gives it (nil for JSON null).
func jsonSRFValue(e jsonMember, asText bool) []byte {
	if e.v == nil {
		if !asText {
			return e.raw
		}
		v, err := pgtext.ParseJSONB(e.raw)
		if err != nil {
			return e.raw
		}
		switch v.Kind {
		case pgtext.JSONNull:
			return nil
		case pgtext.JSONString:
			return append([]byte{}, v.Text...)
		}
		return e.raw
	}
	if asText {
		out, ok := pgtext.AppendJSONBText([]byte{}, e.v)
		if !ok {
			return nil
		}
		return out
	}
	return pgtext.AppendJSONB([]byte{}, e.v)
}

// jsonScanner walks valid JSON text, value by value.
type jsonScanner struct {
	src []byte
	pos int
}

func (s *jsonScanner) space() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// value skips one value and returns its text.
func (s *jsonScanner) value() []byte {
	start, depth := s.pos, 0
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '"':
			s.pos++
			for s.pos < len(s.src) && s.src[s.pos] != '"' {
				if s.src[s.pos] == '\\' {
					s.pos++
				}
				s.pos++
			}
			s.pos++
		case c == '[' || c == '{':
			depth++
			s.pos++
		case c == ']' || c == '}':
			if depth == 0 {
				return s.src[start:s.pos]
			}
			depth--
			s.pos++
		case c == ',' || c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if depth == 0 {
				return s.src[start:s.pos]
			}
			s.pos++
		default:
			s.pos++
		}
		if depth == 0 && (c == '"' || c == ']' || c == '}') {
			return s.src[start:s.pos]
		}
	}
	return s.src[start:s.pos]
}

// jsonSRFType is the column type of one of jsonSRFs over args.
func jsonSRFType(fn string, args []arrow.DataType) (arrow.DataType, bool) {
	if fn == "jsonb_path_query" && len(args) >= 2 && len(args) <= 4 {
		for _, a := range args[1:min(len(args), 3)] {
			if _, ok := jsonSRFType("", []arrow.DataType{a}); !ok {
				return nil, false
			}
		}
		if len(args) == 4 && plainType(args[3]).ID() != arrow.BOOL && args[3].ID() != arrow.NULL {
			return nil, false
		}
		args = args[:1]
	}
	if len(args) != 1 {
		return nil, false
	}
	switch plainType(args[0]).ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.NULL:
		return expr.Text, true
	}
	return nil, false
}

// appendRecordField appends a field of a record's text as record_out
// writes it: double-quoted (quotes doubled, backslashes escaped) when
// empty or holding a quote, backslash, parenthesis, comma or white space.
func appendRecordField(dst, v []byte) []byte {
	quote := len(v) == 0
	for _, c := range v {
		switch c {
		case '"', '\\', '(', ')', ',', ' ', '\t', '\n', '\r', '\v', '\f':
			quote = true
		}
	}
	if !quote {
		return append(dst, v...)
	}
	dst = append(dst, '"')
	for _, c := range v {
		if c == '"' || c == '\\' {
			dst = append(dst, c)
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}
