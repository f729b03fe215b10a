package translate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// mergeSetup is the target t and the source s of the MERGE tests.
var mergeSetup = []string{
	`CREATE TABLE t (a int, b text, c int)`,
	`INSERT INTO t VALUES (1, 'x', 10), (2, 'y', 20), (3, 'z', 30)`,
	`CREATE TABLE s (a int, b text, d int)`,
	`INSERT INTO s VALUES (1, 'X', 100), (2, 'Y', 200), (4, 'W', 400)`,
}

// newMergeSession is a session over a fresh warehouse with t and s, and
// more statements run after them.
func newMergeSession(t *testing.T, more ...string) *session {
	t.Helper()
	s, _, _ := newWriteSession(t)
	for _, q := range append(append([]string(nil), mergeSetup...), more...) {
		run(t, s, q)
	}
	return s
}

// mergePlanRows binds one MERGE and runs its dmlPlan's query: one line per
// row, _file shown as "f" (or NULL), sorted.
func mergePlanRows(t *testing.T, s *session, sql string) ([]string, *bind.DMLPlan, error) {
	t.Helper()
	ctx := context.Background()
	stmts, err := hints.ParseChecked(sql)
	if err != nil {
		return nil, nil, err
	}
	if len(stmts) != 1 || stmts[0].Node.GetMergeStmt() == nil {
		t.Fatalf("%s: not one MERGE", sql)
	}
	b := bind.New(ctx, s, stmts[0], &bind.ParamSet{}, time.Now())
	p, err := b.BindMerge(stmts[0].Node.GetMergeStmt())
	if err != nil {
		return nil, nil, err
	}
	if len(p.Sel.Cols) != bind.DmlColValues+len(p.Cols)+len(p.Returning) {
		t.Fatalf("%s: %d columns, want %d", sql, len(p.Sel.Cols), bind.DmlColValues+len(p.Cols)+len(p.Returning))
	}
	op, err := lowerQuery(ctx, s, p.Sel)
	if err != nil {
		return nil, nil, err
	}
	if err := op.Open(ctx); err != nil {
		return nil, nil, err
	}
	defer op.Close()
	var lines []string
	for {
		batch, err := op.Next()
		if err != nil {
			return nil, nil, err
		}
		if batch == nil {
			break
		}
		if _, ok := batch.Column(bind.DmlColAction).(*array.Int32); !ok {
			t.Fatalf("%s: action column is %s", sql, batch.Column(bind.DmlColAction).DataType())
		}
		for i := 0; i < int(batch.NumRows()); i++ {
			vals := make([]string, batch.NumCols())
			for j := range vals {
				vals[j] = valueText(batch.Column(j), i)
			}
			if vals[bind.DmlColFile] != "NULL" {
				vals[bind.DmlColFile] = "f"
			}
			vals = append(vals[:bind.DmlColRowID], vals[bind.DmlColRowID+1:]...) // NULL: the test tables are not format 3
			lines = append(lines, strings.Join(vals, " "))
		}
	}
	sort.Strings(lines)
	return lines, p, nil
}

