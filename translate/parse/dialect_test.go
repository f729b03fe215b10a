package parse

import (
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/metatable"
)

// testConfig is the parse configuration of icegate's SQL, as bind has it.
var testConfig = Config{IsMetaTable: func(name string) bool { return metatable.ByName(name) != nil }}

// TestRewriteDialect checks the text the dialect pass hands the parser: the
// same length (offsets keep pointing at what the client wrote; want is
// compared with runs of blanks collapsed), valid PostgreSQL, and the side
// structure holding what was cut.
func TestRewriteDialect(t *testing.T) {
	cases := []struct {
		sql, want string
		check     func(t *testing.T, x *DDLExtras)
	}{
		{
			sql:  "SELECT 1",
			want: "SELECT 1",
		},
		{
			sql:  "CREATE TABLE t (a int) WITH (partitioning = 'days(ts)')",
			want: "CREATE TABLE t (a int) WITH (partitioning = 'days(ts)')",
		},
		{
			sql:  "CREATE TABLE db.t (id BIGINT COMMENT 'k', s STRING) USING iceberg PARTITIONED BY (bucket(16, id)) TBLPROPERTIES ('a'='b', 'c' = 'd''e')",
			want: `CREATE TABLE db.t (id "@1" , s "@2" )`,
			check: func(t *testing.T, x *DDLExtras) {
				if !x.Spark || x.Using != "iceberg" || x.Comments["id"] != "k" {
					t.Errorf("extras %+v", x)
				}
				if x.Props["a"] != "b" || x.Props["c"] != "d'e" || strings.Join(x.PropOrder, ",") != "a,c" {
					t.Errorf("properties %v", x.Props)
				}
				if len(x.Partitioned) != 1 || x.Partitioned[0] != (PartitionItem{Transform: "bucket", Column: "id", Param: 16, HasParam: true, Loc: x.Partitioned[0].Loc}) {
					t.Errorf("partitioning %+v", x.Partitioned)
				}
				if x.Types["@1"].Name != "bigint" || x.Types["@2"].Name != "string" {
					t.Errorf("types %+v", x.Types)
				}
			},
		},
		{
			sql:  "create table t (m map<string, array<struct<a: int, b: decimal(5,2)>>>)",
			want: `create table t (m "@1" )`,
			check: func(t *testing.T, x *DDLExtras) {
				m := x.Types["@1"]
				if m == nil || m.Name != "map" || m.Val.Name != "array" || m.Val.Elem.Fields[1].T.Args[1] != 2 {
					t.Errorf("type %+v", m)
				}
			},
		},
		{
			sql:  "DROP TABLE a.b PURGE; SELECT 1",
			want: "DROP TABLE a.b ; SELECT 1",
			check: func(t *testing.T, x *DDLExtras) {
				if !x.Purge || x.Start != 0 || x.End != 21 {
					t.Errorf("extras %+v", x)
				}
			},
		},
		{
			sql:  "DROP TABLE purge",
			want: "DROP TABLE purge",
		},
		{
			sql:  "CREATE TABLE comment (location text, comment text)",
			want: "CREATE TABLE comment (location text, comment text)",
		},
		{
			sql:  "CREATE TABLE t USING iceberg PARTITIONED BY (years(d), c) AS SELECT 1",
			want: "CREATE TABLE t AS SELECT 1",
		},
	}
	for _, c := range cases {
		got, extras, err := RewriteDialect(c.sql, testConfig)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if strings.Join(strings.Fields(got), " ") != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.sql, got, c.want)
		}
		if len(got) != len(c.sql) {
			t.Errorf("%s: length changed", c.sql)
		}
		if _, err := pg.Parse(got); err != nil {
			t.Errorf("%s: rewritten text does not parse: %v", c.sql, err)
		}
		if c.check != nil {
			if len(extras) != 1 {
				t.Errorf("%s: %d extras", c.sql, len(extras))
				continue
			}
			c.check(t, extras[0])
		}
	}
}

// TestRewriteDialectErrors checks malformed Spark clauses.
func TestRewriteDialectErrors(t *testing.T) {
	for _, c := range []struct{ sql, code string }{
		{"CREATE TABLE t (a ARRAY<INT)", pgerr.SyntaxError},
		{"CREATE TABLE t (a INT) USING iceberg PARTITIONED BY (bucket(4 a))", pgerr.SyntaxError},
		{"CREATE TABLE t (a INT) TBLPROPERTIES ('a')", pgerr.SyntaxError},
		{"CREATE TABLE t (a INT) STORED AS orc", pgerr.FeatureNotSupported},
	} {
		_, _, err := RewriteDialect(c.sql, testConfig)
		if pgerr.Code(err) != c.code {
			t.Errorf("%s: %v (%s), want %s", c.sql, err, pgerr.Code(err), c.code)
		}
	}
}
