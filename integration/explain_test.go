package integration

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"go.yaml.in/yaml/v3"
)

// explainSetup makes the tables of the EXPLAIN tests, on both servers in
// the differential test.
var explainSetup = []string{
	"CREATE SCHEMA explain_shape",
	"CREATE TABLE explain_shape.t (a int, b text)",
	"CREATE TABLE explain_shape.u (a int, c int)",
	"INSERT INTO explain_shape.t SELECT i, 'x' || i FROM generate_series(1, 1000) i",
	"INSERT INTO explain_shape.u SELECT i % 100, i FROM generate_series(1, 5000) i",
	"CREATE TABLE explain_shape.v (k varchar(10), n int)",
	"INSERT INTO explain_shape.v SELECT 'k' || i, i FROM generate_series(1, 100) i",
}

// explainShapeQueries are queries whose plans have the same nodes on
// icegate and on PostgreSQL (with the tables analyzed there).
var explainShapeQueries = []string{
	"SELECT 1",
	"SELECT * FROM explain_shape.t WHERE a > 5",
	"SELECT count(*) FROM explain_shape.t",
	"SELECT a, count(*) FROM explain_shape.u GROUP BY a HAVING count(*) > 1",
	"SELECT * FROM explain_shape.t ORDER BY b LIMIT 3",
	"SELECT * FROM (VALUES (1), (2)) v(x)",
	"SELECT a FROM explain_shape.t UNION ALL SELECT a FROM explain_shape.u",
	"SELECT * FROM generate_series(1, 3)",
	"SELECT t.b, count(*) FROM explain_shape.t JOIN explain_shape.u ON t.a = u.a WHERE u.c > 10 GROUP BY t.b ORDER BY 2 DESC LIMIT 3",
	"SELECT DISTINCT b FROM explain_shape.t",
	"SELECT * FROM explain_shape.t WHERE a = (SELECT max(a) FROM explain_shape.u)",
	"SELECT a, row_number() OVER (ORDER BY b) FROM explain_shape.t",
	"SELECT a FROM explain_shape.t INTERSECT SELECT a FROM explain_shape.u",
	"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r",
	"SELECT * FROM (SELECT * FROM explain_shape.t ORDER BY a LIMIT 5) s WHERE b > 'x'",
	"WITH w AS MATERIALIZED (SELECT * FROM explain_shape.t) SELECT * FROM w",
	"SELECT * FROM explain_shape.t LEFT JOIN explain_shape.u ON t.a < u.c",
	"SELECT * FROM explain_shape.u WHERE EXISTS (SELECT 1 FROM explain_shape.t WHERE t.a = u.a)",
	"SELECT * FROM explain_shape.v WHERE k = 'k1'",
	"SELECT n FROM explain_shape.v WHERE k LIKE 'k1%' AND n > 3",
}

// explainShapeOptions are the option lists the shapes are compared
// under (FORMAT JSON is added).
var explainShapeOptions = []string{"", "VERBOSE", "COSTS OFF", "ANALYZE", "ANALYZE, TIMING OFF, SUMMARY OFF", "ANALYZE, VERBOSE, SETTINGS, COSTS OFF"}

// executorKeys are what PostgreSQL's executor reports that icegate's
// engine does not measure (sort and hash memory, batches): ANALYZE's
// keys that are not compared (nor the rows a join's residual condition
// removed, which the engine does not count). Keys starting "Iceberg" are
// icegate's own.
var executorKeys = map[string]bool{
	"Sort Method": true, "Sort Space Used": true, "Sort Space Type": true,
	"Hash Buckets": true, "Original Hash Buckets": true, "Hash Batches": true, "Original Hash Batches": true,
	"Peak Memory Usage": true, "HashAgg Batches": true, "Disk Usage": true,
	"Rows Removed by Join Filter": true,
}

// readsNoColumn are queries whose scan reads no column in icegate (so
// shows no Output), where PostgreSQL's reads the whole row.
var readsNoColumn = map[string]bool{"SELECT count(*) FROM explain_shape.t": true}

