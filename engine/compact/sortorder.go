package compact

import (
	"strings"
	"unicode"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// ParseSortOrder reads rewrite_data_files' sort_order argument as Spark
// writes it: either a list of columns, each optionally followed by ASC or
// DESC and NULLS FIRST or NULLS LAST ('id DESC NULLS LAST, name'; the
// defaults are ASC, NULLS FIRST for ASC and NULLS LAST for DESC), or
// zorder(c1, c2, ...). Columns are top-level or nested struct fields
// (dotted), case-insensitive, optionally quoted with backticks or double
// quotes. It returns the sort order (ID 0) or, for zorder, the field ids.
func ParseSortOrder(schema *catalog.Schema, text string) (*catalog.SortOrder, []int, error) {
	toks, err := tokenize(text)
	if err != nil {
		return nil, nil, err
	}
	if len(toks) == 0 {
		return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "sort_order is empty")
	}
	if len(toks) >= 2 && strings.EqualFold(toks[0].text, "zorder") && toks[1].text == "(" && !toks[0].quoted {
		ids, err := parseZOrder(schema, text, toks[2:])
		return nil, ids, err
	}
	order := &catalog.SortOrder{}
	seen := map[int]bool{}
	for i := 0; i < len(toks); {
		t := toks[i]
		if t.text == "," || t.text == "(" || t.text == ")" {
			return nil, nil, syntaxError(text, t.text)
		}
		if i+1 < len(toks) && toks[i+1].text == "(" {
			return nil, nil, pgerr.Unsupported("sort_order transform %s(...) in rewrite_data_files", t.text).
				WithHint("Sort by columns, or use zorder(c1, c2, ...).")
		}
		f, err := column(schema, t)
		if err != nil {
			return nil, nil, err
		}
		if seen[f.ID] {
			return nil, nil, pgerr.New(pgerr.InvalidParameterValue, "sort_order names column %s twice", t.text)
		}
		seen[f.ID] = true
		sf := catalog.SortField{SourceID: f.ID, Transform: catalog.Transform{Name: "identity"}, Direction: "asc"}
		i++
		if i < len(toks) && !toks[i].quoted {
			switch strings.ToUpper(toks[i].text) {
			case "ASC":
				i++
			case "DESC":
				sf.Direction = "desc"
				i++
			}
		}
		sf.NullOrder = "nulls-first"
		if sf.Direction == "desc" {
			sf.NullOrder = "nulls-last"
		}
		if i < len(toks) && !toks[i].quoted && strings.EqualFold(toks[i].text, "NULLS") {
			if i+1 >= len(toks) {
				return nil, nil, syntaxError(text, "")
			}
			switch strings.ToUpper(toks[i+1].text) {
			case "FIRST":
				sf.NullOrder = "nulls-first"
			case "LAST":
				sf.NullOrder = "nulls-last"
			default:
				return nil, nil, syntaxError(text, toks[i+1].text)
			}
			i += 2
		}
		order.Fields = append(order.Fields, sf)
		if i < len(toks) {
			if toks[i].text != "," || i+1 == len(toks) {
				return nil, nil, syntaxError(text, toks[i].text)
			}
			i++
		}
	}
	return order, nil, nil
}

func parseZOrder(schema *catalog.Schema, text string, toks []token) ([]int, error) {
	var ids []int
	seen := map[int]bool{}
	for i := 0; ; {
		if i >= len(toks) {
			return nil, syntaxError(text, "")
		}
		f, err := column(schema, toks[i])
		if err != nil {
			return nil, err
		}
		if seen[f.ID] {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "zorder names column %s twice", toks[i].text)
		}
		seen[f.ID] = true
		if _, ok := zorderWidth(f.Type); !ok {
			return nil, pgerr.Unsupported("zorder over column %s of type %s", f.Name, f.Type)
		}
		ids = append(ids, f.ID)
		i++
		if i >= len(toks) {
			return nil, syntaxError(text, "")
		}
		switch toks[i].text {
		case ",":
			i++
			continue
		case ")":
			if i+1 != len(toks) {
				return nil, pgerr.Unsupported("zorder combined with other sort columns")
			}
			return ids, nil
		}
		return nil, syntaxError(text, toks[i].text)
	}
}

// column finds a (possibly dotted) column name among the schema's fields
// outside lists and maps.
func column(schema *catalog.Schema, t token) (*catalog.NestedField, error) {
	var parts []string
	if t.quoted {
		parts = []string{t.text}
	} else {
		parts = strings.Split(t.text, ".")
	}
	fields := schema.Fields
	var f *catalog.NestedField
	for k, p := range parts {
		f = nil
		for i := range fields {
			if strings.EqualFold(fields[i].Name, p) {
				f = &fields[i]
				break
			}
		}
		if f == nil {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", t.text)
		}
		if k < len(parts)-1 {
			st, ok := f.Type.(*catalog.StructType)
			if !ok {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", t.text)
			}
			fields = st.Fields
		}
	}
	if _, ok := f.Type.(*catalog.PrimitiveType); !ok {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot sort by column %s of type %s", t.text, f.Type)
	}
	return f, nil
}

type token struct {
	text   string
	quoted bool
}

// tokenize splits a sort order into words (with dots), quoted names,
// commas and parentheses.
func tokenize(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := rune(s[i])
		switch {
		case unicode.IsSpace(c):
			i++
		case c == ',' || c == '(' || c == ')':
			out = append(out, token{text: string(c)})
			i++
		case c == '`' || c == '"':
			j := strings.IndexRune(s[i+1:], c)
			if j < 0 {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "unterminated quoted name in sort_order %q", s)
			}
			out = append(out, token{text: s[i+1 : i+1+j], quoted: true})
			i += j + 2
		default:
			j := i
			for j < len(s) && !unicode.IsSpace(rune(s[j])) && !strings.ContainsRune(",()`\"", rune(s[j])) {
				j++
			}
			out = append(out, token{text: s[i:j]})
			i = j
		}
	}
	return out, nil
}

func syntaxError(text, at string) error {
	if at == "" {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid sort_order %q: unexpected end", text)
	}
	return pgerr.New(pgerr.InvalidParameterValue, "invalid sort_order %q at %q", text, at).
		WithHint("Write columns with optional ASC|DESC and NULLS FIRST|LAST, separated by commas, or zorder(c1, c2).")
}
