package procedure

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// Args are a call's bound arguments by parameter name, converted to the
// parameter's Go type (string, int64, bool, time.Time, map[string]string,
// []int64, []string). An absent optional parameter without a default is
// not in the map.
type Args map[string]any

// String returns a String argument.
func (a Args) String(name string) (string, bool) { v, ok := a[name].(string); return v, ok }

// Long returns a Long or Int argument.
func (a Args) Long(name string) (int64, bool) { v, ok := a[name].(int64); return v, ok }

// Bool returns a Bool argument.
func (a Args) Bool(name string) (bool, bool) { v, ok := a[name].(bool); return v, ok }

// Time returns a Timestamp argument.
func (a Args) Time(name string) (time.Time, bool) { v, ok := a[name].(time.Time); return v, ok }

// Map returns a Map argument.
func (a Args) Map(name string) (map[string]string, bool) {
	v, ok := a[name].(map[string]string)
	return v, ok
}

// LongList returns a LongList argument.
func (a Args) LongList(name string) ([]int64, bool) { v, ok := a[name].([]int64); return v, ok }

// StringList returns a StringList argument.
func (a Args) StringList(name string) ([]string, bool) { v, ok := a[name].([]string); return v, ok }

// Has reports whether the argument is present (given, or defaulted).
func (a Args) Has(name string) bool { _, ok := a[name]; return ok }

// Evaluator computes an argument that is an expression rather than a
// literal (TIMESTAMP '...', now() - interval '1 day', 2 * 3), given as SQL
// text, as a value of the scalar type t (String, Long, Int, Bool or
// Timestamp) with the Go type Args holds. The session implements it by
// running a one-row SELECT, so the expression means what it means in a
// query (the session's time zone, its functions).
type Evaluator func(ctx context.Context, expr string, t ArgType) (any, error)

// Bind matches a call's arguments to p's parameters and converts each to
// its parameter's type. Arguments are positional, in p.Params' order, or
// named (name => value, names case-insensitive); a positional one may not
// follow a named one. Absent or NULL optional parameters take their
// default; an absent required one is an error. qual is the procedure's name
// as messages show it ("system.rollback_to_snapshot").
func Bind(ctx context.Context, p *Procedure, qual string, args []*pg.Node, eval Evaluator) (Args, error) {
	given := make([]*pg.Node, len(p.Params))
	named := false
	for i, a := range args {
		idx, val := i, a
		if na := a.GetNamedArgExpr(); na != nil {
			named = true
			name := strings.ToLower(na.Name)
			var ok bool
			if idx, ok = p.param(name); !ok {
				return nil, pgerr.New(pgerr.UndefinedFunction, "procedure %s has no parameter named \"%s\"", qual, name).
					WithHint("Its parameters: %s.", p.paramList())
			}
			val = na.Arg
		} else if named {
			return nil, pgerr.New(pgerr.SyntaxError, "positional argument cannot follow named argument")
		} else if i >= len(p.Params) {
			return nil, pgerr.New(pgerr.UndefinedFunction, "procedure %s takes at most %d arguments, %d given", qual, len(p.Params), len(args)).
				WithHint("Its parameters: %s.", p.paramList())
		}
		if given[idx] != nil {
			return nil, pgerr.New(pgerr.SyntaxError, "argument \"%s\" of procedure %s given more than once", p.Params[idx].Name, qual)
		}
		given[idx] = val
	}
	out := Args{}
	for i, prm := range p.Params {
		var v any
		if n := given[i]; n != nil && !isNull(n) {
			var err error
			if v, err = convert(ctx, n, prm.Type, eval); err != nil {
				return nil, argError(err, prm, qual)
			}
		} else if prm.Required {
			if n != nil {
				return nil, pgerr.New(pgerr.NullValueNotAllowed, "argument %s of procedure %s must not be null", prm.Name, qual)
			}
			return nil, pgerr.New(pgerr.UndefinedFunction, "procedure %s needs argument %s", qual, prm.Name).
				WithHint("Its parameters: %s.", p.paramList())
		} else {
			v = prm.Default
		}
		if v != nil {
			out[prm.Name] = v
		}
	}
	return out, nil
}

