package translate

import (
	"encoding/json"
	"path/filepath"
	"runtime"
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

// TestExplainParallelAggregation: an aggregation over a table scan runs
// in one part per CPU, which EXPLAIN shows as PostgreSQL's Gather of
// partial aggregations over a Parallel Seq Scan; on one CPU it runs, and
// shows, serially; EXPLAIN ANALYZE measures it serially.
func TestExplainParallelAggregation(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	s := newTestSession(t)
	q := "SELECT c2, count(*) FROM iceberg.lithium__no_partitioning WHERE c1 > 1 GROUP BY c2"
	cases := []struct {
		cpus int
		sql  string
		want string
	}{
		{3, "EXPLAIN (COSTS OFF, VERBOSE) " + q, `Finalize HashAggregate
  Output: c2, count(*)
  Group Key: lithium__no_partitioning.c2
  ->  Gather
        Output: c2, (PARTIAL count(*))
        Workers Planned: 3
        ->  Partial HashAggregate
              Output: c2, PARTIAL count(*)
              Group Key: lithium__no_partitioning.c2
              ->  Parallel Seq Scan on iceberg.lithium__no_partitioning
                    Output: c1, c2
                    Filter: (lithium__no_partitioning.c1 > 1)
                    Iceberg Snapshot: 6247215453669530946`},
		{3, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " + q, `HashAggregate (actual rows=2 loops=1)
  Group Key: c2
  ->  Seq Scan on lithium__no_partitioning (actual rows=2 loops=1)
        Filter: (c1 > 1)
        Rows Removed by Filter: 4
        Iceberg: manifests 1 skipped 0, files 1 skipped 0, row groups 1 skipped 0`},
		{1, "EXPLAIN (COSTS OFF) " + q, `HashAggregate
  Group Key: c2
  ->  Seq Scan on lithium__no_partitioning
        Filter: (c1 > 1)`},
	}
	for _, c := range cases {
		runtime.GOMAXPROCS(c.cpus)
		if got := strings.Join(queryRows(t, s, c.sql), "\n"); got != c.want {
			t.Errorf("%s on %d CPUs:\n%s\nwant\n%s", c.sql, c.cpus, got, c.want)
		}
	}
	// The JSON of a parallel plan: PostgreSQL's keys for the parts.
	runtime.GOMAXPROCS(3)
	doc := strings.Join(queryRows(t, s, "EXPLAIN (FORMAT JSON, COSTS OFF) "+q), "\n")
	for _, want := range []string{`"Partial Mode": "Finalize"`, `"Node Type": "Gather"`, `"Workers Planned": 3`, `"Single Copy": false`,
		`"Partial Mode": "Partial"`, `"Parallel Aware": true`} {
		if !strings.Contains(doc, want) {
			t.Errorf("no %s in\n%s", want, doc)
		}
	}
}