// TestMergePlan checks the rows of bound MERGE statements: which target
// row each reaches (_file, _pos), the action (0 none, 1 delete, 2 update,
// 3 insert), the new row (a, b, c) and the RETURNING values.
func TestMergePlan(t *testing.T) {
	s := newMergeSession(t)
	tests := []struct {
		name, sql string
		want      []string
	}{
		{"matched update, not matched insert", `MERGE INTO t USING s ON t.a = s.a
			WHEN MATCHED THEN UPDATE SET b = s.b
			WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b, s.d)`,
			[]string{"NULL NULL 3 4 W 400", "f 0 2 1 X 10", "f 1 2 2 Y 20"}},
		{"first clause whose condition holds", `MERGE INTO t USING s ON t.a = s.a
			WHEN MATCHED AND s.d > 150 THEN DELETE
			WHEN MATCHED THEN UPDATE SET c = t.c + s.d`,
			[]string{"f 0 2 1 x 110", "f 1 1 NULL NULL NULL"}},
		{"no clause applies", `MERGE INTO t USING s ON t.a = s.a
			WHEN MATCHED AND s.d > 1000 THEN DELETE
			WHEN NOT MATCHED AND s.d < 0 THEN INSERT VALUES (s.a)`,
			[]string{"NULL NULL 0 NULL NULL NULL", "f 0 0 NULL NULL NULL", "f 1 0 NULL NULL NULL"}},
		{"not matched by source", `MERGE INTO t USING s ON t.a = s.a
			WHEN MATCHED THEN DO NOTHING
			WHEN NOT MATCHED BY SOURCE THEN UPDATE SET c = -1`,
			[]string{"f 0 0 NULL NULL NULL", "f 1 0 NULL NULL NULL", "f 2 2 3 z -1"}},
		{"all three kinds", `MERGE INTO t USING s ON t.a = s.a
			WHEN MATCHED AND t.a = 1 THEN DELETE
			WHEN NOT MATCHED BY TARGET THEN INSERT (a, c) VALUES (s.a, s.d)
			WHEN NOT MATCHED BY SOURCE THEN DELETE`,
			[]string{"NULL NULL 3 4 NULL 400", "f 0 1 NULL NULL NULL", "f 1 0 NULL NULL NULL", "f 2 1 NULL NULL NULL"}},
		{"insert default values and defaults", `MERGE INTO t USING s ON t.a = s.a
			WHEN NOT MATCHED THEN INSERT DEFAULT VALUES`,
			[]string{"NULL NULL 3 NULL NULL NULL", "f 0 0 NULL NULL NULL", "f 1 0 NULL NULL NULL"}},
		{"multiple-column SET and DEFAULT", `MERGE INTO t USING s ON t.a = s.a
			WHEN MATCHED THEN UPDATE SET (b, c) = (s.b || '!', DEFAULT)`,
			[]string{"f 0 2 1 X! NULL", "f 1 2 2 Y! NULL"}},
		{"multiple-column SET from a subquery", `MERGE INTO t USING s ON t.a = s.a
			WHEN MATCHED THEN UPDATE SET (b, c) = (SELECT min(b), max(d) FROM s AS s2)`,
			[]string{"f 0 2 1 W 400", "f 1 2 2 W 400"}},
		{"returning", `MERGE INTO t USING s ON t.a = s.a
			WHEN MATCHED AND s.a = 2 THEN DELETE
			WHEN MATCHED THEN UPDATE SET c = s.d
			WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b, s.d)
			RETURNING merge_action(), t.a, t.c, s.d, lower(merge_action())`,
			[]string{"NULL NULL 3 4 W 400 INSERT 4 400 400 insert", "f 0 2 1 x 100 UPDATE 1 100 100 update", "f 1 1 NULL NULL NULL DELETE 2 20 200 delete"}},
		{"spark stars", `MERGE INTO t USING (SELECT a, d AS c, b FROM s) src ON t.a = src.a
			WHEN MATCHED THEN UPDATE SET *
			WHEN NOT MATCHED THEN INSERT *`,
			[]string{"NULL NULL 3 4 W 400", "f 0 2 1 X 100", "f 1 2 2 Y 200"}},
		{"source from VALUES and a CTE", `WITH v AS (SELECT * FROM (VALUES (3, 'q')) AS x(k, w))
			MERGE INTO t USING v ON t.a = v.k
			WHEN MATCHED THEN UPDATE SET b = v.w`,
			[]string{"f 2 2 3 q 30"}},
		{"subquery in a condition", `MERGE INTO t USING s ON t.a = s.a
			WHEN MATCHED AND s.d IN (SELECT max(d) FROM s) THEN DELETE
			WHEN NOT MATCHED AND EXISTS (SELECT 1 FROM t WHERE t.a = s.a - 1) THEN INSERT (a) VALUES (s.a)`,
			[]string{"NULL NULL 3 4 NULL NULL", "f 0 0 NULL NULL NULL", "f 1 0 NULL NULL NULL"}},
		{"ON condition on the preserved side only", `MERGE INTO t USING s ON t.a = s.a AND t.c > 15
			WHEN NOT MATCHED BY SOURCE THEN DELETE`,
			[]string{"f 0 1 NULL NULL NULL", "f 1 0 NULL NULL NULL", "f 2 1 NULL NULL NULL"}},
		{"ON condition on both preserved sides", `MERGE INTO t USING s ON t.a = s.a AND t.c > 15 AND s.d < 300
			WHEN MATCHED THEN UPDATE SET b = 'm'
			WHEN NOT MATCHED BY TARGET THEN INSERT (a) VALUES (s.a)
			WHEN NOT MATCHED BY SOURCE THEN DELETE`,
			[]string{"NULL NULL 3 1 NULL NULL", "NULL NULL 3 4 NULL NULL", "f 0 1 NULL NULL NULL", "f 1 2 2 m 20", "f 2 1 NULL NULL NULL"}},
		{"subquery in the ON condition", `MERGE INTO t USING s ON t.a = s.a AND s.a IN (SELECT a FROM s WHERE d > 150)
			WHEN MATCHED THEN UPDATE SET b = 'in'`,
			[]string{"f 1 2 2 in 20"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := mergePlanRows(t, s, tc.sql)
			if err != nil {
				t.Fatalf("%s", errorText(err))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestMergePlanShape checks the plan's kind, dup rule, cardinality error,
// target and RETURNING description.
func TestMergePlanShape(t *testing.T) {
	s := newMergeSession(t)
	_, p, err := mergePlanRows(t, s, `MERGE INTO t AS x USING s ON x.a = s.a
		WHEN MATCHED THEN DELETE RETURNING merge_action(), *, x.b AS bee`)
	if err != nil {
		t.Fatal(errorText(err))
	}
	if p.Kind != bind.DMLKindMerge || p.Dup != bind.DupError || p.Target == nil || p.Table.Ident.Name != "t" {
		t.Errorf("kind %d dup %d target %v table %s", p.Kind, p.Dup, p.Target, p.Table.Ident.Name)
	}
	if p.Cardinality.Message != "MERGE command cannot affect row a second time" ||
		p.Cardinality.Hint != "Ensure that not more than one source row matches any one target row." {
		t.Errorf("cardinality %+v", p.Cardinality)
	}
	var names []string
	for _, c := range p.Returning {
		names = append(names, fmt.Sprintf("%s:%s", c.Name, plan.Type{OID: c.TypeOID, Typmod: c.Typmod}))
	}
	want := "merge_action:text a:integer b:text d:integer a:integer b:text c:integer bee:text"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("returning %s, want %s", got, want)
	}
	if p.Returning[4].TableOID == 0 || p.Returning[4].AttNum != 1 || p.Returning[0].TableOID != 0 {
		t.Errorf("returning origins %+v %+v", p.Returning[0], p.Returning[4])
	}
}

// TestMergeErrors checks the errors of MERGE as PostgreSQL reports them.
func TestMergeErrors(t *testing.T) {
	s := newMergeSession(t, `CREATE VIEW v AS SELECT * FROM t`)
	tests := []struct {
		sql, code, msg, hint string
	}{
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT VALUES (t.a)`,
			pgerr.UndefinedTable, `invalid reference to FROM-clause entry for table "t"`,
			`There is an entry for table "t", but it cannot be referenced from this part of the query.`},
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED AND t.b = 'x' THEN INSERT VALUES (s.a)`,
			pgerr.UndefinedTable, `invalid reference to FROM-clause entry for table "t"`, ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT VALUES (c)`,
			pgerr.UndefinedColumn, `column "c" does not exist`,
			`There is a column named "c" in table "t", but it cannot be referenced from this part of the query.`},
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED BY SOURCE THEN UPDATE SET b = s.b`,
			pgerr.UndefinedTable, `invalid reference to FROM-clause entry for table "s"`, ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE WHEN MATCHED THEN DO NOTHING`,
			pgerr.SyntaxError, "unreachable WHEN clause specified after unconditional WHEN clause", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET a = 1, a = 2`,
			pgerr.SyntaxError, `multiple assignments to same column "a"`, ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET zz = 1`,
			pgerr.UndefinedColumn, `column "zz" of relation "t" does not exist`, ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT (a, b) VALUES (1)`,
			pgerr.SyntaxError, "INSERT has more target columns than expressions", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT VALUES (1, 'a', 3, 4)`,
			pgerr.SyntaxError, "INSERT has more expressions than target columns", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT (a, a) VALUES (1, 2)`,
			"42701", `column "a" specified more than once`, ""},
		{`MERGE INTO t USING t ON t.a = t.a WHEN MATCHED THEN DELETE`,
			"42712", `name "t" specified more than once`, ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED AND count(*) > 0 THEN DELETE`,
			pgerr.GroupingError, "aggregate functions are not allowed in MERGE WHEN conditions", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = count(*)`,
			pgerr.GroupingError, "aggregate functions are not allowed in UPDATE", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT VALUES (s.a, count(*))`,
			pgerr.GroupingError, "aggregate functions are not allowed in VALUES", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE RETURNING count(*)`,
			pgerr.GroupingError, "aggregate functions are not allowed in RETURNING", ""},
		{`MERGE INTO t USING s ON a = s.a WHEN MATCHED THEN DELETE`,
			pgerr.AmbiguousColumn, `column reference "a" is ambiguous`, ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED AND 1 THEN DELETE`,
			pgerr.DatatypeMismatch, "argument of WHEN must be type boolean, not type integer", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET c = 'abc'`,
			pgerr.InvalidTextRepresentation, `invalid input syntax for type integer: "abc"`, ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET (b, c) = (1)`,
			pgerr.FeatureNotSupported, "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression", ""},
		{`MERGE INTO v USING s ON v.a = s.a WHEN MATCHED THEN DELETE`,
			pgerr.FeatureNotSupported, "MERGE on a view", ""},
		{`MERGE INTO nope USING s ON nope.a = s.a WHEN MATCHED THEN DELETE`,
			pgerr.UndefinedTable, `relation "nope" does not exist`, ""},
		{`MERGE INTO t USING (SELECT a, b FROM s) src ON t.a = src.a WHEN MATCHED THEN UPDATE SET *`,
			pgerr.UndefinedColumn, "column src.c does not exist", `UPDATE SET * needs a source column for every column of table "t".`},
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT *`,
			pgerr.UndefinedColumn, "column s.c does not exist", `INSERT * needs a source column for every column of table "t".`},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN INSERT *`,
			pgerr.SyntaxError, "INSERT * is only allowed in WHEN NOT MATCHED", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED BY SOURCE THEN UPDATE SET *`,
			pgerr.SyntaxError, "UPDATE SET * is not allowed in WHEN NOT MATCHED BY SOURCE", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED AND merge_action() = 'DELETE' THEN DELETE`,
			pgerr.SyntaxError, "MERGE_ACTION() can only be used in the RETURNING list of a MERGE command", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = merge_action()`,
			pgerr.SyntaxError, "MERGE_ACTION() can only be used in the RETURNING list of a MERGE command", ""},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE RETURNING merge_action() + 1`,
			pgerr.UndefinedFunction, "operator does not exist: text + integer", ""},
	}
	for _, tc := range tests {
		t.Run(tc.sql, func(t *testing.T) {
			_, _, err := mergePlanRows(t, s, tc.sql)
			pe := pgerr.As(err)
			if pe == nil {
				t.Fatalf("got %v, want %s %s", err, tc.code, tc.msg)
			}
			if pe.Code != tc.code || !strings.Contains(pe.Message, tc.msg) {
				t.Errorf("got %s, want (%s) %s", errorText(err), tc.code, tc.msg)
			}
			if tc.hint != "" && pe.Hint != tc.hint {
				t.Errorf("hint %q, want %q", pe.Hint, tc.hint)
			}
		})
	}
}

// TestMergeErrorPosition checks that an error after INSERT * (which the
// dialect pass lengthens) points where the client wrote it.
func TestMergeErrorPosition(t *testing.T) {
	s := newMergeSession(t)
	sql := `MERGE INTO t USING (SELECT a, b, d AS c FROM s) x ON t.a = x.a WHEN NOT MATCHED THEN INSERT * WHEN MATCHED THEN UPDATE SET zz = 1`
	_, _, err := mergePlanRows(t, s, sql)
	pe := pgerr.As(err)
	if want := int32(strings.Index(sql, "zz") + 1); pe == nil || pe.Code != pgerr.UndefinedColumn || pe.Position != want {
		t.Errorf("got %s, want 42703 at position %d", errorText(err), want)
	}
}

// TestMergeExec runs MERGE end to end in both write modes and format
// versions: tags, RETURNING rows, the table afterwards, and the 21000 of
// a target row matched twice (which leaves the table unchanged).
func TestMergeExec(t *testing.T) {
	modes := []struct{ name, props string }{
		{"copy-on-write", ``},
		{"merge-on-read v2", `ALTER TABLE t SET TBLPROPERTIES ('write.merge.mode'='merge-on-read')`},
		{"merge-on-read v3", `ALTER TABLE t SET TBLPROPERTIES ('format-version'='3', 'write.merge.mode'='merge-on-read')`},
	}
	steps := []struct{ sql, want string }{
		{`MERGE INTO t USING s ON t.a = s.a
			WHEN MATCHED AND s.a = 2 THEN DELETE
			WHEN MATCHED THEN UPDATE SET b = s.b, c = t.c + s.d
			WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b, s.d)
			RETURNING merge_action(), t.*`,
			"merge_action:text\ta:integer\tb:text\tc:integer\nDELETE\t2\ty\t20\nINSERT\t4\tW\t400\nUPDATE\t1\tX\t110\nMERGE 3"},
		{`SELECT * FROM t ORDER BY a`, "a:integer\tb:text\tc:integer\n1\tX\t110\n3\tz\t30\n4\tW\t400\nSELECT 3"},
		{`MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED BY SOURCE THEN UPDATE SET c = 0`, "MERGE 1"},
		{`SELECT * FROM t ORDER BY a`, "a:integer\tb:text\tc:integer\n1\tX\t110\n3\tz\t0\n4\tW\t400\nSELECT 3"},
		{`INSERT INTO s VALUES (1, 'dup', 1)`, "INSERT 0 1"},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET c = s.d`,
			"error (21000): MERGE command cannot affect row a second time"},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED AND s.b = 'dup' THEN DO NOTHING WHEN MATCHED THEN UPDATE SET c = s.d`, "MERGE 2"},
		{`MERGE INTO t USING (SELECT a, b || '*' AS b, d AS c FROM s WHERE b <> 'dup') src ON t.a = src.a
			WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *`, "MERGE 3"},
		{`SELECT * FROM t ORDER BY a`, "a:integer\tb:text\tc:integer\n1\tX*\t100\n2\tY*\t200\n3\tz\t0\n4\tW*\t400\nSELECT 4"},
		{`MERGE INTO t USING (VALUES (3)) AS v(k) ON t.a = v.k WHEN MATCHED THEN DELETE`, "MERGE 1"},
		{`SELECT count(*) FROM t`, "count:bigint\n3\nSELECT 1"},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			var more []string
			if m.props != "" {
				more = append(more, m.props)
			}
			s := newMergeSession(t, more...)
			for _, st := range steps {
				got := queryOutput(t, s, &datadriven.Case{Input: st.sql, Args: []string{"rowsort"}})
				if strings.HasPrefix(st.want, "error") {
					if !strings.HasPrefix(got, st.want) {
						t.Fatalf("%s:\n%s\nwant %s", st.sql, got, st.want)
					}
					continue
				}
				got = sortedBody(got)
				if got != sortedBody(st.want) {
					t.Fatalf("%s:\n%s\nwant:\n%s", st.sql, got, st.want)
				}
			}
		})
	}
}

// sortedBody sorts the row lines of a query output between its header and
// its tag (queryOutput's rowsort sorts the tag in too).
func sortedBody(out string) string {
	lines := strings.Split(out, "\n")
	var head, rows, tag []string
	for _, l := range lines {
		switch {
		case strings.Contains(l, ":") && strings.Count(l, ":") == strings.Count(l, "\t")+1 && len(head) == 0 && len(rows) == 0:
			head = append(head, l)
		case strings.HasPrefix(l, "MERGE ") || strings.HasPrefix(l, "SELECT ") || strings.HasPrefix(l, "INSERT "):
			tag = append(tag, l)
		default:
			rows = append(rows, l)
		}
	}
	sort.Strings(rows)
	return strings.Join(append(append(head, rows...), tag...), "\n")
}

// TestMergeStarRewrite checks the dialect pass on Spark's star actions:
// which WHEN clause each was, and that nothing else changes.
func TestMergeStarRewrite(t *testing.T) {
	tests := []struct {
		sql   string
		stars map[int]bool // clause -> insert
		out   string
	}{
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *`,
			map[int]bool{0: false, 1: true},
			`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DO NOTHING   WHEN NOT MATCHED THEN DO NOTHING`},
		{`merge into t using s on t.a = s.a when matched and case when s.a = 1 then true end then delete when not matched then insert *`,
			map[int]bool{1: true},
			`merge into t using s on t.a = s.a when matched and case when s.a = 1 then true end then delete when not matched then DO NOTHING`},
		{`WITH x AS (SELECT * FROM s) MERGE INTO t USING x ON t.a = x.a WHEN MATCHED THEN UPDATE SET *`,
			map[int]bool{0: false},
			`WITH x AS (SELECT * FROM s) MERGE INTO t USING x ON t.a = x.a WHEN MATCHED THEN DO NOTHING  `},
		{`SELECT * FROM merge_log`, nil, `SELECT * FROM merge_log`},
		{`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = s.b * 2`, nil,
			`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = s.b * 2`},
	}
	for _, tc := range tests {
		out, extras := parse.RewriteMergeStars(tc.sql)
		if out != tc.out {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.sql, out, tc.out)
		}
		if len(tc.stars) == 0 {
			if len(extras) != 0 {
				t.Errorf("%s: extras %v", tc.sql, extras)
			}
			continue
		}
		if len(extras) != 1 || extras[0].Start != 0 || extras[0].End != len(out) {
			t.Fatalf("%s: extras %+v", tc.sql, extras)
		}
		got := extras[0].MergeStars
		if len(got) != len(tc.stars) {
			t.Errorf("%s: stars %v, want %v", tc.sql, got, tc.stars)
		}
		for k, ins := range tc.stars {
			st, ok := got[k]
			if !ok || st.Insert != ins || !strings.HasPrefix(out[st.Loc:], parse.MergeStarText) {
				t.Errorf("%s: clause %d: %+v (present %v)", tc.sql, k, st, ok)
			}
		}
	}
	// Several statements: the markers go to the MERGE's own statement.
	stmts, err := hints.ParseChecked(`SELECT 1; MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT *; SELECT 2`)
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 3 || stmts[0].Extras != nil || stmts[2].Extras != nil || stmts[1].Extras == nil || !stmts[1].Extras.MergeStars[0].Insert {
		t.Errorf("extras per statement: %v %v %v", stmts[0].Extras, stmts[1].Extras, stmts[2].Extras)
	}
}