// paramList is "table text, snapshot_id bigint" for hints; optional ones
// are in brackets.
func (p *Procedure) paramList() string {
	var b strings.Builder
	for i, q := range p.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		if q.Required {
			b.WriteString(q.Name + " " + q.Type.String())
		} else {
			b.WriteString("[" + q.Name + " " + q.Type.String() + "]")
		}
	}
	return b.String()
}

// argError names the argument in an error's detail.
func argError(err error, prm Param, qual string) error {
	pe := pgerr.As(err)
	if pe == nil {
		return err
	}
	c := *pe
	if c.Detail == "" {
		c.Detail = "In argument " + prm.Name + " of procedure " + qual + "."
	}
	return pgerr.Wrap(err, c.Code, "%s", c.Message).WithDetail("%s", c.Detail).WithHint("%s", c.Hint)
}

func isNull(n *pg.Node) bool {
	c := n.GetAConst()
	return c != nil && c.Isnull
}

// convert converts one argument to the Go value of t.
func convert(ctx context.Context, n *pg.Node, t ArgType, eval Evaluator) (any, error) {
	switch t {
	case Map:
		return convertMap(ctx, n, eval)
	case LongList, StringList:
		return convertList(ctx, n, t, eval)
	}
	if c := n.GetAConst(); c != nil {
		if v, done, err := convertConst(c, t); done || err != nil {
			return v, err
		}
	}
	switch {
	case n.GetColumnRef() != nil:
		name := deparse(n)
		return nil, pgerr.New(pgerr.UndefinedColumn, "column %s does not exist", name).
			WithHint("Arguments are constants: write a table or other name as a string, '%s'.", strings.Trim(name, `"`))
	case n.GetParamRef() != nil:
		return nil, pgerr.NotYetPlural("parameters ($n) in CALL arguments")
	case isCall(n, "map"), isCall(n, "array"), n.GetAArrayExpr() != nil:
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument is a %s, not a %s", map[bool]string{true: "map", false: "list"}[isCall(n, "map")], t)
	}
	if eval == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "expressions are not supported here: %s", deparse(n))
	}
	return eval(ctx, deparse(n), t)
}

// convertConst converts a literal; done is false when the session must
// evaluate it (a timestamp's text: the session's time zone applies).
func convertConst(c *pg.A_Const, t ArgType) (v any, done bool, err error) {
	var text, kind string
	switch {
	case c.GetSval() != nil:
		text, kind = c.GetSval().Sval, "unknown"
	case c.GetIval() != nil:
		text, kind = strconv.FormatInt(int64(c.GetIval().Ival), 10), "integer"
	case c.GetFval() != nil:
		text, kind = c.GetFval().Fval, "numeric"
		if _, err := strconv.ParseInt(text, 10, 64); err == nil {
			kind = "bigint"
		}
	case c.GetBoolval() != nil:
		text, kind = strconv.FormatBool(c.GetBoolval().Boolval), "boolean"
	default:
		return nil, false, nil
	}
	mismatch := func() error {
		return pgerr.New(pgerr.DatatypeMismatch, "argument of type %s where %s is expected", kind, t)
	}
	switch t {
	case String:
		if kind != "unknown" {
			return nil, true, mismatch()
		}
		return text, true, nil
	case Long, Int:
		if kind == "boolean" {
			return nil, true, mismatch()
		}
		s := strings.TrimSpace(text)
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return nil, true, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type bigint", s)
			}
			if kind == "numeric" {
				return nil, true, mismatch()
			}
			return nil, true, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", t, text)
		}
		if t == Int && (i < math.MinInt32 || i > math.MaxInt32) {
			return nil, true, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type integer", s)
		}
		return i, true, nil
	case Bool:
		switch kind {
		case "boolean":
			return c.GetBoolval().Boolval, true, nil
		case "unknown":
			if b, ok := parseBool(text); ok {
				return b, true, nil
			}
			return nil, true, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type boolean: \"%s\"", text)
		}
		return nil, true, mismatch()
	case Timestamp:
		if kind != "unknown" {
			return nil, true, mismatch()
		}
		return nil, false, nil
	}
	return nil, true, mismatch()
}

