package pgtext

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The literals and details below are PostgreSQL 15's answers to
// SELECT '<literal>'::text[].
func TestParseArray(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // dims then elements (NULL for a NULL), or the error detail
	}{
		{`{}`, `[] `},
		{` { } `, `[] `},
		{`{1,2}`, `[2] 1|2`},
		{`{{1,2},{3,4}}`, `[2 2] 1|2|3|4`},
		{` { { 1 , 2 } , { 3 , 4 } } `, `[2 2] 1|2|3|4`},
		{`{{{1},{2}},{{3},{4}}}`, `[2 2 1] 1|2|3|4`},
		{`{{1,NULL},{"NULL",null}}`, `[2 2] 1|NULL|"NULL"|NULL`},
		{`{{"a b","c\"d"},{"e\\f",""}}`, `[2 2] a b|c"d|e\f|`},
		{`{{1,2},{3}}`, `Multidimensional arrays must have sub-arrays with matching dimensions.`},
		{`{{1,2},{3,4,5}}`, `Multidimensional arrays must have sub-arrays with matching dimensions.`},
		{`{{1},{{2}}}`, `Multidimensional arrays must have sub-arrays with matching dimensions.`},
		{`{{1,2},3}`, `Unexpected array element.`},
		{`{1,{2,3}}`, `Unexpected "{" character.`},
		{`{{1,2},{3,4}`, `Unexpected end of input.`},
		{`{{1,2},{3,4}}}`, `Junk after closing right brace.`},
		{`{{},{}}`, `Unexpected "}" character.`},
		{`{1,,2}`, `Unexpected "," character.`},
		{`1,2`, `Array value must start with "{" or dimension information.`},
	} {
		got, err := ParseArray([]byte(c.in))
		var s string
		var se *ArraySyntaxError
		switch {
		case errors.As(err, &se):
			s = se.Detail
		case err != nil:
			t.Fatalf("%s: unexpected error %v", c.in, err)
		default:
			var els []string
			for k, e := range got.Elems {
				if got.Null[k] {
					els = append(els, "NULL")
				} else if string(e) == "NULL" {
					els = append(els, `"NULL"`)
				} else {
					els = append(els, string(e))
				}
			}
			s = fmt.Sprint(got.Dims) + " " + strings.Join(els, "|")
		}
		if s != c.want {
			t.Errorf("ParseArray(%s) = %s, want %s", c.in, s, c.want)
		}
	}
	if _, err := ParseArray([]byte(`[0:1]={1,2}`)); !errors.Is(err, ErrArrayBounds) {
		t.Errorf("bounds: %v", err)
	}
	var deep *ArrayTooDeepError
	if _, err := ParseArray([]byte(`{{{{{{{1}}}}}}}`)); !errors.As(err, &deep) || deep.N != 7 {
		t.Errorf("seven dimensions: %v", err)
	}
}

// TestArrayWriterNested prints row-major elements under their dimensions.
func TestArrayWriterNested(t *testing.T) {
	for _, c := range []struct {
		dims []int32
		want string
	}{
		{[]int32{2, 2}, "{{1,2},{3,4}}"},
		{[]int32{1, 4}, "{{1,2,3,4}}"},
		{[]int32{2, 1, 2}, "{{{1,2}},{{3,4}}}"},
		{[]int32{4}, "{1,2,3,4}"},
	} {
		var w ArrayWriter
		dst := w.Begin(nil, c.dims, nil)
		for _, e := range []string{"1", "2", "3", "4"} {
			dst = w.Next(dst)
			dst = AppendArrayElement(dst, []byte(e))
		}
		if got := string(w.End(dst)); got != c.want {
			t.Errorf("dims %v: %s, want %s", c.dims, got, c.want)
		}
	}
}
