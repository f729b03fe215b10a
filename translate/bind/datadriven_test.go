package bind

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
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
			var env *testEnv
			datadriven.Run(t, path, *rewrite, func(t *testing.T, c *datadriven.Case) string {
				switch c.Directive {
				case "catalog":
					var err error
					if env, err = parseTestCatalog(c.Input); err != nil {
						t.Fatalf("%s: %v", c.Pos, err)
					}
					return ""
				case "bind", "error":
					if env == nil {
						t.Fatalf("%s: no catalog declared before", c.Pos)
					}
					var values []*string
					if v, ok := c.Arg("values"); ok {
						for _, s := range strings.Split(v, ",") {
							if s == "null" {
								values = append(values, nil)
							} else {
								values = append(values, &s)
							}
						}
					}
					p, err := bindSQL(env, c.Input, values)
					if err != nil {
						return renderError(err)
					}
					out := renderBound(p)
					if c.Directive == "error" {
						out = "no error\n" + out
					}
					return out
				}
				t.Fatalf("%s: unknown directive %q", c.Pos, c.Directive)
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
	stmts, err := parse.Parse(sql, hints.ParseConfig)
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