// parseBool reads a boolean as PostgreSQL's input function does: a unique
// prefix of true/false/yes/no, on/off, 1/0, case-insensitive.
func parseBool(s string) (bool, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return false, false
	}
	for _, w := range []struct {
		word string
		v    bool
		min  int
	}{{"true", true, 1}, {"false", false, 1}, {"yes", true, 1}, {"no", false, 1}, {"on", true, 2}, {"off", false, 2}, {"1", true, 1}, {"0", false, 1}} {
		if len(s) >= w.min && strings.HasPrefix(w.word, s) {
			return w.v, true
		}
	}
	return false, false
}

// isCall reports whether n is a call of the unqualified function name.
func isCall(n *pg.Node, name string) bool {
	fc := n.GetFuncCall()
	if fc == nil || len(fc.Funcname) != 1 {
		return false
	}
	return strings.EqualFold(fc.Funcname[0].GetString_().GetSval(), name)
}

// convertMap reads Spark's map('k1', 'v1', 'k2', 'v2', ...).
func convertMap(ctx context.Context, n *pg.Node, eval Evaluator) (map[string]string, error) {
	if !isCall(n, "map") {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument must be a map: map('key', 'value', ...)")
	}
	args := n.GetFuncCall().Args
	if len(args)%2 != 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "map() needs an even number of arguments (key, value, ...), got %d", len(args))
	}
	out := make(map[string]string, len(args)/2)
	for i := 0; i < len(args); i += 2 {
		k, err := convertScalarText(ctx, args[i], eval)
		if err != nil {
			return nil, err
		}
		v, err := convertScalarText(ctx, args[i+1], eval)
		if err != nil {
			return nil, err
		}
		if _, dup := out[k]; dup {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "duplicate map key \"%s\"", k)
		}
		out[k] = v
	}
	return out, nil
}

// convertScalarText is a map key or value: a string, or a number or
// boolean written bare (Spark's options take map('k', 100)).
func convertScalarText(ctx context.Context, n *pg.Node, eval Evaluator) (string, error) {
	if c := n.GetAConst(); c != nil {
		switch {
		case c.Isnull:
			return "", pgerr.New(pgerr.NullValueNotAllowed, "map keys and values must not be null")
		case c.GetIval() != nil:
			return strconv.FormatInt(int64(c.GetIval().Ival), 10), nil
		case c.GetFval() != nil:
			return c.GetFval().Fval, nil
		case c.GetBoolval() != nil:
			return strconv.FormatBool(c.GetBoolval().Boolval), nil
		}
	}
	v, err := convert(ctx, n, String, eval)
	if err != nil {
		return "", err
	}
	return v.(string), nil
}

// convertList reads array(a, b, ...) or ARRAY[a, b, ...].
func convertList(ctx context.Context, n *pg.Node, t ArgType, eval Evaluator) (any, error) {
	var elems []*pg.Node
	switch {
	case isCall(n, "array"):
		elems = n.GetFuncCall().Args
	case n.GetAArrayExpr() != nil:
		elems = n.GetAArrayExpr().Elements
	default:
		return nil, pgerr.New(pgerr.DatatypeMismatch, "argument must be a list: array(...) or ARRAY[...] of %s", t.elem())
	}
	var longs []int64
	var strs []string
	for _, e := range elems {
		if isNull(e) {
			return nil, pgerr.New(pgerr.NullValueNotAllowed, "list elements must not be null")
		}
		v, err := convert(ctx, e, t.elem(), eval)
		if err != nil {
			return nil, err
		}
		switch x := v.(type) {
		case int64:
			longs = append(longs, x)
		case string:
			strs = append(strs, x)
		}
	}
	if t == LongList {
		if longs == nil {
			longs = []int64{}
		}
		return longs, nil
	}
	if strs == nil {
		strs = []string{}
	}
	return strs, nil
}

// deparse is the SQL text of an expression.
func deparse(n *pg.Node) string {
	// A parse of SELECT 1 gives the parse tree's version Deparse checks.
	res, err := pg.Parse("SELECT 1")
	if err != nil {
		return "?"
	}
	res.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val = n
	s, err := pg.Deparse(res)
	if err != nil {
		return "?"
	}
	return strings.TrimPrefix(s, "SELECT ")
}
