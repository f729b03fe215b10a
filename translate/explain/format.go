package explain

import (
	"fmt"
	"strings"

	"github.com/icegate/icegate/internal/pgtext"
)

// XMLNamespace is the namespace of PostgreSQL's XML plans.
const XMLNamespace = "http://www.postgresql.org/2009/explain"

// Lines prints p in the text format, one line per row of the result.
func (p *Plan) Lines() []string {
	w := &textWriter{o: p.Opts}
	w.node(p.Root, 0)
	if p.Opts.Settings && len(p.Settings) > 0 {
		items := make([]string, len(p.Settings))
		for i, s := range p.Settings {
			items[i] = fmt.Sprintf("%s = '%s'", s[0], s[1])
		}
		w.lines = append(w.lines, "Settings: "+strings.Join(items, ", "))
	}
	if p.Opts.Summary {
		w.lines = append(w.lines, fmt.Sprintf("Planning Time: %.3f ms", p.Planning))
		if p.Opts.Analyze && p.Execution >= 0 {
			w.lines = append(w.lines, fmt.Sprintf("Execution Time: %.3f ms", p.Execution))
		}
	}
	return w.lines
}

type textWriter struct {
	o     Options
	lines []string
}

func (w *textWriter) node(n *Node, indent int) {
	if n.SubplanName != "" {
		w.lines = append(w.lines, spaces(indent)+n.SubplanName)
		indent++
	}
	head := spaces(indent)
	if indent > 0 {
		head += "->  "
		indent += 2
	}
	head += textName(n)
	if w.o.Costs {
		head += fmt.Sprintf("  (cost=%.2f..%.2f rows=%.0f width=%d)", n.Startup, n.Total, n.Rows, n.Width)
	}
	if a := n.Actual; a != nil {
		switch {
		case a.Loops == 0:
			head += " (never executed)"
		case w.o.Timing:
			head += fmt.Sprintf(" (actual time=%.3f..%.3f rows=%.0f loops=%d)", a.Startup, a.Total, a.Rows, a.Loops)
		default:
			head += fmt.Sprintf(" (actual rows=%.0f loops=%d)", a.Rows, a.Loops)
		}
	}
	w.lines = append(w.lines, head)
	indent++
	pad := spaces(indent)
	if len(n.Output) > 0 {
		w.lines = append(w.lines, pad+"Output: "+strings.Join(n.Output, ", "))
	}
	for _, p := range append(append([]Prop(nil), n.Props...), n.extra...) {
		if p.Where == structuredOnly {
			continue
		}
		v := p.Value
		if p.Kind == listProp {
			v = strings.Join(p.List, ", ")
		}
		if p.Unit != "" {
			v += " " + p.Unit
		}
		w.lines = append(w.lines, pad+p.Key+": "+v)
	}
	for _, k := range n.Kids {
		w.node(k, indent)
	}
}

func spaces(indent int) string { return strings.Repeat("  ", indent) }

// textName is the node's name in the text format, with its target.
func textName(n *Node) string {
	name := n.Type
	switch n.Type {
	case "Aggregate":
		switch n.Strategy {
		case "Hashed":
			name = "HashAggregate"
		case "Sorted":
			name = "GroupAggregate"
		}
	case "SetOp":
		if n.Strategy == "Hashed" {
			name = "HashSetOp"
		}
		name += " " + n.Command
	case "Hash Join", "Merge Join":
		name = strings.TrimSuffix(n.Type, " Join")
		if n.JoinType != "Inner" {
			name += " " + n.JoinType
		}
		name += " Join"
	case "Nested Loop":
		if n.JoinType != "Inner" {
			name += " " + n.JoinType + " Join"
		}
	case "Custom Scan":
		name += " (" + n.Provider + ")"
	case "ModifyTable":
		name = n.Operation
	}
	switch n.PartialMode {
	case "Partial", "Finalize":
		name = n.PartialMode + " " + name
	}
	if n.Parallel {
		name = "Parallel " + name
	}
	if t := n.Target; t != nil {
		name += " on"
		switch {
		case t.Schema != "":
			name += " " + quoteIdent(t.Schema) + "." + quoteIdent(t.Object)
		case t.Object != "":
			name += " " + quoteIdent(t.Object)
		}
		if t.Object == "" || t.Alias != t.Object {
			name += " " + quoteIdent(t.Alias)
		}
	}
	return name
}