func isIcegateKey(k string) bool { return strings.HasPrefix(k, "Iceberg") }

// TestExplainShapeDifferential compares the shape of EXPLAIN (FORMAT
// JSON) with PostgreSQL's: the same top-level keys, the same node types in
// the same places and each node with the same keys (costs and times
// differ, and the executor details listed in executorKeys); and the same
// errors for bad options.
func TestExplainShapeDifferential(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare plans' shapes; .ci/run does")
	}
	// On one CPU icegate aggregates serially, as PostgreSQL does these
	// small tables; the parallel shapes are compared below.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	ig := connect(t, startServer(t, t.TempDir(), serverOpts{}))
	pg := connectPostgres(t, pgURL)
	runDiffSetup(t, ig, pg, explainSetup)
	if _, err := pg.Exec(testCtx(t), "ANALYZE explain_shape.t, explain_shape.u"); err != nil {
		t.Fatal(err)
	}
	for _, q := range explainShapeQueries {
		for _, o := range explainShapeOptions {
			opts := "FORMAT JSON"
			if o != "" {
				opts += ", " + o
			}
			sql := "EXPLAIN (" + opts + ") " + q
			want := explainShape(t, pg, sql, readsNoColumn[q])
			got := explainShape(t, ig, sql, readsNoColumn[q])
			if got != want {
				t.Errorf("%s:\nicegate's shape:\n%s\nPostgreSQL's:\n%s", sql, got, want)
			}
		}
	}
	// Row-level changes, never run: a ModifyTable node over their rows.
	for _, q := range []string{
		"DELETE FROM explain_shape.t WHERE a > 5",
		"UPDATE explain_shape.t SET b = 'y' WHERE a > 5",
		"INSERT INTO explain_shape.t SELECT * FROM explain_shape.t WHERE a > 990",
		"INSERT INTO explain_shape.t VALUES (1, 'a'), (2, 'b')",
	} {
		for _, o := range []string{"", ", VERBOSE", ", COSTS OFF"} {
			sql := "EXPLAIN (FORMAT JSON" + o + ") " + q
			if got, want := explainShape(t, ig, sql, false), explainShape(t, pg, sql, false); got != want {
				t.Errorf("%s:\nicegate's shape:\n%s\nPostgreSQL's:\n%s", sql, got, want)
			}
		}
	}
	// An aggregation over a table scan runs in parallel parts on several
	// CPUs: PostgreSQL's Gather of partial aggregations over a Parallel Seq
	// Scan, which PostgreSQL plans when parallel work costs nothing.
	runtime.GOMAXPROCS(2)
	for _, set := range []string{"SET parallel_setup_cost = 0", "SET parallel_tuple_cost = 0", "SET min_parallel_table_scan_size = 0"} {
		if _, err := pg.Exec(testCtx(t), set); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{"SELECT count(*) FROM explain_shape.t WHERE a > 5", "SELECT a, count(*), max(c) FROM explain_shape.u GROUP BY a"} {
		for _, o := range []string{"", "VERBOSE", "COSTS OFF"} {
			sql := "EXPLAIN (FORMAT JSON" + map[bool]string{true: ", " + o, false: ""}[o != ""] + ") " + q
			if got, want := explainShape(t, ig, sql, false), explainShape(t, pg, sql, false); got != want {
				t.Errorf("%s:\nicegate's shape:\n%s\nPostgreSQL's:\n%s", sql, got, want)
			}
		}
	}
	if _, err := pg.Exec(testCtx(t), "RESET ALL"); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		"EXPLAIN (FORMAT foo) SELECT 1",
		"EXPLAIN (FORMAT 'JSON') SELECT 1",
		"EXPLAIN (FORMAT) SELECT 1",
		"EXPLAIN (foo) SELECT 1",
		`EXPLAIN ("ANALYZE") SELECT 1`,
		"EXPLAIN (TIMING) SELECT 1",
		"EXPLAIN (WAL) SELECT 1",
		"EXPLAIN (TIMING, WAL) SELECT 1",
		"EXPLAIN (ANALYZE yes) SELECT 1",
		"EXPLAIN (ANALYZE 2) SELECT 1",
		"EXPLAIN (ANALYZE 1.0) SELECT 1",
		"EXPLAIN (COSTS foo) SELECT 1",
	} {
		want, got := explainErr(t, pg, sql), explainErr(t, ig, sql)
		if want == "" || got != want {
			t.Errorf("%s: icegate %q, PostgreSQL %q", sql, got, want)
		}
	}
	for _, sql := range []string{
		"EXPLAIN (ANALYZE 'on', COSTS 0, TIMING false, SUMMARY off, BUFFERS, SETTINGS true) SELECT 1",
		"EXPLAIN (FORMAT text, COSTS off, COSTS on) SELECT 1",
		"EXPLAIN (ANALYZE 1, WAL 0, FORMAT yaml) SELECT 1",
	} {
		if got := explainErr(t, ig, sql); got != "" {
			t.Errorf("%s: %s", sql, got)
		}
	}
}

