package sequence

import (
	"encoding/json"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
)

// Spec is what a statement's sequence options say; nil fields are not
// given.
type Spec struct {
	typ                         string
	inc, start, min, max, cache *int64
	noMin, noMax                bool
	cycle                       *bool
	Restart                     bool
	RestartWith                 *int64
	OwnedBy                     []string // OWNED BY t.c, or ["none"]
	Name                        []string // SEQUENCE NAME (identity options)
}

func seqInt(d *pg.DefElem) (int64, error) {
	var s string
	switch a := d.Arg.GetNode().(type) {
	case *pg.Node_Integer:
		return int64(a.Integer.Ival), nil
	case *pg.Node_Float:
		s = a.Float.Fval
	default:
		return 0, pgerr.New(pgerr.SyntaxError, "%s requires a numeric value", d.Defname)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type bigint", s)
	}
	return v, nil
}

func stringList(n *pg.Node) []string {
	var out []string
	for _, it := range n.GetList().GetItems() {
		out = append(out, it.GetString_().GetSval())
	}
	return out
}

// SpecOf reads sequence options (CREATE / ALTER SEQUENCE, identity
// columns).
func SpecOf(opts []*pg.Node) (Spec, error) {
	var sp Spec
	seen := map[string]bool{}
	for _, n := range opts {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		if seen[d.Defname] {
			return sp, pgerr.New(pgerr.SyntaxError, "conflicting or redundant options")
		}
		seen[d.Defname] = true
		var err error
		intOpt := func(p **int64) {
			var v int64
			if v, err = seqInt(d); err == nil {
				*p = &v
			}
		}
		switch d.Defname {
		case "as":
			tn := d.Arg.GetTypeName()
			name := ""
			if tn != nil && len(tn.Names) > 0 {
				name = tn.Names[len(tn.Names)-1].GetString_().GetSval()
			}
			switch name {
			case "int2", "smallint":
				sp.typ = "smallint"
			case "int4", "integer", "int":
				sp.typ = "integer"
			case "int8", "bigint":
				sp.typ = "bigint"
			default:
				return sp, pgerr.New(pgerr.InvalidParameterValue, "sequence type must be smallint, integer, or bigint")
			}
		case "increment":
			intOpt(&sp.inc)
		case "start":
			intOpt(&sp.start)
		case "cache":
			intOpt(&sp.cache)
		case "minvalue":
			if d.Arg == nil {
				sp.noMin = true
			} else {
				intOpt(&sp.min)
			}
		case "maxvalue":
			if d.Arg == nil {
				sp.noMax = true
			} else {
				intOpt(&sp.max)
			}
		case "cycle":
			b := d.Arg.GetBoolean().GetBoolval()
			sp.cycle = &b
		case "restart":
			sp.Restart = true
			if d.Arg != nil {
				intOpt(&sp.RestartWith)
			}
		case "owned_by":
			sp.OwnedBy = stringList(d.Arg)
		case "sequence_name":
			sp.Name = stringList(d.Arg)
		default:
			return sp, pgerr.NotYet("sequence option " + strings.ToUpper(d.Defname))
		}
		if err != nil {
			return sp, err
		}
	}
	return sp, nil
}

// Resolve applies the spec to old (nil: a new sequence of type typ) with
// PostgreSQL's defaults and checks.
func (sp Spec) Resolve(old *Options, typ string) (Options, error) {
	var o Options
	if old != nil {
		o = *old
	} else {
		o = Options{Type: typ, Increment: 1, Cache: 1}
	}
	typeChanged := false
	if sp.typ != "" {
		typeChanged = o.Type != sp.typ
		o.Type = sp.typ
	}
	if o.Type == "" {
		o.Type = "bigint"
	}
	if sp.inc != nil {
		o.Increment = *sp.inc
	}
	if o.Increment == 0 {
		return o, pgerr.New(pgerr.InvalidParameterValue, "INCREMENT must not be zero")
	}
	lo, hi := TypeRange(o.Type)
	if old != nil && typeChanged {
		// Bounds at the old type's limits follow the type.
		olo, ohi := TypeRange(old.Type)
		if o.Max == ohi || o.Max > hi {
			sp.noMax = sp.max == nil
		}
		if o.Min == olo || o.Min < lo {
			sp.noMin = sp.min == nil
		}
	}
	switch {
	case sp.max != nil:
		o.Max = *sp.max
	case old == nil || sp.noMax:
		o.Max = hi
		if o.Increment < 0 {
			o.Max = -1
		}
	}
	switch {
	case sp.min != nil:
		o.Min = *sp.min
	case old == nil || sp.noMin:
		o.Min = 1
		if o.Increment < 0 {
			o.Min = lo
		}
	}
	if o.Max < lo || o.Max > hi {
		return o, pgerr.New(pgerr.InvalidParameterValue, "MAXVALUE (%d) is out of range for sequence data type %s", o.Max, o.Type)
	}
	if o.Min < lo || o.Min > hi {
		return o, pgerr.New(pgerr.InvalidParameterValue, "MINVALUE (%d) is out of range for sequence data type %s", o.Min, o.Type)
	}
	if o.Min >= o.Max {
		return o, pgerr.New(pgerr.InvalidParameterValue, "MINVALUE (%d) must be less than MAXVALUE (%d)", o.Min, o.Max)
	}
	switch {
	case sp.start != nil:
		o.Start = *sp.start
	case old == nil:
		o.Start = o.Min
		if o.Increment < 0 {
			o.Start = o.Max
		}
	}
	if o.Start < o.Min {
		return o, pgerr.New(pgerr.InvalidParameterValue, "START value (%d) cannot be less than MINVALUE (%d)", o.Start, o.Min)
	}
	if o.Start > o.Max {
		return o, pgerr.New(pgerr.InvalidParameterValue, "START value (%d) cannot be greater than MAXVALUE (%d)", o.Start, o.Max)
	}
	if sp.cache != nil {
		o.Cache = *sp.cache
	}
	if o.Cache <= 0 {
		return o, pgerr.New(pgerr.InvalidParameterValue, "CACHE (%d) must be greater than zero", o.Cache)
	}
	if sp.cycle != nil {
		o.Cycle = *sp.cycle
	}
	return o, nil
}

// TableSpec is the catalog table of a new sequence.
func TableSpec(o Options) (catalog.TableSpec, error) {
	js, err := json.Marshal(o)
	if err != nil {
		return catalog.TableSpec{}, err
	}
	return catalog.TableSpec{
		Schema: &catalog.Schema{Fields: []catalog.NestedField{
			{ID: 1, Name: "last_value", Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		}},
		Properties: map[string]string{
			OptionsProp: string(js),
			StateProp:   State{Last: o.Start}.String(),
		},
	}, nil
}

// SameName reports whether a sequence name from a default names t.
func SameName(name string, t *catalog.Table) bool {
	want := syscat.QuoteIdent(strings.Join(t.Ident.Namespace, ".")) + "." + syscat.QuoteIdent(t.Ident.Name)
	return name == want || name == syscat.QuoteIdent(t.Ident.Name)
}
