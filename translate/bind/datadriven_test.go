package bind

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata files")

// The files of testdata/*.txt hold cases of the form
//
//	directive
//	input lines
//	----
//	expected output (up to a blank line)
//
// Lines starting with # between cases are comments. The directives:
// (bind and error take values=V1,V2,... : the parameters' values, as
// text, null for NULL; the statement is bound as Execute binds it)
//
//	catalog   declares the tables and views of the cases after it
//	          (env_test.go)
//	bind      binds one SELECT statement and prints its result columns
//	          (name:type), the types inferred for its parameters ($n,
//	          not declared; text when nothing says) and its plan as
//	          bound, before the optimizer, followed by the plans of the
//	          subqueries its expressions hold
//	error     binds one statement that must fail and prints
//	          error (SQLSTATE): message
//	          and, when the error has one, the 1-based character
//	          position in the statement it points at:
//	          position: N
//
// Both print the error when binding fails, and error prints the plan when
// it does not, so a case that changes its outcome shows it.
//
// go test ./translate/bind -rewrite writes the actual outputs back.
type ddCase struct {
	pos       string
	directive string
	args      []string
	input     string
	expected  string
}

// arg is the value of name=value among the case's arguments.
func (c *ddCase) arg(name string) (string, bool) {
	for _, a := range c.args {
		if k, v, ok := strings.Cut(a, "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// runDataDriven runs the cases of path in order through run; with
// -rewrite it writes the actual outputs back into the file.
func runDataDriven(t *testing.T, path string, run func(t *testing.T, c *ddCase) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []string
	for i := 0; i < len(lines); {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			out = append(out, line)
			i++
			continue
		}
		c := &ddCase{pos: fmt.Sprintf("%s:%d", filepath.Base(path), i+1)}
		fields := strings.Fields(trimmed)
		c.directive, c.args = fields[0], fields[1:]
		out = append(out, line)
		i++
		var input []string
		for i < len(lines) && lines[i] != "----" {
			input = append(input, lines[i])
			out = append(out, lines[i])
			i++
		}
		if i >= len(lines) {
			t.Fatalf("%s: missing ----", c.pos)
		}
		out = append(out, "----")
		i++
		var expected []string
		for i < len(lines) && lines[i] != "" {
			expected = append(expected, lines[i])
			i++
		}
		c.input = strings.Join(input, "\n")
		c.expected = strings.Join(expected, "\n")
		var actual string
		t.Run(c.pos, func(t *testing.T) {
			actual = strings.TrimRight(run(t, c), "\n")
			if !*rewrite && actual != c.expected {
				t.Errorf("%s: %s\n%s\nexpected:\n%s\nactual:\n%s", c.pos, c.directive, c.input, c.expected, actual)
			}
		})
		if actual != "" {
			out = append(out, strings.Split(actual, "\n")...)
		}
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDataDriven runs every file of testdata against the catalogs the
// files declare.
func TestDataDriven(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata files")
	}
	sort.Strings(files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			var env *testEnv
			runDataDriven(t, path, func(t *testing.T, c *ddCase) string {
				switch c.directive {
				case "catalog":
					var err error
					if env, err = parseTestCatalog(c.input); err != nil {
						t.Fatalf("%s: %v", c.pos, err)
					}
					return ""
				case "bind", "error":
					if env == nil {
						t.Fatalf("%s: no catalog declared before", c.pos)
					}
					var values []*string
					if v, ok := c.arg("values"); ok {
						for _, s := range strings.Split(v, ",") {
							if s == "null" {
								values = append(values, nil)
							} else {
								values = append(values, &s)
							}
						}
					}
					p, err := bindSQL(env, c.input, values)
					if err != nil {
						return renderError(err)
					}
					out := renderBound(p)
					if c.directive == "error" {
						out = "no error\n" + out
					}
					return out
				}
				t.Fatalf("%s: unknown directive %q", c.pos, c.directive)
				return ""
			})
		})
	}
}

// bindSQL parses sql (one SELECT) and binds it as translate binds a
// query, with no parameters, at testNow.
//
// With values, it binds twice as a prepared statement is: once for the
// parameters' types, then again with the types and values (Execute).
func bindSQL(env Env, sql string, values []*string) (*bound, error) {
	stmts, err := parse.Parse(sql, ParseConfig)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, fmt.Errorf("want one statement, got %d", len(stmts))
	}
	sel := stmts[0].Node.GetSelectStmt()
	if sel == nil {
		return nil, fmt.Errorf("not a SELECT statement")
	}
	ps := &ParamSet{}
	p, err := New(context.Background(), env, stmts[0], ps, testNow).BindSelect(sel)
	if err != nil {
		return nil, err
	}
	ps.ResolveUntyped()
	if values != nil {
		if len(values) != len(ps.Types) {
			return nil, fmt.Errorf("%d values for %d parameters", len(values), len(ps.Types))
		}
		ps = &ParamSet{Types: ps.Types, Values: values, Bound: true}
		if p, err = New(context.Background(), env, stmts[0], ps, testNow).BindSelect(sel); err != nil {
			return nil, err
		}
	}
	return &bound{Select: p, params: ps.Types}, nil
}

// bound is a bound statement and the types of its parameters, as
// inferred from their uses (text when nothing says).
type bound struct {
	*plan.Select
	params []uint32
}

func renderError(err error) string {
	pe := pgerr.As(err)
	if pe == nil {
		return "error (no SQLSTATE): " + err.Error()
	}
	out := fmt.Sprintf("error (%s): %s", pe.Code, pe.Message)
	if pe.Position > 0 {
		out += fmt.Sprintf("\nposition: %d", pe.Position)
	}
	return out
}

// renderBound prints the result columns as name:type, the parameters'
// types when there are parameters, then the plan.
func renderBound(p *bound) string {
	cols := make([]string, len(p.Cols))
	for i, c := range p.Cols {
		cols[i] = fmt.Sprintf("%s:%s", c.Name, plan.Type{OID: c.TypeOID, Typmod: c.Typmod})
	}
	out := "columns: " + strings.Join(cols, " ") + "\n"
	if len(p.params) > 0 {
		ps := make([]string, len(p.params))
		for i, oid := range p.params {
			ps[i] = fmt.Sprintf("$%d:%s", i+1, plan.Type{OID: oid, Typmod: -1})
		}
		out += "params: " + strings.Join(ps, " ") + "\n"
	}
	return out + renderStatement(p.Select)
}

// renderStatement is p's plan as Render prints it, followed by the plan
// of each subquery its expressions hold (numbered in the order they are
// met, each once), which Render shows as (subquery).
func renderStatement(p *plan.Select) string {
	lines := p.Render(nil)
	var subs []*plan.Subquery
	seen := map[*plan.Subquery]bool{}
	var collect func(r plan.Rel)
	collect = func(r plan.Rel) {
		plan.Visit(r, func(n plan.Rel) {
			for _, e := range plan.Exprs(n) {
				plan.WalkExpr(e, func(e expr.Expr) {
					if sq, ok := e.(*plan.Subquery); ok && !seen[sq] {
						seen[sq] = true
						subs = append(subs, sq)
						collect(sq.Plan.Root)
					}
				})
			}
		})
	}
	collect(p.Root)
	for i, sq := range subs {
		kind := "scalar"
		if sq.Exists {
			kind = "exists"
		}
		lines = append(lines, fmt.Sprintf("subquery %d (%s)", i+1, kind))
		lines = append(lines, sq.Plan.Render(nil)...)
	}
	return strings.Join(lines, "\n")
}
