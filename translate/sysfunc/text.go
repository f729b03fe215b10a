package sysfunc

import (
	"context"
	"maps"
	"strings"

	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// parse_ident: a text function clients send while introspecting.

func addTextFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"parse_ident": {Bind: bindParseIdent},
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
