package translate

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// FuzzSQL runs statements through a real session over a small warehouse:
// parse (with the dialect passes), bind, plan, execute, every row drained.
// The inputs are the statements of the test corpora, mutated by the fuzzer
// and by mutateSQL (deep nesting, huge literals and lists, odd values and
// types). A panic fails; so does an error without a SQLSTATE or an
// internal error (XX000): every bad input must get PostgreSQL's error.
// Each input runs on a fresh copy of the warehouse, so what one input
// writes or drops does not change the next, under a statement_timeout.
//
//	go test ./translate -run '^$' -fuzz FuzzSQL -fuzztime 30s -parallel 1
func FuzzSQL(f *testing.F) {
	// A sample of the corpora: without -fuzz the seeds run as a test of
	// their own, and with it the fuzzer first runs every seed once, so a
	// quarter keeps a 30-second run mostly fuzzing.
	every := 16
	if fl := flag.Lookup("test.fuzz"); fl != nil && fl.Value.String() != "" {
		every = 4
	}
	for i, s := range fuzzSeeds(f) {
		if i%every == 0 {
			f.Add(s, uint16(0))
		}
	}
	for i, s := range []string{
		"SELECT a + b FROM pgd.nums",
		"SELECT * FROM pgd.emp WHERE id = 1",
		"SELECT name, count(*) FROM pgd.emp GROUP BY name",
		"SELECT 1",
	} {
		for mode := uint16(1); mode < 16; mode++ {
			f.Add(s, mode*16+uint16(i))
		}
	}
	template := fuzzWarehouse(f)
	shared, err := catalog.NewFilesystem("icegate", template, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, sql string, mode uint16) {
		if len(sql) > 1<<20 {
			return
		}
		sql = mutateSQL(sql, mode)
		cat := shared
		if mayWrite(sql) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(template)); err != nil {
				t.Fatal(err)
			}
			fs, err := catalog.NewFilesystem("icegate", dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			cat = fs
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		sess, err := NewBackend(cat, Options{}).NewSession(ctx, StartupInfo{
			User: "fuzzer", Database: "icegate",
			Params: map[string]string{"statement_timeout": "2000", "search_path": "pgd, public"},
		})
		if err != nil {
			t.Fatal(err)
		}
		s := sess.(*session)
		defer s.Close()
		err = runAllCtx(ctx, s, sql)
		checkFuzzError(t, sql, err)
		// The session serves the next statement (after leaving any block
		// the input opened or failed).
		_ = runAllCtx(ctx, s, "ROLLBACK")
		if err := runAllCtx(ctx, s, "SELECT 1"); err != nil {
			t.Fatalf("after %.200q the session fails SELECT 1: %v", sql, err)
		}
	})
}

