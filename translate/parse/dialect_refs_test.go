package parse

import (
	"testing"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestRefClauses reads Spark's branch and tag DDL.
func TestRefClauses(t *testing.T) {
	day := int64(24 * 3600 * 1000)
	i64 := func(n int64) *int64 { return &n }
	cases := []struct {
		sql  string
		want RefStmt
	}{
		{"ALTER TABLE t CREATE BRANCH b1", RefStmt{Action: "create", Name: "b1"}},
		{"ALTER TABLE db.t CREATE TAG IF NOT EXISTS `v-1.0`", RefStmt{Action: "create", Tag: true, IfNotExists: true, Name: "v-1.0"}},
		{"ALTER TABLE t CREATE OR REPLACE BRANCH \"Audit\" AS OF VERSION 8744736658442914487 RETAIN 30 DAYS",
			RefStmt{Action: "create", OrReplace: true, Name: "Audit", SnapshotID: i64(8744736658442914487), MaxRefAgeMs: i64(30 * day)}},
		{"ALTER TABLE t CREATE BRANCH b RETAIN 7 DAYS WITH SNAPSHOT RETENTION 3 SNAPSHOTS 2 DAYS",
			RefStmt{Action: "create", Name: "b", MaxRefAgeMs: i64(7 * day), MinSnapshotsToKeep: new(int), MaxSnapshotAgeMs: i64(2 * day)}},
		{"ALTER TABLE t CREATE BRANCH b WITH SNAPSHOT RETENTION 12 HOURS", RefStmt{Action: "create", Name: "b", MaxSnapshotAgeMs: i64(12 * 3600 * 1000)}},
		{"ALTER TABLE t REPLACE TAG v1 AS OF VERSION 5 RETAIN 90 MINUTES", RefStmt{Action: "replace", Tag: true, Name: "v1", SnapshotID: i64(5), MaxRefAgeMs: i64(90 * 60 * 1000)}},
		{"ALTER TABLE t /* c */ DROP /* c */ BRANCH IF EXISTS b -- gone", RefStmt{Action: "drop", IfExists: true, Name: "b"}},
		{"ALTER TABLE IF EXISTS t DROP TAG `x``y`", RefStmt{Action: "drop", Tag: true, Name: "x`y"}},
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
			t.Errorf("%s: rewritten %q does not parse: %v", c.sql, got, err)
		}
		if len(extras) != 1 || extras[0].Alter == nil || extras[0].Alter.Kind != "ref" {
			t.Errorf("%s: extras %+v", c.sql, extras)
			continue
		}
		r := *extras[0].Alter.Ref
		same := r.Action == c.want.Action && r.Tag == c.want.Tag && r.OrReplace == c.want.OrReplace && r.IfNotExists == c.want.IfNotExists &&
			r.IfExists == c.want.IfExists && r.Name == c.want.Name && eqPtr(r.SnapshotID, c.want.SnapshotID) && eqPtr(r.MaxRefAgeMs, c.want.MaxRefAgeMs) &&
			eqPtr(r.MaxSnapshotAgeMs, c.want.MaxSnapshotAgeMs) && (r.MinSnapshotsToKeep == nil) == (c.want.MinSnapshotsToKeep == nil)
		if !same {
			t.Errorf("%s:\n got %+v\nwant %+v", c.sql, r, c.want)
		}
	}
	// the count of snapshots
	_, extras, _ := RewriteDialect("ALTER TABLE t CREATE BRANCH b WITH SNAPSHOT RETENTION 3 SNAPSHOTS", testConfig)
	if r := extras[0].Alter.Ref; r.MinSnapshotsToKeep == nil || *r.MinSnapshotsToKeep != 3 || r.MaxSnapshotAgeMs != nil {
		t.Errorf("snapshot retention %+v", r)
	}
}

func eqPtr[T comparable](a, b *T) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// TestRefClauseErrors checks malformed branch and tag DDL, and that
// PostgreSQL's DROP of a column named tag stays PostgreSQL's.
func TestRefClauseErrors(t *testing.T) {
	for _, c := range []struct{ sql, code string }{
		{"ALTER TABLE t CREATE BRANCH b RETAIN 3 WEEKS", pgerr.SyntaxError},
		{"ALTER TABLE t CREATE BRANCH b RETAIN 0 DAYS", pgerr.InvalidParameterValue},
		{"ALTER TABLE t CREATE TAG v WITH SNAPSHOT RETENTION 3 SNAPSHOTS", pgerr.SyntaxError},
		{"ALTER TABLE t CREATE OR REPLACE BRANCH IF NOT EXISTS b", pgerr.SyntaxError},
		{"ALTER TABLE t DROP BRANCH b RETAIN 1 DAYS", pgerr.SyntaxError},
		{"ALTER TABLE t CREATE BRANCH b AS OF VERSION x", pgerr.SyntaxError},
		{"ALTER TABLE t CREATE BRANCH b WITH SNAPSHOT RETENTION -1 SNAPSHOTS", pgerr.InvalidParameterValue},
	} {
		_, _, err := RewriteDialect(c.sql, testConfig)
		if pgerr.Code(err) != c.code {
			t.Errorf("%s: %v (%s), want %s", c.sql, err, pgerr.Code(err), c.code)
		}
	}
	for _, sql := range []string{"ALTER TABLE t DROP tag", "ALTER TABLE t DROP tag CASCADE", "ALTER TABLE t DROP branch, DROP tag"} {
		got, _, err := RewriteDialect(sql, testConfig)
		if err != nil || got != sql {
			t.Errorf("%s: rewritten %q, %v", sql, got, err)
		}
	}
}