// explainTextKnown are the plans whose text differs from PostgreSQL's,
// and why; the others must read the same, line for line, with COSTS OFF
// (icegate's Iceberg lines aside).
var explainTextKnown = map[string]string{
	"EXPLAIN (COSTS OFF, VERBOSE) SELECT count(*) FROM explain_shape.t":                                                                                            "icegate's scan reads no column, PostgreSQL's the whole row",
	"EXPLAIN (COSTS OFF, VERBOSE) SELECT a, count(*) FROM explain_shape.u GROUP BY a HAVING count(*) > 1":                                                          "PostgreSQL's scan returns the whole row",
	"EXPLAIN (COSTS OFF, VERBOSE) SELECT DISTINCT b FROM explain_shape.t":                                                                                          "PostgreSQL's scan returns the whole row",
	"EXPLAIN (COSTS OFF, VERBOSE) SELECT * FROM explain_shape.t WHERE a = (SELECT max(a) FROM explain_shape.u)":                                                    "PostgreSQL's scan returns the whole row",
	"EXPLAIN (COSTS OFF, VERBOSE) SELECT a, row_number() OVER (ORDER BY b) FROM explain_shape.t":                                                                   "PostgreSQL prints a window as OVER (?) and orders columns otherwise",
	"EXPLAIN (COSTS OFF) SELECT a FROM explain_shape.t INTERSECT SELECT a FROM explain_shape.u":                                                                    "PostgreSQL puts the smaller input first",
	"EXPLAIN (COSTS OFF, VERBOSE) SELECT a FROM explain_shape.t INTERSECT SELECT a FROM explain_shape.u":                                                           "PostgreSQL puts the smaller input first and adds a flag column",
	"EXPLAIN (COSTS OFF) SELECT * FROM (SELECT * FROM explain_shape.t ORDER BY a LIMIT 5) s WHERE b > 'x'":                                                         "icegate's plan does not keep a subquery's alias",
	"EXPLAIN (COSTS OFF, VERBOSE) SELECT * FROM (SELECT * FROM explain_shape.t ORDER BY a LIMIT 5) s WHERE b > 'x'":                                                "icegate's plan does not keep a subquery's alias",
	"EXPLAIN (COSTS OFF) SELECT * FROM explain_shape.t LEFT JOIN explain_shape.u ON t.a < u.c":                                                                     "icegate holds the smaller input (a right join)",
	"EXPLAIN (COSTS OFF, VERBOSE) SELECT * FROM explain_shape.t LEFT JOIN explain_shape.u ON t.a < u.c":                                                            "icegate holds the smaller input (a right join)",
	"EXPLAIN (COSTS OFF, VERBOSE) SELECT t.b, count(*) FROM explain_shape.t JOIN explain_shape.u ON t.a = u.a WHERE u.c > 10 GROUP BY t.b ORDER BY 2 DESC LIMIT 3": "PostgreSQL orders a hashed input's columns otherwise",
}