// TestMergeTargetShapes runs MERGE into a partitioned table with nested
// columns and a column named _file (which hides the metadata column), from
// a join, and with parameters.
func TestMergeTargetShapes(t *testing.T) {
	s := newMergeSession(t,
		`CREATE TABLE n (id int, tags array<string>, _file text) USING iceberg PARTITIONED BY (bucket(4, id))`,
		`INSERT INTO n SELECT a, ARRAY[b], 'mine' FROM t`)
	steps := []struct{ sql, want string }{
		{`MERGE INTO n USING s ON n.id = s.a
			WHEN MATCHED THEN UPDATE SET tags = ARRAY[s.b, 'q']
			WHEN NOT MATCHED THEN INSERT (id) VALUES (s.a)
			WHEN NOT MATCHED BY SOURCE THEN DELETE RETURNING *`,
			"a:integer\tb:text\td:integer\tid:integer\ttags:text[]\t_file:text\n" +
				"1\tX\t100\t1\t[\"X\",\"q\"]\tmine\n2\tY\t200\t2\t[\"Y\",\"q\"]\tmine\n4\tW\t400\t4\tNULL\tNULL\nNULL\tNULL\tNULL\t3\t[\"z\"]\tmine\nMERGE 4"},
		{`SELECT * FROM n`, "id:integer\ttags:text[]\t_file:text\n1\t[\"X\",\"q\"]\tmine\n2\t[\"Y\",\"q\"]\tmine\n4\tNULL\tNULL\nSELECT 3"},
		{`MERGE INTO t USING s JOIN n ON s.a = n.id ON t.a = s.a WHEN MATCHED THEN UPDATE SET c = n.id * 1000 RETURNING t.c, n._file`,
			"c:integer\t_file:text\n1000\tmine\n2000\tmine\nMERGE 2"},
	}
	for _, st := range steps {
		got := sortedBody(queryOutput(t, s, &datadriven.Case{Input: st.sql}))
		if got != sortedBody(st.want) {
			t.Fatalf("%s:\n%s\nwant:\n%s", st.sql, got, st.want)
		}
	}

	ctx := context.Background()
	stmts, err := s.Prepare(ctx, `MERGE INTO t USING s ON t.a = s.a AND s.d > $1 WHEN MATCHED THEN UPDATE SET b = $2 RETURNING t.b`, nil)
	if err != nil {
		t.Fatal(errorText(err))
	}
	if got := fmt.Sprint(stmts[0].ParamTypes()); got != "[23 25]" {
		t.Errorf("parameter types %s, want [23 25] (int4, text)", got)
	}
	v1, v2 := "150", "P"
	rows, err := stmts[0].Execute(ctx, []*string{&v1, &v2})
	if err != nil {
		t.Fatal(errorText(err))
	}
	b, err := rows.Next(ctx)
	if err != nil || b == nil || b.NumRows() != 1 || valueText(b.Column(0), 0) != "P" || rows.Tag(0) != "MERGE 1" {
		t.Fatalf("RETURNING %v %v, tag %s", b, err, rows.Tag(0))
	}
	rows.Close()
	if got := strings.Join(queryRows(t, s, "SELECT a, b FROM t ORDER BY a"), " "); got != "1\tx 2\tP 3\tz" {
		t.Errorf("after the parameterized MERGE: %q", got)
	}
}

