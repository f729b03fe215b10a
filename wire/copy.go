package wire

import (
	"context"
	"strings"

	"github.com/icegate/icegate/translate"
)

// COPY's sub-protocol: after Prepare, a statement that is a
// translate.CopyFromStatement or translate.CopyToStatement runs here
// instead of through the normal result path: CopyInResponse and the
// client's CopyData stream (copy_in.go), or CopyOutResponse and one
// CopyData per row (copy_out.go). Both formats' rules live in
// copy_format.go.

// isCopy reports whether st runs the COPY sub-protocol.
func isCopy(st translate.Statement) bool {
	switch st.(type) {
	case translate.CopyFromStatement, translate.CopyToStatement:
		return true
	}
	return false
}

// runCopy runs st if it is a COPY statement; handled is false otherwise.
// sql is the statement's text, for the table name of error messages ("" when
// unknown).
func (c *conn) runCopy(ctx context.Context, st translate.Statement, params []*string, sql string) (handled bool, err error) {
	switch s := st.(type) {
	case translate.CopyFromStatement:
		return true, c.copyIn(ctx, s, copyTableName(sql))
	case translate.CopyToStatement:
		return true, c.copyOut(ctx, s, params)
	}
	return false, nil
}

// copyTableName returns the table name of a statement text that starts with
// COPY name, as PostgreSQL names it in COPY's error context (the last part
// of the name, case-folded unless quoted), or "" when it does not.
func copyTableName(sql string) string {
	s := skipSpaceAndComments(sql)
	if len(s) < 4 || !strings.EqualFold(s[:4], "copy") {
		return ""
	}
	s = skipSpaceAndComments(s[4:])
	name := ""
	for {
		var part string
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(s); i++ {
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i++
						continue
					}
					break
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return ""
			}
			part, s = b.String(), s[i+1:]
		} else {
			i := 0
			for i < len(s) && (s[i] == '_' || s[i] == '$' || s[i] >= 0x80 ||
				s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
				i++
			}
			if i == 0 {
				return name
			}
			part, s = strings.ToLower(s[:i]), s[i:]
		}
		name = part
		s = skipSpaceAndComments(s)
		if !strings.HasPrefix(s, ".") {
			return name
		}
		s = skipSpaceAndComments(s[1:])
	}
}

// skipSpaceAndComments drops leading white space and SQL comments.
func skipSpaceAndComments(s string) string {
	for {
		t := strings.TrimLeft(s, " \t\r\n\f\v")
		switch {
		case strings.HasPrefix(t, "--"):
			i := strings.IndexByte(t, '\n')
			if i < 0 {
				return ""
			}
			s = t[i+1:]
		case strings.HasPrefix(t, "/*"):
			i := strings.Index(t, "*/")
			if i < 0 {
				return ""
			}
			s = t[i+2:]
		default:
			return t
		}
	}
}
