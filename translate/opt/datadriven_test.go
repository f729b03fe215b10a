package opt

import (
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/translate/plan"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata files")

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
			datadriven.Run(t, path, *rewrite, func(t *testing.T, c *datadriven.Case) string {
				switch c.Directive {
				case "catalog":
					var err error
					if cat, err = parseCatalog(c.Input); err != nil {
						t.Fatalf("%s: %v", c.Pos, err)
					}
					return ""
				case "build", "optimize", "statement":
					if cat == nil {
						t.Fatalf("%s: no catalog declared before", c.Pos)
					}
					sel, err := buildTree(cat, c.Input)
					if err != nil {
						return "error: " + err.Error()
					}
					if c.Directive == "build" {
						return renderStatement(sel)
					}
					cfg := Config{}
					if v, ok := c.Arg("disable"); ok {
						if cfg.Disabled, err = ParseDisabled(v); err != nil {
							return "error: " + err.Error()
						}
					}
					if v, ok := c.Arg("tz"); ok {
						if cfg.TimeZone, err = time.LoadLocation(v); err != nil {
							return "error: " + err.Error()
						}
					}
					before := renderStatement(sel)
					var out *plan.Select
					if c.Directive == "statement" {
						out = Statement(sel, cfg)
					} else {
						o := *sel
						o.Root = Optimize(sel.Root, cfg)
						out = &o
					}
					if after := renderStatement(sel); after != before {
						t.Errorf("%s: the optimizer changed its input:\nbefore\n%s\nafter\n%s", c.Pos, before, after)
					}
					if _, ok := c.Arg("twice"); ok {
						out.Root = Optimize(out.Root, cfg)
					}
					checkUnshared(t, c, out.Root)
					return renderStatement(out)
				}
				t.Fatalf("%s: unknown directive %q", c.Pos, c.Directive)
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
func checkUnshared(t *testing.T, c *datadriven.Case, r plan.Rel) {
	t.Helper()
	seen := map[plan.Rel]bool{}
	plan.Visit(r, func(n plan.Rel) {
		if seen[n] {
			t.Errorf("%s: the optimized tree holds a %T twice", c.Pos, n)
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
