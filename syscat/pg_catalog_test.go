package syscat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgtypes"
)

// catalogSnapshot is a warehouse with a commented schema holding a table
// with an identifier field (its primary key), comments and a default, and a
// view; plus an empty public schema.
func catalogSnapshot(schema string) *Snapshot {
	id := Attribute{Name: "id", Type: pgtypes.Int8, Typmod: -1, NotNull: true, Comment: "order number"}
	status := Attribute{Name: "status", Type: pgtypes.Varchar, Typmod: 20 + 4, Default: "'new'::character varying"}
	amount := Attribute{Name: "amount", Type: pgtypes.Numeric, Typmod: pgtypes.NumericTypmod(12, 2)}
	tags := Attribute{Name: "tags", Type: pgtypes.TextArray, Typmod: -1}
	orders := &Relation{Namespace: schema, Name: "orders", Kind: 'r', Comment: "customer orders",
		Columns: []Attribute{id, status, amount, tags}, PrimaryKey: []int16{1}, Rows: 42, Bytes: 20000, Files: 2}
	view := &Relation{Namespace: schema, Name: "big_orders", Kind: 'v', Rows: -1, Bytes: -1, Files: -1,
		ViewDef: "SELECT id FROM " + schema + ".orders WHERE amount > 100",
		Reads:   [][2]string{{schema, "orders"}, {schema, "no_such_table"}},
		Columns: []Attribute{{Name: "id", Type: pgtypes.Int8, Typmod: -1}}}
	s := &Snapshot{Database: "warehouse", User: "alice", ServerVersion: PGVersion, SearchPath: []string{"$user", "public"},
		Namespaces: []*Namespace{{Name: schema, Comment: "the sales data"}, {Name: "public"}},
		Relations:  []*Relation{orders, view},
		Settings: []Setting{{Name: "search_path", Setting: `"$user", public`, Context: "user", Vartype: "string",
			Source: "default", BootVal: `"$user", public`, ResetVal: `"$user", public`, Description: "Sets the schema search order."}},
		Session: SessionInfo{PID: 4242, ApplicationName: "psql", ClientAddr: "127.0.0.1", ClientPort: 50000,
			BackendStart: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Query: "SELECT 1"},
	}
	s.Index()
	return s
}

// catalogRows computes pg_catalog.name's rows from s as maps from column
// name to value, keeping those whose column where (if any) equals value.
func catalogRows(t *testing.T, s *Snapshot, name, where string, value any) []map[string]any {
	t.Helper()
	tab := Lookup("pg_catalog", name)
	if tab == nil {
		t.Fatalf("pg_catalog.%s is not registered", name)
	}
	rows, err := tab.Rows(context.Background(), s)
	if err != nil {
		t.Fatalf("pg_catalog.%s: %v", name, err)
	}
	var out []map[string]any
	for _, r := range rows {
		m := map[string]any{}
		for i, c := range tab.Columns {
			m[c.Name] = r[i]
		}
		if where == "" || fmt.Sprint(m[where]) == fmt.Sprint(value) {
			out = append(out, m)
		}
	}
	return out
}