// mayWrite reports whether sql may change the warehouse: such an input
// runs on its own copy of it, the others share one.
func mayWrite(sql string) bool {
	low := strings.ToLower(sql)
	for _, w := range []string{"insert", "update", "delete", "merge", "create", "drop", "alter",
		"truncate", "copy", "comment", "call", "rename", "replace", "optimize", "vacuum", "refresh", "cache"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// pgInternalErrors are the messages PostgreSQL itself sends as XX000:
// icegate answering the same is right.
var pgInternalErrors = []string{
	"invalid INTERVAL typmod", // format_type(1186, 2147418111)
}

// checkFuzzError fails on an error PostgreSQL would never send: one
// without a SQLSTATE or an internal error.
func checkFuzzError(t *testing.T, sql string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return // the statement timeout
	}
	pe := pgerr.As(err)
	switch {
	case pe == nil:
		t.Errorf("%.300q: error without a SQLSTATE: %v", sql, err)
	case pe.Code == pgerr.InternalError:
		for _, m := range pgInternalErrors {
			if strings.HasPrefix(pe.Message, m) {
				return
			}
		}
		t.Errorf("%.300q: internal error (%s): %v", sql, pe.Code, err)
	case pe.Code == "":
		t.Errorf("%.300q: internal error (%s): %v", sql, pe.Code, err)
	}
}

// mutateSQL reshapes a statement by mode (its low four bits choose the
// change, the rest its size). Mode 0 keeps it.
func mutateSQL(sql string, mode uint16) string {
	k := int(mode>>4) + 1
	switch mode & 15 {
	case 1: // nested derived tables
		for range k % 40 {
			sql = "SELECT * FROM (" + sql + ") s"
		}
	case 2: // a huge string literal
		if i := strings.IndexByte(sql, '\''); i >= 0 {
			sql = sql[:i+1] + strings.Repeat("x", 1000*k) + sql[i+1:]
		}
	case 3: // an odd value in place of the first number
		odd := []string{"9223372036854775808", "-2147483649", "1e308", "-0.0", "'NaN'::float8",
			"'-infinity'::date", "NULL::int", "'\\x00'::bytea", "'x'::int", "999999999999999999999999.5",
			"'{1,2}'::int[]", "'{\"a\":[1]}'::jsonb", "'1 day'::interval", "ROW(1, 'a')", "(SELECT 1)", "$1"}
		if i := strings.IndexAny(sql, "0123456789"); i >= 0 {
			j := i
			for j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
				j++
			}
			sql = sql[:i] + odd[k%len(odd)] + sql[j:]
		}
	case 4: // a long operator chain in place of the first number
		if i := strings.IndexAny(sql, "0123456789"); i >= 0 {
			sql = sql[:i] + "(1" + strings.Repeat("+1", 300*k) + ")" + sql[i+1:]
		}
	case 5:
		sql = "EXPLAIN " + sql
	case 6:
		sql = "WITH w AS (" + sql + ") SELECT * FROM w"
	case 7: // a long IN list
		sql = "SELECT * FROM (" + sql + ") s WHERE 1 IN (" + strings.Repeat("1, ", 500*k) + "2)"
	case 8: // a long VALUES
		sql = "SELECT * FROM (" + sql + ") s, (VALUES " + strings.Repeat("(1, 'a'), ", 200*k) + "(2, 'b')) v"
	case 9: // deep parentheses around the first number
		if i := strings.IndexAny(sql, "0123456789"); i >= 0 {
			sql = sql[:i] + strings.Repeat("(", 50*k) + sql[i:i+1] + strings.Repeat(")", 50*k) + sql[i+1:]
		}
	case 10: // nested scalar subqueries
		sql = strings.Repeat("SELECT (", k%200) + sql + strings.Repeat(")", k%200)
	case 11: // a nested CASE around the first number
		if i := strings.IndexAny(sql, "0123456789"); i >= 0 {
			sql = sql[:i] + strings.Repeat("CASE WHEN true THEN ", 20*k) + sql[i:i+1] + strings.Repeat(" END", 20*k) + sql[i+1:]
		}
	case 12: // a long AND chain
		sql = "SELECT * FROM (" + sql + ") s WHERE " + strings.Repeat("1 = 1 AND ", 200*k) + "true"
	case 13:
		sql = "BEGIN; " + sql + "; COMMIT"
	case 14: // cut short
		sql = sql[:len(sql)*(k%16)/16]
	case 15:
		sql = sql + " UNION ALL " + sql
	}
	return sql
}

// fuzzSeeds are the statements of the test corpora: the queries of
// integration/testdata/pgdiff and the inputs of testdata.
func fuzzSeeds(tb testing.TB) []string {
	var seeds []string
	files, _ := filepath.Glob("../integration/testdata/pgdiff/*.sql")
	for _, f := range files {
		_, queries := pgdiffSections(tb, f)
		seeds = append(seeds, queries...)
	}
	txt, _ := filepath.Glob("testdata/*/*.txt")
	for _, f := range txt {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, dataDrivenInputs(string(data))...)
	}
	return seeds
}

// pgdiffSections returns the setup and query statements of a pgdiff file.
func pgdiffSections(tb testing.TB, file string) (setup, queries []string) {
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	text := string(data)
	s, q, ok := strings.Cut(text, "\n-- queries\n")
	if !ok {
		return nil, corpusStatements(text)
	}
	if _, after, ok := strings.Cut(s, "-- setup\n"); ok {
		s = after
	}
	return corpusStatements(s), corpusStatements(q)
}

