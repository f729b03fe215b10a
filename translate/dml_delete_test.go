package translate

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/plan"
)

// newDMLSession is a session over a temp warehouse with two tables of
// PostgreSQL's reference data: t (id, name, v numeric(10,2), d date), its
// rows written by two INSERTs (two data files), and u (id, x).
func newDMLSession(t *testing.T) *session {
	t.Helper()
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, name text, v numeric(10,2), d date)")
	run(t, s, "INSERT INTO t VALUES (1, 'a', 1.5, '2020-01-01'), (2, 'b', 2.5, NULL)")
	run(t, s, "INSERT INTO t VALUES (3, 'c', NULL, '2021-02-02')")
	run(t, s, "CREATE TABLE u (id int, x text)")
	run(t, s, "INSERT INTO u VALUES (1, 'x'), (1, 'y'), (3, 'z')")
	return s
}

// bindDMLText binds one DELETE or UPDATE statement; values, when not
// nil, are its parameters' values.
func bindDMLText(s *session, sql string, values []*string) (*bind.DMLPlan, *bind.ParamSet, error) {
	stmts, err := hints.ParseChecked(sql)
	if err != nil {
		return nil, nil, err
	}
	ps := &bind.ParamSet{}
	if values != nil {
		ps = &bind.ParamSet{Values: values, Bound: true}
		for range values {
			ps.Types = append(ps.Types, 0)
		}
	}
	b := bind.New(context.Background(), s, stmts[0], ps, time.Now())
	switch x := stmts[0].Node.Node.(type) {
	case *pg.Node_DeleteStmt:
		p, err := b.BindDelete(x.DeleteStmt)
		return p, ps, err
	case *pg.Node_UpdateStmt:
		p, err := b.BindUpdate(x.UpdateStmt)
		return p, ps, err
	}
	return nil, nil, pgerr.New(pgerr.SyntaxError, "not a DELETE or UPDATE: %s", sql)
}

