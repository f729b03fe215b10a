package translate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// protoDepth is the nesting depth of a parse tree in protobuf messages,
// what the C serializer and the Go decoder recurse over.
func protoDepth(m protoreflect.Message) int {
	deepest := 0
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind && fd.Kind() != protoreflect.GroupKind {
			return true
		}
		switch {
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				deepest = max(deepest, protoDepth(l.Get(i).Message()))
			}
		case fd.IsMap():
		default:
			deepest = max(deepest, protoDepth(v.Message()))
		}
		return true
	})
	return deepest + 1
}

// deepShapes builds statements nested n levels deep in the ways a query
// can nest.
var deepShapes = map[string]func(n int) string{
	"plus":      func(n int) string { return "SELECT " + strings.Repeat("1+", n) + "1" },
	"concat":    func(n int) string { return "SELECT " + strings.Repeat("'a'||", n) + "'a'" },
	"minus":     func(n int) string { return "SELECT " + strings.Repeat("- ", n) + "1" },
	"plusminus": func(n int) string { return "SELECT 1" + strings.Repeat("+-1", n) },
	"not":       func(n int) string { return "SELECT " + strings.Repeat("NOT ", n) + "true" },
	"cast":      func(n int) string { return "SELECT 1" + strings.Repeat("::int", n) },
	"collate":   func(n int) string { return "SELECT 'a'" + strings.Repeat(` COLLATE "C"`, n) },
	"parens":    func(n int) string { return "SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) },
	"rightplus": func(n int) string { return "SELECT " + strings.Repeat("1+(", n) + "1" + strings.Repeat(")", n) },
	"func":      func(n int) string { return "SELECT " + strings.Repeat("abs(", n) + "1" + strings.Repeat(")", n) },
	"subquery":  func(n int) string { return "SELECT " + strings.Repeat("(SELECT ", n) + "1" + strings.Repeat(")", n) },
	"from": func(n int) string {
		return "SELECT * FROM " + strings.Repeat("(SELECT * FROM ", n) + "(SELECT 1) t" + strings.Repeat(") t", n)
	},
	"case": func(n int) string {
		return "SELECT " + strings.Repeat("CASE WHEN true THEN ", n) + "1" + strings.Repeat(" END", n)
	},
	"array":     func(n int) string { return "SELECT " + strings.Repeat("ARRAY[", n) + "1" + strings.Repeat("]", n) },
	"row":       func(n int) string { return "SELECT " + strings.Repeat("ROW(1,", n) + "1" + strings.Repeat(")", n) },
	"rowparens": func(n int) string { return "SELECT " + strings.Repeat("(1,", n) + "1" + strings.Repeat(")", n) },
	"union":     func(n int) string { return "SELECT 1" + strings.Repeat(" UNION SELECT 1", n) },
	"join": func(n int) string {
		return "SELECT 1 FROM (SELECT 1) a" + strings.Repeat(" JOIN (SELECT 1) b ON true AND true", n)
	},
	"in": func(n int) string {
		return "SELECT 1 IN (" + strings.Repeat("1 IN (", n) + "1" + strings.Repeat(")", n) + ")"
	},
	"exists": func(n int) string {
		return "SELECT " + strings.Repeat("EXISTS (SELECT ", n) + "1" + strings.Repeat(")", n)
	},
	"andor": func(n int) string {
		return "SELECT 1 WHERE " + strings.Repeat("(true AND ", n) + "true" + strings.Repeat(" OR false)", n)
	},
	"between": func(n int) string {
		return "SELECT " + strings.Repeat("(1 BETWEEN 0 AND ", n) + "1" + strings.Repeat(")", n)
	},
	"attz":   func(n int) string { return "SELECT now()" + strings.Repeat(" AT TIME ZONE 'UTC'", n) },
	"isnull": func(n int) string { return "SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(" IS NULL)", n) },
	"index":  func(n int) string { return "SELECT " + strings.Repeat("(ARRAY[", n) + "1" + strings.Repeat("])[1]", n) },
	"index_sp": func(n int) string {
		return "SELECT " + strings.Repeat("(ARRAY[", n) + "1" + strings.Repeat("]) [1]", n)
	},
	"field": func(n int) string { return "SELECT " + strings.Repeat("(", n) + "ROW(1)" + strings.Repeat(") . f1", n) },
	"cte": func(n int) string {
		return strings.Repeat("WITH a AS (", n) + "SELECT 1" + strings.Repeat(") SELECT * FROM a", n)
	},
	"e_string":   func(n int) string { return "SELECT " + strings.Repeat(`E'\'(' || `, n) + "1" },
	"dollar":     func(n int) string { return "SELECT " + strings.Repeat("$x$($x$ || ", n) + "1" },
	"comment":    func(n int) string { return "SELECT " + strings.Repeat("/* ( */ 1 + -- (\n", n) + "1" },
	"quotedname": func(n int) string { return `SELECT 1 AS "` + strings.Repeat("(", n) + `"` },
}

// TestTreeDepthEstimate checks that the estimate bounds the real depth of
// the tree pg_query builds, for every nesting shape and every statement of
// the test corpora.
func TestTreeDepthEstimate(t *testing.T) {
	check := func(t *testing.T, sql string) {
		t.Helper()
		tree, err := pg.Parse(sql)
		if err != nil {
			return // the parser refuses it: no tree to bound
		}
		got := protoDepth(tree.ProtoReflect())
		if est := parse.EstimateTreeDepth(sql, 1<<30); est < got {
			t.Errorf("estimate %d < depth %d for %.200q", est, got, sql)
		}
	}
	for name, shape := range deepShapes {
		t.Run(name, func(t *testing.T) {
			for _, n := range []int{1, 2, 7, 60, 500} {
				check(t, shape(n))
			}
		})
	}
	files, _ := filepath.Glob("../integration/testdata/pgdiff/*.sql")
	more, _ := filepath.Glob("testdata/*/*.txt")
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range corpusStatements(string(data)) {
			check(t, stmt)
		}
	}
}

