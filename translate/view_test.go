package translate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/viewexec"
)

// runOK runs SQL statements and fails the test on an error.
func runOK(t *testing.T, s *session, sql string) {
	t.Helper()
	if out := statementOutput(s, sql); strings.Contains(out, "error (") {
		t.Fatalf("%s:\n%s", sql, out)
	}
}

// TestLookupView resolves view names the way the binder will: temporary
// views first for unqualified names, then search_path and the namespaces of
// the catalog; it also checks the stored query text and default namespace.
func TestLookupView(t *testing.T) {
	ctx := context.Background()
	s, cat, _ := newWriteSession(t)
	runOK(t, s, `CREATE SCHEMA sales;
CREATE TABLE sales.orders (id bigint, amount numeric(10,2));
CREATE VIEW sales.big (order_id) AS
  SELECT id, amount FROM sales.orders WHERE amount > 10 -- the big ones
  ;
CREATE TEMP VIEW recent AS SELECT id FROM sales.orders /* all of them */;`)

	// A view made by another engine, in its dialect only, with a mixed-case
	// name.
	spark, err := catalog.NewViewMetadata(catalog.ViewSpec{
		Schema:           &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "n", Type: &catalog.PrimitiveType{ID: catalog.TLong}}}},
		SQL:              "SELECT count(1) AS n FROM orders",
		Dialect:          "spark",
		DefaultNamespace: []string{"sales"},
	}, "", "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.CreateView(ctx, catalog.Identifier{Namespace: []string{"sales"}, Name: "OrderCount"}, spark, false); err != nil {
		t.Fatal(err)
	}

	bigSQL := "SELECT id, amount FROM sales.orders WHERE amount > 10"
	cases := []struct {
		name      []string // catalog, schema, table as written
		sql       string
		defaultNS []string
		found     bool
		code      string
	}{
		{name: []string{"", "", "big"}, sql: bigSQL, defaultNS: []string{"sales"}, found: true},
		{name: []string{"", "sales", "big"}, sql: bigSQL, defaultNS: []string{"sales"}, found: true},
		{name: []string{"icegate", "sales", "big"}, sql: bigSQL, defaultNS: []string{"sales"}, found: true},
		{name: []string{"elsewhere", "sales", "big"}, code: pgerr.FeatureNotSupported},
		{name: []string{"", "", "recent"}, sql: "SELECT id FROM sales.orders", defaultNS: []string{"sales"}, found: true},
		{name: []string{"", "pg_temp", "recent"}, sql: "SELECT id FROM sales.orders", defaultNS: []string{"sales"}, found: true},
		{name: []string{"", "sales", "recent"}},
		{name: []string{"", "pg_temp", "big"}},
		{name: []string{"", "", "orders"}},
		{name: []string{"", "nope", "big"}},
		{name: []string{"", "", "ordercount"}, sql: "SELECT count(1) AS n FROM orders", defaultNS: []string{"sales"}, found: true},
	}
	for _, c := range cases {
		tn := parse.TableName{Catalog: c.name[0], Schema: c.name[1], Name: c.name[2], Written: strings.Trim(strings.Join(c.name, "."), ".")}
		sql, ns, found, err := s.LookupView(ctx, tn)
		if pgerr.Code(err) != c.code && (c.code != "" || err != nil) {
			t.Errorf("%s: error %v, want %s", tn.Written, err, c.code)
			continue
		}
		def, _ := s.ResolveView(ctx, tn)
		stored := ""
		if def != nil {
			stored = def.SQL
			if sql != def.Query() {
				t.Errorf("%s: lookupView gives %q, not the view's query %q", tn.Written, sql, def.Query())
			}
		}
		if stored != c.sql || found != c.found || !slices.Equal(ns, c.defaultNS) {
			t.Errorf("%s: got %q %v %v, want %q %v %v", tn.Written, stored, ns, found, c.sql, c.defaultNS, c.found)
		}
	}

	// The query lookupView gives has the view's columns, named by its
	// column list, and binds as a subquery.
	sql, _, _, _ := s.LookupView(ctx, parse.TableName{Schema: "sales", Name: "big", Written: "sales.big"})
	want := `SELECT "order_id", "amount" FROM (SELECT id, amount FROM sales.orders WHERE amount > 10` + "\n" + `) AS "big" ("order_id", "amount")`
	if sql != want {
		t.Errorf("view query\n%s\nwant\n%s", sql, want)
	}
	stmts, err := s.Prepare(ctx, "SELECT * FROM ("+sql+") AS big", nil)
	if err != nil {
		t.Fatalf("bind the view query: %v", err)
	}
	var names []string
	for _, c := range stmts[0].Columns() {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"order_id", "amount"}) {
		t.Errorf("columns of the view query %v", names)
	}

	// The view's columns are in its metadata: the column list names the
	// first, the query the rest.
	v, err := cat.LoadView(ctx, catalog.Identifier{Namespace: []string{"sales"}, Name: "big"})
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, f := range v.Schema().Fields {
		cols = append(cols, f.Name+" "+f.Type.String())
	}
	if !slices.Equal(cols, []string{"order_id long", "amount decimal(10, 2)"}) {
		t.Errorf("view schema %v", cols)
	}
	if cur := v.Metadata.CurrentVersion(); cur.DefaultCatalog != "icegate" || cur.Summary["engine-name"] != "icegate" {
		t.Errorf("version %+v", cur)
	}

	// With two namespaces, search_path decides where an unqualified name
	// is looked for.
	runOK(t, s, `CREATE SCHEMA hr; CREATE VIEW hr.big AS SELECT 2 AS two`)
	if _, _, found, _ := s.LookupView(ctx, parse.TableName{Name: "big", Written: "big"}); found {
		t.Error("unqualified name found with two namespaces and none on search_path")
	}
	runOK(t, s, `SET search_path = hr, sales`)
	if v, _ := s.ResolveView(ctx, parse.TableName{Name: "big", Written: "big"}); v == nil || v.SQL != "SELECT 2 AS two" || !slices.Equal(v.DefaultNS, []string{"hr"}) {
		t.Errorf("search_path hr: %+v", v)
	}
}

