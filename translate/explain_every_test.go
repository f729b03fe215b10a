package translate

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/datadriven"
)

// TestExplainEveryQuery explains every query of testdata/exec and
// testdata/write that runs (after the statements before it in its file):
// EXPLAIN (VERBOSE) in the text format, and in JSON with and without
// ANALYZE, must succeed where the query does, and the JSON must parse to
// one plan whose nodes all have a type. Whatever a query's plan holds,
// EXPLAIN renders it.
func TestExplainEveryQuery(t *testing.T) {
	explained := 0
	for _, dir := range []string{"exec", "write"} {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.txt"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no testdata: %v", err)
		}
		for _, f := range files {
			t.Run(dir+"/"+filepath.Base(f), func(t *testing.T) {
				var first, second *session
				if dir == "exec" {
					first = newTestSession(t)
				} else {
					first, _, _ = newWriteSession(t)
				}
				// The file's statements run as in its own test, so that
				// each query sees its tables; their output is not
				// compared here.
				datadriven.Run(t, f, false, func(t *testing.T, c *datadriven.Case) string {
					s := first
					if slices.Contains(c.Args, "other") {
						if second == nil {
							o, err := first.backend.NewSession(t.Context(), StartupInfo{User: "tester", Database: "icegate"})
							if err != nil {
								t.Fatal(err)
							}
							second = o.(*session)
						}
						s = second
					}
					switch c.Directive {
					case "query":
						if out := queryOutput(t, s, c); !strings.Contains("\n"+out, "\nerror") && isQuery(c.Input) {
							explainChecks(t, s, c)
							explained++
						}
					case "statement":
						statementOutput(s, c.Input)
					case "copy":
						copyOutput(t, s, c.Input)
					}
					return c.Expected
				})
			})
		}
	}
	t.Logf("%d queries explained", explained)
}

// explainChecks runs EXPLAIN (VERBOSE) of a query in the text format and
// in JSON with and without ANALYZE.
func explainChecks(t *testing.T, s *session, c *datadriven.Case) {
	for _, ex := range []string{"EXPLAIN (VERBOSE) ", "EXPLAIN (FORMAT JSON, VERBOSE) ", "EXPLAIN (ANALYZE, FORMAT JSON, VERBOSE) "} {
		stmts, err := s.Prepare(t.Context(), ex+c.Input, nil)
		if err != nil {
			t.Errorf("%s: %s%s: %v", c.Pos, ex, c.Input, err)
			continue
		}
		var doc []string
		for _, st := range stmts {
			rows, err := st.Execute(t.Context(), nil)
			if err != nil {
				t.Errorf("%s: %s%s: %v", c.Pos, ex, c.Input, err)
				continue
			}
			for {
				b, err := rows.Next(t.Context())
				if err != nil {
					t.Errorf("%s: %s%s: %v", c.Pos, ex, c.Input, err)
					break
				}
				if b == nil {
					break
				}
				for i := 0; i < int(b.NumRows()); i++ {
					doc = append(doc, b.Column(0).ValueStr(i))
				}
				b.Release()
			}
			rows.Close()
		}
		if !strings.Contains(ex, "JSON") || len(doc) == 0 {
			continue
		}
		var top []struct{ Plan map[string]any }
		if err := json.Unmarshal([]byte(doc[0]), &top); err != nil || len(doc) != 1 || len(top) != 1 || !typedNodes(top[0].Plan) {
			t.Errorf("%s: %s%s: not one JSON plan (%v):\n%s", c.Pos, ex, c.Input, err, strings.Join(doc, "\n"))
		}
	}
}

// typedNodes reports whether every node of a JSON plan has a Node Type,
// none a kind package explain does not know (a Custom Scan named by its Go
// type).
func typedNodes(n map[string]any) bool {
	if _, ok := n["Node Type"].(string); !ok {
		return false
	}
	if p, _ := n["Custom Plan Provider"].(string); strings.HasPrefix(p, "*") {
		return false
	}
	kids, _ := n["Plans"].([]any)
	for _, k := range kids {
		m, ok := k.(map[string]any)
		if !ok || !typedNodes(m) {
			return false
		}
	}
	return true
}

// isQuery reports whether sql is one SELECT, WITH or VALUES query that
// changes nothing.
func isQuery(sql string) bool {
	head := strings.ToUpper(strings.TrimLeft(sql, "( \n"))
	if strings.Contains(strings.TrimSuffix(strings.TrimSpace(sql), ";"), ";") {
		return false
	}
	// EXPLAIN ANALYZE runs the query again: nothing that changes state.
	for _, w := range []string{"INSERT ", "UPDATE ", "DELETE ", "MERGE ", "NEXTVAL", "SETVAL"} {
		if strings.Contains(strings.ToUpper(sql), w) {
			return false
		}
	}
	return strings.HasPrefix(head, "SELECT") || strings.HasPrefix(head, "WITH") || strings.HasPrefix(head, "VALUES")
}
