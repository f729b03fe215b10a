package syscat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgtypes"
)

// salesSnapshot is a warehouse with one schema holding two tables (one with
// a one-column primary key, a NOT NULL column with a default and a column of
// every type icegate serves, one with a two-column key) and a view: the
// objects the reference PostgreSQL gets in TestInformationSchemaRowsMatchPostgres.
func salesSnapshot(schema string) *Snapshot {
	col := func(name string, typ uint32, typmod int32) Attribute {
		return Attribute{Name: name, Type: typ, Typmod: typmod}
	}
	id := col("id", pgtypes.Int8, -1)
	id.NotNull = true
	qty := col("qty", pgtypes.Int4, -1)
	qty.NotNull, qty.Default = true, "1"
	note := col("note", pgtypes.Text, -1)
	note.Comment = "free text"
	orders := &Relation{Namespace: schema, Name: "orders", Kind: 'r', Comment: "the orders",
		PrimaryKey: []int16{1}, Rows: 0, Bytes: 0, Files: 0,
		Columns: []Attribute{id, qty, col("small", pgtypes.Int2, -1),
			col("price", pgtypes.Numeric, pgtypes.NumericTypmod(10, 2)), note,
			col("code", pgtypes.Varchar, 24), col("vcode", pgtypes.Varchar, -1),
			col("flag", pgtypes.Bool, -1), col("d", pgtypes.Date, -1), col("ts", pgtypes.Timestamp, -1),
			col("tstz", pgtypes.Timestamptz, -1), col("u", pgtypes.UUID, -1), col("b", pgtypes.Bytea, -1),
			col("f8", pgtypes.Float8, -1), col("f4", pgtypes.Float4, -1), col("ints", pgtypes.Int4Array, -1),
			col("n", pgtypes.Numeric, -1), col("t", pgtypes.Time, -1), col("j", pgtypes.JSONB, -1)}}
	orderID := col("order_id", pgtypes.Int8, -1)
	orderID.NotNull = true
	line := col("line", pgtypes.Int4, -1)
	line.NotNull = true
	lines := &Relation{Namespace: schema, Name: "lines", Kind: 'r', PrimaryKey: []int16{1, 2},
		Columns: []Attribute{orderID, line, col("sku", pgtypes.Text, -1)}}
	totals := &Relation{Namespace: schema, Name: "order_totals", Kind: 'v', Comment: "totals",
		ViewDef: "SELECT id, sum(qty) AS total FROM orders GROUP BY id", Rows: -1, Bytes: -1, Files: -1,
		Columns: []Attribute{col("id", pgtypes.Int8, -1), col("total", pgtypes.Int8, -1)}}
	return &Snapshot{Database: "h30", User: "postgres", ServerVersion: "15.18",
		SearchPath: []string{"$user", "public"},
		Namespaces: []*Namespace{{Name: schema}},
		Relations:  []*Relation{orders, lines, totals}}
}

// infoRows computes information_schema.name's rows from s, as text ("NULL"
// for NULL), keeping those whose column where (if any) equals value and
// only the columns listed (all when none).
func infoRows(t *testing.T, s *Snapshot, name, where, value string, cols ...string) [][]string {
	t.Helper()
	tab := Lookup("information_schema", name)
	if tab == nil {
		t.Fatalf("information_schema.%s is not registered", name)
	}
	rows, err := tab.Rows(context.Background(), s)
	if err != nil {
		t.Fatalf("information_schema.%s: %v", name, err)
	}
	index := map[string]int{}
	for i, c := range tab.Columns {
		index[c.Name] = i
	}
	if len(cols) == 0 {
		for _, c := range tab.Columns {
			cols = append(cols, c.Name)
		}
	}
	var out [][]string
	for _, r := range rows {
		if where != "" && fmt.Sprint(r[index[where]]) != value {
			continue
		}
		var line []string
		for _, c := range cols {
			i, ok := index[c]
			if !ok {
				t.Fatalf("information_schema.%s has no column %s", name, c)
			}
			line = append(line, textOf(r[i]))
		}
		out = append(out, line)
	}
	return out
}

func textOf(v any) string {
	if v == nil {
		return "NULL"
	}
	return fmt.Sprint(v)
}