// TestMergeLikePostgres runs MERGE statements PostgreSQL 15 also runs, on
// both, from the same data: the same tag (or SQLSTATE) and the same table
// afterwards. It needs ICEGATE_TEST_PG.
func TestMergeLikePostgres(t *testing.T) {
	url := os.Getenv("ICEGATE_TEST_PG")
	if url == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL 15 server URL to compare MERGE with PostgreSQL; .ci/run does")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to PostgreSQL (ICEGATE_TEST_PG): %v", err)
	}
	defer conn.Close(ctx)
	merges := []string{
		`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = s.b WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b, s.d)`,
		`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED AND s.d > 150 THEN DELETE WHEN MATCHED THEN UPDATE SET c = t.c + s.d`,
		`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED AND t.a = 1 THEN DO NOTHING WHEN MATCHED THEN DELETE WHEN NOT MATCHED AND s.d > 300 THEN INSERT (a, c) VALUES (s.a, s.d)`,
		`MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET (b, c) = (s.b || t.b, s.d * 1.5)`,
		`MERGE INTO t USING (SELECT a + 1 AS a, b FROM s) AS x ON t.a = x.a WHEN MATCHED THEN UPDATE SET b = x.b WHEN NOT MATCHED THEN INSERT (a) VALUES (x.a)`,
		`MERGE INTO t USING (VALUES (1, 'one'), (9, 'nine')) AS v(k, w) ON t.a = v.k WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT VALUES (v.k, v.w, NULL)`,
		`WITH x AS (SELECT a FROM s WHERE d < 300) MERGE INTO t USING x ON t.a = x.a WHEN MATCHED THEN UPDATE SET c = -t.c`,
		`MERGE INTO t USING s ON t.a < s.a WHEN MATCHED THEN UPDATE SET c = s.d`,
		`MERGE INTO t USING s ON t.a < s.a WHEN MATCHED AND t.a = 3 THEN DELETE`,
		`MERGE INTO t AS tt USING s ON tt.a = s.a WHEN MATCHED AND s.a IN (SELECT max(a) FROM t) THEN DELETE WHEN NOT MATCHED THEN INSERT VALUES (s.a, 'new', (SELECT count(*) FROM t))`,
	}
	for _, m := range merges {
		t.Run(m, func(t *testing.T) {
			s := newMergeSession(t)
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			for _, q := range mergeSetup {
				if _, err := tx.Exec(ctx, strings.Replace(q, "CREATE TABLE", "CREATE TEMP TABLE", 1)); err != nil {
					t.Fatalf("PostgreSQL: %s: %v", q, err)
				}
			}
			if _, err := tx.Exec(ctx, "SAVEPOINT m"); err != nil {
				t.Fatal(err)
			}
			want := ""
			if tag, err := tx.Exec(ctx, m); err != nil {
				want = "error (" + pgerr.Code(pgConnError(err)) + ")"
				// A failed MERGE leaves the table as it was.
				if _, err := tx.Exec(ctx, "ROLLBACK TO SAVEPOINT m"); err != nil {
					t.Fatal(err)
				}
			} else {
				want = tag.String()
			}
			got := statementOutput(s, m)
			if strings.HasPrefix(got, "error") {
				got = got[:len("error (XXXXX)")]
			}
			if got != want {
				t.Fatalf("icegate %s, PostgreSQL %s", got, want)
			}
			const read = `SELECT a, b, c FROM t ORDER BY a, b, c`
			rows, err := tx.Query(ctx, read)
			if err != nil {
				t.Fatal(err)
			}
			var pgLines []string
			for rows.Next() {
				vals, err := rows.Values()
				if err != nil {
					t.Fatal(err)
				}
				line := make([]string, len(vals))
				for i, v := range vals {
					line[i] = "NULL"
					if v != nil {
						line[i] = fmt.Sprint(v)
					}
				}
				pgLines = append(pgLines, strings.Join(line, "\t"))
			}
			rows.Close()
			if g, w := strings.Join(queryRows(t, s, read), "\n"), strings.Join(pgLines, "\n"); g != w {
				t.Errorf("table t:\n%s\nPostgreSQL:\n%s", g, w)
			}
		})
	}
}

// pgConnError turns a PostgreSQL server error into a *pgerr.Error with its
// SQLSTATE.
func pgConnError(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pgerr.New(pe.Code, "%s", pe.Message)
	}
	return err
}
