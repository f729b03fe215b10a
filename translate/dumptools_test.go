package translate

import (
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/datadriven"
)

// TestDumpToolQueries runs, in one session, the statements and catalog
// functions pg_dump (and tools like it) send, each in two or three shapes,
// and checks the rows or the SQLSTATE. The expected values are PostgreSQL
// 15's for the same statements (the session's user, tester, owns what
// postgres owns there), in the test's output form (true, NULL, arrays as
// JSON); EXECUTE with an expression argument, which PostgreSQL evaluates,
// is 0A000 here.
func TestDumpToolQueries(t *testing.T) {
	s := newTestSession(t)
	steps := []struct {
		sql  string
		want string // rows joined by "\n", or "error (SQLSTATE)"
	}{
		// Settings pg_dump and its scripts set.
		{"SET lock_timeout = 0", ""},
		{"SHOW lock_timeout", "0"},
		{"SET lock_timeout = '2s'", ""},
		{"SELECT current_setting('lock_timeout')", "2s"},
		{"SET lock_timeout = 'soon'", "error (22023)"},
		{"SET synchronize_seqscans TO off", ""},
		{"SHOW synchronize_seqscans", "off"},
		{"SET row_security = off", ""},
		{"SET row_security = maybe", "error (22023)"},
		{"SELECT setting FROM pg_settings WHERE name = 'row_security'", "off"},

		// acldefault: the default privileges of each kind of object.
		{"SELECT acldefault('n', 10)", `["tester=UC/tester"]`},
		{"SELECT acldefault('f', n.nspowner) FROM pg_namespace n WHERE nspname = 'iceberg'", `["=X/tester","tester=X/tester"]`},
		{`SELECT acldefault(CASE WHEN 'r' = 'S' THEN 's'::"char" ELSE 'r'::"char" END, 12345)`, `["12345=arwdDxt/12345"]`},
		{"SELECT acldefault('c', 10), acldefault('T', 10)", "[]\t" + `["=U/tester","tester=U/tester"]`},
		{"SELECT pg_typeof(acldefault('s', 10))", "aclitem[]"},
		{"SELECT acldefault('x', 10)", "error (XX000)"},

		// IS [NOT] DISTINCT FROM over arrays, NULLs included.
		{"SELECT '{a}'::text[] IS DISTINCT FROM '{b}'::text[], '{a}'::text[] IS DISTINCT FROM '{a}'", "true\tfalse"},
		{"SELECT NULL::int[] IS NOT DISTINCT FROM NULL, ARRAY[1] IS DISTINCT FROM NULL, ARRAY[1,NULL] IS NOT DISTINCT FROM ARRAY[1,NULL]", "true\ttrue\ttrue"},
		{"SELECT count(*) FROM pg_proc p LEFT JOIN pg_init_privs pip ON p.oid = pip.objoid WHERE p.proacl IS DISTINCT FROM pip.initprivs", "0"},
		{"SELECT ARRAY[1] IS DISTINCT FROM ARRAY['a']", "error (42883)"},

		// name[i]: the byte of a name, counting from 0.
		{"SELECT typname[0], typname[1] FROM pg_type WHERE oid = 1007", "_\ti"},
		{"SELECT count(*) > 0 FROM pg_type WHERE typname[0] = '_' AND typelem != 0", "true"},
		{"SELECT ('ab'::name)[2] = '', ('ab'::name)[64] IS NULL, ('ab'::name)[-1] IS NULL", "true\ttrue\ttrue"},

		// pg_options_to_table splits name=value items at the first '='.
		{"SELECT * FROM pg_options_to_table('{a=b,c=d=e,f}'::text[])", "a\tb\nc\td=e\nf\tNULL"},
		{"SELECT count(*) FROM pg_options_to_table(NULL)", "0"},
		{"SELECT o.option_value FROM pg_catalog.pg_options_to_table(ARRAY['x=1']) AS o", "1"},
		{"SELECT count(*) FROM pg_attribute a WHERE array_to_string(ARRAY(SELECT quote_ident(option_name) || ' ' || quote_literal(option_value) FROM pg_options_to_table(attfdwoptions) ORDER BY option_name), ', ') <> ''", "0"},

		// What cannot be done says so.
		{"SELECT pg_catalog.pg_export_snapshot()", "error (0A000)"},
		{"SET quote_all_identifiers = true", "error (0A000)"},
		{"SET quote_all_identifiers = off", ""},

		// Catalogs pg_dump reads that are empty here.
		{"SELECT count(*) FROM pg_catalog.pg_seclabels", "0"},
		{"SELECT count(*) FROM pg_db_role_setting WHERE setrole = 0", "0"},
		{"SELECT schema_owner FROM information_schema.schemata WHERE schema_name IN ('public', 'iceberg') ORDER BY 1", "pg_database_owner\ntester"},
		{"SELECT pg_get_userbyid(nspowner), nspacl FROM pg_namespace WHERE nspname = 'public'", "pg_database_owner\t" + `["pg_database_owner=UC/pg_database_owner","=U/pg_database_owner"]`},

		// Column defaults as SQL a dump can replay: typed strings, numeric
		// constants.
		{"SELECT string_agg(pg_get_expr(d.adbin, d.adrelid), ' | ' ORDER BY d.adnum) FROM pg_attrdef d JOIN pg_class c ON c.oid = d.adrelid WHERE c.relname = 'duckdb__add_columns_with_defaults' AND d.adnum IN (7, 8, 9, 13, 15)",
			`12345.00 | '2003-10-20'::date | '00:00:00.012345'::time without time zone | 'f79c3e09-677c-4bbd-a479-3f349cb785e7'::uuid | '\x0102'::bytea`},

		// SQL prepared statements.
		{"PREPARE plus(pg_catalog.oid) AS SELECT $1::int8 + 1 AS n", ""},
		{"EXECUTE plus('41')", "42"},
		{"EXECUTE plus(6100::oid)", "6101"},
		{"EXECUTE plus(NULL)", "NULL"},
		{"EXECUTE plus(1, 2)", "error (42601)"},
		{"EXECUTE plus(41 + 1)", "error (0A000)"},
		{"PREPARE plus AS SELECT 1", "error (42P05)"},
		{"EXECUTE minus(1)", "error (26000)"},
		{"PREPARE bad AS SELECT * FROM no_such_table", "error (42P01)"},
		{"EXECUTE bad", "error (26000)"},
		{"PREPARE tables(text) AS SELECT count(*) FROM pg_class WHERE relname = $1", ""},
		{"EXECUTE tables('duckdb__uuid')", "1"},
		{"DEALLOCATE ALL", ""},
		{"EXECUTE plus('41')", "error (26000)"},

		// LOCK TABLE: ACCESS SHARE in a block; what would hold writers off
		// is not supported.
		{"LOCK TABLE iceberg.duckdb__uuid IN ACCESS SHARE MODE", "error (25P01)"},
		{"BEGIN", ""},
		{"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", ""},
		{"LOCK TABLE iceberg.duckdb__uuid IN ACCESS SHARE MODE", ""},
		{"LOCK iceberg.duckdb__uuid, iceberg.duckdb__fruit IN ACCESS SHARE MODE NOWAIT", ""},
		{"SELECT count(*) FROM iceberg.duckdb__uuid", "10"},
		{"COMMIT", ""},
		{"BEGIN", ""},
		{"LOCK TABLE iceberg.no_such_table IN ACCESS SHARE MODE", "error (42P01)"},
		{"ROLLBACK", ""},
		{"BEGIN", ""},
		{"LOCK TABLE iceberg.duckdb__uuid IN EXCLUSIVE MODE", "error (0A000)"},
		{"ROLLBACK", ""},
		{"BEGIN", ""},
		{"LOCK TABLE iceberg.duckdb__uuid", "error (0A000)"},
		{"ROLLBACK", ""},
	}
	for _, st := range steps {
		out := queryOutput(t, s, &datadriven.Case{Input: st.sql})
		lines := strings.Split(out, "\n")
		var got string
		for i, l := range lines {
			if strings.HasPrefix(l, "error") {
				got = l[:len("error (XXXXX)")]
				break
			}
			if i > 0 && i < len(lines)-1 {
				got += l + "\n"
			}
		}
		got = strings.TrimSuffix(got, "\n")
		if got != st.want {
			t.Errorf("%s:\ngot  %q\nwant %q\n(output %q)", st.sql, got, st.want, out)
		}
	}
}