// joinRows renders rows one per line, sorted, for comparison.
func joinRows(rows [][]string) string {
	lines := make([]string, len(rows))
	for i, r := range rows {
		lines[i] = strings.Join(r, "|")
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// The expected rows below are PostgreSQL 15's for the same objects
// (psql against the reference server).
func TestInformationSchemaRows(t *testing.T) {
	s := salesSnapshot("sales")
	s.Index()
	orders, lines := s.Relation("sales", "orders"), s.Relation("sales", "lines")
	nsOID := s.Namespace("sales").OID
	notNull := func(r *Relation, n int) string { return fmt.Sprintf("%d_%d_%d_not_null", nsOID, r.OID, n) }
	tests := []struct {
		name, view, where, value string
		cols                     []string
		want                     []string
	}{
		{name: "columns of every type", view: "columns", where: "table_name", value: "orders",
			cols: []string{"column_name", "ordinal_position", "column_default", "is_nullable", "data_type",
				"character_maximum_length", "character_octet_length", "numeric_precision",
				"numeric_precision_radix", "numeric_scale", "datetime_precision", "udt_name", "dtd_identifier", "is_updatable"},
			want: []string{
				"id|1|NULL|NO|bigint|NULL|NULL|64|2|0|NULL|int8|1|YES",
				"qty|2|1|NO|integer|NULL|NULL|32|2|0|NULL|int4|2|YES",
				"small|3|NULL|YES|smallint|NULL|NULL|16|2|0|NULL|int2|3|YES",
				"price|4|NULL|YES|numeric|NULL|NULL|10|10|2|NULL|numeric|4|YES",
				"note|5|NULL|YES|text|NULL|1073741824|NULL|NULL|NULL|NULL|text|5|YES",
				"code|6|NULL|YES|character varying|20|80|NULL|NULL|NULL|NULL|varchar|6|YES",
				"vcode|7|NULL|YES|character varying|NULL|1073741824|NULL|NULL|NULL|NULL|varchar|7|YES",
				"flag|8|NULL|YES|boolean|NULL|NULL|NULL|NULL|NULL|NULL|bool|8|YES",
				"d|9|NULL|YES|date|NULL|NULL|NULL|NULL|NULL|0|date|9|YES",
				"ts|10|NULL|YES|timestamp without time zone|NULL|NULL|NULL|NULL|NULL|6|timestamp|10|YES",
				"tstz|11|NULL|YES|timestamp with time zone|NULL|NULL|NULL|NULL|NULL|6|timestamptz|11|YES",
				"u|12|NULL|YES|uuid|NULL|NULL|NULL|NULL|NULL|NULL|uuid|12|YES",
				"b|13|NULL|YES|bytea|NULL|NULL|NULL|NULL|NULL|NULL|bytea|13|YES",
				"f8|14|NULL|YES|double precision|NULL|NULL|53|2|NULL|NULL|float8|14|YES",
				"f4|15|NULL|YES|real|NULL|NULL|24|2|NULL|NULL|float4|15|YES",
				"ints|16|NULL|YES|ARRAY|NULL|NULL|NULL|NULL|NULL|NULL|_int4|16|YES",
				"n|17|NULL|YES|numeric|NULL|NULL|NULL|10|NULL|NULL|numeric|17|YES",
				"t|18|NULL|YES|time without time zone|NULL|NULL|NULL|NULL|NULL|6|time|18|YES",
				"j|19|NULL|YES|jsonb|NULL|NULL|NULL|NULL|NULL|NULL|jsonb|19|YES",
			}},
		{name: "view columns are not updatable", view: "columns", where: "table_name", value: "order_totals",
			cols: []string{"column_name", "is_nullable", "data_type", "is_updatable"},
			want: []string{"id|YES|bigint|NO", "total|YES|bigint|NO"}},
		{name: "tables", view: "tables", where: "table_schema", value: "sales",
			cols: []string{"table_catalog", "table_schema", "table_name", "table_type", "is_insertable_into", "is_typed", "commit_action"},
			want: []string{"h30|sales|orders|BASE TABLE|YES|NO|NULL", "h30|sales|lines|BASE TABLE|YES|NO|NULL",
				"h30|sales|order_totals|VIEW|NO|NO|NULL"}},
		{name: "catalog relations in tables", view: "tables", where: "table_name", value: "tables",
			cols: []string{"table_schema", "table_type"}, want: []string{"information_schema|VIEW"}},
		{name: "views", view: "views", where: "table_schema", value: "sales",
			want: []string{"h30|sales|order_totals|SELECT id, sum(qty) AS total FROM orders GROUP BY id|NONE|NO|NO|NO|NO|NO"}},
		{name: "schemata", view: "schemata", where: "", cols: []string{"catalog_name", "schema_name", "schema_owner", "sql_path"},
			want: []string{"h30|information_schema|postgres|NULL", "h30|pg_catalog|postgres|NULL", "h30|sales|postgres|NULL"}},
		{name: "table_constraints", view: "table_constraints", where: "table_schema", value: "sales",
			want: []string{
				"h30|sales|orders_pkey|h30|sales|orders|PRIMARY KEY|NO|NO|YES|NULL",
				"h30|sales|lines_pkey|h30|sales|lines|PRIMARY KEY|NO|NO|YES|NULL",
				"h30|sales|" + notNull(orders, 1) + "|h30|sales|orders|CHECK|NO|NO|YES|NULL",
				"h30|sales|" + notNull(orders, 2) + "|h30|sales|orders|CHECK|NO|NO|YES|NULL",
				"h30|sales|" + notNull(lines, 1) + "|h30|sales|lines|CHECK|NO|NO|YES|NULL",
				"h30|sales|" + notNull(lines, 2) + "|h30|sales|lines|CHECK|NO|NO|YES|NULL",
			}},
		{name: "check_constraints", view: "check_constraints", where: "constraint_schema", value: "sales",
			want: []string{
				"h30|sales|" + notNull(orders, 1) + "|id IS NOT NULL",
				"h30|sales|" + notNull(orders, 2) + "|qty IS NOT NULL",
				"h30|sales|" + notNull(lines, 1) + "|order_id IS NOT NULL",
				"h30|sales|" + notNull(lines, 2) + "|line IS NOT NULL",
			}},
		{name: "key_column_usage", view: "key_column_usage", where: "table_schema", value: "sales",
			want: []string{
				"h30|sales|orders_pkey|h30|sales|orders|id|1|NULL",
				"h30|sales|lines_pkey|h30|sales|lines|order_id|1|NULL",
				"h30|sales|lines_pkey|h30|sales|lines|line|2|NULL",
			}},
		{name: "constraint_column_usage", view: "constraint_column_usage", where: "table_schema", value: "sales",
			want: []string{
				"h30|sales|orders|id|h30|sales|orders_pkey",
				"h30|sales|lines|order_id|h30|sales|lines_pkey",
				"h30|sales|lines|line|h30|sales|lines_pkey",
			}},
		{name: "referential_constraints", view: "referential_constraints"},
		{name: "table_privileges of a table", view: "table_privileges", where: "table_name", value: "orders",
			want: []string{
				"postgres|postgres|h30|sales|orders|DELETE|YES|NO",
				"postgres|postgres|h30|sales|orders|INSERT|YES|NO",
				"postgres|postgres|h30|sales|orders|REFERENCES|YES|NO",
				"postgres|postgres|h30|sales|orders|SELECT|YES|YES",
				"postgres|postgres|h30|sales|orders|TRIGGER|YES|NO",
				"postgres|postgres|h30|sales|orders|TRUNCATE|YES|NO",
				"postgres|postgres|h30|sales|orders|UPDATE|YES|NO",
			}},
		{name: "PUBLIC reads the catalogs", view: "table_privileges", where: "table_name", value: "tables",
			cols: []string{"grantee", "privilege_type", "is_grantable", "with_hierarchy"},
			want: []string{"PUBLIC|SELECT|NO|YES", "postgres|DELETE|YES|NO", "postgres|INSERT|YES|NO",
				"postgres|REFERENCES|YES|NO", "postgres|SELECT|YES|YES", "postgres|TRIGGER|YES|NO",
				"postgres|TRUNCATE|YES|NO", "postgres|UPDATE|YES|NO"}},
		{name: "column_privileges", view: "column_privileges", where: "column_name", value: "ints",
			want: []string{
				"postgres|postgres|h30|sales|orders|ints|INSERT|YES",
				"postgres|postgres|h30|sales|orders|ints|REFERENCES|YES",
				"postgres|postgres|h30|sales|orders|ints|SELECT|YES",
				"postgres|postgres|h30|sales|orders|ints|UPDATE|YES",
			}},
		{name: "element_types", view: "element_types", where: "object_schema", value: "sales",
			cols: []string{"object_catalog", "object_schema", "object_name", "object_type",
				"collection_type_identifier", "data_type", "udt_catalog", "udt_schema", "udt_name", "dtd_identifier"},
			want: []string{"h30|sales|orders|TABLE|16|integer|h30|pg_catalog|int4|a16"}},
		{name: "element_types of a function", view: "element_types", where: "object_name", value: "string_to_array_376",
			want: []string{"h30|pg_catalog|string_to_array_376|ROUTINE|0|text|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|h30|pg_catalog|text|NULL|NULL|NULL|NULL|a0"}},
		{name: "routines", view: "routines", where: "specific_name", value: "string_to_array_376",
			cols: []string{"specific_schema", "routine_name", "routine_type", "data_type", "type_udt_name", "routine_body",
				"routine_definition", "external_language", "is_deterministic", "is_null_call"},
			want: []string{"pg_catalog|string_to_array|FUNCTION|ARRAY|_text|EXTERNAL|text_to_array_null|INTERNAL|YES|NO"}},
		{name: "parameters", view: "parameters", where: "specific_name", value: "string_to_array_376",
			cols: []string{"ordinal_position", "parameter_mode", "parameter_name", "data_type", "udt_name", "dtd_identifier"},
			want: []string{"1|IN|NULL|text|text|1", "2|IN|NULL|text|text|2", "3|IN|NULL|text|text|3"}},
		{name: "enabled_roles", view: "enabled_roles", want: []string{"postgres"}},
		{name: "applicable_roles", view: "applicable_roles"},
		{name: "information_schema_catalog_name", view: "information_schema_catalog_name", want: []string{"h30"}},
		{name: "character_sets", view: "character_sets", want: []string{"NULL|NULL|UTF8|UCS|UTF8|h30|NULL|NULL"}},
		{name: "usage_privileges", view: "usage_privileges", where: "object_name", value: "C",
			want: []string{"postgres|PUBLIC|h30|pg_catalog|C|COLLATION|USAGE|NO"}},
		{name: "sql_implementation_info", view: "sql_implementation_info", where: "implementation_info_id", value: "18",
			want: []string{"18|DBMS VERSION|NULL|15.18.0000|NULL"}},
		{name: "domains", view: "domains"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := joinRows(infoRows(t, s, tt.view, tt.where, tt.value, tt.cols...))
			want := make([][]string, len(tt.want))
			for i, w := range tt.want {
				want[i] = []string{w}
			}
			if w := joinRows(want); got != w {
				t.Errorf("information_schema.%s:\ngot:\n%s\nwant:\n%s", tt.view, got, w)
			}
		})
	}
}

// Every relation's rows turn into a record batch: the Go values fit the
// columns' Arrow types.
func TestInformationSchemaBatches(t *testing.T) {
	s := salesSnapshot("sales")
	s.Index()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tab := range informationSchemaTables() {
		reg := Lookup("information_schema", tab.Name)
		if reg == nil {
			t.Errorf("information_schema.%s is not registered", tab.Name)
			continue
		}
		b, err := reg.Batch(context.Background(), mem, s)
		if err != nil {
			t.Errorf("information_schema.%s: %v", tab.Name, err)
			continue
		}
		if int(b.NumCols()) != len(reg.Columns) {
			t.Errorf("information_schema.%s: %d columns, want %d", tab.Name, b.NumCols(), len(reg.Columns))
		}
		b.Release()
	}
}

// The catalog relations themselves are listed, with their columns as
// PostgreSQL shows the base types of information_schema's domains.
func TestInformationSchemaListsCatalogColumns(t *testing.T) {
	s := salesSnapshot("sales")
	s.Index()
	got := infoRows(t, s, "columns", "table_name", "key_column_usage",
		"table_schema", "column_name", "ordinal_position", "data_type", "udt_name", "collation_name", "is_updatable")
	want := [][]string{
		{"information_schema", "constraint_catalog", "1", "name", "name", "C", "NO"},
		{"information_schema", "constraint_schema", "2", "name", "name", "C", "NO"},
		{"information_schema", "constraint_name", "3", "name", "name", "C", "NO"},
		{"information_schema", "table_catalog", "4", "name", "name", "C", "NO"},
		{"information_schema", "table_schema", "5", "name", "name", "C", "NO"},
		{"information_schema", "table_name", "6", "name", "name", "C", "NO"},
		{"information_schema", "column_name", "7", "name", "name", "C", "NO"},
		{"information_schema", "ordinal_position", "8", "integer", "int4", "NULL", "NO"},
		{"information_schema", "position_in_unique_constraint", "9", "integer", "int4", "NULL", "NO"},
	}
	if joinRows(got) != joinRows(want) {
		t.Errorf("columns of information_schema.key_column_usage:\ngot:\n%s\nwant:\n%s", joinRows(got), joinRows(want))
	}
}

// A row naming a column the relation does not have is an error, not a
// silently shifted row.
func TestRowBuilderUnknownColumn(t *testing.T) {
	tab := &Table{Schema: "information_schema", Name: "x", Columns: []Column{{Name: "a", Type: pgtypes.Name}}}
	rows := namedRows(tab, func(_ context.Context, _ *Snapshot, rb *rowBuilder) error {
		rb.add("a", "1")
		rb.add("b", "2")
		return nil
	})
	_, err := rows(context.Background(), &Snapshot{})
	if err == nil || !strings.Contains(err.Error(), `no column "b"`) {
		t.Fatalf("err = %v, want one naming column b", err)
	}
}

// Every relation that computes rows is one PostgreSQL has.
func TestInformationSchemaRowFuncsNameRelations(t *testing.T) {
	defined := map[string]bool{}
	for _, d := range informationSchemaDefs() {
		if defined[d.Name] {
			t.Errorf("information_schema.%s defined twice", d.Name)
		}
		defined[d.Name] = true
	}
	for name := range informationSchemaRows() {
		if !defined[name] {
			t.Errorf("rows for information_schema.%s, which is not defined", name)
		}
	}
}

func TestDBMSVersion(t *testing.T) {
	for v, want := range map[string]string{"15.18": "15.18.0000", "16.6 (icegate)": "16.06.0000", "": "00.00.0000"} {
		if got := dbmsVersion(v); got != want {
			t.Errorf("dbmsVersion(%q) = %q, want %q", v, got, want)
		}
	}
}

func TestTypeFacts(t *testing.T) {
	tests := []struct {
		oid    uint32
		typmod int32
		want   string
	}{
		{pgtypes.Interval, -1, "interval|interval|NULL|NULL|NULL|NULL|NULL|6|NULL"},
		{pgtypes.Interval, (1<<3|1<<10|1<<11|1<<12)<<16 | 3, "interval|interval|NULL|NULL|NULL|NULL|NULL|3|DAY TO SECOND(3)"},
		{pgtypes.Interval, (1<<2)<<16 | 0xffff, "interval|interval|NULL|NULL|NULL|NULL|NULL|6|YEAR"},
		{pgtypes.Interval, 0x7fff<<16 | 2, "interval|interval|NULL|NULL|NULL|NULL|NULL|2|NULL"},
		{pgtypes.Timestamptz, 3, "timestamp with time zone|timestamptz|NULL|NULL|NULL|NULL|NULL|3|NULL"},
		{pgtypes.BPChar, 7, "character|bpchar|3|12|NULL|NULL|NULL|NULL|NULL"},
		{pgtypes.Int2Vector, -1, "ARRAY|int2vector|NULL|NULL|NULL|NULL|NULL|NULL|NULL"},
		{pgtypes.Name, -1, "name|name|NULL|NULL|NULL|NULL|NULL|NULL|NULL"},
		{pgtypes.Char, -1, "\"char\"|char|NULL|NULL|NULL|NULL|NULL|NULL|NULL"},
		{pgtypes.TextArray, -1, "ARRAY|_text|NULL|NULL|NULL|NULL|NULL|NULL|NULL"},
	}
	for _, tt := range tests {
		f := typeFactsOf(tt.oid, tt.typmod)
		got := strings.Join([]string{f.DataType, f.UDTName, textOf(f.CharMaxLength), textOf(f.CharOctetLength),
			textOf(f.NumericPrecision), textOf(f.NumericRadix), textOf(f.NumericScale),
			textOf(f.DatetimePrecision), textOf(f.IntervalType)}, "|")
		if got != tt.want {
			t.Errorf("typeFactsOf(%d, %d) = %s, want %s", tt.oid, tt.typmod, got, tt.want)
		}
	}
}

// Relations that are not tables or views (an index here) are not listed.
func TestInformationSchemaSkipsIndexes(t *testing.T) {
	s := salesSnapshot("sales")
	s.Relations = append(s.Relations, &Relation{Namespace: "sales", Name: "orders_idx", Kind: 'i',
		Columns: []Attribute{{Name: "id", Type: pgtypes.Int8, Typmod: -1}}})
	s.Index()
	for _, view := range []string{"tables", "columns", "table_privileges", "column_privileges", "column_udt_usage"} {
		if rows := infoRows(t, s, view, "table_name", "orders_idx"); len(rows) != 0 {
			t.Errorf("information_schema.%s lists the index: %v", view, rows)
		}
	}
}
