package translate

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/hints"
)

// newUpsertSession is a session over a temp warehouse with t (a int NOT
// NULL, b text, c int DEFAULT 7), identifier field a, its rows in two data
// files, and u (id int, x text) without identifier fields.
func newUpsertSession(t *testing.T) *session {
	t.Helper()
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (a int NOT NULL, b text, c int DEFAULT 7)")
	run(t, s, "ALTER TABLE t SET IDENTIFIER FIELDS a")
	run(t, s, "INSERT INTO t VALUES (1, 'x', 1), (2, 'y', 2)")
	run(t, s, "INSERT INTO t VALUES (3, NULL, 3)")
	run(t, s, "CREATE TABLE u (id int, x text)")
	run(t, s, "INSERT INTO u VALUES (1, 'p')")
	return s
}

// upsertPlanRows binds one INSERT with bindUpsert, lowers its plan and
// returns its rows, sorted: the a of the target row its _file and _pos
// name ("-" when NULL: an insert), then the action, the new row and the
// RETURNING values.
func upsertPlanRows(t *testing.T, s *session, sql string, values ...*string) ([]string, *bind.DMLPlan, error) {
	t.Helper()
	ids := map[string]string{}
	for _, r := range queryRows(t, s, "SELECT _file, _pos, a FROM t") {
		f := strings.Split(r, "\t")
		ids[f[0]+"#"+f[1]] = f[2]
	}
	stmts, err := hints.ParseChecked(sql)
	if err != nil {
		return nil, nil, err
	}
	ps := &bind.ParamSet{}
	if values != nil {
		ps = &bind.ParamSet{Values: values, Bound: true, Types: make([]uint32, len(values))}
	}
	b := bind.New(context.Background(), s, stmts[0], ps, time.Now())
	ins := stmts[0].Node.GetInsertStmt()
	if ins == nil {
		t.Fatalf("%s: not an INSERT", sql)
	}
	p, err := b.BindUpsert(ins)
	if err != nil {
		return nil, nil, err
	}
	if got, want := len(p.Sel.Cols), bind.DmlColValues+len(p.Cols)+len(p.Returning); got != want {
		t.Fatalf("%s: %d output columns, want %d", sql, got, want)
	}
	if p.Kind != bind.DMLKindInsert || p.Dup != bind.DupError || p.Cardinality != bind.UpsertCardinality {
		t.Fatalf("%s: kind %v dup %v cardinality %+v", sql, p.Kind, p.Dup, p.Cardinality)
	}
	op, err := lowerQuery(context.Background(), s, p.Sel)
	if err != nil {
		return nil, nil, err
	}
	if err := op.Open(context.Background()); err != nil {
		op.Close()
		return nil, nil, err
	}
	defer op.Close()
	var out []string
	for {
		batch, err := op.Next()
		if err != nil {
			return nil, nil, err
		}
		if batch == nil {
			break
		}
		for i := 0; i < int(batch.NumRows()); i++ {
			file, pos := batch.Column(bind.DmlColFile), batch.Column(bind.DmlColPos)
			id := "-"
			if !file.IsNull(i) {
				var ok bool
				if id, ok = ids[valueText(file, i)+"#"+valueText(pos, i)]; !ok {
					t.Fatalf("%s: _file %s _pos %s is no row of t", sql, valueText(file, i), valueText(pos, i))
				}
			}
			vals := []string{id}
			for j := bind.DmlColAction; j < int(batch.NumCols()); j++ {
				if j == bind.DmlColRowID {
					continue // NULL: the test tables are not format 3
				}
				vals = append(vals, valueText(batch.Column(j), i))
			}
			out = append(out, strings.Join(vals, " "))
		}
	}
	sort.Strings(out)
	return out, p, nil
}

