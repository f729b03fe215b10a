package expr

import (
	"fmt"
	"strings"
)

// String renders a column by name (or $idx).
func (e *Col) String() string {
	if e.Name != "" {
		return e.Name
	}
	return fmt.Sprintf("$%d", e.Idx)
}

// String renders a literal as SQL text.
func (e *Lit) String() string {
	switch v := e.V.(type) {
	case nil:
		return "NULL"
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case []byte:
		return fmt.Sprintf("'\\x%x'", v)
	}
	return fmt.Sprint(e.V)
}

// String renders an operator infix and a function call as f(args).
func (e *Call) String() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	switch {
	case e.Fn == "neg" && len(args) == 1:
		return "(-" + args[0] + ")"
	case e.Fn == "not" && len(args) == 1:
		return "(NOT " + args[0] + ")"
	case e.Fn == "isnull" && len(args) == 1:
		return "(" + args[0] + " IS NULL)"
	case e.Fn == "isnotnull" && len(args) == 1:
		return "(" + args[0] + " IS NOT NULL)"
	case e.Fn == "in" && len(args) > 0:
		return "(" + args[0] + " IN (" + strings.Join(args[1:], ", ") + "))"
	case (isOperator(e.Fn) || e.Fn == "and" || e.Fn == "or") && len(args) >= 2:
		op := e.Fn
		if op == "and" || op == "or" {
			op = strings.ToUpper(op)
		}
		return "(" + strings.Join(args, " "+op+" ") + ")"
	case len(args) == 2 && strings.Contains(e.Fn, "like") || e.Fn == "is_distinct_from" || e.Fn == "is_not_distinct_from":
		op := strings.ToUpper(strings.ReplaceAll(e.Fn, "_", " "))
		return "(" + strings.Join(args, " "+op+" ") + ")"
	}
	return e.Fn + "(" + strings.Join(args, ", ") + ")"
}

// String renders a cast as (x)::type.
func (e *Cast) String() string {
	return "(" + e.Arg.String() + ")::" + PGTypeName(e.T)
}

// String renders a searched CASE.
func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, w := range e.Whens {
		b.WriteString(" WHEN " + w.Cond.String() + " THEN " + w.Then.String())
	}
	if e.Else != nil {
		b.WriteString(" ELSE " + e.Else.String())
	}
	b.WriteString(" END")
	return b.String()
}
