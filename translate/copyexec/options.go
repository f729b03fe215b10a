package copyexec

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/ddl"
)

// Options are the options of a COPY statement, as the binder resolved
// them (PostgreSQL's defaults filled in): what the client sends (COPY FROM
// STDIN) or receives (COPY TO STDOUT).
type Options struct {
	Format    string // "text", "csv" or "binary"
	Delimiter byte   // text: '\t'; csv: ','
	Null      string // text: `\N`; csv: ""
	Quote     byte   // csv only: '"'
	Escape    byte   // csv only: defaults to Quote
	Header    bool   // csv (and text in PostgreSQL 15+): first line is a header
	// ForceQuote / ForceNotNull / ForceNull are csv column lists (indexes
	// into the copied columns).
	ForceQuote   []int
	ForceNotNull []int
	ForceNull    []int
}

// ParseOptions resolves the options of a COPY statement (the WITH (...)
// list and the legacy CSV / HEADER / DELIMITER AS ... words, which the
// parser turns into the same list) with PostgreSQL's defaults and checks.
// cols are the names of the copied columns (for FORCE_* lists).
func ParseOptions(list []*pg.Node, cols []string, from bool) (Options, error) {
	o := Options{Format: "text"}
	var delim, null, quote, escape *string
	var forceQuote, forceNotNull, forceNull []*pg.Node
	var forceQuoteAll bool
	seen := map[string]bool{}
	for _, n := range list {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		name := strings.ToLower(d.Defname)
		if seen[name] {
			return o, pgerr.New(pgerr.SyntaxError, "conflicting or redundant options")
		}
		seen[name] = true
		val := ddl.DefElemString(d)
		switch name {
		case "format":
			switch strings.ToLower(val) {
			case "text", "csv", "binary":
				// binary: wire decodes the fields to text (CopySource) and
				// encodes the rows it sends.
				o.Format = strings.ToLower(val)
			default:
				return o, pgerr.New(pgerr.InvalidParameterValue, "COPY format \"%s\" not recognized", val)
			}
		case "delimiter":
			delim = &val
		case "null":
			null = &val
		case "quote":
			quote = &val
		case "escape":
			escape = &val
		case "header":
			switch strings.ToLower(val) {
			case "true", "on", "1", "match":
				o.Header = true
			case "false", "off", "0":
			default:
				return o, pgerr.New(pgerr.InvalidParameterValue, "header requires a Boolean value or \"match\"")
			}
		case "force_quote":
			if d.Arg.GetAStar() != nil {
				forceQuoteAll = true
			} else {
				forceQuote = d.Arg.GetList().GetItems()
			}
		case "force_not_null":
			forceNotNull = d.Arg.GetList().GetItems()
		case "force_null":
			forceNull = d.Arg.GetList().GetItems()
		case "encoding":
			if e := strings.ToUpper(strings.ReplaceAll(val, "-", "")); e != "UTF8" && e != "SQL_ASCII" {
				return o, pgerr.Unsupported("COPY with ENCODING '%s'", val).WithHint("icegate reads and writes UTF8.")
			}
		case "freeze":
		default:
			return o, pgerr.New(pgerr.SyntaxError, "option \"%s\" not recognized", d.Defname)
		}
	}
	csv := o.Format == "csv"
	if o.Format == "binary" {
		for _, opt := range []struct {
			set  bool
			name string
		}{{delim != nil, "DELIMITER"}, {null != nil, "NULL"}, {o.Header, "HEADER"}} {
			if opt.set {
				return o, pgerr.New(pgerr.SyntaxError, "cannot specify %s in BINARY mode", opt.name)
			}
		}
		if quote != nil || escape != nil || forceQuoteAll || len(forceQuote)+len(forceNotNull)+len(forceNull) > 0 {
			return o, pgerr.New(pgerr.FeatureNotSupported, "COPY quote, escape and force options available only in CSV mode")
		}
		return o, nil
	}
	o.Delimiter, o.Null = '\t', `\N`
	if csv {
		o.Delimiter, o.Null, o.Quote, o.Escape = ',', "", '"', '"'
	}
	if delim != nil {
		if len(*delim) != 1 {
			return o, pgerr.New(pgerr.FeatureNotSupported, "COPY delimiter must be a single one-byte character")
		}
		o.Delimiter = (*delim)[0]
	}
	if null != nil {
		o.Null = *null
	}
	if quote != nil {
		if !csv {
			return o, pgerr.New(pgerr.FeatureNotSupported, "COPY quote available only in CSV mode")
		}
		if len(*quote) != 1 {
			return o, pgerr.New(pgerr.FeatureNotSupported, "COPY quote must be a single one-byte character")
		}
		o.Quote, o.Escape = (*quote)[0], (*quote)[0]
	}
	if escape != nil {
		if !csv {
			return o, pgerr.New(pgerr.FeatureNotSupported, "COPY escape available only in CSV mode")
		}
		if len(*escape) != 1 {
			return o, pgerr.New(pgerr.FeatureNotSupported, "COPY escape must be a single one-byte character")
		}
		o.Escape = (*escape)[0]
	}
	if csv && o.Delimiter == o.Quote {
		return o, pgerr.New(pgerr.FeatureNotSupported, "COPY delimiter and quote must be different")
	}
	if strings.IndexByte(o.Null, o.Delimiter) >= 0 {
		return o, pgerr.New(pgerr.FeatureNotSupported, "COPY delimiter character must not appear in the NULL specification")
	}
	if o.Delimiter == '\r' || o.Delimiter == '\n' || (!csv && (o.Delimiter == '\\' || (o.Delimiter >= 'a' && o.Delimiter <= 'z') || (o.Delimiter >= '0' && o.Delimiter <= '9') || o.Delimiter == '.')) {
		return o, pgerr.New(pgerr.InvalidParameterValue, "COPY delimiter cannot be \"%s\"", string(o.Delimiter))
	}
	index := func(items []*pg.Node, what string) ([]int, error) {
		var out []int
		for _, it := range items {
			name := it.GetString_().GetSval()
			k := -1
			for i, c := range cols {
				if c == name {
					k = i
				}
			}
			if k < 0 {
				return nil, pgerr.New(pgerr.InvalidColumnReference, "%s column \"%s\" not referenced by COPY", what, name)
			}
			out = append(out, k)
		}
		return out, nil
	}
	var err error
	if forceQuoteAll {
		for i := range cols {
			o.ForceQuote = append(o.ForceQuote, i)
		}
	}
	if len(forceQuote)+len(forceNotNull)+len(forceNull) > 0 && !csv {
		return o, pgerr.New(pgerr.FeatureNotSupported, "COPY force options available only in CSV mode")
	}
	if len(forceQuote) > 0 {
		if from {
			return o, pgerr.New(pgerr.FeatureNotSupported, "COPY force quote only available using COPY TO")
		}
		if o.ForceQuote, err = index(forceQuote, "FORCE_QUOTE"); err != nil {
			return o, err
		}
	}
	if forceQuoteAll && from {
		return o, pgerr.New(pgerr.FeatureNotSupported, "COPY force quote only available using COPY TO")
	}
	if len(forceNotNull) > 0 {
		if !from {
			return o, pgerr.New(pgerr.FeatureNotSupported, "COPY force not null only available using COPY FROM")
		}
		if o.ForceNotNull, err = index(forceNotNull, "FORCE_NOT_NULL"); err != nil {
			return o, err
		}
	}
	if len(forceNull) > 0 {
		if !from {
			return o, pgerr.New(pgerr.FeatureNotSupported, "COPY force null only available using COPY FROM")
		}
		if o.ForceNull, err = index(forceNull, "FORCE_NULL"); err != nil {
			return o, err
		}
	}
	return o, nil
}
