package explain

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// Expressions print as PostgreSQL prints them in plans: columns by name
// (qualified by their relation's alias when the statement reads more
// than one, or with VERBOSE), operators in parentheses, constants with
// their type, a value computed by a node below in parentheses, an
// uncorrelated subquery as the parameter its InitPlan returns.

// expr prints e.
func (b *builder) expr(e expr.Expr) string {
	var sb strings.Builder
	b.writeExpr(&sb, e)
	return sb.String()
}

// infixOps are the binary operators PostgreSQL prints between their
// operands, by icegate's function name.
var infixOps = map[string]string{
	"+": "+", "-": "-", "*": "*", "/": "/", "%": "%", "=": "=", "<>": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"||": "||", "like": "~~", "not_like": "!~~", "ilike": "~~*", "not_ilike": "!~~*", "~": "~", "~*": "~*", "!~": "!~", "!~*": "!~*",
	"is_distinct_from": "IS DISTINCT FROM", "is_not_distinct_from": "IS NOT DISTINCT FROM",
	"^": "^", "&": "&", "|": "|", "#": "#", "<<": "<<", ">>": ">>", "@>": "@>", "<@": "<@", "->": "->", "->>": "->>",
}

func (b *builder) writeExpr(sb *strings.Builder, e expr.Expr) {
	switch e := e.(type) {
	case nil:
		sb.WriteString("NULL")
	case *expr.Col:
		sb.WriteString(b.colRef(plan.ColID(e.Idx)))
	case *expr.Lit:
		sb.WriteString(b.literal(e))
	case *expr.Cast:
		if l, ok := e.Arg.(*expr.Lit); ok {
			sb.WriteString(b.literal(&expr.Lit{V: l.V, T: e.T}))
			return
		}
		sb.WriteByte('(')
		b.writeExpr(sb, e.Arg)
		sb.WriteString(")::" + typeName(e.T))
	case *plan.Subquery:
		sb.WriteString(b.initPlan(e))
	case *expr.Call:
		b.writeCall(sb, e)
	case *expr.Case:
		sb.WriteString("CASE")
		for _, w := range e.Whens {
			sb.WriteString(" WHEN ")
			b.writeExpr(sb, w.Cond)
			sb.WriteString(" THEN ")
			b.writeExpr(sb, w.Then)
		}
		if e.Else != nil {
			sb.WriteString(" ELSE ")
			b.writeExpr(sb, e.Else)
		}
		sb.WriteString(" END")
	default:
		sb.WriteString(e.String())
	}
}

// writeOperand prints an operator's operand: a varchar column as
// PostgreSQL shows the text its operators take, (v)::text.
func (b *builder) writeOperand(sb *strings.Builder, e expr.Expr) {
	if c, ok := e.(*expr.Col); ok && c.Idx >= 0 && c.Idx < len(b.q.Metas) && b.q.Metas[c.Idx].T.OID == pgtypes.Varchar {
		if n, named := b.names[plan.ColID(c.Idx)]; !named || n.def == nil {
			sb.WriteString("(" + b.colRef(plan.ColID(c.Idx)) + ")::text")
			return
		}
	}
	b.writeExpr(sb, e)
}

func (b *builder) writeCall(sb *strings.Builder, e *expr.Call) {
	args := e.Args
	if op, ok := infixOps[e.Fn]; ok && len(args) == 2 {
		sb.WriteByte('(')
		b.writeOperand(sb, args[0])
		sb.WriteString(" " + op + " ")
		b.writeOperand(sb, args[1])
		sb.WriteByte(')')
		return
	}
	switch {
	case (e.Fn == "and" || e.Fn == "or") && len(args) > 0:
		sb.WriteByte('(')
		for i, a := range args {
			if i > 0 {
				sb.WriteString(" " + strings.ToUpper(e.Fn) + " ")
			}
			b.writeExpr(sb, a)
		}
		sb.WriteByte(')')
		return
	case e.Fn == "not" && len(args) == 1:
		sb.WriteString("(NOT ")
		b.writeExpr(sb, args[0])
		sb.WriteByte(')')
		return
	case (e.Fn == "isnull" || e.Fn == "isnotnull") && len(args) == 1:
		sb.WriteByte('(')
		b.writeExpr(sb, args[0])
		if e.Fn == "isnull" {
			sb.WriteString(" IS NULL)")
		} else {
			sb.WriteString(" IS NOT NULL)")
		}
		return
	case (e.Fn == "neg" || e.Fn == "-") && len(args) == 1:
		sb.WriteString("(- ")
		b.writeExpr(sb, args[0])
		sb.WriteByte(')')
		return
	case e.Fn == "in" && len(args) > 1:
		sb.WriteByte('(')
		b.writeOperand(sb, args[0])
		sb.WriteString(" = ANY (ARRAY[")
		for i, a := range args[1:] {
			if i > 0 {
				sb.WriteString(", ")
			}
			b.writeExpr(sb, a)
		}
		sb.WriteString("]))")
		return
	}
	sb.WriteString(e.Fn)
	sb.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			sb.WriteString(", ")
		}
		b.writeExpr(sb, a)
	}
	sb.WriteByte(')')
}

