package syscat

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestPgCatalogShapesMatchPostgres compares every registered pg_catalog
// relation's OID, relkind and columns (names, type OIDs, attnotnull, in
// order) with the reference PostgreSQL 15's, so the definitions cannot
// drift from it.
func TestPgCatalogShapesMatchPostgres(t *testing.T) {
	url := os.Getenv("ICEGATE_TEST_PG")
	if url == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL 15 server URL to compare the catalog's shapes")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to %s: %v", url, err)
	}
	defer conn.Close(ctx)
	var version string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(version, "15") {
		t.Skipf("the reference server runs PostgreSQL %s; the catalog is PostgreSQL 15's", version)
	}
	n := 0
	for _, tab := range Tables() {
		if tab.Schema != "pg_catalog" {
			continue
		}
		if icegateRelation(tab.Name) {
			// icegate's own: PostgreSQL has no relation of its name or OID.
			var clash int
			if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_catalog.pg_class WHERE oid = $1 OR (relnamespace = 11 AND relname = $2)`,
				int64(tab.OID), tab.Name).Scan(&clash); err != nil || clash != 0 {
				t.Errorf("%s (OID %d): PostgreSQL has a relation of that name or OID (%d, %v)", tab.Name, tab.OID, clash, err)
			}
			continue
		}
		n++
		var oid int64
		var kind string
		err := conn.QueryRow(ctx, `SELECT c.oid::int8, c.relkind::text FROM pg_catalog.pg_class c
			WHERE c.relnamespace = 11 AND c.relname = $1`, tab.Name).Scan(&oid, &kind)
		if err != nil {
			t.Errorf("%s: %v", tab.Name, err)
			continue
		}
		if uint32(oid) != tab.OID || kind != string(tab.Kind) {
			t.Errorf("%s: OID %d relkind %s, PostgreSQL has %d %s", tab.Name, tab.OID, string(tab.Kind), oid, kind)
		}
		rows, err := conn.Query(ctx, `SELECT attname::text, atttypid::int8, attnotnull FROM pg_catalog.pg_attribute
			WHERE attrelid = $1::int8::oid AND attnum > 0 AND NOT attisdropped ORDER BY attnum`, oid)
		if err != nil {
			t.Fatalf("%s: %v", tab.Name, err)
		}
		var want []string
		for rows.Next() {
			var name string
			var typ int64
			var notNull bool
			if err := rows.Scan(&name, &typ, &notNull); err != nil {
				t.Fatalf("%s: %v", tab.Name, err)
			}
			want = append(want, fmt.Sprintf("%s %d %t", name, typ, notNull))
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", tab.Name, err)
		}
		var got []string
		for _, c := range tab.Columns {
			got = append(got, fmt.Sprintf("%s %d %t", c.Name, c.Type, c.NotNull))
		}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("%s columns:\n got  %s\n want %s", tab.Name, strings.Join(got, ", "), strings.Join(want, ", "))
		}
	}
	if n < 50 {
		t.Errorf("%d pg_catalog relations registered, want at least 50", n)
	}
}

// TestPgCatalogRowsMatchPostgres creates, on the reference server, the
// objects catalogSnapshot describes (a schema with a comment, a table with a
// primary key, column comments and a default, a view) and compares the rows
// icegate computes for them with PostgreSQL's, column by column (OIDs and
// owners aside, which differ by design).
func TestPgCatalogRowsMatchPostgres(t *testing.T) {
	url := os.Getenv("ICEGATE_TEST_PG")
	if url == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL 15 server URL to compare the catalog's rows")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to %s: %v", url, err)
	}
	defer conn.Close(ctx)
	// A schema of its own: other packages' tests share the server.
	const schema = "syscat_pg_catalog"
	setup := []string{
		"DROP SCHEMA IF EXISTS syscat_pg_catalog CASCADE",
		"CREATE SCHEMA syscat_pg_catalog",
		"COMMENT ON SCHEMA syscat_pg_catalog IS 'the sales data'",
		"CREATE TABLE syscat_pg_catalog.orders (id bigint PRIMARY KEY, status varchar(20) DEFAULT 'new', amount numeric(12,2), tags text[])",
		"COMMENT ON TABLE syscat_pg_catalog.orders IS 'customer orders'",
		"COMMENT ON COLUMN syscat_pg_catalog.orders.id IS 'order number'",
		"CREATE VIEW syscat_pg_catalog.big_orders AS SELECT id FROM syscat_pg_catalog.orders WHERE amount > 100",
	}
	for _, q := range setup {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	defer conn.Exec(ctx, "DROP SCHEMA IF EXISTS syscat_pg_catalog CASCADE")

	s := catalogSnapshot(schema)
	orders := s.Relation(schema, "orders")
	view := s.Relation(schema, "big_orders")
	idx := PrimaryKeyIndexOID(orders)
	ourName := map[uint32]string{orders.OID: "orders", view.OID: "big_orders", idx: "orders_pkey"}
	tests := []struct {
		rel  string
		keep func(m map[string]any) bool // our rows to compare
		cols []string
		pg   string // PostgreSQL's rows: the same columns as text, in the same order
	}{
		{"pg_class", func(m map[string]any) bool { return ourName[asOID(m["oid"])] != "" },
			[]string{"relname", "relkind", "relnatts", "relhasindex", "relpersistence", "relhasrules", "relreplident",
				"relispopulated", "relchecks", "relhastriggers", "relhassubclass", "relrowsecurity", "relispartition", "relam"},
			`SELECT relname, relkind, relnatts, relhasindex, relpersistence, relhasrules, relreplident, relispopulated,
				relchecks, relhastriggers, relhassubclass, relrowsecurity, relispartition, relam
			 FROM pg_class WHERE relnamespace = 'syscat_pg_catalog'::regnamespace`},
		{"pg_attribute", func(m map[string]any) bool { return ourName[asOID(m["attrelid"])] != "" },
			[]string{"attrelid", "attname", "atttypid", "attstattarget", "attlen", "attnum", "attndims", "attcacheoff",
				"atttypmod", "attbyval", "attalign", "attstorage", "attcompression", "attnotnull", "atthasdef",
				"atthasmissing", "attidentity", "attgenerated", "attisdropped", "attislocal", "attinhcount", "attcollation"},
			`SELECT attrelid::regclass::text, attname, atttypid, attstattarget, attlen, attnum, attndims, attcacheoff,
				atttypmod, attbyval, attalign, attstorage, attcompression, attnotnull, atthasdef, atthasmissing,
				attidentity, attgenerated, attisdropped, attislocal, attinhcount, attcollation
			 FROM pg_attribute WHERE attrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'syscat_pg_catalog'::regnamespace) AND attnum > 0`},
		{"pg_index", func(m map[string]any) bool { return asOID(m["indrelid"]) == orders.OID },
			[]string{"indexrelid", "indrelid", "indnatts", "indnkeyatts", "indisunique", "indnullsnotdistinct", "indisprimary",
				"indisexclusion", "indimmediate", "indisclustered", "indisvalid", "indcheckxmin", "indisready", "indislive",
				"indisreplident", "indkey", "indcollation", "indclass", "indoption", "indexprs", "indpred"},
			`SELECT indexrelid::regclass::text, indrelid::regclass::text, indnatts, indnkeyatts, indisunique, indnullsnotdistinct,
				indisprimary, indisexclusion, indimmediate, indisclustered, indisvalid, indcheckxmin, indisready, indislive,
				indisreplident, indkey, indcollation, indclass, indoption, indexprs, indpred
			 FROM pg_index WHERE indrelid = 'syscat_pg_catalog.orders'::regclass`},
		{"pg_constraint", func(m map[string]any) bool { return asOID(m["conrelid"]) == orders.OID },
			[]string{"conname", "contype", "condeferrable", "condeferred", "convalidated", "conrelid", "contypid", "conindid",
				"conparentid", "confrelid", "confupdtype", "confdeltype", "confmatchtype", "conislocal", "coninhcount",
				"connoinherit", "conkey", "confkey", "conpfeqop", "conppeqop", "conffeqop", "confdelsetcols", "conexclop", "conbin"},
			`SELECT conname, contype, condeferrable, condeferred, convalidated, conrelid::regclass::text, contypid,
				conindid::regclass::text, conparentid, confrelid, confupdtype, confdeltype, confmatchtype, conislocal,
				coninhcount, connoinherit, conkey, confkey, conpfeqop, conppeqop, conffeqop, confdelsetcols, conexclop, conbin
			 FROM pg_constraint WHERE conrelid = 'syscat_pg_catalog.orders'::regclass`},
		{"pg_attrdef", func(m map[string]any) bool { return asOID(m["adrelid"]) == orders.OID },
			[]string{"adrelid", "adnum", "adbin"},
			`SELECT adrelid::regclass::text, adnum, pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'syscat_pg_catalog.orders'::regclass`},
		{"pg_description", func(m map[string]any) bool { return ourName[asOID(m["objoid"])] != "" },
			[]string{"objoid", "classoid", "objsubid", "description"},
			`SELECT objoid::regclass::text, classoid, objsubid, description FROM pg_description
			 WHERE classoid = 1259 AND objoid IN (SELECT oid FROM pg_class WHERE relnamespace = 'syscat_pg_catalog'::regnamespace)`},
		{"pg_indexes", func(m map[string]any) bool { return m["schemaname"] == schema },
			[]string{"schemaname", "tablename", "indexname", "tablespace", "indexdef"},
			`SELECT schemaname, tablename, indexname, tablespace, indexdef FROM pg_indexes WHERE schemaname = 'syscat_pg_catalog'`},
		{"pg_tables", func(m map[string]any) bool { return m["schemaname"] == schema },
			[]string{"schemaname", "tablename", "tablespace", "hasindexes", "hasrules", "hastriggers", "rowsecurity"},
			`SELECT schemaname, tablename, tablespace, hasindexes, hasrules, hastriggers, rowsecurity FROM pg_tables WHERE schemaname = 'syscat_pg_catalog'`},
		{"pg_depend", func(m map[string]any) bool {
			return ourName[asOID(m["objid"])] != "" || asOID(m["objid"]) == PrimaryKeyConstraintOID(orders)
		},
			[]string{"classid", "objsubid", "refclassid", "refobjsubid", "deptype"},
			`SELECT classid, objsubid, refclassid, refobjsubid, deptype FROM pg_depend
			 WHERE objid = 'syscat_pg_catalog.orders_pkey'::regclass OR objid = (SELECT oid FROM pg_constraint WHERE conname = 'orders_pkey' AND connamespace = 'syscat_pg_catalog'::regnamespace)`},
	}
	for _, tc := range tests {
		t.Run(tc.rel, func(t *testing.T) {
			tab := Lookup("pg_catalog", tc.rel)
			types := map[string]uint32{}
			for _, c := range tab.Columns {
				types[c.Name] = c.Type
			}
			var got []string
			for _, m := range catalogRows(t, s, tc.rel, "", nil) {
				if !tc.keep(m) {
					continue
				}
				var vals []string
				for _, c := range tc.cols {
					v := m[c]
					if name := ourName[asOID(v)]; name != "" && isOIDFamily(types[c]) {
						v = schema + "." + name
					}
					vals = append(vals, pgText(types[c], v))
				}
				got = append(got, strings.Join(vals, " | "))
			}
			rows, err := conn.Query(ctx, tc.pg, pgx.QueryExecModeSimpleProtocol)
			if err != nil {
				t.Fatalf("%s: %v", tc.pg, err)
			}
			var want []string
			for rows.Next() {
				raw := rows.RawValues()
				vals := make([]string, len(raw))
				for i, b := range raw {
					if b == nil {
						vals[i] = "NULL"
					} else {
						vals[i] = string(b)
					}
				}
				want = append(want, strings.Join(vals, " | "))
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("rows differ:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
			}
		})
	}
}

func asOID(v any) uint32 {
	x, _ := v.(uint32)
	return x
}

// pgText renders a row value as PostgreSQL's text output of a column of
// type typ.
func pgText(typ uint32, v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		if x {
			return "t"
		}
		return "f"
	case []int16:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = fmt.Sprint(e)
		}
		if typ == tInt2Vector {
			return strings.Join(parts, " ")
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []uint32:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = fmt.Sprint(e)
		}
		if typ == tOIDVector {
			return strings.Join(parts, " ")
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprint(v)
}
