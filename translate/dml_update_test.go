package translate

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
)

// TestBindUpdate binds UPDATEs over newDMLSession's tables and checks the
// rows of their plans: the target row (by _file and _pos), the action,
// the new row (the old one with the SET columns assigned to their types)
// and RETURNING, which sees the new row.
func TestBindUpdate(t *testing.T) {
	s := newDMLSession(t)
	cases := []struct {
		sql       string
		want      []string
		returning string
	}{
		{"UPDATE t SET name = 'x' WHERE id = 1 RETURNING *", []string{"1\t2\t1\tx\t1.50\t2020-01-01\t1\tx\t1.50\t2020-01-01"},
			"id:integer,name:text,v:numeric(10,2),d:date"},
		{"UPDATE t SET v = v + 1, d = DEFAULT WHERE id < 3", []string{"1\t2\t1\ta\t2.50\tNULL", "2\t2\t2\tb\t3.50\tNULL"}, ""},
		{"UPDATE ONLY t AS a SET id = a.id * 10 WHERE a.id = 2 RETURNING a.id, id AS again, d", []string{"2\t2\t20\tb\t2.50\tNULL\t20\t20\tNULL"},
			"id:integer,again:integer,d:date"},
		// Assignment: numeric rounds to the column's scale, a number into
		// text, a string literal into a date.
		{"UPDATE t SET v = '1.234', name = 5, d = '2024-02-29' WHERE id = 3 RETURNING v, name, d", []string{"3\t2\t3\t5\t1.23\t2024-02-29\t1.23\t5\t2024-02-29"},
			"v:numeric(10,2),name:text,d:date"},
		{"UPDATE t SET v = 7 WHERE id = 3 RETURNING v", []string{"3\t2\t3\tc\t7.00\t2021-02-02\t7.00"}, "v:numeric(10,2)"},
		{"UPDATE t SET (id, name) = (10, 'ten') WHERE id = 1", []string{"1\t2\t10\tten\t1.50\t2020-01-01"}, ""},
		{"UPDATE t SET (id, name) = ROW(7, DEFAULT) WHERE id = 1 RETURNING name", []string{"1\t2\t7\tNULL\t1.50\t2020-01-01\tNULL"}, "name:text"},
		{"UPDATE t SET (name, v) = (SELECT x, 1 FROM u WHERE u.id = t.id AND u.x <> 'x') RETURNING name, v", []string{
			"1\t2\t1\ty\t1.00\t2020-01-01\ty\t1.00", "2\t2\t2\tNULL\tNULL\tNULL\tNULL\tNULL", "3\t2\t3\tz\t1.00\t2021-02-02\tz\t1.00"}, "name:text,v:numeric(10,2)"},
		{"UPDATE t SET (name, d) = (SELECT 'k', NULL::date) WHERE id = 2", []string{"2\t2\t2\tk\t2.50\tNULL"}, ""},
		{"UPDATE t SET id = (SELECT max(id) FROM u), name = (SELECT min(x) FROM u WHERE u.id = t.id)", []string{
			"1\t2\t3\tx\t1.50\t2020-01-01", "2\t2\t3\tNULL\t2.50\tNULL", "3\t2\t3\tz\tNULL\t2021-02-02"}, ""},
		// FROM: a target row joined twice appears twice (the executor
		// keeps the first); RETURNING * lists t's new row, then u's.
		{"UPDATE t SET name = u.x FROM u WHERE t.id = u.id RETURNING *", []string{
			"1\t2\t1\tx\t1.50\t2020-01-01\t1\tx\t1.50\t2020-01-01\t1\tx",
			"1\t2\t1\ty\t1.50\t2020-01-01\t1\ty\t1.50\t2020-01-01\t1\ty",
			"3\t2\t3\tz\tNULL\t2021-02-02\t3\tz\tNULL\t2021-02-02\t3\tz"}, "id:integer,name:text,v:numeric(10,2),d:date,id:integer,x:text"},
		{"UPDATE t SET name = name || b.x FROM u AS b WHERE b.id = t.id AND b.x = 'z' RETURNING t.name, b.*, (SELECT count(*) FROM u WHERE u.id = t.id) AS n",
			[]string{"3\t2\t3\tcz\tNULL\t2021-02-02\tcz\t3\tz\t1"}, "name:text,id:integer,x:text,n:bigint"},
		{"WITH k AS (SELECT 2 AS id) UPDATE t SET d = '2000-01-01' WHERE id IN (SELECT id FROM k)", []string{"2\t2\t2\tb\t2.50\t2000-01-01"}, ""},
		{"UPDATE t SET name = NULL WHERE v IS NULL RETURNING name IS NULL", []string{"3\t2\t3\tNULL\tNULL\t2021-02-02\ttrue"}, "?column?:boolean"},
		{"UPDATE t SET id = id WHERE false", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			got := dmlRows(t, s, c.sql)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			p, _, err := bindDMLText(s, c.sql, nil)
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind != bind.DMLKindUpdate || p.Dup != bind.DupFirst || p.Target == nil || p.Target.Table != p.Table {
				t.Errorf("kind %d dup %d target %v", p.Kind, p.Dup, p.Target)
			}
			if got := colNames(p.Returning); got != c.returning {
				t.Errorf("RETURNING columns %s, want %s", got, c.returning)
			}
			for i, col := range p.Cols {
				if got := p.Sel.Output[bind.DmlColValues+i].Type(); got.String() != col.Arrow.String() {
					t.Errorf("new %s is %s, want %s", col.Name, got, col.Arrow)
				}
			}
		})
	}
}