// dataDrivenInputs returns the inputs of a data-driven test file: the
// lines between a directive and its "----".
func dataDrivenInputs(text string) []string {
	var out []string
	var cur []string
	state := 0 // 0: between cases, 1: input, 2: expected output
	for _, line := range strings.Split(text, "\n") {
		switch {
		case state == 0 && line != "" && !strings.HasPrefix(line, "#"):
			state, cur = 1, nil
		case state == 1 && line == "----":
			out = append(out, strings.Join(cur, "\n"))
			state = 2
		case state == 1:
			cur = append(cur, line)
		case state == 2 && line == "":
			state = 0
		}
	}
	return out
}

// fuzzWarehouse builds the warehouse every input starts from: the tables
// of the pgdiff corpora's setups.
func fuzzWarehouse(f *testing.F) string {
	dir := f.TempDir()
	cat, err := catalog.NewFilesystem("icegate", dir, nil)
	if err != nil {
		f.Fatal(err)
	}
	sess, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "fuzzer", Database: "icegate"})
	if err != nil {
		f.Fatal(err)
	}
	s := sess.(*session)
	defer s.Close()
	start := time.Now()
	files, _ := filepath.Glob("../integration/testdata/pgdiff/*.sql")
	ok := 0
	for _, file := range files {
		setup, _ := pgdiffSections(f, file)
		for _, stmt := range setup {
			if err := runAllCtx(context.Background(), s, stmt); err == nil {
				ok++
			}
		}
	}
	if ok == 0 {
		f.Fatal("no setup statement of the corpora ran")
	}
	f.Logf("warehouse: %d setup statements in %v", ok, time.Since(start))
	return dir
}

// TestFuzzFindings runs what FuzzSQL found, with PostgreSQL 15's answers.
func TestFuzzFindings(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	tests := []struct {
		sql, code string // code "" = success
	}{
		// A huge exponent was computed digit by digit (1e999999999 never
		// ended); PostgreSQL refuses constants beyond its numeric format.
		{"SELECT 1e999999999::double precision", pgerr.NumericValueOutOfRange},
		{"SELECT 1e12345678", pgerr.NumericValueOutOfRange},
		{"SELECT 1e131072", pgerr.NumericValueOutOfRange},
		{"SELECT 1e-16384::float8", pgerr.NumericValueOutOfRange},
		{"SELECT 1.5e-16383 + 1.0", pgerr.NumericValueOutOfRange},
		{"SELECT 0e999999999", ""},
		{"SELECT 0e-20000", pgerr.NumericValueOutOfRange},
		{"SELECT 0e-30", ""},
		{"SELECT 1e300::float8", ""},
		// Prefix + took any type (and a subquery under it then broke the
		// plan of a grouped query); PostgreSQL has it for numbers only.
		{"SELECT +(1 IN (SELECT 0))", pgerr.UndefinedFunction},
		{"SELECT +'a'::text", pgerr.UndefinedFunction},
		{"SELECT +now()", pgerr.UndefinedFunction},
		{"SELECT +1, +1.5, +'2', +2::int8, +2.5::float4", ""},
		// A subquery inside a larger select-list expression of a grouped
		// query left the joins of a trial binding behind: an internal
		// "column is not in the input" when planned.
		{"SELECT v, CASE WHEN v IN (SELECT x FROM (VALUES (1)) s(x)) THEN 1 END FROM (VALUES (1), (2)) t(v) GROUP BY 1", ""},
		{"SELECT v, coalesce((SELECT 1 WHERE v = 1), 0), count(*) FROM (VALUES (1), (2)) t(v) GROUP BY v", ""},
		{"SELECT v, coalesce((SELECT 1 WHERE w = 1), 0) FROM (VALUES (1, 2)) t(v, w) GROUP BY v", pgerr.GroupingError},
		// EXISTS of a subquery without columns panicked reading its rows.
		{"SELECT 1 WHERE EXISTS (SELECT)", ""},
		{"SELECT EXISTS (SELECT WHERE false), NOT EXISTS (SELECT FROM (VALUES (1), (2)) v)", ""},
	}
	for _, tc := range tests {
		err := runAllCtx(ctx, s, tc.sql)
		if tc.code == "" && err != nil || tc.code != "" && pgerr.Code(err) != tc.code {
			t.Errorf("%s: got %v (%s), want %q", tc.sql, err, pgerr.Code(err), tc.code)
		}
	}
}
