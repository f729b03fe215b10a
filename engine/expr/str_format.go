package expr

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// format(), quote_ident, quote_literal and quote_nullable as PostgreSQL
// writes them.

// nonUnreservedKeywords are PostgreSQL 15's keywords that quote_ident
// quotes (reserved, column-name and type-or-function-name keywords).
var nonUnreservedKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range bytes.Fields([]byte(`all analyse analyze and any array as asc asymmetric authorization
between bigint binary bit boolean both case cast char character check coalesce collate collation column
concurrently constraint create cross current_catalog current_date current_role current_schema current_time
current_timestamp current_user dec decimal default deferrable desc distinct do else end except exists
extract false fetch float for foreign freeze from full grant greatest group grouping having ilike in
initially inner inout int integer intersect interval into is isnull join lateral leading least left like
limit localtime localtimestamp national natural nchar none normalize not notnull null nullif numeric
offset on only or order out outer overlaps overlay placing position precision primary real references
returning right row select session_user setof similar smallint some substring symmetric table tablesample
then time timestamp to trailing treat trim true union unique user using values varchar variadic verbose
when where window with xmlattributes xmlconcat xmlelement xmlexists xmlforest xmlnamespaces xmlparse
xmlpi xmlroot xmlserialize xmltable`)) {
		m[string(w)] = true
	}
	return m
}()