func TestCatalogRelationRows(t *testing.T) {
	s := catalogSnapshot("sales")
	orders := s.Relation("sales", "orders")
	view := s.Relation("sales", "big_orders")
	salesOID := s.Namespace("sales").OID
	idx := PrimaryKeyIndexOID(orders)
	tests := []struct {
		rel, where string
		value      any
		want       map[string]any // expected values (fmt.Sprint) of the one matching row
	}{
		{"pg_namespace", "nspname", "sales", map[string]any{"oid": salesOID, "nspowner": uint32(10), "nspacl": nil}},
		{"pg_namespace", "nspname", "pg_catalog", map[string]any{"oid": uint32(11)}},
		{"pg_class", "relname", "orders", map[string]any{"relkind": "r", "relnatts": int16(4), "relhasindex": true,
			"relnamespace": salesOID, "reltuples": float32(42), "relpages": int32(3), "relam": uint32(2)}},
		{"pg_class", "relname", "orders_pkey", map[string]any{"oid": idx, "relkind": "i", "relnatts": int16(1), "relam": uint32(403)}},
		{"pg_class", "relname", "big_orders", map[string]any{"relkind": "v", "relhasrules": true, "relam": uint32(0)}},
		{"pg_class", "relname", "pg_proc", map[string]any{"oid": uint32(1255), "relkind": "r", "relnatts": int16(30), "relnamespace": uint32(11)}},
		{"pg_class", "relname", "pg_tables", map[string]any{"oid": uint32(12033), "relkind": "v", "relnatts": int16(8)}},
		{"pg_attribute", "attname", "status", map[string]any{"attrelid": orders.OID, "attnum": int16(2),
			"atttypid": pgtypes.Varchar, "atttypmod": int32(24), "atthasdef": true, "attcollation": uint32(100), "attlen": int16(-1)}},
		{"pg_attribute", "attname", "tags", map[string]any{"attndims": int32(1), "attstorage": "x", "attalign": "i"}},
		{"pg_index", "indrelid", orders.OID, map[string]any{"indexrelid": idx, "indisprimary": true, "indisunique": true,
			"indkey": []int16{1}, "indnatts": int16(1), "indclass": []uint32{3124}, "indcollation": []uint32{0}}},
		{"pg_constraint", "conrelid", orders.OID, map[string]any{"conname": "orders_pkey", "contype": "p",
			"conkey": []int16{1}, "conindid": idx, "connamespace": salesOID, "oid": PrimaryKeyConstraintOID(orders)}},
		{"pg_indexes", "tablename", "orders", map[string]any{"indexdef": "CREATE UNIQUE INDEX orders_pkey ON sales.orders USING btree (id)"}},
		{"pg_attrdef", "adrelid", orders.OID, map[string]any{"adnum": int16(2), "adbin": "'new'::character varying"}},
		{"pg_description", "description", "customer orders", map[string]any{"objoid": orders.OID, "classoid": uint32(1259), "objsubid": int32(0)}},
		{"pg_description", "description", "order number", map[string]any{"objoid": orders.OID, "objsubid": int32(1)}},
		{"pg_description", "description", "the sales data", map[string]any{"objoid": salesOID, "classoid": uint32(2615)}},
		{"pg_description", "description", "sum as bigint across all integer input values", map[string]any{"objoid": uint32(2108)}},
		{"pg_database", "", nil, map[string]any{"oid": DatabaseOID, "datname": "warehouse", "encoding": int32(6),
			"datcollate": "C.UTF-8", "datallowconn": true, "datdba": uint32(10)}},
		{"pg_roles", "oid", uint32(10), map[string]any{"rolname": "alice", "rolsuper": true, "rolcanlogin": true}},
		{"pg_roles", "oid", uint32(6171), map[string]any{"rolname": "pg_database_owner", "rolsuper": false, "rolcanlogin": false}},
		// As in PostgreSQL 15: pg_database_owner owns public and everyone
		// may use it (pg_dump then writes no GRANT or REVOKE).
		{"pg_namespace", "nspname", "public", map[string]any{"nspowner": uint32(6171),
			"nspacl": []string{"pg_database_owner=UC/pg_database_owner", "=U/pg_database_owner"}}},
		{"pg_namespace", "nspname", "pg_catalog", map[string]any{"nspowner": uint32(10), "nspacl": nil}},
		{"pg_namespace", "nspname", "sales", map[string]any{"nspowner": uint32(10), "nspacl": nil}},
		{"pg_user", "", nil, map[string]any{"usename": "alice", "usesysid": uint32(10)}},
		{"pg_tablespace", "spcname", "pg_default", map[string]any{"oid": uint32(1663)}},
		{"pg_settings", "name", "search_path", map[string]any{"setting": `"$user", public`, "context": "user", "pending_restart": false}},
		{"pg_stat_activity", "", nil, map[string]any{"pid": int32(4242), "datname": "warehouse", "usename": "alice",
			"application_name": "psql", "client_port": int32(50000), "state": "active", "query": "SELECT 1"}},
		{"pg_stat_user_tables", "", nil, map[string]any{"relname": "orders", "n_live_tup": int64(42), "seq_scan": int64(0)}},
		{"pg_stat_all_tables", "relname", "pg_class", map[string]any{"schemaname": "pg_catalog", "n_live_tup": int64(0)}},
		{"pg_stat_user_indexes", "", nil, map[string]any{"relid": orders.OID, "indexrelid": idx, "indexrelname": "orders_pkey", "idx_scan": int64(0)}},
		{"pg_statio_user_tables", "", nil, map[string]any{"relname": "orders", "heap_blks_read": int64(0), "toast_blks_read": nil}},
		{"pg_stat_database", "", nil, map[string]any{"datid": DatabaseOID, "datname": "warehouse", "numbackends": int32(1), "xact_commit": int64(0)}},
		{"pg_aggregate", "aggfnoid", uint32(2108), map[string]any{"aggtransfn": uint32(1841), "aggtranstype": uint32(20), "aggkind": "n"}},
		{"pg_tables", "tablename", "orders", map[string]any{"schemaname": "sales", "tableowner": "alice", "hasindexes": true}},
		{"pg_tables", "tablename", "pg_type", map[string]any{"schemaname": "pg_catalog"}},
		{"pg_views", "viewname", "big_orders", map[string]any{"schemaname": "sales", "definition": view.ViewDef}},
		{"pg_depend", "refobjid", PrimaryKeyConstraintOID(orders), map[string]any{"objid": idx, "deptype": "i"}},
		// A view is its _RETURN rule, which depends on what the view reads.
		{"pg_rewrite", "ev_class", view.OID, map[string]any{"oid": RuleOID(view), "rulename": "_RETURN", "ev_type": "1", "is_instead": true}},
		{"pg_depend", "refobjid", view.OID, map[string]any{"classid": uint32(2618), "objid": RuleOID(view), "deptype": "i"}},
		{"pg_depend", "deptype", "n", map[string]any{"classid": uint32(2618), "objid": RuleOID(view), "refclassid": uint32(1259), "refobjid": orders.OID}},
		{"pg_type", "typname", "int4", map[string]any{"oid": uint32(23), "typlen": int16(4), "typbyval": true,
			"typinput": uint32(42), "typoutput": uint32(43), "typreceive": uint32(2406), "typsend": uint32(2407),
			"typarray": uint32(1007), "typcategory": "N", "typalign": "i", "typnamespace": uint32(11)}},
		{"pg_type", "typname", "_text", map[string]any{"oid": uint32(1009), "typelem": uint32(25), "typcategory": "A",
			"typcollation": uint32(100), "typreceive": uint32(2400), "typsubscript": uint32(6179)}},
		{"pg_type", "typname", "int4range", map[string]any{"oid": uint32(3904), "typtype": "r"}},
		{"pg_proc", "oid", uint32(870), map[string]any{"proname": "lower", "prorettype": uint32(25),
			"proargtypes": []uint32{25}, "prokind": "f", "proretset": false, "pronargs": int16(1), "prolang": uint32(12)}},
		{"pg_proc", "oid", uint32(2108), map[string]any{"proname": "sum", "prokind": "a", "prorettype": uint32(20)}},
		{"pg_operator", "oid", uint32(96), map[string]any{"oprname": "=", "oprleft": uint32(23), "oprright": uint32(23),
			"oprcode": uint32(65), "oprresult": uint32(16)}},
		{"pg_range", "rngtypid", uint32(3904), map[string]any{"rngsubtype": uint32(23), "rngmultitypid": uint32(4451)}},
		{"pg_am", "amname", "btree", map[string]any{"oid": uint32(403), "amtype": "i"}},
		{"pg_collation", "collname", "C", map[string]any{"oid": uint32(950), "collprovider": "c"}},
		{"pg_language", "lanname", "sql", map[string]any{"oid": uint32(14)}},
		{"pg_opclass", "oid", uint32(3124), map[string]any{"opcname": "int8_ops", "opcintype": uint32(20)}},
		{"pg_cast", "oid", uint32(10001), map[string]any{"castsource": uint32(20), "casttarget": uint32(23)}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%v", tc.rel, tc.value), func(t *testing.T) {
			rows := catalogRows(t, s, tc.rel, tc.where, tc.value)
			if len(rows) != 1 {
				t.Fatalf("%d rows where %s = %v, want 1: %v", len(rows), tc.where, tc.value, rows)
			}
			for col, want := range tc.want {
				got, ok := rows[0][col]
				if !ok {
					t.Errorf("no column %s", col)
					continue
				}
				if fmt.Sprintf("%T %v", got, got) != fmt.Sprintf("%T %v", want, want) {
					t.Errorf("%s = %T %v, want %T %v", col, got, got, want, want)
				}
			}
		})
	}
}

