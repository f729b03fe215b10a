package explain

import (
	"encoding/json"
	"encoding/xml"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// selectOne is the plan of SELECT 1 with PostgreSQL's estimates.
func selectOne() *Node {
	return &Node{Type: "Result", Total: 0.01, Rows: 1, Width: 4}
}

// TestDocumentsAsPostgres: the structured formats of a plain plan are
// byte for byte what PostgreSQL 15 prints for EXPLAIN (FORMAT ...) SELECT 1.
func TestDocumentsAsPostgres(t *testing.T) {
	cases := []struct {
		opts Options
		want string
	}{
		{Options{Costs: true, Format: JSON}, `[
  {
    "Plan": {
      "Node Type": "Result",
      "Parallel Aware": false,
      "Async Capable": false,
      "Startup Cost": 0.00,
      "Total Cost": 0.01,
      "Plan Rows": 1,
      "Plan Width": 4
    }
  }
]`},
		{Options{Costs: true, Format: XML}, `<explain xmlns="http://www.postgresql.org/2009/explain">
  <Query>
    <Plan>
      <Node-Type>Result</Node-Type>
      <Parallel-Aware>false</Parallel-Aware>
      <Async-Capable>false</Async-Capable>
      <Startup-Cost>0.00</Startup-Cost>
      <Total-Cost>0.01</Total-Cost>
      <Plan-Rows>1</Plan-Rows>
      <Plan-Width>4</Plan-Width>
    </Plan>
  </Query>
</explain>`},
		{Options{Costs: true, Format: YAML, Analyze: true, Timing: true, Summary: true}, `- Plan: 
    Node Type: "Result"
    Parallel Aware: false
    Async Capable: false
    Startup Cost: 0.00
    Total Cost: 0.01
    Plan Rows: 1
    Plan Width: 4
    Actual Startup Time: 0.001
    Actual Total Time: 0.001
    Actual Rows: 1
    Actual Loops: 1
  Planning Time: 0.008
  Triggers: 
  Execution Time: 0.013`},
		{Options{Format: JSON, Analyze: true, Summary: true, Settings: true}, `[
  {
    "Plan": {
      "Node Type": "Result",
      "Parallel Aware": false,
      "Async Capable": false,
      "Actual Rows": 1,
      "Actual Loops": 1
    },
    "Settings": {
    },
    "Planning Time": 0.008,
    "Triggers": [
    ],
    "Execution Time": 0.013
  }
]`},
	}
	for _, c := range cases {
		n := selectOne()
		if c.opts.Analyze {
			n.Actual = &Actual{Startup: 0.001, Total: 0.001, Rows: 1, Loops: 1}
		}
		p := &Plan{Root: n, Opts: c.opts, Planning: 0.008, Execution: 0.013}
		if got := p.Document(); got != c.want {
			t.Errorf("%+v:\n%s\nwant\n%s", c.opts, got, c.want)
		}
	}
}

// joinPlan is a plan with every kind of detail: a join, a Hash, lists,
// conditions that need escaping, an InitPlan, actual rows and a node
// never executed.
func joinPlan() *Node {
	scanU := &Node{Type: "Seq Scan", Relationship: "Outer", Target: &Target{Kind: "Relation Name", Object: "u", Alias: "u"},
		Total: 85.5, Rows: 4990, Width: 4, Actual: &Actual{Startup: 0.02, Total: 0.6, Rows: 4990, Loops: 1},
		Output: []string{"u.a", "u.c"}, Props: []Prop{textP("Filter", `(u.c > 10 AND u.s <> 'a"b&')`), numP("Rows Removed by Filter", "10", everywhere)}}
	scanT := &Node{Type: "Seq Scan", Relationship: "Outer", Target: &Target{Kind: "Relation Name", Object: "t", Schema: "public", Alias: "t2"},
		Total: 16, Rows: 1000, Width: 8, Actual: &Actual{Loops: 0}}
	hash := &Node{Type: "Hash", Relationship: "Inner", Startup: 16, Total: 16, Rows: 1000, Width: 8, Kids: []*Node{scanT}, Actual: &Actual{}}
	join := &Node{Type: "Hash Join", Relationship: "Outer", JoinType: "Left", Startup: 28.5, Total: 182.61, Rows: 4990, Width: 4,
		Actual: &Actual{Startup: 0.3, Total: 9.8, Rows: 4940, Loops: 1},
		Props:  []Prop{boolP("Inner Unique", false, structuredOnly), textP("Hash Cond", "(u.a = t2.a)")}, Kids: []*Node{scanU, hash}}
	init := &Node{Type: "Aggregate", Strategy: "Plain", PartialMode: "Simple", Relationship: "InitPlan", SubplanName: "InitPlan 1 (returns $0)",
		Total: 1, Rows: 1, Width: 4, Actual: &Actual{Total: 0.1, Rows: 1, Loops: 1}}
	return &Node{Type: "Limit", Startup: 230.49, Total: 230.5, Rows: 3, Width: 12, Actual: &Actual{Startup: 10.669, Total: 10.674, Rows: 3, Loops: 1},
		Output: []string{"t.b", "(count(*))"}, Kids: []*Node{init, join}}
}

func TestTextLayout(t *testing.T) {
	p := &Plan{Root: joinPlan(), Opts: Options{Costs: true, Analyze: true, Timing: true, Summary: true}, Planning: 0.5, Execution: 11}
	want := `Limit  (cost=230.49..230.50 rows=3 width=12) (actual time=10.669..10.674 rows=3 loops=1)
  Output: t.b, (count(*))
  InitPlan 1 (returns $0)
    ->  Aggregate  (cost=0.00..1.00 rows=1 width=4) (actual time=0.000..0.100 rows=1 loops=1)
  ->  Hash Left Join  (cost=28.50..182.61 rows=4990 width=4) (actual time=0.300..9.800 rows=4940 loops=1)
        Hash Cond: (u.a = t2.a)
        ->  Seq Scan on u  (cost=0.00..85.50 rows=4990 width=4) (actual time=0.020..0.600 rows=4990 loops=1)
              Output: u.a, u.c
              Filter: (u.c > 10 AND u.s <> 'a"b&')
              Rows Removed by Filter: 10
        ->  Hash  (cost=16.00..16.00 rows=1000 width=8) (never executed)
              ->  Seq Scan on public.t t2  (cost=0.00..16.00 rows=1000 width=8) (never executed)
Planning Time: 0.500 ms
Execution Time: 11.000 ms`
	if got := strings.Join(p.Lines(), "\n"); got != want {
		t.Errorf("text:\n%s\nwant\n%s", got, want)
	}
	p.Opts = Options{Analyze: true}
	want = `Limit (actual rows=3 loops=1)
  Output: t.b, (count(*))
  InitPlan 1 (returns $0)
    ->  Aggregate (actual rows=1 loops=1)`
	if got := strings.Join(p.Lines()[:4], "\n"); got != want {
		t.Errorf("text without costs and timing:\n%s\nwant\n%s", got, want)
	}
}

// TestDocumentsParse: the JSON, YAML and XML of one plan parse to the
// same tree, with PostgreSQL's keys, lists and nesting.
func TestDocumentsParse(t *testing.T) {
	opts := Options{Costs: true, Analyze: true, Timing: true, Summary: true, Verbose: true}
	doc := func(f Format) string {
		o := opts
		o.Format = f
		return (&Plan{Root: joinPlan(), Opts: o, Planning: 0.5, Execution: 11}).Document()
	}
	var fromJSON []map[string]any
	if err := json.Unmarshal([]byte(doc(JSON)), &fromJSON); err != nil {
		t.Fatalf("JSON: %v\n%s", err, doc(JSON))
	}
	var fromYAML []map[string]any
	if err := yaml.Unmarshal([]byte(doc(YAML)), &fromYAML); err != nil {
		t.Fatalf("YAML: %v\n%s", err, doc(YAML))
	}
	fromXML, err := xmlTree(doc(XML))
	if err != nil {
		t.Fatalf("XML: %v\n%s", err, doc(XML))
	}
	j, y := normalize(fromJSON[0]), normalize(fromYAML[0])
	if !reflect.DeepEqual(j, y) {
		t.Errorf("JSON and YAML differ:\n%v\n%v", j, y)
	}
	if !reflect.DeepEqual(j, fromXML) {
		t.Errorf("JSON and XML differ:\n%v\n%v", j, fromXML)
	}
	top := j.(map[string]any)
	for _, k := range []string{"Plan", "Planning Time", "Triggers", "Execution Time"} {
		if _, ok := top[k]; !ok {
			t.Errorf("no top-level %q in %v", k, top)
		}
	}
	root := top["Plan"].(map[string]any)
	kids := root["Plans"].([]any)
	init, join := kids[0].(map[string]any), kids[1].(map[string]any)
	if init["Parent Relationship"] != "InitPlan" || init["Subplan Name"] != "InitPlan 1 (returns $0)" || init["Strategy"] != "Plain" {
		t.Errorf("InitPlan: %v", init)
	}
	if join["Node Type"] != "Hash Join" || join["Join Type"] != "Left" || join["Inner Unique"] != "false" || join["Hash Cond"] != "(u.a = t2.a)" {
		t.Errorf("join: %v", join)
	}
	scan := join["Plans"].([]any)[0].(map[string]any)
	if scan["Filter"] != `(u.c > 10 AND u.s <> 'a"b&')` || scan["Relation Name"] != "u" || scan["Alias"] != "u" ||
		!reflect.DeepEqual(scan["Output"], []any{"u.a", "u.c"}) || scan["Rows Removed by Filter"] != "10" {
		t.Errorf("scan: %v", scan)
	}
	never := join["Plans"].([]any)[1].(map[string]any)["Plans"].([]any)[0].(map[string]any)
	if never["Actual Loops"] != "0" || never["Actual Rows"] != "0" || never["Schema"] != "public" || never["Alias"] != "t2" {
		t.Errorf("never executed: %v", never)
	}
	if !strings.Contains(doc(XML), `<Filter>(u.c &gt; 10 AND u.s &lt;&gt; 'a"b&amp;')</Filter>`) {
		t.Errorf("XML escaping:\n%s", doc(XML))
	}
}

// normalize makes parsed JSON and YAML comparable with the XML tree:
// scalars as their text, numbers without trailing zeros, an empty group
// as "".
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = normalize(x)
		}
		return out
	case []any:
		if len(v) == 0 {
			return ""
		}
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalize(x)
		}
		return out
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int:
		return strconv.Itoa(v)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return ""
	}
	return v
}