// TestBindUpdateParameters: a parameter assigned to a column takes the
// column's type; one in WHERE its comparison's.
func TestBindUpdateParameters(t *testing.T) {
	s := newDMLSession(t)
	const sql = "UPDATE t SET v = $1, d = $2 WHERE name = $3 RETURNING v"
	_, ps, err := bindDMLText(s, sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint32{pgtypes.Numeric, pgtypes.Date, pgtypes.Text}
	if len(ps.Types) != 3 || ps.Types[0] != want[0] || ps.Types[1] != want[1] || ps.Types[2] != want[2] {
		t.Errorf("parameter types %v, want %v", ps.Types, want)
	}
	str := func(v string) *string { return &v }
	got := strings.Join(dmlRows(t, s, sql, str("9.999"), nil, str("b")), "|")
	if want := "2\t2\t2\tb\t10.00\tNULL\t10.00"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
}

// TestBindUpdateErrors checks errors by SQLSTATE, with PostgreSQL 15's
// messages.
func TestBindUpdateErrors(t *testing.T) {
	s := newDMLSession(t)
	run(t, s, "CREATE TABLE w (id int, s struct<f:int>, a array<int>)")
	cases := []struct{ sql, code, msg string }{
		{"UPDATE t SET nope = 1", "42703", `column "nope" of relation "t" does not exist`},
		{`UPDATE t SET "ID" = 1`, "42703", `column "ID" of relation "t" does not exist`},
		{"UPDATE t SET t.id = 1", "42703", `column "t" of relation "t" does not exist`},
		{"UPDATE t a SET a.id = 5", "42703", `column "a" of relation "t" does not exist`},
		{"UPDATE t SET id = 1, id = 2", "42601", `multiple assignments to same column "id"`},
		{"UPDATE t SET name = DEFAULT, (v, name) = (1, 'b')", "42601", `multiple assignments to same column "name"`},
		{"UPDATE t SET id = 'abc'::text", "42804", `column "id" is of type integer but expression is of type text`},
		{"UPDATE t SET d = 5", "42804", `column "d" is of type date but expression is of type integer`},
		{"UPDATE t SET (name, d) = (SELECT 'k', NULL)", "42804", `column "d" is of type date but expression is of type text`},
		{"UPDATE t SET v = 'abc'", "22P02", `invalid input syntax for type numeric: "abc"`},
		{"UPDATE t SET id = count(*)", "42803", "aggregate functions are not allowed in UPDATE"},
		{"UPDATE t SET id = row_number() over ()", "42P20", "window functions are not allowed in UPDATE"},
		{"UPDATE t SET id = generate_series(1, 2)", "0A000", "set-returning functions are not allowed in UPDATE"},
		{"UPDATE t SET id = 1 WHERE count(*) > 1", "42803", "aggregate functions are not allowed in WHERE"},
		{"UPDATE t SET id = 1 RETURNING sum(id)", "42803", "aggregate functions are not allowed in RETURNING"},
		{"UPDATE t SET id = zz.id", "42P01", `missing FROM-clause entry for table "zz"`},
		{"UPDATE t SET (id, name) = (1)", "0A000", "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression"},
		{"UPDATE t SET (id, name) = (1, 'a', 3)", "42601", "number of columns does not match number of values"},
		{"UPDATE t SET (id, name) = ROW(1)", "42601", "number of columns does not match number of values"},
		{"UPDATE t SET (id, name) = (SELECT 1)", "42601", "number of columns does not match number of values"},
		{"UPDATE t SET (id, name) = (SELECT 1, 'a', 3)", "42601", "number of columns does not match number of values"},
		{"UPDATE t SET id = (SELECT 1, 2)", "42601", "subquery must return only one column"},
		{"UPDATE t SET (id, name) = (SELECT id, x FROM u)", "21000", "more than one row returned by a subquery used as an expression"},
		{"UPDATE t SET id = 1 FROM t", "42712", `table name "t" specified more than once`},
		{"UPDATE t SET id = 1 FROM u AS t", "42712", `table name "t" specified more than once`},
		{"UPDATE t SET id = 1 WHERE CURRENT OF c", "0A000", "WHERE CURRENT OF is not supported yet"},
		{"UPDATE w SET s.f = 1", "0A000", "assigning to a field or an element of a column is not supported yet"},
		{"UPDATE w SET a[1] = 1", "0A000", "assigning to a field or an element of a column is not supported yet"},
		{"UPDATE nope SET id = 1", "42P01", `relation "nope" does not exist`},
	}
	for _, c := range cases {
		t.Run(c.sql, func(t *testing.T) {
			_, err := dmlRowsErr(t, s, c.sql)
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

// TestUpdateEndToEnd runs UPDATEs (and DELETEs between them) through the
// session in each write mode and format version and checks RETURNING,
// the tags and the table after, against PostgreSQL's results for the same
// statements.
func TestUpdateEndToEnd(t *testing.T) {
	const header = "id:integer\tname:text\tv:numeric(10,2)\td:date"
	for _, cfg := range dmlConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := newDMLSessionWith(t, cfg.props)
			dmlScript(t, s, []struct{ sql, want string }{
				{"DELETE FROM t WHERE id = 2 RETURNING *", header + "|2\tb\t2.50\tNULL|DELETE 1"},
				// Row 1 is reached by two rows of u: updated once.
				{"UPDATE t SET v = coalesce(v, 0) + 1 FROM u WHERE t.id = u.id RETURNING t.id, v", "id:integer\tv:numeric(10,2)|1\t2.50|3\t1.00|UPDATE 2"},
				{"INSERT INTO t VALUES (4, 'd', 4, '2022-04-04'), (5, 'e', 5, NULL), (6, 'f', 6, '2023-06-06')", "INSERT 0 3"},
				{"UPDATE t SET (name, d) = (SELECT max(x), NULL::date FROM u WHERE u.id = t.id) WHERE id IN (1, 4) RETURNING *",
					header + "|1\ty\t2.50\tNULL|4\tNULL\t4.00\tNULL|UPDATE 2"},
				{"DELETE FROM t USING u WHERE t.id = u.id AND u.x = 'z' RETURNING t.id, u.x", "id:integer\tx:text|3\tz|DELETE 1"},
				{"UPDATE t SET id = id * 10, name = DEFAULT WHERE v > 4.5 RETURNING id, name", "id:integer\tname:text|50\tNULL|60\tNULL|UPDATE 2"},
				{"UPDATE t SET name = 'never' WHERE id = 999", "UPDATE 0"},
				{"UPDATE t SET name = upper(name) WHERE name IS NOT NULL", "UPDATE 1"},
				{"SELECT * FROM t ORDER BY id", header + "|1\tY\t2.50\tNULL|4\tNULL\t4.00\tNULL|50\tNULL\t5.00\tNULL|60\tNULL\t6.00\t2023-06-06|SELECT 4"},
			})
		})
	}
}

// TestUpdateParametersEndToEnd prepares an UPDATE with parameters once
// and executes it with two sets of values.
func TestUpdateParametersEndToEnd(t *testing.T) {
	s := newDMLSession(t)
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, "UPDATE t SET name = $1 WHERE id = $2 RETURNING id, name", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := stmts[0]
	if got := fmt.Sprint(st.ParamTypes()); got != fmt.Sprint([]uint32{pgtypes.Text, pgtypes.Int4}) {
		t.Errorf("parameter types %s", got)
	}
	if got := colNames(st.Columns()); got != "id:integer,name:text" {
		t.Errorf("columns %s", got)
	}
	str := func(v string) *string { return &v }
	for _, p := range [][]*string{{str("one"), str("1")}, {nil, str("3")}} {
		rows, err := st.Execute(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for {
			b, err := rows.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
		}
		if tag := rows.Tag(0); tag != "UPDATE 1" {
			t.Errorf("tag %q", tag)
		}
		rows.Close()
	}
	got := strings.Join(queryRows(t, s, "SELECT id, name FROM t ORDER BY id"), "|")
	if want := "1\tone|2\tb|3\tNULL"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
}

// TestBindUpdateErrorPositions: errors point where PostgreSQL 15 points
// them (the position is 1-based, in characters).
func TestBindUpdateErrorPositions(t *testing.T) {
	s := newDMLSession(t)
	cases := []struct{ sql, at string }{
		{"UPDATE t SET nope = 1", "nope"},
		{"UPDATE t SET id = 'abc'::text", "'abc'"},
		{"UPDATE t SET name = 'b', (v, d) = (1, 5)", "5)"},
		{"UPDATE t SET (name, d) = (SELECT 'k', NULL)", "NULL"},
		{"UPDATE t SET (id, name) = (1)", "1)"},
		{"UPDATE t SET id = 1 WHERE count(*) > 1", "count"},
		{"DELETE FROM t WHERE zz.id = 1", "zz"},
	}
	for _, c := range cases {
		_, err := dmlRowsErr(t, s, c.sql)
		pe := pgerr.As(err)
		if pe == nil {
			t.Fatalf("%s: error %v, want a PostgreSQL error", c.sql, err)
		}
		if want := int32(strings.Index(c.sql, c.at) + 1); pe.Position != want {
			t.Errorf("%s: position %d, want %d", c.sql, pe.Position, want)
		}
	}
}

// TestUpdatePartitionedNestedEvolved: in each write mode, an UPDATE that
// moves rows to another partition, one that keeps nested columns it does
// not set, and UPDATE / DELETE after columns were added and renamed
// (older data files lack the new column).
func TestUpdatePartitionedNestedEvolved(t *testing.T) {
	for _, cfg := range dmlConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := newDMLSessionWith(t, cfg.props)
			run(t, s, "CREATE TABLE p (id int, cat text, s struct<a:int, b:string>, l array<int>) USING iceberg PARTITIONED BY (cat) TBLPROPERTIES ("+cfg.props+")")
			run(t, s, "INSERT INTO p VALUES (1, 'x', NULL, ARRAY[1,2]), (2, 'y', NULL, NULL), (3, 'x', NULL, ARRAY[3])")
			run(t, s, `INSERT INTO p VALUES (4, 'y', '{"a": 7, "b": "q"}', ARRAY[4])`)
			dmlScript(t, s, []struct{ sql, want string }{
				{"UPDATE p SET cat = 'y' WHERE id = 1 RETURNING id, cat, l", "id:integer\tcat:text\tl:integer[]|1\ty\t[1,2]|UPDATE 1"},
				{"UPDATE p SET id = id + 10 WHERE cat = 'y' RETURNING id, s, l", "id:integer\ts:jsonb\tl:integer[]|11\tNULL\t[1,2]|12\tNULL\tNULL|14\t{\"a\":7,\"b\":\"q\"}\t[4]|UPDATE 3"},
				{"SELECT id, cat, s, l, _partition FROM p ORDER BY id", "id:integer\tcat:text\ts:jsonb\tl:integer[]\t_partition:jsonb|" +
					"11\ty\tNULL\t[1,2]\t{\"cat\":\"y\"}|12\ty\tNULL\tNULL\t{\"cat\":\"y\"}|14\ty\t{\"a\":7,\"b\":\"q\"}\t[4]\t{\"cat\":\"y\"}|3\tx\tNULL\t[3]\t{\"cat\":\"x\"}|SELECT 4"},
				{"DELETE FROM p WHERE cat = 'x'", "DELETE 1"},
				{"ALTER TABLE t ADD COLUMN extra int", "ALTER TABLE"},
				{"ALTER TABLE t RENAME COLUMN name TO nm", "ALTER TABLE"},
				{"UPDATE t SET extra = id * 2 WHERE id < 3 RETURNING *", "id:integer\tnm:text\tv:numeric(10,2)\td:date\textra:integer|1\ta\t1.50\t2020-01-01\t2|2\tb\t2.50\tNULL\t4|UPDATE 2"},
				{"DELETE FROM t WHERE extra IS NULL RETURNING nm", "nm:text|c|DELETE 1"},
				{"SELECT * FROM t ORDER BY id", "id:integer\tnm:text\tv:numeric(10,2)\td:date\textra:integer|1\ta\t1.50\t2020-01-01\t2|2\tb\t2.50\tNULL\t4|SELECT 2"},
			})
		})
	}
}