// TestFillsNameRelations checks every fill computes a registered relation,
// and every built-in row set belongs to one.
func TestFillsNameRelations(t *testing.T) {
	for name := range pgFills() {
		if Lookup("pg_catalog", name) == nil {
			t.Errorf("a fill computes pg_catalog.%s, which is not registered", name)
		}
	}
	for name := range builtinRows {
		if Lookup("pg_catalog", name) == nil {
			t.Errorf("built-in rows for pg_catalog.%s, which is not registered", name)
		}
	}
}

// TestEmptyRelations checks the relations of objects icegate does not have
// list no rows.
func TestEmptyRelations(t *testing.T) {
	s := catalogSnapshot("sales")
	for _, name := range []string{"pg_inherits", "pg_enum", "pg_extension", "pg_trigger",
		"pg_sequence", "pg_sequences", "pg_policy", "pg_publication", "pg_statistic_ext", "pg_partitioned_table",
		"pg_foreign_table", "pg_event_trigger", "pg_matviews", "pg_stats", "pg_locks", "pg_available_extensions",
		"pg_shdescription", "pg_auth_members"} {
		if rows := catalogRows(t, s, name, "", nil); len(rows) != 0 {
			t.Errorf("pg_catalog.%s: %d rows, want none", name, len(rows))
		}
	}
}