// TestUsesTempView checks which queries make a view temporary: those that
// name a temporary view, unless a WITH item of that name hides it.
func TestUsesTempView(t *testing.T) {
	s, _, _ := newWriteSession(t)
	runOK(t, s, `CREATE TEMP VIEW recent AS SELECT 1 AS id`)
	cases := []struct {
		query string
		want  bool
	}{
		{"SELECT * FROM recent", true},
		{"SELECT * FROM pg_temp.recent", true},
		{"SELECT 1 WHERE EXISTS (SELECT 1 FROM (SELECT * FROM recent) r)", true},
		{"SELECT * FROM public.recent", false},
		{"WITH recent AS (SELECT 2 AS id) SELECT * FROM recent", false},
		{"SELECT * FROM other", false},
	}
	for _, c := range cases {
		stmts, err := hints.ParseChecked(c.query)
		if err != nil {
			t.Fatal(err)
		}
		if got := viewexec.With(s).UsesTemp(stmts[0].Node); got != c.want {
			t.Errorf("%s: %v, want %v", c.query, got, c.want)
		}
	}
}

// TestViewHelpersForTables covers the helpers DROP TABLE and DROP SCHEMA
// use for views.
func TestViewHelpersForTables(t *testing.T) {
	ctx := context.Background()
	s, cat, _ := newWriteSession(t)
	runOK(t, s, `CREATE SCHEMA sales;
CREATE TABLE sales.orders (id bigint);
CREATE VIEW sales.v1 AS SELECT id FROM sales.orders;
CREATE VIEW sales.v2 AS SELECT 1 AS one`)
	err := viewexec.With(s).NotTable(ctx, parse.TableName{Schema: "sales", Name: "v1", Written: "sales.v1"})
	if pe := pgerr.As(err); pe == nil || pe.Code != pgerr.WrongObjectType || pe.Message != `"v1" is not a table` || pe.Hint == "" {
		t.Errorf("view as table: %v", err)
	}
	if err := viewexec.With(s).NotTable(ctx, parse.TableName{Schema: "sales", Name: "orders", Written: "sales.orders"}); err != nil {
		t.Errorf("a table: %v", err)
	}
	n, err := viewexec.With(s).DropIn(ctx, cat, []string{"sales"})
	if err != nil || n != 2 {
		t.Fatalf("dropViewsIn: %d %v", n, err)
	}
	if views, _ := cat.ListViews(ctx, []string{"sales"}); len(views) != 0 {
		t.Errorf("views left %v", views)
	}
	if tables, _ := cat.ListTables(ctx, []string{"sales"}); len(tables) != 1 {
		t.Errorf("tables %v: the table must stay", tables)
	}
}