// TestUpsertPlan checks the rows of upsert plans: which table row each
// proposed row meets, its action (2 update, 3 insert, 4 the 21000 error;
// rows that do nothing are left out), the new row and RETURNING.
func TestUpsertPlan(t *testing.T) {
	s := newUpsertSession(t)
	str := func(v string) *string { return &v }
	cases := []struct {
		sql    string
		params []*string
		want   []string
		cols   string // the RETURNING description, when any
		target bool   // the plan reads the table
	}{
		{sql: "INSERT INTO t VALUES (9, 'n') RETURNING a, c + 1 AS c1",
			want: []string{"- 3 9 n 7 9 8"}, cols: "a:integer,c1:integer"},
		{sql: "INSERT INTO t (c, a) SELECT c * 10, a + 100 FROM t WHERE a < 3 RETURNING *",
			want: []string{"- 3 101 NULL 10 101 NULL 10", "- 3 102 NULL 20 102 NULL 20"}, cols: "a:integer,b:text,c:integer"},
		{sql: "INSERT INTO t VALUES (1, 'q'), (4, 'w'), (4, 'v'), (5, 'z') ON CONFLICT DO NOTHING",
			want: []string{"- 3 4 w 7", "- 3 5 z 7"}, target: true},
		{sql: "INSERT INTO t VALUES (1, 'q'), (2, 'w') ON CONFLICT ON CONSTRAINT t_pkey DO NOTHING RETURNING b",
			target: true, cols: "b:text"},
		// NULL keys never conflict, with the table or with each other.
		{sql: "INSERT INTO t VALUES (10, NULL), (11, NULL), (12, 'x'), (13, 'y ') ON CONFLICT (b) DO NOTHING",
			want: []string{"- 3 10 NULL 7", "- 3 11 NULL 7", "- 3 13 y  7"}, target: true},
		{sql: "INSERT INTO t DEFAULT VALUES ON CONFLICT (a) DO NOTHING RETURNING c",
			want: []string{"- 3 NULL NULL 7 7"}, target: true, cols: "c:integer"},
		{sql: "INSERT INTO t VALUES (1, 'z'), (5, 'w') ON CONFLICT (a) DO UPDATE SET b = excluded.b || t.b, c = DEFAULT RETURNING t.*",
			want: []string{"- 3 5 w 7 5 w 7", "1 2 1 zx 7 1 zx 7"}, target: true, cols: "a:integer,b:text,c:integer"},
		{sql: "INSERT INTO t AS q (a, b) VALUES (1, 'z'), (2, 'w') ON CONFLICT (a) DO UPDATE SET (b, c) = (excluded.b, q.c + excluded.c) WHERE q.c > 1",
			want: []string{"2 2 2 w 9"}, target: true},
		{sql: "INSERT INTO t VALUES (3, 'n') ON CONFLICT (a) DO UPDATE SET a = excluded.a + 100, b = coalesce(t.b, 'was null') RETURNING a",
			want: []string{"3 2 103 was null 3 103"}, target: true, cols: "a:integer"},
		// Two proposed rows with one key: the first that changes the row
		// makes the second fail; one whose WHERE is false does not.
		{sql: "INSERT INTO t VALUES (5, 'a'), (5, 'b') ON CONFLICT (a) DO UPDATE SET b = excluded.b",
			want: []string{"- 4 5 a 7", "- 4 5 b 7"}, target: true},
		{sql: "INSERT INTO t VALUES (1, 'a'), (1, 'b') ON CONFLICT (a) DO UPDATE SET b = excluded.b WHERE excluded.b = 'b'",
			want: []string{"1 2 1 b 1"}, target: true},
		{sql: "INSERT INTO t VALUES (1, 'a'), (1, 'b') ON CONFLICT (a) DO UPDATE SET b = excluded.b WHERE excluded.b = 'a'",
			want: []string{"1 4 1 a 1"}, target: true},
		{sql: "INSERT INTO t VALUES (1, 'a'), (1, 'b') ON CONFLICT (a) DO UPDATE SET b = excluded.b WHERE false",
			target: true},
		{sql: "INSERT INTO t SELECT a, 'again' FROM t ON CONFLICT (a) DO UPDATE SET c = t.c * 100 RETURNING a, c",
			want: []string{"1 2 1 x 100 1 100", "2 2 2 y 200 2 200", "3 2 3 NULL 300 3 300"}, target: true, cols: "a:integer,c:integer"},
		{sql: "INSERT INTO t VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET b = $2", params: []*string{str("2"), str("p")},
			want: []string{"2 2 2 p 2"}, target: true},
		{sql: "INSERT INTO t VALUES (2, 'k') ON CONFLICT (a) DO UPDATE SET c = (SELECT max(id) FROM u WHERE x = excluded.b || 'z') + 5",
			want: []string{"2 2 2 y NULL"}, target: true},
		{sql: "INSERT INTO t VALUES (2, 'k') ON CONFLICT (a) DO UPDATE SET c = (SELECT max(id) FROM u) + t.c",
			want: []string{"2 2 2 y 3"}, target: true},
		// SET and WHERE are evaluated only for rows that meet a table row.
		{sql: "INSERT INTO t VALUES (50, 'a', 0) ON CONFLICT (a) DO UPDATE SET c = 1 / excluded.c WHERE 1 / excluded.c > 0",
			want: []string{"- 3 50 a 0"}, target: true},
		{sql: "INSERT INTO t VALUES (50, 'a', 0), (50, 'b', 0) ON CONFLICT (a) DO UPDATE SET c = 1 / excluded.c WHERE 1 / excluded.c > 0",
			want: []string{"- 4 50 a 0", "- 4 50 b 0"}, target: true},
		// No identifier fields and no target: nothing can conflict.
		{sql: "INSERT INTO u VALUES (1, 'p') ON CONFLICT DO NOTHING RETURNING x",
			want: []string{"- 3 1 p p"}, cols: "x:text"},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			got, p, err := upsertPlanRows(t, s, c.sql, c.params...)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if (p.Target != nil) != c.target {
				t.Errorf("plan reads the table: %v, want %v", p.Target != nil, c.target)
			}
			if colNames(p.Returning) != c.cols {
				t.Errorf("RETURNING %q, want %q", colNames(p.Returning), c.cols)
			}
		})
	}
}