// TestEveryRelationBatches computes every catalog relation as an Arrow
// batch (each value fits its column's Arrow type) and checks that NOT NULL
// columns hold no NULL.
func TestEveryRelationBatches(t *testing.T) {
	s := catalogSnapshot("sales")
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tab := range Tables() {
		if tab.Schema != "pg_catalog" {
			continue
		}
		b, err := tab.Batch(context.Background(), mem, s)
		if err != nil {
			t.Errorf("%s: %v", tab.Name, err)
			continue
		}
		for i, c := range tab.Columns {
			if c.NotNull && b.Column(i).NullN() > 0 {
				t.Errorf("%s.%s is NOT NULL but has %d NULLs", tab.Name, c.Name, b.Column(i).NullN())
			}
		}
		b.Release()
	}
}

// TestBuiltinReferences checks that every function the built-in rows name
// is in pg_proc, and the lookups the catalog functions use.
func TestBuiltinReferences(t *testing.T) {
	refs := map[string][]string{
		"pg_type":     {"typinput", "typoutput", "typreceive", "typsend", "typmodin", "typmodout", "typanalyze", "typsubscript"},
		"pg_operator": {"oprcode", "oprrest", "oprjoin"},
		"pg_range":    {"rngcanonical", "rngsubdiff"},
		"pg_am":       {"amhandler"},
		"pg_cast":     {"castfunc"},
	}
	for rel, cols := range refs {
		c := builtinColumns(rel)
		for _, r := range builtinRows[rel] {
			for _, col := range cols {
				if oid := c.oid(r, col); oid != 0 && ProcByOID(oid) == nil {
					t.Errorf("%s.%s names function %d, which pg_proc does not list", rel, col, oid)
				}
			}
		}
	}
	for _, ty := range BuiltinTypes() {
		if ty.Array != 0 && TypeByOID(ty.Array) == nil {
			t.Errorf("type %s: array type %d missing", ty.Name, ty.Array)
		}
	}
	if ty := TypeByName("varchar"); ty == nil || ty.OID != 1043 || ty.Input != "varcharin" || ty.Category != 'S' || ty.Collation != 100 {
		t.Errorf("TypeByName(varchar) = %+v", ty)
	}
	if ty := TypeByOID(1007); ty == nil || ty.Name != "_int4" || ty.Elem != 23 || ty.Input != "array_in" {
		t.Errorf("TypeByOID(1007) = %+v", ty)
	}
	if p := ProcByOID(2400); p == nil || p.Name != "array_recv" {
		t.Errorf("ProcByOID(2400) = %+v", p)
	}
	for _, name := range []string{"lower", "upper", "length", "substr", "round", "date_trunc", "now", "coalesce_missing"} {
		ps := ProcsByName(name)
		if name == "coalesce_missing" {
			if ps != nil {
				t.Errorf("ProcsByName(%s) = %v, want nil", name, ps)
			}
			continue
		}
		if len(ps) == 0 {
			t.Errorf("ProcsByName(%s): none", name)
		}
		for _, p := range ps {
			if len(p.ArgTypes) != int(builtinColumns("pg_proc").int16(builtinRowOf(p.OID), "pronargs")) {
				t.Errorf("%s(%d): %d argument types, pronargs disagrees", name, p.OID, len(p.ArgTypes))
			}
		}
	}
	srf := ProcsByName("generate_series")
	if !slices.ContainsFunc(srf, func(p *ProcInfo) bool { return p.RetSet && slices.Equal(p.ArgTypes, []uint32{23, 23}) }) {
		t.Errorf("generate_series(int4, int4) missing or not set-returning: %v", srf)
	}
}

func builtinRowOf(oid uint32) []any {
	c := builtinColumns("pg_proc")
	for _, r := range builtinRows["pg_proc"] {
		if c.oid(r, "oid") == oid {
			return r
		}
	}
	return nil
}