// dmlRows binds sql, lowers its plan and returns its rows, sorted, each
// as the id of the target row its _file and _pos name (read from the table
// beforehand), then the action, the new row and the RETURNING values.
func dmlRows(t *testing.T, s *session, sql string, values ...*string) []string {
	t.Helper()
	rows, err := dmlRowsErr(t, s, sql, values...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return rows
}

func dmlRowsErr(t *testing.T, s *session, sql string, values ...*string) ([]string, error) {
	t.Helper()
	ids := map[string]string{}
	for _, r := range queryRows(t, s, "SELECT _file, _pos, id FROM t") {
		f := strings.Split(r, "\t")
		ids[f[0]+"#"+f[1]] = f[2]
	}
	p, _, err := bindDMLText(s, sql, values)
	if err != nil {
		return nil, err
	}
	if got, want := len(p.Sel.Cols), bind.DmlColValues+len(p.Cols)+len(p.Returning); got != want {
		t.Fatalf("%s: %d output columns, want %d", sql, got, want)
	}
	op, err := lowerQuery(context.Background(), s, p.Sel)
	if err != nil {
		return nil, err
	}
	if err := op.Open(context.Background()); err != nil {
		return nil, err
	}
	defer op.Close()
	var out []string
	for {
		b, err := op.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		for i := 0; i < int(b.NumRows()); i++ {
			file, pos := b.Column(bind.DmlColFile), b.Column(bind.DmlColPos)
			if file.IsNull(i) || pos.IsNull(i) {
				t.Fatalf("%s: a row without _file or _pos", sql)
			}
			id, ok := ids[valueText(file, i)+"#"+valueText(pos, i)]
			if !ok {
				t.Fatalf("%s: _file %s _pos %s is no row of t", sql, valueText(file, i), valueText(pos, i))
			}
			vals := []string{id}
			for j := bind.DmlColAction; j < int(b.NumCols()); j++ {
				if j == bind.DmlColRowID {
					continue // NULL: the test tables are not format 3
				}
				vals = append(vals, valueText(b.Column(j), i))
			}
			out = append(out, strings.Join(vals, "\t"))
		}
	}
	sort.Strings(out)
	return out, nil
}

func colNames(cols []pgtypes.Column) string {
	var names []string
	for _, c := range cols {
		names = append(names, c.Name+":"+plan.Type{OID: c.TypeOID, Typmod: c.Typmod}.String())
	}
	return strings.Join(names, ",")
}

// TestBindDelete binds DELETEs and checks the rows of their plans: which
// target rows (by _file and _pos), the action, NULL new rows, RETURNING
// of the old values and its description.
func TestBindDelete(t *testing.T) {
	s := newDMLSession(t)
	const null4 = "NULL\tNULL\tNULL\tNULL"
	cases := []struct {
		sql       string
		want      []string
		returning string
	}{
		{"DELETE FROM t WHERE id = 2", []string{"2\t1\t" + null4}, ""},
		{"DELETE FROM t", []string{"1\t1\t" + null4, "2\t1\t" + null4, "3\t1\t" + null4}, ""},
		{"DELETE FROM ONLY t WHERE false", nil, ""},
		{"DELETE FROM t WHERE id > 1 RETURNING *", []string{"2\t1\t" + null4 + "\t2\tb\t2.50\tNULL", "3\t1\t" + null4 + "\t3\tc\tNULL\t2021-02-02"},
			"id:integer,name:text,v:numeric(10,2),d:date"},
		// USING: a target row joined twice appears twice (the executor
		// keeps the first); RETURNING * lists t's columns, then u's.
		{"DELETE FROM t USING u WHERE t.id = u.id RETURNING *", []string{
			"1\t1\t" + null4 + "\t1\ta\t1.50\t2020-01-01\t1\tx", "1\t1\t" + null4 + "\t1\ta\t1.50\t2020-01-01\t1\ty",
			"3\t1\t" + null4 + "\t3\tc\tNULL\t2021-02-02\t3\tz"}, "id:integer,name:text,v:numeric(10,2),d:date,id:integer,x:text"},
		{"DELETE FROM t AS a USING u b WHERE a.id = b.id AND b.x = 'z' RETURNING a.name, b.*, a.id * 10 AS ten", []string{"3\t1\t" + null4 + "\tc\t3\tz\t30"},
			"name:text,id:integer,x:text,ten:integer"},
		{"DELETE FROM t a WHERE a.id IN (SELECT id FROM u) RETURNING name", []string{"1\t1\t" + null4 + "\ta", "3\t1\t" + null4 + "\tc"}, "name:text"},
		{"DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.id = t.id)", []string{"2\t1\t" + null4}, ""},
		{"DELETE FROM t WHERE id = (SELECT max(id) FROM u) RETURNING id", []string{"3\t1\t" + null4 + "\t3"}, "id:integer"},
		{"DELETE FROM t WHERE v > (SELECT count(*) FROM u WHERE u.id = t.id)", []string{"2\t1\t" + null4}, ""},
		{"WITH c AS (SELECT 3 AS k) DELETE FROM t USING c WHERE t.id = c.k RETURNING c.k, 'lit'", []string{"3\t1\t" + null4 + "\t3\tlit"}, "k:integer,?column?:text"},
		{"DELETE FROM t WHERE _pos = 0 AND d IS NOT NULL RETURNING _pos", []string{"1\t1\t" + null4 + "\t0", "3\t1\t" + null4 + "\t0"}, "_pos:bigint"},
		{"DELETE FROM t USING u JOIN (VALUES (1)) v(k) ON u.id = v.k WHERE t.id = u.id AND u.x = 'y' RETURNING k", []string{"1\t1\t" + null4 + "\t1"}, "k:integer"},
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
			if p.Kind != bind.DMLKindDelete || p.Dup != bind.DupFirst || p.Target == nil || p.Target.Table != p.Table {
				t.Errorf("kind %d dup %d target %v", p.Kind, p.Dup, p.Target)
			}
			if got := colNames(p.Returning); got != c.returning {
				t.Errorf("RETURNING columns %s, want %s", got, c.returning)
			}
			if c.returning == "" && p.Returning != nil {
				t.Errorf("returning %v without RETURNING", p.Returning)
			}
		})
	}
}

// TestBindDeleteReturningOrigin: a RETURNING column that is a column of
// the target describes it (table OID and attribute number), as
// PostgreSQL's RowDescription does.
func TestBindDeleteReturningOrigin(t *testing.T) {
	s := newDMLSession(t)
	p, _, err := bindDMLText(s, "DELETE FROM t RETURNING name, id + 1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Returning[0]; c.TableOID == 0 || c.AttNum != 2 {
		t.Errorf("name: table %d att %d, want t's OID and 2", c.TableOID, c.AttNum)
	}
	if c := p.Returning[1]; c.TableOID != 0 || c.AttNum != 0 {
		t.Errorf("id + 1: table %d att %d, want none", c.TableOID, c.AttNum)
	}
}

