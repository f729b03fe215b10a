package parse

import (
	"reflect"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestRewriteCalls checks the text the call pass hands the parser (same
// length, parses), the keyword argument names it kept and Trino's table.
func TestRewriteCalls(t *testing.T) {
	cases := []struct {
		sql, want string
		names     []string // ArgNames' values, in offset order
		table     string
	}{
		{sql: "SELECT 1", want: "SELECT 1"},
		{sql: "CALL system.p('t', 1)", want: "CALL system.p('t', 1)"},
		{sql: "CALL system.expire_snapshots(table => 'db.t', retain_last => 3)",
			want: "CALL system.expire_snapshots(x____ => 'db.t', retain_last => 3)", names: []string{"table"}},
		{sql: "call local.system.fast_forward(TABLE => 't', branch => 'main', TO => 'b', from=>1)",
			want: "call local.system.fast_forward(x____ => 't', branch => 'main', x_ => 'b', x___=>1)", names: []string{"table", "to", "from"}},
		{sql: "CALL system.p('t', timestamp => TIMESTAMP '2024-01-01')",
			want: "CALL system.p('t', x________ => TIMESTAMP '2024-01-01')", names: []string{"timestamp"}},
		{sql: "CALL system.p(ids => array(1, array(2)), s => array(SELECT 1), m => map('table', 1))",
			want: "CALL system.p(ids => array[1, array[2]], s => array(SELECT 1), m => map('table', 1))"},
		// a keyword => inside a nested call is not the procedure's argument
		{sql: "CALL system.p(f(a => 1))", want: "CALL system.p(f(a => 1))"},
		{sql: "ALTER TABLE db.\"T\" EXECUTE optimize(file_size_threshold => '10MB')",
			want: "CALL                     optimize(file_size_threshold => '10MB')", table: `db."T"`},
		{sql: "alter table t execute expire_snapshots", want: "CALL expire_snapshots()", table: "t"},
		{sql: "ALTER TABLE t EXECUTE remove_orphan_files(retention_threshold => '7d'); ALTER TABLE t ADD COLUMN c int",
			want: "CALL                remove_orphan_files(retention_threshold => '7d'); ALTER TABLE t ADD COLUMN c int", table: "t"},
	}
	for _, c := range cases {
		got, calls, err := RewriteCalls(c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if len(got) != len(c.sql) {
			t.Errorf("%s: length %d, want %d", c.sql, len(got), len(c.sql))
		}
		if collapse(got) != collapse(c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.sql, got, c.want)
		}
		var names []string
		table := ""
		for _, x := range calls {
			for off := 0; off < len(c.sql); off++ {
				if n, ok := x.ArgNames[int32(off)]; ok {
					names = append(names, n)
					if !strings.EqualFold(c.sql[off:off+len(n)], n) {
						t.Errorf("%s: name %s at %d, text there %q", c.sql, n, off, c.sql[off:])
					}
				}
			}
			if x.ExecuteTable != "" {
				table = x.ExecuteTable
			}
		}
		if !reflect.DeepEqual(names, c.names) || table != c.table {
			t.Errorf("%s: names %v table %q, want %v %q", c.sql, names, table, c.names, c.table)
		}
		if _, err := Parse(c.sql, testConfig); err != nil {
			t.Errorf("%s: does not parse: %v", c.sql, err)
		}
	}
}

// collapse folds runs of blanks into one.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestRewriteCallsErrors(t *testing.T) {
	_, err := Parse("ALTER TABLE t EXECUTE optimize WHERE a = 1", testConfig)
	if pgerr.Code(err) != pgerr.FeatureNotSupported || !strings.Contains(err.Error(), "EXECUTE ... WHERE") {
		t.Errorf("EXECUTE WHERE: %v", err)
	}
	// ARRAY[...] stays PostgreSQL's; EXECUTE of a prepared statement is
	// not touched.
	for _, sql := range []string{"EXECUTE s(1)", "SELECT ARRAY[1]", "CALL system.p(ARRAY[1])"} {
		got, calls, _ := RewriteCalls(sql)
		if got != sql || len(calls) != 0 {
			t.Errorf("%s: %q %v", sql, got, calls)
		}
	}
}

// TestCallDialectPerStatement: each statement of a query string gets its
// own CallDialect, and the NamedArgExpr's location finds the name.
func TestCallDialectPerStatement(t *testing.T) {
	stmts, err := Parse("CALL system.a(table => 't');\nSELECT 1; CALL system.b('u', to => 'v')", testConfig)
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 3 || stmts[0].Call == nil || stmts[1].Call != nil || stmts[2].Call == nil {
		t.Fatalf("calls: %+v", stmts)
	}
	for i, want := range map[int]string{0: "table", 2: "to"} {
		args := stmts[i].Node.GetCallStmt().GetFunccall().Args
		na := args[len(args)-1].GetNamedArgExpr()
		if got := stmts[i].Call.ArgNames[na.Location]; got != want {
			t.Errorf("statement %d: name %q, want %q", i, got, want)
		}
	}
}

// FuzzRewriteCalls: the call pass never panics and keeps every offset.
//
//	go test ./translate/parse -run '^$' -fuzz FuzzRewriteCalls -fuzztime 20s
func FuzzRewriteCalls(f *testing.F) {
	for _, s := range []string{
		"CALL system.p(table => 't', to => array(1, array(2)))",
		"ALTER TABLE a.b EXECUTE optimize(file_size_threshold => '1MB')",
		"alter table t execute x", "ALTER TABLE t EXECUTE x(", "CALL p(table =>", "CALL (", "ALTER TABLE EXECUTE",
		"CALL p(array(select 1), array(), array(", "ALTER TABLE t EXECUTE x() WHERE", "CALL p(a => 1); ALTER TABLE t EXECUTE y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		out, calls, err := RewriteCalls(sql)
		if err != nil {
			if pgerr.As(err) == nil {
				t.Errorf("%q: error without SQLSTATE: %v", sql, err)
			}
			return
		}
		if len(out) != len(sql) {
			t.Errorf("%q: length %d, want %d", sql, len(out), len(sql))
		}
		for _, c := range calls {
			for off, name := range c.ArgNames {
				if int(off)+len(name) > len(sql) || !strings.EqualFold(sql[off:int(off)+len(name)], name) {
					t.Errorf("%q: name %q at %d", sql, name, off)
				}
			}
		}
	})
}
