package translate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/plan"
)

// newTestSession opens a session on the fixtures warehouse (catalog
// "icegate", namespace "iceberg").
func newTestSession(t testing.TB) *session {
	t.Helper()
	cat, err := catalog.NewFilesystem("icegate", fixturesRoot(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	// A fixed bound of statement_mem: SHOW ALL prints the same default
	// on machines with less memory.
	s, err := NewBackend(cat, Options{MaxStatementMem: 1 << 40}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*session)
}

// errorText renders an error as "error (SQLSTATE): message".
func errorText(err error) string {
	s := fmt.Sprintf("error (%s): %s", pgerr.Code(err), err.Error())
	if pe := pgerr.As(err); pe != nil && pe.Position > 0 {
		s += fmt.Sprintf(" [position %d]", pe.Position)
	}
	return s
}

// TestBind runs testdata/bind/*.txt: "bind" prints the result columns and
// the bound plan of each statement, or the error.
func TestBind(t *testing.T) {
	files, err := filepath.Glob("testdata/bind/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	s := newTestSession(t)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			datadriven.Run(t, f, *rewrite, func(t *testing.T, c *datadriven.Case) string {
				switch c.Directive {
				case "bind":
					return bindOutput(s, c.Input)
				case "set":
					if _, err := execAll(s, c.Input); err != nil {
						return errorText(err)
					}
					return "ok"
				}
				t.Fatalf("%s: unknown directive %q", c.Pos, c.Directive)
				return ""
			})
		})
	}
}

func bindOutput(s *session, sql string) string {
	stmts, err := s.Prepare(context.Background(), sql, nil)
	if err != nil {
		return errorText(err)
	}
	var out []string
	for _, st := range stmts {
		var shown string
		switch st := st.(type) {
		case *selectStatement:
			if err := st.ensureBound(); err != nil {
				out = append(out, errorText(err))
				continue
			}
			// The plan as bound: constants are shown as the binder
			// builds them, not computed.
			noFold := opt.Config{Disabled: map[string]bool{"fold_constants": true, "date_comparisons": true}}
			shown = strings.Join(explainLines(st.plan, noFold, false), "\n")
		default:
			shown = fmt.Sprintf("%T", st)
		}
		var cols []string
		for _, c := range st.Columns() {
			cols = append(cols, fmt.Sprintf("%s %s", c.Name, plan.Type{OID: c.TypeOID, Typmod: c.Typmod}))
		}
		if pts := st.ParamTypes(); len(pts) > 0 {
			var ps []string
			for _, p := range pts {
				ps = append(ps, plan.Type{OID: p, Typmod: -1}.String())
			}
			out = append(out, "params: "+strings.Join(ps, ", "))
		}
		out = append(out, "columns: "+strings.Join(cols, ", "), shown)
	}
	return strings.Join(out, "\n")
}

// execAll prepares and executes every statement of sql, draining rows.
func execAll(s *session, sql string) ([]Rows, error) {
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, sql, nil)
	if err != nil {
		return nil, err
	}
	var all []Rows
	for _, st := range stmts {
		r, err := st.Execute(ctx, nil)
		if err != nil {
			return nil, err
		}
		all = append(all, r)
	}
	return all, nil
}