// TestBindDeleteShadowedMetadata: a table with columns named _file and
// _pos still has its rows' positions read for the plan, while the names
// mean the table's own columns.
func TestBindDeleteShadowedMetadata(t *testing.T) {
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE m (_file text, _pos int)")
	run(t, s, "INSERT INTO m VALUES ('mine', 7), ('yours', 8)")
	p, _, err := bindDMLText(s, "DELETE FROM m WHERE _pos = 8 RETURNING _file", nil)
	if err != nil {
		t.Fatal(err)
	}
	op, err := lowerQuery(context.Background(), s, p.Sel)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	b, err := op.Next()
	if err != nil || b == nil || b.NumRows() != 1 {
		t.Fatalf("batch %v, err %v; want one row", b, err)
	}
	file, pos, ret := valueText(b.Column(bind.DmlColFile), 0), valueText(b.Column(bind.DmlColPos), 0), valueText(b.Column(bind.DmlColValues+2), 0)
	if !strings.HasSuffix(file, ".parquet") || pos != "1" || ret != "yours" {
		t.Errorf("_file %q _pos %s RETURNING %q; want a data file, 1, yours", file, pos, ret)
	}
}

// TestBindDeleteParameters: parameters get their types from their use,
// as in a SELECT, and their values select the rows.
func TestBindDeleteParameters(t *testing.T) {
	s := newDMLSession(t)
	const sql = "DELETE FROM t WHERE id = $1 OR name = $2 RETURNING $3::int"
	_, ps, err := bindDMLText(s, sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ps.Types, []uint32{pgtypes.Int4, pgtypes.Text, pgtypes.Int4}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("parameter types %v, want %v", got, want)
	}
	str := func(v string) *string { return &v }
	got := strings.Join(dmlRows(t, s, sql, str("1"), str("c"), str("9")), "|")
	if want := "1\t1\tNULL\tNULL\tNULL\tNULL\t9|3\t1\tNULL\tNULL\tNULL\tNULL\t9"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
}

