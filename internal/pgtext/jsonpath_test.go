package pgtext

import (
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

func TestJSONPathVars(t *testing.T) {
	v, _ := ParseJSONB([]byte(`{"a": [1, 2, 3]}`))
	vars, _ := ParseJSONB([]byte(`{"min": 1, "m n": 2}`))
	for path, want := range map[string]int{`$.a[*] ? (@ > $min)`: 2, `$.a[*] ? (@ > $"m n")`: 1} {
		p, err := CompileJSONPath(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.QueryVars(v, vars)
		if err != nil || len(got) != want {
			t.Errorf("%s: %d items, %v; want %d", path, len(got), err, want)
		}
	}
	p, _ := CompileJSONPath(`$.a ? (@ > $nope)`)
	if _, err := p.QueryVars(v, vars); pgerr.Code(err) != pgerr.UndefinedObject {
		t.Errorf("a missing variable: %v", err)
	}
	if _, err := p.QueryVars(v, v.Elems[0]); pgerr.Code(err) != pgerr.InvalidParameterValue {
		t.Errorf("vars not an object: %v", err)
	}
}

func TestJSONPath(t *testing.T) {
	doc := `{"a": {"b": [1, 2, 3]}, "items": [{"x": 1, "n": "p"}, {"x": 5, "n": "q"}, {"x": 3}], "s": "t"}`
	cases := []struct {
		path, want, code string
	}{
		{path: "$.a.b[*] ? (@ > 1)", want: "2|3"},
		{path: "$.a.b[last - 1]", want: "2"},
		{path: "$.a.b[0 to 1, last]", want: "1|2|3"},
		{path: "lax $.items.x", want: "1|5|3"},
		{path: `$.items[*] ? (@.x >= 3 && !(@.n == "q")).x`, want: "3"},
		{path: `$.items ? (exists (@.n)).n`, want: `"p"|"q"`},
		{path: "$.a.b.size()", want: "3"},
		{path: "$.s.type()", want: `"string"`},
		{path: "$.nope", want: ""},
		{path: "$.a.b == 2", want: "true"},
		{path: `$.s < 1`, want: "null"},
		{path: "strict $.nope", code: pgerr.SQLJSONMemberNotFound},
		{path: "strict $.a.b[9]", code: pgerr.InvalidSQLJSONSubscript},
		{path: "strict $.s[*]", code: pgerr.SQLJSONArrayNotFound},
		{path: "$.a +", code: pgerr.SyntaxError},
		{path: "$.a + 1", code: pgerr.FeatureNotSupported},
		{path: "$.s.double()", code: pgerr.FeatureNotSupported},
		{path: "$ ? (@ like_regex \"x\")", code: pgerr.FeatureNotSupported},
	}
	v, err := ParseJSONB([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		p, err := CompileJSONPath(c.path)
		var items []*JSON
		if err == nil {
			items, err = p.Query(v)
		}
		if c.code != "" {
			if pgerr.Code(err) != c.code {
				t.Errorf("%s: error %v, want SQLSTATE %s", c.path, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		var got []string
		for _, it := range items {
			got = append(got, string(AppendJSONB(nil, it)))
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%s = %s, want %s", c.path, g, c.want)
		}
	}
}