// quoteIdent quotes a name as PostgreSQL's quote_identifier does for
// names that are not plain lower-case words.
func quoteIdent(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && (r >= '0' && r <= '9' || r == '$')) {
			plain = false
			break
		}
	}
	if plain && !reservedWords[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// reservedWords are the reserved key words most likely as names.
var reservedWords = map[string]bool{
	"all": true, "and": true, "any": true, "array": true, "as": true, "asc": true, "case": true, "check": true,
	"column": true, "constraint": true, "create": true, "default": true, "desc": true, "distinct": true, "do": true,
	"else": true, "end": true, "except": true, "false": true, "for": true, "foreign": true, "from": true,
	"grant": true, "group": true, "having": true, "in": true, "intersect": true, "into": true, "limit": true,
	"not": true, "null": true, "offset": true, "on": true, "only": true, "or": true, "order": true,
	"primary": true, "references": true, "select": true, "table": true, "then": true, "to": true, "true": true,
	"union": true, "unique": true, "user": true, "using": true, "when": true, "where": true, "with": true,
}

// Document prints p in a structured format (JSON, YAML or XML) as one
// string, as PostgreSQL does.
func (p *Plan) Document() string {
	w := &docWriter{f: p.Opts.Format}
	w.begin()
	w.open("Query", "", true)
	w.node(p.Root, p.Opts, "Plan")
	if p.Opts.Settings {
		w.open("Settings", "Settings", true)
		for _, s := range p.Settings {
			w.prop(s[0], s[1], false)
		}
		w.close("Settings", true)
	}
	if p.Opts.Summary {
		w.prop("Planning Time", fmt.Sprintf("%.3f", p.Planning), true)
	}
	if p.Opts.Analyze {
		w.open("Triggers", "Triggers", false)
		w.close("Triggers", false)
		if p.Opts.Summary && p.Execution >= 0 {
			w.prop("Execution Time", fmt.Sprintf("%.3f", p.Execution), true)
		}
	}
	w.close("Query", true)
	w.end()
	return w.b.String()
}

// docWriter writes JSON, YAML or XML with PostgreSQL's layout: groups
// (objects and arrays) and properties, indented two spaces a level.
type docWriter struct {
	f      Format
	b      strings.Builder
	indent int
	// first[len-1] says, for the innermost group, whether something
	// was written in it (JSON: a comma is due) or, in YAML, whether the
	// next line must start anew.
	first []bool
}

func (w *docWriter) top() *bool { return &w.first[len(w.first)-1] }

func (w *docWriter) begin() {
	switch w.f {
	case JSON:
		w.b.WriteString("[")
		w.first = append(w.first, false)
		w.indent++
	case YAML:
		w.first = append(w.first, false)
	case XML:
		w.b.WriteString(`<explain xmlns="` + XMLNamespace + `">` + "\n")
		w.indent++
	}
}

func (w *docWriter) end() {
	switch w.f {
	case JSON:
		w.indent--
		w.b.WriteString("\n]")
		w.first = w.first[:len(w.first)-1]
	case YAML:
		w.first = w.first[:len(w.first)-1]
	case XML:
		w.indent--
		w.b.WriteString("</explain>")
	}
}

func (w *docWriter) pad(n int) { w.b.WriteString(strings.Repeat(" ", n)) }

// jsonLine ends the previous item of a JSON group.
func (w *docWriter) jsonLine() {
	if t := w.top(); *t {
		w.b.WriteByte(',')
	} else {
		*t = true
	}
	w.b.WriteByte('\n')
}

// yamlLine starts a YAML item on a new line unless it is the first of an
// item begun with "- ".
func (w *docWriter) yamlLine() {
	if t := w.top(); !*t {
		*t = true
	} else {
		w.b.WriteByte('\n')
		w.pad(2 * w.indent)
	}
}

// open opens a group: an object (labeled: its members have keys) or an
// array; label is its key in the enclosing object ("" in an array), name
// its XML tag.
func (w *docWriter) open(name, label string, labeled bool) {
	switch w.f {
	case JSON:
		w.jsonLine()
		w.pad(2 * w.indent)
		if label != "" {
			w.b.Write(pgtext.AppendJSONString(nil, []byte(label)))
			w.b.WriteString(": ")
		}
		if labeled {
			w.b.WriteByte('{')
		} else {
			w.b.WriteByte('[')
		}
		w.first = append(w.first, false)
	case YAML:
		w.yamlLine()
		if label != "" {
			w.b.WriteString(label + ": ")
			w.first = append(w.first, true)
		} else {
			w.b.WriteString("- ")
			w.first = append(w.first, false)
		}
	case XML:
		w.pad(2 * w.indent)
		w.b.WriteString("<" + xmlTag(name) + ">\n")
	}
	w.indent++
}

func (w *docWriter) close(name string, labeled bool) {
	w.indent--
	switch w.f {
	case JSON:
		w.b.WriteByte('\n')
		w.pad(2 * w.indent)
		if labeled {
			w.b.WriteByte('}')
		} else {
			w.b.WriteByte(']')
		}
		w.first = w.first[:len(w.first)-1]
	case YAML:
		w.first = w.first[:len(w.first)-1]
	case XML:
		w.pad(2 * w.indent)
		w.b.WriteString("</" + xmlTag(name) + ">\n")
	}
}

// prop writes one property; a raw one (numbers, booleans) unquoted.
func (w *docWriter) prop(key, value string, raw bool) {
	switch w.f {
	case JSON:
		w.jsonLine()
		w.pad(2 * w.indent)
		w.b.Write(pgtext.AppendJSONString(nil, []byte(key)))
		w.b.WriteString(": ")
		if raw {
			w.b.WriteString(value)
		} else {
			w.b.Write(pgtext.AppendJSONString(nil, []byte(value)))
		}
	case YAML:
		w.yamlLine()
		w.b.WriteString(key + ": ")
		if raw {
			w.b.WriteString(value)
		} else {
			w.b.Write(pgtext.AppendJSONString(nil, []byte(value)))
		}
	case XML:
		w.pad(2 * w.indent)
		tag := xmlTag(key)
		w.b.WriteString("<" + tag + ">" + xmlEscape(value) + "</" + tag + ">\n")
	}
}

func (w *docWriter) list(key string, items []string) {
	switch w.f {
	case JSON:
		w.jsonLine()
		w.pad(2 * w.indent)
		w.b.Write(pgtext.AppendJSONString(nil, []byte(key)))
		w.b.WriteString(": [")
		for i, it := range items {
			if i > 0 {
				w.b.WriteString(", ")
			}
			w.b.Write(pgtext.AppendJSONString(nil, []byte(it)))
		}
		w.b.WriteByte(']')
	case YAML:
		w.yamlLine()
		w.b.WriteString(key + ": ")
		for _, it := range items {
			w.b.WriteByte('\n')
			w.pad(2*w.indent + 2)
			w.b.WriteString("- ")
			w.b.Write(pgtext.AppendJSONString(nil, []byte(it)))
		}
	case XML:
		tag := xmlTag(key)
		w.pad(2 * w.indent)
		w.b.WriteString("<" + tag + ">\n")
		for _, it := range items {
			w.pad(2*w.indent + 2)
			w.b.WriteString("<Item>" + xmlEscape(it) + "</Item>\n")
		}
		w.pad(2 * w.indent)
		w.b.WriteString("</" + tag + ">\n")
	}
}

func (w *docWriter) node(n *Node, o Options, label string) {
	w.open("Plan", label, true)
	w.prop("Node Type", n.Type, false)
	for _, p := range [][2]string{{"Strategy", n.Strategy}, {"Partial Mode", n.PartialMode}, {"Operation", n.Operation},
		{"Parent Relationship", n.Relationship}, {"Subplan Name", n.SubplanName}, {"Custom Plan Provider", n.Provider}} {
		if p[1] != "" {
			w.prop(p[0], p[1], false)
		}
	}
	w.prop("Parallel Aware", fmt.Sprint(n.Parallel), true)
	w.prop("Async Capable", "false", true)
	if t := n.Target; t != nil {
		if t.Kind != "" {
			w.prop(t.Kind, t.Object, false)
		}
		if t.Schema != "" {
			w.prop("Schema", t.Schema, false)
		}
		w.prop("Alias", t.Alias, false)
	}
	if n.JoinType != "" {
		w.prop("Join Type", n.JoinType, false)
	}
	if n.Command != "" {
		w.prop("Command", n.Command, false)
	}
	if o.Costs {
		w.prop("Startup Cost", fmt.Sprintf("%.2f", n.Startup), true)
		w.prop("Total Cost", fmt.Sprintf("%.2f", n.Total), true)
		w.prop("Plan Rows", fmt.Sprintf("%.0f", n.Rows), true)
		w.prop("Plan Width", fmt.Sprintf("%d", n.Width), true)
	}
	if a := n.Actual; a != nil {
		if o.Timing {
			w.prop("Actual Startup Time", fmt.Sprintf("%.3f", a.Startup), true)
			w.prop("Actual Total Time", fmt.Sprintf("%.3f", a.Total), true)
		}
		w.prop("Actual Rows", fmt.Sprintf("%.0f", a.Rows), true)
		w.prop("Actual Loops", fmt.Sprintf("%d", a.Loops), true)
	}
	if len(n.Output) > 0 {
		w.list("Output", n.Output)
	}
	for _, p := range append(append([]Prop(nil), n.Props...), n.extra...) {
		if p.Where == textOnly {
			continue
		}
		switch p.Kind {
		case listProp:
			w.list(p.Key, p.List)
		case numberProp, boolProp:
			w.prop(p.Key, p.Value, true)
		default:
			w.prop(p.Key, p.Value, false)
		}
	}
	if len(n.Kids) > 0 {
		w.open("Plans", "Plans", false)
		for _, k := range n.Kids {
			w.node(k, o, "")
		}
		w.close("Plans", false)
	}
	w.close("Plan", true)
}

func xmlTag(s string) string { return strings.ReplaceAll(s, " ", "-") }

// xmlEscape escapes as PostgreSQL's escape_xml: &, <, > and carriage
// returns.
func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#x0d;").Replace(s)
}