func TestQuoteIdent(t *testing.T) {
	for in, want := range map[string]string{
		"orders": "orders", "Orders": `"Orders"`, "order": `"order"`, "a b": `"a b"`, `x"y`: `"x""y"`,
		"_x1": "_x1", "1x": `"1x"`, "a$": `"a$"`, "": `""`, "user": `"user"`, "name": "name",
	} {
		if got := QuoteIdent(in); got != want {
			t.Errorf("QuoteIdent(%q) = %s, want %s", in, got, want)
		}
	}
	r := &Relation{Namespace: "Sales", Name: "t", Columns: []Attribute{{Name: "a"}, {Name: "Key"}}, PrimaryKey: []int16{2, 1},
		Indexes: []Index{{Name: "t_a_idx", Columns: []int16{1, 2}, Method: "hash", Desc: []bool{true, false}, NullsFirst: []bool{false, true}}}}
	all := r.AllIndexes()
	if got := IndexDefOf(r, all[0], `"Sales".t`); got != `CREATE UNIQUE INDEX t_pkey ON "Sales".t USING btree ("Key", a)` {
		t.Errorf("IndexDefOf(primary key) = %s", got)
	}
	if got := IndexDefOf(r, all[1], `"Sales".t`); got != `CREATE INDEX t_a_idx ON "Sales".t USING hash (a DESC NULLS LAST, "Key" NULLS FIRST)` {
		t.Errorf("IndexDefOf(kept index) = %s", got)
	}
	if IndexOID(r, all[0]) == IndexOID(r, all[1]) || IndexAM(all[1]) != 405 {
		t.Errorf("index OIDs or access method wrong")
	}
	if !strings.HasPrefix(ConstraintDef(&Relation{Columns: []Attribute{{Name: "id"}}, PrimaryKey: []int16{1}}), "PRIMARY KEY (id)") {
		t.Errorf("ConstraintDef wrong")
	}
}

func TestDescription(t *testing.T) {
	s := catalogSnapshot("sales")
	orders := s.Relation("sales", "orders")
	tests := []struct {
		class, obj uint32
		sub        int32
		want       string
		ok         bool
	}{
		{1259, orders.OID, 0, "customer orders", true},
		{1259, orders.OID, 1, "order number", true},
		{1259, orders.OID, 2, "", false},
		{1259, orders.OID, 9, "", false},
		{2615, s.Namespace("sales").OID, 0, "the sales data", true},
		{2615, PgCatalogOID, 0, "system catalog schema", true},
		{1247, 23, 0, "-2 billion to 2 billion integer, 4-byte storage", true},
		{1255, 870, 0, "lowercase", true},
		{1255, 1, 0, "", false},
	}
	for _, tc := range tests {
		got, ok := s.Description(tc.class, tc.obj, tc.sub)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Description(%d, %d, %d) = %q, %t; want %q, %t", tc.class, tc.obj, tc.sub, got, ok, tc.want, tc.ok)
		}
	}
}

// TestRowWriter checks unset columns get NULL or, when NOT NULL, their
// type's zero value, and a misspelt column fails the relation.
func TestRowWriter(t *testing.T) {
	tab := Lookup("pg_catalog", "pg_index")
	fill := func(_ context.Context, _ *Snapshot, w *rowWriter) error {
		w.add("indexrelid", uint32(7))
		return nil
	}
	rows, err := rowsOf(tab, fill)(context.Background(), catalogSnapshot("sales"))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	for i, c := range tab.Columns {
		m[c.Name] = rows[0][i]
	}
	for col, want := range map[string]any{"indexrelid": uint32(7), "indrelid": uint32(0), "indnatts": int16(0),
		"indisunique": false, "indkey": []int16{}, "indclass": []uint32{}, "indexprs": nil} {
		if fmt.Sprintf("%T %v", m[col], m[col]) != fmt.Sprintf("%T %v", want, want) {
			t.Errorf("%s = %T %v, want %T %v", col, m[col], m[col], want, want)
		}
	}
	bad := func(_ context.Context, _ *Snapshot, w *rowWriter) error {
		w.add("indexrelid", uint32(7), "indisprimry", true)
		return nil
	}
	if _, err := rowsOf(tab, bad)(context.Background(), catalogSnapshot("sales")); err == nil || !strings.Contains(err.Error(), "indisprimry") {
		t.Errorf("misspelt column: err = %v, want one naming it", err)
	}
}
