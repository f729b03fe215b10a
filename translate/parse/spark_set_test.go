package parse

import "testing"

// TestRewriteSparkSetNames: Spark's SET forms become PostgreSQL's; the
// forms PostgreSQL already takes are left as they are.
func TestRewriteSparkSetNames(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SET spark.sql.iceberg.distribution-mode = hash", `SET "spark.sql.iceberg.distribution-mode" = hash`},
		{"set session spark.sql.iceberg.check-nullability to false", `set session "spark.sql.iceberg.check-nullability" to false`},
		{"SET spark.wap.branch = audit-branch", `SET spark.wap.branch = 'audit-branch'`},
		{"SET spark.sql.iceberg.write-format=avro; SELECT 1", `SET "spark.sql.iceberg.write-format"=avro; SELECT 1`},
		{"SET a.b = it's-x", "SET a.b = it's-x"}, // a quote starts a string: left to the parser
		{"SET spark.sql.catalog.local.type = hadoop.x", "SET spark.sql.catalog.local.type = 'hadoop.x'"},
		{"SET x.y = 1g", "SET x.y = 1g"}, // not even a token: the parser's error
		{"SHOW spark.sql.iceberg.write-format", `SHOW "spark.sql.iceberg.write-format"`},
		{"RESET spark.sql.iceberg.write-format", `RESET "spark.sql.iceberg.write-format"`},
		{"SELECT 1; SET spark.a-b.c = /tmp/x", `SELECT 1; SET "spark.a-b.c" = '/tmp/x'`},
		// Left alone: PostgreSQL's forms.
		{"SET search_path = a, b", "SET search_path = a, b"},
		{"SET iceberg.split_size = 1024", "SET iceberg.split_size = 1024"},
		{"SET a.b = 'x-y'", "SET a.b = 'x-y'"},
		{"SET a.b TO DEFAULT", "SET a.b TO DEFAULT"},
		{"SET a.b = x, y", "SET a.b = x, y"},
		{"UPDATE t SET a = b-c WHERE t.x = 1", "UPDATE t SET a = b-c WHERE t.x = 1"},
	} {
		if got := RewriteSparkSetNames(tc.in); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}
