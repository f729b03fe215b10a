package bind

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// Named function arguments: f(a => x, b => y) (or a := x). PostgreSQL
// matches each name to the function's declared parameter names, after the
// positional arguments, and fills the parameters left out from their
// defaults. The functions below are the built-ins whose parameters
// PostgreSQL 15 names; each lists its parameter names in order and how many
// of the last ones have defaults.
type namedParams struct {
	names []string
	// defaults is how many of the last parameters have a default: zero
	// (make_interval's are all 0).
	defaults int
}

var namedParamFuncs = map[string]namedParams{
	"make_date":        {names: []string{"year", "month", "day"}},
	"make_time":        {names: []string{"hour", "min", "sec"}},
	"make_timestamp":   {names: []string{"year", "month", "mday", "hour", "min", "sec"}},
	"make_timestamptz": {names: []string{"year", "month", "mday", "hour", "min", "sec", "timezone"}},
	"make_interval":    {names: []string{"years", "months", "weeks", "days", "hours", "mins", "secs"}, defaults: 7},
}

// positionalArgs rewrites a call with named arguments into the positional
// call it means, or returns its arguments unchanged when none is named.
// PostgreSQL's errors: a positional argument after a named one and a name
// given twice are 42601; a name the function lacks, or a parameter without
// a default left out, is the 42883 of a function that does not exist.
func (b *Binder) positionalArgs(fc *pg.FuncCall, name string) ([]*pg.Node, error) {
	firstNamed := -1
	for i, a := range fc.Args {
		na := a.GetNamedArgExpr()
		if na != nil && firstNamed < 0 {
			firstNamed = i
		}
		if na == nil && firstNamed >= 0 {
			return nil, b.ErrAt(pgerr.New(pgerr.SyntaxError, "positional argument cannot follow named argument"), NodeLocation(a))
		}
	}
	if firstNamed < 0 {
		return fc.Args, nil
	}
	seen := map[string]bool{}
	for _, a := range fc.Args[firstNamed:] {
		na := a.GetNamedArgExpr()
		if seen[na.Name] {
			return nil, b.ErrAt(pgerr.New(pgerr.SyntaxError, "argument name \"%s\" used more than once", na.Name), na.Location)
		}
		seen[na.Name] = true
	}
	notFound := func() error {
		parts := make([]string, len(fc.Args))
		for i, a := range fc.Args {
			arg, prefix := a, ""
			if na := a.GetNamedArgExpr(); na != nil {
				arg, prefix = na.Arg, na.Name+" => "
			}
			typ := "unknown"
			if x, err := b.Expr(arg); err == nil && !x.Unknown() {
				typ = x.T.String()
			}
			parts[i] = prefix + typ
		}
		return b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(parts, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."), fc.Location)
	}
	params, ok := namedParamFuncs[name]
	if !ok {
		return nil, notFound()
	}
	slots := make([]*pg.Node, len(params.names))
	copy(slots, fc.Args[:firstNamed])
	for _, a := range fc.Args[firstNamed:] {
		na := a.GetNamedArgExpr()
		k := -1
		for j, n := range params.names {
			if n == na.Name {
				k = j
				break
			}
		}
		if k < 0 || slots[k] != nil {
			// An unknown name, or one naming a parameter a positional
			// argument already filled.
			return nil, notFound()
		}
		slots[k] = na.Arg
	}
	// The parameters left out take their defaults; trailing ones are left
	// off (the functions take them as optional).
	last := len(slots) - 1
	for last >= 0 && slots[last] == nil {
		last--
	}
	slots = slots[:last+1]
	firstDefault := len(params.names) - params.defaults
	for j, s := range slots {
		if s != nil {
			continue
		}
		if j < firstDefault {
			return nil, notFound()
		}
		slots[j] = pg.MakeAConstIntNode(0, -1)
	}
	if len(slots) < firstDefault {
		return nil, notFound()
	}
	return slots, nil
}
