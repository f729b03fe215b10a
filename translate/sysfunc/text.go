package sysfunc

import (
	"context"
	"maps"
	"strconv"
	"strings"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// parse_ident and json_build_object: text functions clients send while
// introspecting (Superset builds its column descriptions with
// json_build_object).

func addTextFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"parse_ident":       {Bind: bindParseIdent},
		"json_build_object": {Bind: bindJSONBuildObject},
	})
}

// bindParseIdent is parse_ident(text [, strict bool]): the parts of a
// qualified identifier, unquoted, unquoted parts folded to lower case.
func bindParseIdent(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1, 2); err != nil {
		return bind.Bound{}, err
	}
	ts := []plan.Type{plan.TText, plan.TBool}[:len(c.Args)]
	return b.SysCall(c, plan.Type{OID: pgtypes.TextArray, Typmod: -1}, b.SysArgs(c, ts...), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		strict := len(v) < 2 || boolValue(v[1])
		parts, err := ParseIdent(bind.TextValue(v[0]), strict)
		if err != nil {
			return nil, err
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			out[i] = p
		}
		return out, nil
	})
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}
func isIdentCont(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// ParseIdent splits a qualified identifier as PostgreSQL's parse_ident
// does; not strict, it stops at the first character that cannot follow an
// identifier.
func ParseIdent(s string, strict bool) ([]string, error) {
	bad := func(detail string) error {
		e := invalidParameter("string is not a valid identifier: \"%s\"", s)
		if detail != "" {
			e = e.WithDetail("%s", detail)
		}
		return e
	}
	var parts []string
	i := 0
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	skip()
	afterDot := false
	for {
		missing := true
		switch {
		case i < len(s) && s[i] == '"':
			var sb strings.Builder
			i++
			closed := false
			for i < len(s) {
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						sb.WriteByte('"')
						i += 2
						continue
					}
					closed = true
					i++
					break
				}
				sb.WriteByte(s[i])
				i++
			}
			if !closed {
				return nil, bad("String has unclosed double quotes.")
			}
			if sb.Len() == 0 {
				return nil, bad("Quoted identifier must not be empty.")
			}
			parts = append(parts, sb.String())
			missing = false
		case i < len(s) && isIdentStart(s[i]):
			start := i
			for i < len(s) && isIdentCont(s[i]) {
				i++
			}
			parts = append(parts, parse.ASCIILower(s[start:i]))
			missing = false
		}
		if missing {
			switch {
			case i < len(s) && s[i] == '.':
				return nil, bad("No valid identifier before \".\".")
			case afterDot:
				return nil, bad("No valid identifier after \".\".")
			}
			return nil, bad("")
		}
		skip()
		if i < len(s) && s[i] == '.' {
			afterDot = true
			i++
			skip()
			continue
		}
		if i >= len(s) {
			break
		}
		if strict {
			return nil, bad("")
		}
		break
	}
	return parts, nil
}

// jsonArgKind is how json_build_object renders one argument.
type jsonArgKind int

const (
	jsonString  jsonArgKind = iota // quoted text
	jsonRaw                        // numbers and JSON values: as they are
	jsonBool                       // true / false
	jsonNumeric                    // a float: NaN and infinities are quoted
	jsonArray                      // a list, rendered element by element
)