// upsertErrorCases are statements that fail, with PostgreSQL's SQLSTATE
// and message; pgSetup makes the same tables on PostgreSQL (a primary key
// where icegate has identifier fields).
var upsertErrorCases = []struct{ sql, code, msg string }{
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT DO UPDATE SET b = 'q'", "42601",
		"ON CONFLICT DO UPDATE requires inference specification or constraint name"},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET b = b", "42702", `column reference "b" is ambiguous`},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT ON CONSTRAINT foo DO NOTHING", "42704", `constraint "foo" for table "t" does not exist`},
	{"INSERT INTO u VALUES (1, 'z') ON CONFLICT ON CONSTRAINT u_pkey DO NOTHING", "42704", `constraint "u_pkey" for table "u" does not exist`},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT (zz) DO NOTHING", "42703", `column "zz" does not exist`},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET zz = 1", "42703", `column "zz" of relation "t" does not exist`},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET b = 'x', b = 'y'", "42601", `multiple assignments to same column "b"`},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET b = 'x' WHERE 1", "42804", "argument of WHERE must be type boolean, not type integer"},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET c = count(*)", "42803", "aggregate functions are not allowed in UPDATE"},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET c = now()::date", "42804", ""},
	{"INSERT INTO t AS q VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET b = t.b", "42P01", ""},
	{"INSERT INTO t VALUES (1, 'z') RETURNING excluded.a", "42P01", `missing FROM-clause entry for table "excluded"`},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET b = 'k' RETURNING excluded.a", "42P01", ""},
	{"INSERT INTO t VALUES (1, 'z') RETURNING count(*)", "42803", "aggregate functions are not allowed in RETURNING"},
	{"INSERT INTO t VALUES (1, 'z') RETURNING nope", "42703", `column "nope" does not exist`},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET (b, c) = ('k')", "0A000",
		"source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression"},
	{"INSERT INTO t VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET (b, c) = ('k', 1, 2)", "42601", "number of columns does not match number of values"},
	{"INSERT INTO t VALUES (1, 'z', 3, 4) ON CONFLICT DO NOTHING", "42601", "INSERT has more expressions than target columns"},
}

