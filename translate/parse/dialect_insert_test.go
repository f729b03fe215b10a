package parse

import (
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestSparkInsert reads INSERT OVERWRITE and PARTITION (...).
func TestSparkInsert(t *testing.T) {
	cases := []struct {
		sql, want string
		check     func(t *testing.T, x *SparkInsert)
	}{
		{"INSERT OVERWRITE t SELECT * FROM s", "INSERT INTO t SELECT * FROM s", func(t *testing.T, x *SparkInsert) {
			if !x.Overwrite || x.HasPartition {
				t.Errorf("%+v", x)
			}
		}},
		{"INSERT OVERWRITE TABLE db.t PARTITION (day = DATE '2024-01-01', region = 'eu', k) /* c */ SELECT a, k FROM s",
			"INSERT INTO db.t /* c */ SELECT a, k FROM s", func(t *testing.T, x *SparkInsert) {
				if !x.Overwrite || len(x.Partition) != 3 || x.Partition[0].Value != "DATE '2024-01-01'" || x.Partition[1].Column != "region" ||
					x.Partition[1].Value != "'eu'" || x.Partition[2].Column != "k" || x.Partition[2].Value != "" {
					t.Errorf("%+v", x)
				}
			}},
		{"INSERT INTO TABLE t PARTITION (p = -1) VALUES (1)", "INSERT INTO t VALUES (1)", func(t *testing.T, x *SparkInsert) {
			if x.Overwrite || len(x.Partition) != 1 || x.Partition[0].Value != "-1" {
				t.Errorf("%+v", x)
			}
		}},
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
		if strings.Join(strings.Fields(got), " ") != c.want {
			t.Errorf("%s: got %q", c.sql, got)
		}
		if _, err := pg.Parse(got); err != nil {
			t.Errorf("%s: rewritten %q does not parse: %v", c.sql, got, err)
		}
		if len(extras) != 1 || extras[0].Insert == nil {
			t.Errorf("%s: extras %+v", c.sql, extras)
			continue
		}
		c.check(t, extras[0].Insert)
	}
	for _, sql := range []string{"INSERT INTO t VALUES (1)", "INSERT INTO t SELECT partition FROM s", "INSERT INTO t (overwrite) VALUES (1)"} {
		got, extras, err := RewriteDialect(sql, testConfig)
		if err != nil || got != sql || len(extras) != 0 {
			t.Errorf("%s: rewritten %q, %v, %d extras", sql, got, err, len(extras))
		}
	}
	for _, c := range []struct{ sql, code string }{
		{"INSERT OVERWRITE t PARTITION (p = ) SELECT 1", pgerr.SyntaxError},
		{"INSERT OVERWRITE t PARTITION (p = 1, p = 2) SELECT 1", pgerr.DuplicateColumn},
	} {
		_, _, err := RewriteDialect(c.sql, testConfig)
		if pgerr.Code(err) != c.code {
			t.Errorf("%s: %v (%s), want %s", c.sql, err, pgerr.Code(err), c.code)
		}
	}
}

// TestReplaceTable reads REPLACE TABLE and CREATE OR REPLACE TABLE as
// CREATE TABLE with the form kept aside.
func TestReplaceTable(t *testing.T) {
	for _, c := range []struct{ sql, want, form string }{
		{"REPLACE TABLE db.t USING iceberg PARTITIONED BY (a) AS SELECT 1 AS a", "CREATE TABLE db.t AS SELECT 1 AS a", ReplaceOnly},
		{"CREATE OR REPLACE TABLE t (id BIGINT, s STRING) USING iceberg", `CREATE TABLE t (id "@1" , s "@2" )`, CreateOrReplace},
		{"create /* c */ or replace table t (a int)", "create /* c */ table t (a int)", CreateOrReplace},
	} {
		got, extras, err := RewriteDialect(c.sql, testConfig)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if strings.Join(strings.Fields(got), " ") != c.want || len(got) != len(c.sql) {
			t.Errorf("%s: got %q", c.sql, got)
		}
		if _, err := pg.Parse(got); err != nil {
			t.Errorf("%s: %v", got, err)
		}
		if len(extras) != 1 || extras[0].Replace != c.form {
			t.Errorf("%s: extras %+v", c.sql, extras)
		}
	}
	got, extras, _ := RewriteDialect("CREATE OR REPLACE VIEW v AS SELECT 1", testConfig)
	if got != "CREATE OR REPLACE VIEW v AS SELECT 1" || len(extras) != 0 {
		t.Errorf("view: %q %v", got, extras)
	}
}