// scalar normalizes an XML element's text as normalize does a number.
func scalar(s string) string {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return s
}

type xmlElem struct {
	XMLName xml.Name
	Text    string    `xml:",chardata"`
	Kids    []xmlElem `xml:",any"`
}

// xmlTree reads an XML plan into the shape normalize gives the others.
func xmlTree(s string) (any, error) {
	var root xmlElem
	if err := xml.Unmarshal([]byte(s), &root); err != nil {
		return nil, err
	}
	if root.XMLName.Space != XMLNamespace || len(root.Kids) != 1 {
		return nil, &xml.SyntaxError{Msg: "not one Query in PostgreSQL's namespace"}
	}
	var conv func(e xmlElem) map[string]any
	conv = func(e xmlElem) map[string]any {
		m := map[string]any{}
		for _, k := range e.Kids {
			key := strings.ReplaceAll(k.XMLName.Local, "-", " ")
			switch {
			case key == "Plans":
				var ps []any
				for _, p := range k.Kids {
					ps = append(ps, conv(p))
				}
				m[key] = ps
			case key == "Plan":
				m[key] = conv(k)
			case len(k.Kids) > 0 && k.Kids[0].XMLName.Local == "Item":
				var items []any
				for _, it := range k.Kids {
					items = append(items, it.Text)
				}
				m[key] = items
			default:
				m[key] = scalar(k.Text)
			}
		}
		return m
	}
	return conv(root.Kids[0]), nil
}
