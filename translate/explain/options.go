package explain

import (
	"strconv"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// Format is how EXPLAIN prints a plan.
type Format int

const (
	// Text is PostgreSQL's text format, the default.
	Text Format = iota
	// JSON, YAML and XML are PostgreSQL's structured formats.
	JSON
	YAML
	XML
	// Icegate is icegate's own tree of its plan nodes, with column ids:
	// what the optimizer produced, node for node.
	Icegate
)

// Options are EXPLAIN's options, as PostgreSQL 15 defines them.
type Options struct {
	Analyze, Verbose, Costs, Settings, Buffers, WAL, Timing, Summary bool
	Format                                                           Format
}

// Option is one item of EXPLAIN's option list as written: the keyword
// forms EXPLAIN ANALYZE and EXPLAIN VERBOSE are items too.
type Option struct {
	Name string // as the parser left it: unquoted names are lower case
	// Value is the option's argument as text, nil when there is none;
	// Number tells a numeric argument (1, 0, 1.5) from a word or string.
	Value  *string
	Number bool
	// Pos is the 1-based character position of the option in the
	// statement, for errors (0: unknown).
	Pos int32
}

// ParseOptions checks EXPLAIN's options as PostgreSQL 15 does: names and
// format values are case-sensitive (the parser folds unquoted words to lower
// case), booleans are on/off/true/false/1/0, a later option overrides an
// earlier one, and WAL and TIMING need ANALYZE.
func ParseOptions(opts []Option) (Options, error) {
	o := Options{Costs: true}
	timingSet, summarySet := false, false
	for _, opt := range opts {
		var err error
		switch opt.Name {
		case "analyze":
			o.Analyze, err = boolOption(opt)
		case "verbose":
			o.Verbose, err = boolOption(opt)
		case "costs":
			o.Costs, err = boolOption(opt)
		case "settings":
			o.Settings, err = boolOption(opt)
		case "buffers":
			o.Buffers, err = boolOption(opt)
		case "wal":
			o.WAL, err = boolOption(opt)
		case "timing":
			timingSet = true
			o.Timing, err = boolOption(opt)
		case "summary":
			summarySet = true
			o.Summary, err = boolOption(opt)
		case "format":
			if opt.Value == nil {
				return o, pgerr.New(pgerr.SyntaxError, "%s requires a parameter", opt.Name)
			}
			switch *opt.Value {
			case "text":
				o.Format = Text
			case "json":
				o.Format = JSON
			case "yaml":
				o.Format = YAML
			case "xml":
				o.Format = XML
			case "icegate":
				o.Format = Icegate
			default:
				return o, pgerr.New(pgerr.InvalidParameterValue, "unrecognized value for EXPLAIN option \"%s\": \"%s\"", opt.Name, *opt.Value).WithPosition(opt.Pos)
			}
		default:
			return o, pgerr.New(pgerr.SyntaxError, "unrecognized EXPLAIN option \"%s\"", opt.Name).WithPosition(opt.Pos)
		}
		if err != nil {
			return o, err
		}
	}
	if o.WAL && !o.Analyze {
		return o, pgerr.New(pgerr.InvalidParameterValue, "EXPLAIN option WAL requires ANALYZE")
	}
	if !timingSet {
		o.Timing = o.Analyze
	}
	if o.Timing && !o.Analyze {
		return o, pgerr.New(pgerr.InvalidParameterValue, "EXPLAIN option TIMING requires ANALYZE")
	}
	if !summarySet {
		o.Summary = o.Analyze
	}
	return o, nil
}

// boolOption is a boolean option's value: true without one, 0 or 1 as
// a number, true/false/on/off (any case) as a word.
func boolOption(opt Option) (bool, error) {
	if opt.Value == nil {
		return true, nil
	}
	v := *opt.Value
	if opt.Number {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && (n == 0 || n == 1) {
			return n == 1, nil
		}
	} else {
		switch strings.ToLower(v) {
		case "true", "on":
			return true, nil
		case "false", "off":
			return false, nil
		}
	}
	return false, pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value", opt.Name)
}