// literal prints a constant as PostgreSQL does: numbers and booleans
// bare, everything else quoted and cast to its type.
func (b *builder) literal(l *expr.Lit) string {
	if l.V == nil {
		return "NULL::" + typeName(l.T)
	}
	quoted := func(s string) string {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'::" + typeName(l.T)
	}
	switch v := l.V.(type) {
	case bool:
		return strconv.FormatBool(v)
	case int16, int32, int64, int:
		if l.T != nil && l.T.ID() == arrow.DATE32 {
			if d, ok := v.(int32); ok {
				return quoted(string(pgtext.AppendDate(nil, d)))
			}
		}
		if t, ok := l.T.(*arrow.Time64Type); ok && t.Unit == arrow.Microsecond {
			if us, ok := v.(int64); ok {
				return quoted(string(pgtext.AppendTime(nil, us)))
			}
		}
		if ts, ok := l.T.(*arrow.TimestampType); ok {
			if us, ok := v.(int64); ok {
				if ts.TimeZone != "" {
					return quoted(string(pgtext.AppendTimestamptz(nil, us, pgtext.OffsetAt(us, b.in.Loc), pgtext.ISO)))
				}
				return quoted(string(pgtext.AppendTimestamp(nil, us, pgtext.ISO)))
			}
		}
		s := fmt.Sprint(v)
		if strings.HasPrefix(s, "-") {
			return "'" + s + "'::" + typeName(l.T)
		}
		return s
	case float32:
		return quoted(strconv.FormatFloat(float64(v), 'g', -1, 32))
	case float64:
		return quoted(strconv.FormatFloat(v, 'g', -1, 64))
	case string:
		// A string cast to a number (a parameter's value, an untyped
		// literal) prints as the number it is.
		if isIntType(l.T) {
			if _, err := strconv.ParseInt(v, 10, 64); err == nil && !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") {
				return v
			}
		}
		return quoted(v)
	case catalog.Decimal:
		return decimalText(v.Unscaled, v.Scale)
	case []byte:
		if f, ok := l.T.(*arrow.FixedSizeBinaryType); ok && f.ByteWidth == 16 && len(v) == 16 {
			return quoted(fmt.Sprintf("%x-%x-%x-%x-%x", v[:4], v[4:6], v[6:8], v[8:10], v[10:]))
		}
		return quoted(fmt.Sprintf("\\x%x", v))
	case arrow.MonthDayNanoInterval: // microsecond precision
		return quoted(string(pgtext.AppendInterval(nil, pgtext.Interval{Months: v.Months, Days: v.Days, Micros: v.Nanoseconds / 1000})))
	}
	return quoted(fmt.Sprint(l.V))
}

func decimalText(u *big.Int, scale int) string {
	if u == nil {
		return "0"
	}
	s := u.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if scale > 0 {
		for len(s) <= scale {
			s = "0" + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if neg {
		return "'-" + s + "'::numeric"
	}
	return s
}

// typeName is the PostgreSQL name of an Arrow type, as casts print.
func typeName(t arrow.DataType) string {
	if t == nil {
		return "unknown"
	}
	if expr.IsNumericType(t) {
		return "numeric"
	}
	switch t := t.(type) {
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return "timestamp with time zone"
		}
		return "timestamp without time zone"
	case *arrow.Decimal128Type:
		return "numeric"
	case *arrow.ListType:
		return typeName(t.Elem()) + "[]"
	case *arrow.FixedSizeBinaryType:
		if t.ByteWidth == 16 {
			return "uuid"
		}
		return "bytea"
	}
	switch t.ID() {
	case arrow.BOOL:
		return "boolean"
	case arrow.INT16:
		return "smallint"
	case arrow.INT32:
		return "integer"
	case arrow.INT64:
		return "bigint"
	case arrow.FLOAT32:
		return "real"
	case arrow.FLOAT64:
		return "double precision"
	case arrow.STRING, arrow.LARGE_STRING:
		return "text"
	case arrow.BINARY, arrow.LARGE_BINARY:
		return "bytea"
	case arrow.DATE32:
		return "date"
	case arrow.TIME64:
		return "time without time zone"
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return "interval"
	}
	return t.String()
}

// sortKeys prints ORDER BY keys: DESC, and the NULLS placement where it
// is not the default of the direction.
func (b *builder) sortKeys(keys []plan.SortKey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = b.expr(k.E)
		if k.Desc {
			out[i] += " DESC"
			if !k.NullsFirst {
				out[i] += " NULLS LAST"
			}
		} else if k.NullsFirst {
			out[i] += " NULLS FIRST"
		}
	}
	return out
}

// aggCall prints an aggregate call: count(*), sum(t.a), count(DISTINCT t.b),
// string_agg(t.b, ','::text ORDER BY t.b), ... FILTER (WHERE ...).
func (b *builder) aggCall(a plan.AggCall) string {
	var args []string
	if a.Arg != nil {
		args = append(args, b.expr(a.Arg))
	}
	for _, x := range a.Args {
		args = append(args, b.expr(x))
	}
	s := a.Fn + "("
	if a.Distinct {
		s += "DISTINCT "
	}
	if len(args) == 0 {
		s += "*"
	}
	s += strings.Join(args, ", ")
	if len(a.OrderBy) > 0 {
		s += " ORDER BY " + strings.Join(b.sortKeys(a.OrderBy), ", ")
	}
	s += ")"
	if a.Filter != nil {
		s += " FILTER (WHERE " + b.expr(a.Filter) + ")"
	}
	return s
}

func isIntType(t arrow.DataType) bool {
	if t == nil {
		return false
	}
	switch t.ID() {
	case arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}