// TestBindDeleteErrors checks errors by SQLSTATE, with PostgreSQL 15's
// messages where it has the same error.
func TestBindDeleteErrors(t *testing.T) {
	s := newDMLSession(t)
	run(t, s, "CREATE VIEW tv AS SELECT * FROM t")
	cases := []struct{ sql, code, msg string }{
		{"DELETE FROM t WHERE CURRENT OF c", "0A000", "WHERE CURRENT OF is not supported yet"},
		{"DELETE FROM t WHERE count(*) > 1", "42803", "aggregate functions are not allowed in WHERE"},
		{"DELETE FROM t WHERE row_number() over () > 1", "42P20", "window functions are not allowed in WHERE"},
		{"DELETE FROM t WHERE generate_series(1, 2) > 1", "0A000", "set-returning functions are not allowed in WHERE"},
		{"DELETE FROM t WHERE zz.id = 1", "42P01", `missing FROM-clause entry for table "zz"`},
		{"DELETE FROM t AS x WHERE t.id = 1", "42P01", ""},
		{"DELETE FROM t WHERE nope = 1", "42703", `column "nope" does not exist`},
		{"DELETE FROM t WHERE id = 'x'", "22P02", ""},
		{"DELETE FROM t WHERE name", "42804", "argument of WHERE must be type boolean, not type text"},
		{"DELETE FROM nope", "42P01", `relation "nope" does not exist`},
		{"DELETE FROM t USING t", "42712", `table name "t" specified more than once`},
		{"DELETE FROM t a USING u a", "42712", `table name "a" specified more than once`},
		{"DELETE FROM t RETURNING count(*)", "42803", "aggregate functions are not allowed in RETURNING"},
		{"DELETE FROM t RETURNING row_number() over ()", "42P20", "window functions are not allowed in RETURNING"},
		{"DELETE FROM t RETURNING generate_series(1, 2)", "0A000", "set-returning functions are not allowed in RETURNING"},
		{"DELETE FROM t RETURNING zz.*", "42P01", `missing FROM-clause entry for table "zz"`},
		{"DELETE FROM tv", "0A000", "DELETE on a view is not supported yet"},
		{"DELETE FROM pg_catalog.pg_class", "0A000", "DELETE on a system catalog is not supported yet"},
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

// dmlConfigs are the table configurations end-to-end tests run in: both
// write modes, format v2 and v3.
var dmlConfigs = []struct{ name, props string }{
	{"v2 copy-on-write", "'format-version'='2'"},
	{"v2 merge-on-read", "'format-version'='2', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read'"},
	{"v3 merge-on-read", "'format-version'='3', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read'"},
	{"v3 copy-on-write", "'format-version'='3'"},
}

// newDMLSessionWith is newDMLSession with t created with the table
// properties props.
func newDMLSessionWith(t *testing.T, props string) *session {
	t.Helper()
	s, _, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE t (id int, name text, v numeric(10,2), d date) USING iceberg TBLPROPERTIES ("+props+")")
	run(t, s, "INSERT INTO t VALUES (1, 'a', 1.5, '2020-01-01'), (2, 'b', 2.5, NULL)")
	run(t, s, "INSERT INTO t VALUES (3, 'c', NULL, '2021-02-02')")
	run(t, s, "CREATE TABLE u (id int, x text)")
	run(t, s, "INSERT INTO u VALUES (1, 'x'), (1, 'y'), (3, 'z')")
	return s
}

// dmlScript runs statements through the session and compares each one's
// output (RETURNING rows sorted, then the tag) with PostgreSQL 15's for
// the same statements on the same data.
func dmlScript(t *testing.T, s *session, steps []struct{ sql, want string }) {
	t.Helper()
	for _, st := range steps {
		got := strings.ReplaceAll(queryOutput(t, s, &datadriven.Case{Input: st.sql, Args: []string{"rowsort"}}), "\n", "|")
		if got != st.want {
			t.Errorf("%s:\n got %s\nwant %s", st.sql, got, st.want)
		}
	}
}

// TestDeleteEndToEnd runs DELETEs through the session in each write mode
// and format version and checks RETURNING, the tags and the table after,
// against PostgreSQL's results for the same statements.
func TestDeleteEndToEnd(t *testing.T) {
	for _, cfg := range dmlConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			s := newDMLSessionWith(t, cfg.props)
			dmlScript(t, s, []struct{ sql, want string }{
				{"DELETE FROM t WHERE id = 2 RETURNING *", "id:integer\tname:text\tv:numeric(10,2)\td:date|2\tb\t2.50\tNULL|DELETE 1"},
				{"DELETE FROM t WHERE id = 999", "DELETE 0"},
				{"INSERT INTO t VALUES (4, 'd', 4, '2022-04-04'), (5, 'e', 5, NULL)", "INSERT 0 2"},
				// Row 1 is reached by two rows of u: deleted once.
				{"DELETE FROM t USING u WHERE t.id = u.id AND u.id = 1 RETURNING t.id", "id:integer|1|DELETE 1"},
				{"DELETE FROM t WHERE id IN (SELECT id + 1 FROM u) OR v > 4.5", "DELETE 2"},
				{"SELECT * FROM t ORDER BY id", "id:integer\tname:text\tv:numeric(10,2)\td:date|3\tc\tNULL\t2021-02-02|SELECT 1"},
				{"DELETE FROM t", "DELETE 1"},
				{"SELECT count(*) FROM t", "count:bigint|0|SELECT 1"},
			})
			// Merge-on-read writes delete files; copy-on-write never does.
			want := fmt.Sprint(strings.Contains(cfg.name, "merge-on-read"))
			if got := queryRows(t, s, `SELECT count(*) > 0 FROM "t$all_files" WHERE content <> 0`); got[0] != want {
				t.Errorf("delete files written: %s, want %s", got[0], want)
			}
		})
	}
}

// TestDMLInTransaction: inside BEGIN ... ROLLBACK, DELETE and UPDATE bind
// against the transaction's own writes (the UPDATE finds the row the
// DELETE left, not the deleted one), and ROLLBACK leaves the table as it
// was.
func TestDMLInTransaction(t *testing.T) {
	s := newDMLSession(t)
	dmlScript(t, s, []struct{ sql, want string }{
		{"BEGIN", "BEGIN"},
		{"DELETE FROM t WHERE id = 1", "DELETE 1"},
		{"UPDATE t SET name = 'in tx' WHERE id <= 2 RETURNING id, name", "id:integer\tname:text|2\tin tx|UPDATE 1"},
		{"SELECT id, name FROM t ORDER BY id", "id:integer\tname:text|2\tin tx|3\tc|SELECT 2"},
		{"ROLLBACK", "ROLLBACK"},
		{"SELECT id, name FROM t ORDER BY id", "id:integer\tname:text|1\ta|2\tb|3\tc|SELECT 3"},
	})
}