// TestExplainTextDifferential compares EXPLAIN's text with PostgreSQL's,
// line for line, without costs.
func TestExplainTextDifferential(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare plans; .ci/run does")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // serial aggregations, as PostgreSQL's here
	ig := connect(t, startServer(t, t.TempDir(), serverOpts{}))
	pg := connectPostgres(t, pgURL)
	runDiffSetup(t, ig, pg, explainSetup)
	if _, err := pg.Exec(testCtx(t), "ANALYZE explain_shape.t, explain_shape.u"); err != nil {
		t.Fatal(err)
	}
	lines := func(c *pgx.Conn, sql string) string {
		rows, err := c.Query(testCtx(t), sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(s, "Iceberg") {
				out = append(out, s)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return strings.Join(out, "\n")
	}
	compared := 0
	for _, q := range explainShapeQueries {
		for _, o := range []string{"COSTS OFF", "COSTS OFF, VERBOSE"} {
			sql := "EXPLAIN (" + o + ") " + q
			got, want := lines(ig, sql), lines(pg, sql)
			if why, ok := explainTextKnown[sql]; ok {
				if got == want {
					t.Errorf("%s: known difference (%s) is gone: remove it", sql, why)
				}
				continue
			}
			compared++
			if got != want {
				t.Errorf("%s:\nicegate:\n%s\nPostgreSQL:\n%s", sql, got, want)
			}
		}
	}
	t.Logf("%d plans compared, %d known differences", compared, len(explainTextKnown))
}

// explainErr is the SQLSTATE, message and position of the error sql
// fails with, "" when it does not.
func explainErr(t *testing.T, c *pgx.Conn, sql string) string {
	rows, err := c.Query(testCtx(t), sql, pgx.QueryExecModeSimpleProtocol)
	if err == nil {
		for rows.Next() {
		}
		rows.Close()
		err = rows.Err()
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s %s (position %d)", pe.Code, pe.Message, pe.Position)
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// explainShape runs an EXPLAIN (FORMAT JSON) and describes its shape: the
// top-level keys, then each node's type and keys, indented by depth
// (without a Seq Scan's Output when noScanOutput).
func explainShape(t *testing.T, c *pgx.Conn, sql string, noScanOutput bool) string {
	t.Helper()
	var doc string
	if err := c.QueryRow(testCtx(t), sql).Scan(&doc); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	var top []map[string]any
	if err := json.Unmarshal([]byte(doc), &top); err != nil || len(top) != 1 {
		t.Fatalf("%s: not a one-element JSON array (%v):\n%s", sql, err, doc)
	}
	var sb strings.Builder
	sb.WriteString("top: " + strings.Join(sortedKeys(top[0]), ", ") + "\n")
	var walk func(n map[string]any, depth int)
	walk = func(n map[string]any, depth int) {
		var keys []string
		for _, k := range sortedKeys(n) {
			if k == "Output" && noScanOutput && n["Node Type"] == "Seq Scan" {
				continue
			}
			if k != "Plans" && !executorKeys[k] && !isIcegateKey(k) {
				keys = append(keys, k)
			}
		}
		fmt.Fprintf(&sb, "%s%v: %s\n", strings.Repeat("  ", depth), n["Node Type"], strings.Join(keys, ", "))
		kids, _ := n["Plans"].([]any)
		for _, k := range kids {
			walk(k.(map[string]any), depth+1)
		}
	}
	plan, _ := top[0]["Plan"].(map[string]any)
	walk(plan, 0)
	return sb.String()
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestExplainFormats: each structured format parses and has PostgreSQL's
// structure, FORMAT JSON's column is of type json (114) and the others'
// text (25), and FORMAT ICEGATE is icegate's own tree.
func TestExplainFormats(t *testing.T) {
	c := connect(t, startServer(t, t.TempDir(), serverOpts{}))
	for _, sql := range explainSetup {
		if _, err := c.Exec(testCtx(t), sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	q := "SELECT t.b, count(*) FROM explain_shape.t JOIN explain_shape.u ON t.a = u.a WHERE u.c > 10 GROUP BY t.b ORDER BY 2 DESC LIMIT 3"
	wantTypes := []string{"Limit", "Sort", "Aggregate", "Hash Join", "Seq Scan", "Hash", "Seq Scan"}
	for _, f := range []struct {
		format string
		oid    uint32
		parse  func(string) (map[string]any, error)
	}{
		{"JSON", 114, func(s string) (map[string]any, error) {
			var top []map[string]any
			if err := json.Unmarshal([]byte(s), &top); err != nil {
				return nil, err
			}
			if len(top) != 1 {
				return nil, fmt.Errorf("%d queries", len(top))
			}
			return top[0], nil
		}},
		{"YAML", 25, func(s string) (map[string]any, error) {
			var top []map[string]any
			if err := yaml.Unmarshal([]byte(s), &top); err != nil {
				return nil, err
			}
			if len(top) != 1 {
				return nil, fmt.Errorf("%d queries", len(top))
			}
			return top[0], nil
		}},
		{"XML", 25, parseExplainXML},
	} {
		for _, analyze := range []bool{false, true} {
			opts := "FORMAT " + f.format + ", VERBOSE"
			if analyze {
				opts += ", ANALYZE"
			}
			sql := "EXPLAIN (" + opts + ") " + q
			rows, err := c.Query(testCtx(t), sql)
			if err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			if fd := rows.FieldDescriptions(); len(fd) != 1 || fd[0].Name != "QUERY PLAN" || fd[0].DataTypeOID != f.oid {
				t.Errorf("%s: columns %+v, want one \"QUERY PLAN\" of type %d", sql, fd, f.oid)
			}
			var docs []string
			for rows.Next() {
				var s string
				if err := rows.Scan(&s); err != nil {
					t.Fatal(err)
				}
				docs = append(docs, s)
			}
			if err := rows.Err(); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			if len(docs) != 1 {
				t.Fatalf("%s: %d rows, want 1", sql, len(docs))
			}
			top, err := f.parse(docs[0])
			if err != nil {
				t.Fatalf("%s: %v:\n%s", sql, err, docs[0])
			}
			root, _ := top["Plan"].(map[string]any)
			var types []string
			var walk func(n map[string]any)
			walk = func(n map[string]any) {
				types = append(types, fmt.Sprint(n["Node Type"]))
				for _, k := range planKids(n) {
					walk(k)
				}
			}
			walk(root)
			want, agg := wantTypes, planKids(planKids(root)[0])[0]
			if !analyze && runtime.GOMAXPROCS(0) > 1 {
				// Run, not measured: the aggregation over the join runs in
				// parallel parts (EXPLAIN ANALYZE measures it serially).
				want = slices.Concat(wantTypes[:3], []string{"Gather", "Aggregate"}, wantTypes[3:])
				agg = planKids(planKids(agg)[0])[0]
			}
			if !slices.Equal(types, want) {
				t.Errorf("%s: node types %q, want %q", sql, types, want)
			}
			if _, ok := top["Execution Time"]; ok != analyze {
				t.Errorf("%s: Execution Time present %v", sql, ok)
			}
			join := planKids(agg)[0]
			if fmt.Sprint(join["Hash Cond"]) != "(u.a = t.a)" || fmt.Sprint(join["Join Type"]) != "Inner" {
				t.Errorf("%s: join %v", sql, join)
			}
			scan := planKids(join)[0]
			if fmt.Sprint(scan["Relation Name"]) != "u" || fmt.Sprint(scan["Schema"]) != "explain_shape" || fmt.Sprint(scan["Filter"]) != "(u.c > 10)" {
				t.Errorf("%s: scan %v", sql, scan)
			}
			if analyze && fmt.Sprint(scan["Actual Rows"]) != "4990" {
				t.Errorf("%s: scan's Actual Rows %v, want 4990", sql, scan["Actual Rows"])
			}
		}
	}
	// In a string of several statements, EXPLAIN sees what the
	// statements before it did.
	if _, err := c.Exec(testCtx(t), "CREATE TABLE explain_shape.z (a int); EXPLAIN SELECT * FROM explain_shape.z; DROP TABLE explain_shape.z",
		pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Errorf("EXPLAIN after CREATE TABLE in one query string: %v", err)
	}
	// A parameter's value is in the plan, as in PostgreSQL's custom plans,
	// and ANALYZE runs with it.
	for _, o := range []string{"COSTS OFF", "ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF"} {
		sql := "EXPLAIN (" + o + ") SELECT * FROM explain_shape.t WHERE a = $1"
		var got []string
		rows, err := c.Query(testCtx(t), sql, 5)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		want := "Seq Scan on t|  Filter: (a = 5)"
		if strings.HasPrefix(o, "ANALYZE") {
			// The scan finds a's row through the cached column's index:
			// the other 999 rows never reach the filter.
			want = "Seq Scan on t (actual rows=1 loops=1)|  Filter: (a = 5)|  Iceberg:"
		}
		if g := strings.Join(got, "|"); !strings.HasPrefix(g, want) {
			t.Errorf("%s with $1 = 5:\n%s\nwant it to start\n%s", sql, g, want)
		}
	}
	var lines []string
	rows, err := c.Query(testCtx(t), "EXPLAIN (FORMAT ICEGATE) "+q)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, s)
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "result #") {
		t.Errorf("FORMAT ICEGATE: %q", lines)
	}
}

// planKids are a node's child plans, in any of the formats as parsed.
func planKids(n map[string]any) []map[string]any {
	var out []map[string]any
	switch ks := n["Plans"].(type) {
	case []any:
		for _, k := range ks {
			if m, ok := k.(map[string]any); ok {
				out = append(out, m)
			}
		}
	case []map[string]any:
		out = ks
	}
	return out
}

// xmlNode is an element of an XML plan: a property or a group.
type xmlNode struct {
	XMLName xml.Name
	Text    string    `xml:",chardata"`
	Kids    []xmlNode `xml:",any"`
}

// parseExplainXML reads PostgreSQL's XML plan into the maps the JSON
// one parses to: <Plans> holds <Plan> elements, a property with <Item>s
// is a list.
func parseExplainXML(s string) (map[string]any, error) {
	var root xmlNode
	if err := xml.Unmarshal([]byte(s), &root); err != nil {
		return nil, err
	}
	if root.XMLName.Local != "explain" || root.XMLName.Space != "http://www.postgresql.org/2009/explain" {
		return nil, fmt.Errorf("root element %v", root.XMLName)
	}
	if len(root.Kids) != 1 || root.Kids[0].XMLName.Local != "Query" {
		return nil, fmt.Errorf("want one <Query>")
	}
	var conv func(n xmlNode) map[string]any
	conv = func(n xmlNode) map[string]any {
		m := map[string]any{}
		for _, k := range n.Kids {
			key := strings.ReplaceAll(k.XMLName.Local, "-", " ")
			switch {
			case key == "Plans":
				var plans []any
				for _, p := range k.Kids {
					plans = append(plans, conv(p))
				}
				m[key] = plans
			case key == "Plan":
				m[key] = conv(k)
			case len(k.Kids) > 0 && k.Kids[0].XMLName.Local == "Item":
				var items []any
				for _, it := range k.Kids {
					items = append(items, it.Text)
				}
				m[key] = items
			default:
				m[key] = strings.TrimSpace(k.Text)
			}
		}
		return m
	}
	return conv(root.Kids[0]), nil
}
