package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtext"
)

// FormatExpr renders a bound expression for plan text, tests and group-key
// matching: columns by index and name, literals with their Arrow type.
func FormatExpr(e expr.Expr) string {
	var sb strings.Builder
	writeExpr(&sb, e)
	return sb.String()
}

func writeExpr(sb *strings.Builder, e expr.Expr) {
	switch e := e.(type) {
	case *expr.Col:
		fmt.Fprintf(sb, "#%d:%s", e.Idx, e.Name)
	case *expr.Lit:
		sb.WriteString(fmtLit(e))
	case *expr.Cast:
		writeExpr(sb, e.Arg)
		sb.WriteString("::")
		sb.WriteString(FormatArrow(e.T))
	case *expr.Call:
		if IsInfix(e.Fn) && len(e.Args) == 2 {
			sb.WriteByte('(')
			writeExpr(sb, e.Args[0])
			sb.WriteString(" " + e.Fn + " ")
			writeExpr(sb, e.Args[1])
			sb.WriteByte(')')
			return
		}
		sb.WriteString(e.Fn)
		sb.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeExpr(sb, a)
		}
		sb.WriteByte(')')
	case *expr.Case:
		sb.WriteString("CASE")
		for _, w := range e.Whens {
			sb.WriteString(" WHEN ")
			writeExpr(sb, w.Cond)
			sb.WriteString(" THEN ")
			writeExpr(sb, w.Then)
		}
		if e.Else != nil {
			sb.WriteString(" ELSE ")
			writeExpr(sb, e.Else)
		}
		sb.WriteString(" END")
	case nil:
		sb.WriteString("<nil>")
	default:
		sb.WriteString(e.String())
	}
}

func IsInfix(fn string) bool {
	switch fn {
	case "+", "-", "*", "/", "%", "=", "<>", "<", "<=", ">", ">=", "and", "or", "||", "like", "not_like", "ilike", "not_ilike":
		return true
	}
	return false
}

func fmtLit(l *expr.Lit) string {
	if l.V == nil {
		return "NULL::" + FormatArrow(l.T)
	}
	switch v := l.V.(type) {
	case int32:
		if l.T.ID() == arrow.DATE32 { // a computed date, in its text form
			return strconv.Quote(string(pgtext.AppendDate(nil, v))) + "::" + FormatArrow(l.T)
		}
	case int64:
		if ts, ok := l.T.(*arrow.TimestampType); ok && ts.Unit == arrow.Microsecond {
			if ts.TimeZone != "" {
				return strconv.Quote(string(pgtext.AppendTimestamptz(nil, v, 0, pgtext.ISO))) + "::" + FormatArrow(l.T)
			}
			return strconv.Quote(string(pgtext.AppendTimestamp(nil, v, pgtext.ISO))) + "::" + FormatArrow(l.T)
		}
		if t, ok := l.T.(*arrow.Time64Type); ok && t.Unit == arrow.Microsecond {
			return strconv.Quote(string(pgtext.AppendTime(nil, v))) + "::" + FormatArrow(l.T)
		}
	case []byte:
		if f, ok := l.T.(*arrow.FixedSizeBinaryType); ok && f.ByteWidth == 16 && len(v) == 16 {
			return fmt.Sprintf("'%x-%x-%x-%x-%x'::uuid", v[:4], v[4:6], v[6:8], v[8:10], v[10:])
		}
	}
	switch v := l.V.(type) {
	case string:
		return strconv.Quote(v)
	case catalog.Decimal:
		return decimalString(v) + "::" + FormatArrow(l.T)
	case []byte:
		return fmt.Sprintf("'\\x%x'", v)
	case [16]byte:
		return fmt.Sprintf("'%x'::uuid", v[:])
	case bool, int32:
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%v::%s", l.V, FormatArrow(l.T))
}

// FormatArrow names an Arrow type briefly.
func FormatArrow(t arrow.DataType) string {
	if expr.IsNumericType(t) {
		return "numeric"
	}
	switch t := t.(type) {
	case *arrow.Decimal128Type:
		return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale)
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return "timestamptz[" + t.Unit.String() + "]"
		}
		return "timestamp[" + t.Unit.String() + "]"
	case *arrow.FixedSizeBinaryType:
		return fmt.Sprintf("fixed[%d]", t.ByteWidth)
	case *arrow.ListType:
		return "list<" + FormatArrow(t.Elem()) + ">"
	}
	return t.String()
}

// decimalString prints a decimal exactly.
func decimalString(d catalog.Decimal) string {
	if d.Unscaled == nil {
		return "0"
	}
	s := d.Unscaled.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if d.Scale > 0 {
		for len(s) <= d.Scale {
			s = "0" + s
		}
		s = s[:len(s)-d.Scale] + "." + s[len(s)-d.Scale:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