// TestUpsertErrors checks the errors of bindUpsert by SQLSTATE and
// message, and, with ICEGATE_TEST_PG, that PostgreSQL fails each with the
// same SQLSTATE.
func TestUpsertErrors(t *testing.T) {
	s := newUpsertSession(t)
	for _, c := range upsertErrorCases {
		t.Run(c.sql, func(t *testing.T) {
			_, _, err := upsertPlanRows(t, s, c.sql)
			pe := pgerr.As(err)
			if pe == nil || pe.Code != c.code {
				t.Fatalf("error %v, want SQLSTATE %s", err, c.code)
			}
			if c.msg != "" && pe.Message != c.msg {
				t.Errorf("message %q, want %q", pe.Message, c.msg)
			}
		})
	}
}

func TestUpsertErrorsMatchPostgres(t *testing.T) {
	url := os.Getenv("ICEGATE_TEST_PG")
	if url == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare the SQLSTATEs of failing upserts")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to PostgreSQL (ICEGATE_TEST_PG): %v", err)
	}
	defer conn.Close(context.Background())
	for _, sql := range []string{
		"DROP SCHEMA IF EXISTS icegate_upsert_test CASCADE",
		"CREATE SCHEMA icegate_upsert_test",
		"SET search_path = icegate_upsert_test",
		"CREATE TABLE t (a int NOT NULL PRIMARY KEY, b text, c int DEFAULT 7)",
		"CREATE TABLE u (id int, x text)",
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	defer conn.Exec(context.Background(), "DROP SCHEMA icegate_upsert_test CASCADE")
	for _, c := range upsertErrorCases {
		_, err := conn.Exec(ctx, c.sql)
		var pe *pgconn.PgError
		if !asPgError(err, &pe) {
			t.Errorf("%s: PostgreSQL gives %v, want SQLSTATE %s", c.sql, err, c.code)
			continue
		}
		if pe.Code != c.code || (c.msg != "" && pe.Message != c.msg) {
			t.Errorf("%s: PostgreSQL gives %s %q, want %s %q", c.sql, pe.Code, pe.Message, c.code, c.msg)
		}
	}
}

func asPgError(err error, pe **pgconn.PgError) bool {
	p, ok := err.(*pgconn.PgError)
	*pe = p
	return ok
}