// appendQuotedIdent appends s, double-quoted when it is not a plain
// lower-case identifier or is a keyword that needs quoting.
func appendQuotedIdent(dst, s []byte) []byte {
	safe := len(s) > 0 && (s[0] >= 'a' && s[0] <= 'z' || s[0] == '_')
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			safe = false
			break
		}
	}
	if safe && !nonUnreservedKeywords[string(s)] {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for _, c := range s {
		if c == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// appendQuotedLiteral appends s as a string literal: quotes doubled, and
// with E” and doubled backslashes when s has a backslash.
func appendQuotedLiteral(dst, s []byte) []byte {
	if bytes.IndexByte(s, '\\') >= 0 {
		dst = append(dst, 'E')
	}
	dst = append(dst, '\'')
	for _, c := range s {
		if c == '\'' || c == '\\' {
			dst = append(dst, c)
		}
		dst = append(dst, c)
	}
	return append(dst, '\'')
}

// quoteNullableKernel is quote_nullable: quote_literal, or NULL unquoted.
func quoteNullableKernel(ev *evalCtx, args []vec) (vec, error) {
	n, c := outLen(ev, args)
	v := nullableValidity(args[0])
	ra := newRowArgs(args)
	b := array.NewStringBuilder(ev.mem)
	defer b.Release()
	var buf []byte
	for i := 0; i < n; i++ {
		if !v.valid(i) {
			b.Append("NULL")
			continue
		}
		buf = appendQuotedLiteral(buf[:0], ra.s(0, i))
		b.BinaryBuilder.Append(buf)
	}
	return vec{arr: b.NewArray(), c: c}, nil
}

func formatError(msg string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, msg, args...)
}

// formatKernel is format(fmt, args...); arguments arrive as text.
func formatKernel(ev *evalCtx, args []vec) (vec, error) {
	n, c := outLen(ev, args)
	vs := make([]bitmap, len(args))
	for j, a := range args {
		vs[j] = nullableValidity(a)
	}
	ra := newOutputRow(args)
	b := array.NewStringBuilder(ev.mem)
	defer b.Release()
	var buf []byte
	row := 0
	arg := func(k int) ([]byte, bool) {
		if !vs[k].valid(row) {
			return nil, false
		}
		return ra.s(k, row), true
	}
	for i := 0; i < n; i++ {
		if !vs[0].valid(i) {
			b.AppendNull()
			continue
		}
		row = i
		var err error
		buf, err = formatRow(buf[:0], ra.s(0, i), len(args)-1, arg)
		if err != nil {
			return vec{}, err
		}
		b.BinaryBuilder.Append(buf)
	}
	return vec{arr: b.NewArray(), c: c}, nil
}

// formatRow formats one row. nargs counts the values after the format;
// arg(k) is value k (1-based) and whether it is not NULL.
func formatRow(dst, f []byte, nargs int, arg func(k int) ([]byte, bool)) ([]byte, error) {
	next := 1 // the argument a specifier without n$ takes
	for len(f) > 0 {
		p := bytes.IndexByte(f, '%')
		if p < 0 {
			return append(dst, f...), nil
		}
		dst = append(dst, f[:p]...)
		f = f[p+1:]
		if len(f) == 0 {
			return nil, unterminatedFormat()
		}
		if f[0] == '%' {
			dst = append(dst, '%')
			f = f[1:]
			continue
		}
		// [argpos$][-][width|*|*n$]type
		argPos := 0
		if k, rest, ok := leadingInt(f); ok && len(rest) > 0 && rest[0] == '$' {
			if k == 0 {
				return nil, formatError("format specifies argument 0, but arguments are numbered from 1")
			}
			argPos, f = k, rest[1:]
		}
		left := false
		for len(f) > 0 && f[0] == '-' {
			left, f = true, f[1:]
		}
		width := 0
		if len(f) > 0 && f[0] == '*' {
			f = f[1:]
			wPos := 0
			if k, rest, ok := leadingInt(f); ok && len(rest) > 0 && rest[0] == '$' {
				if k == 0 {
					return nil, formatError("format specifies argument 0, but arguments are numbered from 1")
				}
				wPos, f = k, rest[1:]
			} else {
				wPos = next
				next++
			}
			if wPos > nargs {
				return nil, formatError("too few arguments for format()")
			}
			if v, ok := arg(wPos); ok {
				w, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 32)
				if err != nil {
					return nil, invalidInput("integer", string(v))
				}
				width = int(w)
				if width < 0 {
					left, width = true, -width
				}
			}
		} else if k, rest, ok := leadingInt(f); ok {
			width, f = k, rest
		}
		if len(f) == 0 {
			return nil, unterminatedFormat()
		}
		typ, tw := utf8.DecodeRune(f)
		f = f[tw:]
		if typ != 's' && typ != 'I' && typ != 'L' {
			return nil, formatError("unrecognized format() type specifier \"%c\"", typ).
				WithHint("%s", `For a single "%" use "%%".`)
		}
		if argPos == 0 {
			argPos = next
		}
		next = argPos + 1
		if argPos > nargs {
			return nil, formatError("too few arguments for format()")
		}
		v, ok := arg(argPos)
		start := len(dst)
		switch {
		case typ == 's':
			dst = append(dst, v...)
		case typ == 'I':
			if !ok {
				return nil, pgerr.New(pgerr.NullValueNotAllowed, "null values cannot be formatted as an SQL identifier")
			}
			dst = appendQuotedIdent(dst, v)
		case !ok:
			dst = append(dst, "NULL"...)
		default:
			dst = appendQuotedLiteral(dst, v)
		}
		if pad := width - utf8.RuneCount(dst[start:]); pad > 0 {
			if left {
				dst = append(dst, bytes.Repeat([]byte(" "), pad)...)
			} else {
				dst = append(dst[:start], append(bytes.Repeat([]byte(" "), pad), dst[start:]...)...)
			}
		}
	}
	return dst, nil
}

func unterminatedFormat() *pgerr.Error {
	return formatError("unterminated format() type specifier").WithHint("%s", `For a single "%" use "%%".`)
}

// leadingInt reads the decimal digits at the start of f.
func leadingInt(f []byte) (int, []byte, bool) {
	k, i := 0, 0
	for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
		if k > (1<<31-1)/10 {
			return 0, f, false
		}
		k = k*10 + int(f[i]-'0')
	}
	return k, f[i:], i > 0
}
