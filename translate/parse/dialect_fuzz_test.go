package parse

import (
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

// FuzzRewriteDialect feeds the dialect passes (Spark DDL, branch and tag
// clauses, INSERT OVERWRITE / PARTITION, REPLACE TABLE, NAMESPACE,
// comments) mutated statements: no panic, the text keeps its length (every
// offset still points at what the client wrote), and an error carries a
// SQLSTATE.
//
//	go test ./translate/parse -run '^$' -fuzz FuzzRewriteDialect -fuzztime 30s
func FuzzRewriteDialect(f *testing.F) {
	for _, s := range []string{
		"ALTER TABLE t CREATE OR REPLACE BRANCH `a-b` AS OF VERSION 123 RETAIN 3 DAYS WITH SNAPSHOT RETENTION 2 SNAPSHOTS 1 HOURS",
		"ALTER TABLE db.t DROP TAG IF EXISTS v1",
		"ALTER TABLE t REPLACE TAG v1 AS OF VERSION -5 RETAIN 1 MINUTES",
		"INSERT OVERWRITE TABLE db.t PARTITION (d = DATE '2024-01-01', r) SELECT * FROM s",
		"INSERT INTO TABLE t PARTITION (p = 'x') VALUES (1)",
		"REPLACE TABLE t USING iceberg PARTITIONED BY (bucket(4, id)) AS SELECT 1 AS id",
		"CREATE OR REPLACE TABLE t (id BIGINT, m MAP<STRING, /* c */ INT>) USING iceberg -- c\nTBLPROPERTIES ('a' = 'b')",
		"CREATE NAMESPACE IF NOT EXISTS n; DROP DATABASE n CASCADE",
		"CREATE TABLE t (a int) USING iceberg /* x */ PARTITIONED BY (days(ts)) TBLPROPERTIES (/* c */ 'k' -- d\n = 'v')",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		if len(sql) > 1<<14 {
			return
		}
		out, extras, err := RewriteDialect(sql, testConfig)
		if err != nil {
			if pgerr.As(err) == nil {
				t.Fatalf("%q: error without SQLSTATE: %v", sql, err)
			}
			return
		}
		for _, x := range extras {
			if len(x.MergeStars) > 0 {
				return // MERGE's star actions grow the text by design (dialect_merge.go)
			}
		}
		if len(out) != len(sql) {
			t.Fatalf("%q: rewritten to %q, %d bytes instead of %d", sql, out, len(out), len(sql))
		}
	})
}
