package parse

import (
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// TestDialectComments checks that SQL comments stand wherever a space may:
// between Spark's clauses, inside TBLPROPERTIES, partitioning, column
// lists, nested types and ALTER TABLE clauses.
func TestDialectComments(t *testing.T) {
	cases := []struct {
		sql   string
		check func(t *testing.T, x *DDLExtras)
	}{
		{
			sql: "CREATE TABLE db.t (id BIGINT, ts TIMESTAMP) USING iceberg -- note\nPARTITIONED BY (days(ts)) -- more\nTBLPROPERTIES ('a'='b')",
			check: func(t *testing.T, x *DDLExtras) {
				if x.Using != "iceberg" || !x.HasPartBy || len(x.Partitioned) != 1 || x.Partitioned[0].Transform != "days" || x.Props["a"] != "b" {
					t.Errorf("extras %+v", x)
				}
			},
		},
		{
			sql: "CREATE TABLE t (id BIGINT) USING iceberg TBLPROPERTIES (\n  'a' = 'b', -- the first\n  /* the second */ 'c' /* key */ = /* value */ 'd'\n)",
			check: func(t *testing.T, x *DDLExtras) {
				if x.Props["a"] != "b" || x.Props["c"] != "d" || len(x.PropOrder) != 2 {
					t.Errorf("properties %v", x.Props)
				}
			},
		},
		{
			sql: "CREATE /* c */ TABLE t (id BIGINT /* key */ COMMENT 'k', m MAP<STRING, /* v */ INT>, -- last\n s STRING) USING /* fmt */ iceberg PARTITIONED BY (bucket(16, /* c */ id), -- x\n s)",
			check: func(t *testing.T, x *DDLExtras) {
				if x.Comments["id"] != "k" || x.Using != "iceberg" || len(x.Partitioned) != 2 || x.Partitioned[0].Param != 16 || x.Partitioned[1].Column != "s" {
					t.Errorf("extras %+v", x)
				}
				found := false
				for _, st := range x.Types {
					if st.Name == "map" && st.Val != nil && st.Val.Name == "int" {
						found = true
					}
				}
				if !found {
					t.Errorf("types %+v", x.Types)
				}
			},
		},
		{
			sql: "ALTER TABLE db.t /* why */ SET TBLPROPERTIES ('k' /* c */ = 'v' -- end\n)",
			check: func(t *testing.T, x *DDLExtras) {
				if x.Alter == nil || x.Alter.Kind != "set-props" {
					t.Fatalf("alter %+v", x.Alter)
				}
				for _, tk := range x.Alter.Toks {
					if strings.HasPrefix(tk.Text, "/*") || strings.HasPrefix(tk.Text, "--") {
						t.Errorf("comment token %q kept", tk.Text)
					}
				}
			},
		},
		{
			sql: "DROP TABLE db.t /* gone */ PURGE -- for good",
			check: func(t *testing.T, x *DDLExtras) {
				if !x.Purge {
					t.Errorf("extras %+v", x)
				}
			},
		},
	}
	for _, c := range cases {
		got, extras, err := RewriteDialect(c.sql, testConfig)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if len(got) != len(c.sql) {
			t.Errorf("%s: length changed", c.sql)
		}
		if _, err := pg.Parse(got); err != nil {
			t.Errorf("%q: rewritten text %q does not parse: %v", c.sql, got, err)
		}
		if len(extras) != 1 {
			t.Errorf("%s: %d extras", c.sql, len(extras))
			continue
		}
		c.check(t, extras[0])
	}
}

// TestAsOfComments checks a comment inside a time-travel clause.
func TestAsOfComments(t *testing.T) {
	for _, sql := range []string{
		"SELECT * FROM t /* c */ VERSION /* c */ AS OF 'v1'",
		"SELECT * FROM t FOR -- c\n SYSTEM_VERSION AS OF 12",
	} {
		got, clauses, err := RewriteAsOf(sql)
		if err != nil || len(clauses) != 1 {
			t.Errorf("%q: %v, %d clauses", sql, err, len(clauses))
			continue
		}
		if _, err := pg.Parse(got); err != nil {
			t.Errorf("%q: rewritten %q does not parse: %v", sql, got, err)
		}
	}
}
