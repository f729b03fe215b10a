package opt

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/plan"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata files")

// The files of testdata/*.txt hold cases of the form
//
//	directive arg...
//	input lines
//	----
//	expected output (up to a blank line)
//
// Lines starting with # between cases are comments. The directives:
//
//	catalog      declares tables for the cases after it (tree_test.go)
//	optimize     builds the tree of its input, runs the passes (args:
//	             disable=a,b skips passes; twice=1 runs them again over
//	             their result) and renders the result
//	statement    as optimize, through Statement: the subqueries the
//	             tree's expressions hold are optimized too
//	build        renders the tree as built, unoptimized
//
// go test ./translate/opt -rewrite writes the actual outputs back.
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
				t.Errorf("%s: %s %s\n%s\nexpected:\n%s\nactual:\n%s", c.pos, c.directive, strings.Join(c.args, " "), c.input, c.expected, actual)
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
			var cat *testCatalog
			runDataDriven(t, path, func(t *testing.T, c *ddCase) string {
				switch c.directive {
				case "catalog":
					var err error
					if cat, err = parseCatalog(c.input); err != nil {
						t.Fatalf("%s: %v", c.pos, err)
					}
					return ""
				case "build", "optimize", "statement":
					if cat == nil {
						t.Fatalf("%s: no catalog declared before", c.pos)
					}
					sel, err := buildTree(cat, c.input)
					if err != nil {
						return "error: " + err.Error()
					}
					if c.directive == "build" {
						return renderStatement(sel)
					}
					cfg := Config{}
					if v, ok := c.arg("disable"); ok {
						if cfg.Disabled, err = ParseDisabled(v); err != nil {
							return "error: " + err.Error()
						}
					}
					before := renderStatement(sel)
					var out *plan.Select
					if c.directive == "statement" {
						out = Statement(sel, cfg)
					} else {
						o := *sel
						o.Root = Optimize(sel.Root, cfg)
						out = &o
					}
					if after := renderStatement(sel); after != before {
						t.Errorf("%s: the optimizer changed its input:\nbefore\n%s\nafter\n%s", c.pos, before, after)
					}
					if _, ok := c.arg("twice"); ok {
						out.Root = Optimize(out.Root, cfg)
					}
					checkUnshared(t, c, out.Root)
					return renderStatement(out)
				}
				t.Fatalf("%s: unknown directive %q", c.pos, c.directive)
				return ""
			})
		})
	}
}

// atoiArg parses a count in the tree language.
func atoiArg(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", s)
	}
	return n, nil
}

// checkUnshared fails the case when a node of r is reachable twice: the
// passes copy what they duplicate (a semi join's copy of a filtered
// table), so that no operator is lowered twice.
func checkUnshared(t *testing.T, c *ddCase, r plan.Rel) {
	t.Helper()
	seen := map[plan.Rel]bool{}
	plan.Visit(r, func(n plan.Rel) {
		if seen[n] {
			t.Errorf("%s: the optimized tree holds a %T twice", c.pos, n)
		}
		seen[n] = true
	})
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