// bindJSONBuildObject is json_build_object(key, value, ...): a json
// object, keys as strings, values by type (numbers and booleans bare, json
// and jsonb embedded, arrays as JSON arrays, anything else as its text).
func bindJSONBuildObject(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if len(c.Args)%2 != 0 {
		return bind.Bound{}, b.ErrAt(invalidParameter("argument list must have even number of elements").
			WithHint("The arguments of json_build_object() must consist of alternating keys and values."), c.Loc())
	}
	args := make([]expr.Expr, len(c.Args))
	kinds := make([]jsonArgKind, len(c.Args))
	for i, a := range c.Args {
		switch {
		case a.Unknown():
			args[i], kinds[i] = b.Coerce(a, expr.Text), jsonString
		case a.T.OID == pgtypes.JSON || a.T.OID == pgtypes.JSONB:
			args[i], kinds[i] = b.Coerce(a, expr.Text), jsonRaw
		case a.T.OID == pgtypes.Bool:
			args[i], kinds[i] = a.E, jsonBool
		case a.T.OID == pgtypes.Int2 || a.T.OID == pgtypes.Int4 || a.T.OID == pgtypes.Int8 || a.T.OID == pgtypes.Numeric ||
			pgtypes.IsOIDType(a.T.OID) && !pgtypes.IsRegType(a.T.OID):
			args[i], kinds[i] = b.Coerce(a, expr.Text), jsonRaw
		case a.T.OID == pgtypes.Float4 || a.T.OID == pgtypes.Float8:
			args[i], kinds[i] = b.Coerce(a, expr.Text), jsonNumeric
		case pgtypes.ElemOf(a.T.OID) != 0:
			args[i], kinds[i] = a.E, jsonArray
		default:
			args[i], kinds[i] = b.Coerce(a, expr.Text), jsonString
		}
		if i%2 == 0 {
			kinds[i] = jsonString // keys are strings
		}
	}
	return b.SysCall(c, plan.Type{OID: pgtypes.JSON, Typmod: -1}, args, bind.SysCallOpts{Lenient: true}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		var sb strings.Builder
		sb.WriteByte('{')
		for i := 0; i < len(v); i += 2 {
			if v[i] == nil {
				return nil, invalidParameter("argument %d cannot be null", i+1).WithHint("Object keys should be text.")
			}
			if i > 0 {
				sb.WriteString(", ")
			}
			writeJSONValue(&sb, v[i], jsonString)
			sb.WriteString(" : ")
			writeJSONValue(&sb, v[i+1], kinds[i+1])
		}
		sb.WriteByte('}')
		return sb.String(), nil
	})
}

// writeJSONValue renders one value of json_build_object.
func writeJSONValue(sb *strings.Builder, v any, k jsonArgKind) {
	if v == nil {
		sb.WriteString("null")
		return
	}
	switch k {
	case jsonRaw:
		sb.WriteString(bind.TextValue(v))
	case jsonBool:
		sb.WriteString(strconv.FormatBool(boolValue(v)))
	case jsonNumeric:
		s := bind.TextValue(v)
		if s == "NaN" || s == "Infinity" || s == "-Infinity" {
			writeJSONString(sb, s)
		} else {
			sb.WriteString(s)
		}
	case jsonArray:
		list, _ := v.([]any)
		sb.WriteByte('[')
		for i, e := range list {
			if i > 0 {
				sb.WriteByte(',')
			}
			switch x := e.(type) {
			case nil:
				sb.WriteString("null")
			case string:
				writeJSONString(sb, x)
			case bool:
				sb.WriteString(strconv.FormatBool(x))
			default:
				if n, ok := bind.ToInt64(x); ok {
					sb.WriteString(strconv.FormatInt(n, 10))
				} else {
					writeJSONString(sb, bind.TextValue(x))
				}
			}
		}
		sb.WriteByte(']')
	default:
		writeJSONString(sb, bind.TextValue(v))
	}
}

// writeJSONString writes s as a JSON string, escaped as PostgreSQL's
// escape_json does.
func writeJSONString(sb *strings.Builder, s string) {
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\b':
			sb.WriteString(`\b`)
		case '\f':
			sb.WriteString(`\f`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		default:
			if c < 0x20 {
				sb.WriteString(`\u00`)
				sb.WriteByte("0123456789abcdef"[c>>4])
				sb.WriteByte("0123456789abcdef"[c&15])
			} else {
				sb.WriteByte(c)
			}
		}
	}
	sb.WriteByte('"')
}