// corpusStatements cuts a test file into its statements, roughly: each
// line ending in ";" ends one; directive and comment lines are dropped.
func corpusStatements(text string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(text, "\n") {
		trim := strings.TrimSpace(line)
		if trim == "" || strings.HasPrefix(trim, "--") || strings.HasPrefix(trim, "#") ||
			strings.HasPrefix(trim, "query") || strings.HasPrefix(trim, "statement") ||
			strings.HasPrefix(trim, "bind") || strings.HasPrefix(trim, "copy") {
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.HasSuffix(trim, ";") {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// TestDeepStatements sends statements nested too deep for the parser
// through a session: each fails with 54001 where PostgreSQL 15 does (or
// with the grammar's own 42601 for 10,000 nested parentheses, as
// PostgreSQL), the session keeps serving, and shapes PostgreSQL accepts
// work. Long flat lists are not deep and run.
func TestDeepStatements(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	tests := []struct {
		shape string
		n     int
		code  string // "" = success
	}{
		{"plus", 40000, pgerr.StatementTooComplex},
		{"plus", 4000, ""},
		{"concat", 100000, pgerr.StatementTooComplex},
		{"concat", 4000, ""},
		{"minus", 8000, pgerr.StatementTooComplex},
		{"cast", 20000, pgerr.StatementTooComplex},
		{"collate", 20000, pgerr.StatementTooComplex},
		{"parens", 100000, pgerr.SyntaxError}, // "memory exhausted", as PostgreSQL
		{"parens", 9000, ""},
		{"rightplus", 9000, pgerr.StatementTooComplex},
		{"func", 4200, pgerr.StatementTooComplex},
		{"func", 4000, ""},
		{"subquery", 3000, pgerr.StatementTooComplex},
		{"subquery", 200, ""},
		{"from", 3000, pgerr.StatementTooComplex},
		{"case", 3000, pgerr.StatementTooComplex},
		{"case", 1500, ""},
		{"array", 5000, pgerr.StatementTooComplex},
		{"union", 20000, pgerr.StatementTooComplex},
		{"union", 100, ""},
		{"join", 10000, pgerr.StatementTooComplex},
		{"andor", 3000, pgerr.StatementTooComplex},
		{"andor", 300, ""},
		{"not", 20000, pgerr.StatementTooComplex},
	}
	flat := []string{
		"SELECT count(*) FROM (VALUES " + strings.Repeat("(1, 'a'), ", 20000) + "(2, 'b')) v(a, b)",
		"SELECT 1 WHERE 5 IN (" + strings.Repeat("1, ", 100000) + "5)",
		"SELECT 1 WHERE " + strings.Repeat("1 = 2 OR ", 20000) + "true",
		"SELECT 1 WHERE " + strings.Repeat("1 = 1 AND ", 20000) + "true",
		"SELECT CASE 5 " + strings.Repeat("WHEN 1 THEN 'x' ", 10000) + "ELSE 'y' END",
		"SELECT " + strings.Repeat("1, ", 5000) + "1",
		"SELECT '" + strings.Repeat("(", 1000000) + "'",
	}
	alive := func(t *testing.T) {
		t.Helper()
		if err := runAllCtx(ctx, s, "SELECT 1"); err != nil {
			t.Fatalf("the session no longer serves: %v", err)
		}
	}
	for _, tc := range tests {
		err := runAllCtx(ctx, s, deepShapes[tc.shape](tc.n))
		switch {
		case tc.code == "" && err != nil:
			t.Errorf("%s %d: %v", tc.shape, tc.n, err)
		case tc.code != "" && pgerr.Code(err) != tc.code:
			t.Errorf("%s %d: got %v (%s), want %s", tc.shape, tc.n, err, pgerr.Code(err), tc.code)
		}
		alive(t)
	}
	for _, sql := range flat {
		start := time.Now()
		if err := runAllCtx(ctx, s, sql); err != nil {
			t.Errorf("%.60s...: %v", sql, err)
		}
		t.Logf("%.40s... (%d bytes): %v", sql, len(sql), time.Since(start))
		alive(t)
	}
}

// TestPrepareInterrupted checks that statement_timeout and a cancel end
// the parsing and binding of a huge VALUES or IN list with 57014 soon
// after the deadline (the bound is generous: it only tells an
// interrupted statement from one that ran to its end), and that the
// session serves the next statement.
func TestPrepareInterrupted(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	big := map[string]string{
		"values": "SELECT count(*) FROM (VALUES " + strings.Repeat("(1, 'a'), ", 300000) + "(2, 'b')) v(a, b)",
		"in":     "SELECT 1 WHERE 5 IN (" + strings.Repeat("1, ", 600000) + "5)",
	}
	const timeout = 200 * time.Millisecond
	for name, sql := range big {
		t.Run(name+"/timeout", func(t *testing.T) {
			if err := runAllCtx(ctx, s, "SET statement_timeout = 200"); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err := s.Prepare(ctx, sql, nil)
			took := time.Since(start)
			if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.QueryCanceled ||
				pe.Message != "canceling statement due to statement timeout" {
				t.Errorf("got %v (%s), want 57014 statement timeout", err, pgerr.Code(err))
			}
			if took > timeout+2*time.Second {
				t.Errorf("the statement ended %v after its deadline", took-timeout)
			}
			if err := runAllCtx(ctx, s, "RESET statement_timeout"); err != nil {
				t.Fatal(err)
			}
			if err := runAllCtx(ctx, s, "SELECT 1"); err != nil {
				t.Fatalf("the session no longer serves: %v", err)
			}
		})
		t.Run(name+"/cancel", func(t *testing.T) {
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			timer := time.AfterFunc(timeout, cancel)
			defer timer.Stop()
			start := time.Now()
			_, err := s.Prepare(cctx, sql, nil)
			took := time.Since(start)
			if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.QueryCanceled ||
				pe.Message != "canceling statement due to user request" {
				t.Errorf("got %v (%s), want 57014 user request", err, pgerr.Code(err))
			}
			if took > timeout+2*time.Second {
				t.Errorf("the statement ended %v after the cancel", took-timeout)
			}
			if err := runAllCtx(ctx, s, "SELECT 1"); err != nil {
				t.Fatalf("the session no longer serves: %v", err)
			}
		})
	}
}

// TestQuotedIdents checks the lexer of quotedIdents against pg_query's
// scanner on tricky texts and on every statement of the corpora.
func TestQuotedIdents(t *testing.T) {
	texts := []string{
		`SELECT "A", 'x"y', E'\'"', $$"$$, $t$ " $t$, "a""b", U&"c", /* "d" /* "e" */ */ "f" -- "g"` + "\n" + `, "h"`,
		`SELECT a$b, $1, "x" FROM "T" WHERE 'it''s' = "y"`,
		`SELECT e'\\' || "z", b'01', x'"', n'"'`,
	}
	files, _ := filepath.Glob("../integration/testdata/pgdiff/*.sql")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, corpusStatements(string(data))...)
	}
	for _, sql := range texts {
		res, err := pg.Scan(sql)
		if err != nil {
			continue
		}
		want := map[int32]bool{}
		for _, tok := range res.Tokens {
			if tok.Token == pg.Token_IDENT && sql[tok.Start] == '"' {
				want[tok.Start] = true
			}
		}
		got := parse.QuotedIdents(sql)
		if len(got) != len(want) {
			t.Errorf("%q: got %v, want %v", sql, got, want)
			continue
		}
		for k := range want {
			if !got[k] {
				t.Errorf("%q: got %v, want %v", sql, got, want)
				break
			}
		}
	}
}