// TestUpsertExec runs upserts end to end, in both write modes and format
// versions: the table afterwards, the tags, RETURNING, and a failing
// statement that leaves the table as it was.
func TestUpsertExec(t *testing.T) {
	for _, props := range []string{
		"'format-version'='2'",
		"'format-version'='3', 'write.merge.mode'='merge-on-read'",
	} {
		t.Run(props, func(t *testing.T) {
			s, _, _ := newWriteSession(t)
			run(t, s, "CREATE TABLE t (a int NOT NULL, b text, c int) USING iceberg PARTITIONED BY (bucket(2, a)) TBLPROPERTIES ("+props+")")
			run(t, s, "ALTER TABLE t SET IDENTIFIER FIELDS a")
			run(t, s, "INSERT INTO t VALUES (1, 'x', 1), (2, 'y', 2), (3, 'z', 3)")
			steps := []struct{ sql, want string }{
				{"INSERT INTO t VALUES (1, 'n', 0), (4, 'n', 0) ON CONFLICT DO NOTHING", "INSERT 0 1"},
				{"INSERT INTO t VALUES (2, 'u', 0), (5, 'i', 0) ON CONFLICT (a) DO UPDATE SET b = excluded.b, c = t.c + 10", "INSERT 0 2"},
				{"INSERT INTO t VALUES (3, 'w', 0) ON CONFLICT (a) DO UPDATE SET b = excluded.b WHERE t.c > 100", "INSERT 0 0"},
				{"INSERT INTO t VALUES (6, 'd', 0), (6, 'e', 0) ON CONFLICT (a) DO UPDATE SET b = excluded.b",
					"error (21000): ON CONFLICT DO UPDATE command cannot affect row a second time"},
			}
			for _, st := range steps {
				if got := statementOutput(s, st.sql); got != st.want {
					t.Errorf("%s: %s, want %s", st.sql, got, st.want)
				}
			}
			got := queryOutput(t, s, &datadriven.Case{Input: "INSERT INTO t VALUES (1, 'r', 5), (7, 'r', 7) ON CONFLICT (a) DO UPDATE SET c = t.c + excluded.c RETURNING a, b, c"})
			if want := "a:integer\tb:text\tc:integer\n1\tx\t6\n7\tr\t7\nINSERT 0 2"; sortedBody(got) != sortedBody(want) {
				t.Errorf("RETURNING:\n%s\nwant\n%s", got, want)
			}
			rows := queryRows(t, s, "SELECT a, b, c FROM t ORDER BY a")
			want := []string{"1\tx\t6", "2\tu\t12", "3\tz\t3", "4\tn\t0", "5\ti\t0", "7\tr\t7"}
			if !slices.Equal(rows, want) {
				t.Errorf("table\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestUpsertConflictFilter checks the predicates lowering finds on the
// target's scan, the change's conflict filter: the keys VALUES proposes,
// none when the rows come from a query.
func TestUpsertConflictFilter(t *testing.T) {
	s := newUpsertSession(t)
	cases := []struct{ sql, want string }{
		{"INSERT INTO t VALUES (1, 'a'), (5, 'b') ON CONFLICT (a) DO NOTHING", "[{1 in [1 5]}]"},
		{"INSERT INTO t VALUES (1, 'a'), (5, NULL) ON CONFLICT (a, b) DO UPDATE SET c = 0", "[{1 in [1 5]} {2 in [a]}]"},
		{"INSERT INTO t VALUES ('4', 'a') ON CONFLICT (a) DO UPDATE SET c = 0", "[{1 in [4]}]"},
		{"INSERT INTO t SELECT a + 1, b FROM t ON CONFLICT (a) DO NOTHING", "[]"},
		{"INSERT INTO t VALUES (1 + (SELECT 1), 'a') ON CONFLICT (a) DO NOTHING", "[]"},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			stmts, err := hints.ParseChecked(c.sql)
			if err != nil {
				t.Fatal(err)
			}
			b := bind.New(context.Background(), s, stmts[0], &bind.ParamSet{}, time.Now())
			p, err := b.BindUpsert(stmts[0].Node.GetInsertStmt())
			if err != nil {
				t.Fatal(err)
			}
			op, preds, err := lowerDML(context.Background(), s, p)
			if err != nil {
				t.Fatal(err)
			}
			op.Close()
			if got := fmt.Sprint(preds); got != c.want {
				t.Errorf("conflict filter %s, want %s", got, c.want)
			}
		})
	}
}

// TestInsertWith runs INSERTs with WITH queries: plain, ON CONFLICT (the
// queries visible to the rows, SET and RETURNING), and a data-modifying
// WITH query (every row deleted and inserted again: the table is as it
// was).
func TestInsertWith(t *testing.T) {
	s := newUpsertSession(t)
	steps := []struct{ sql, want string }{
		{"WITH s AS (SELECT a + 10 AS a, b FROM t) INSERT INTO t (a, b) SELECT * FROM s WHERE a < 12", "INSERT 0 1"},
		{"WITH k(n) AS (VALUES (1), (20)) INSERT INTO t (a, b) SELECT n, 'w' FROM k ON CONFLICT (a) DO UPDATE SET c = (SELECT max(n) FROM k) RETURNING a, c",
			"a:integer\tc:integer\n1\t20\n20\t7\nINSERT 0 2"},
		{"WITH d AS (DELETE FROM t RETURNING *) INSERT INTO t SELECT * FROM d", "INSERT 0 5"},
	}
	for _, st := range steps {
		if got := queryOutput(t, s, &datadriven.Case{Input: st.sql}); sortedBody(got) != sortedBody(st.want) {
			t.Errorf("%s:\n%s\nwant\n%s", st.sql, got, st.want)
		}
	}
	rows := queryRows(t, s, "SELECT a, b, c FROM t ORDER BY a")
	want := []string{"1\tx\t20", "2\ty\t2", "3\tNULL\t3", "11\tx\t7", "20\tw\t7"}
	if !slices.Equal(rows, want) {
		t.Errorf("table\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
