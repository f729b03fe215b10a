package translate

import (
	"strings"
	"testing"
)

// TestDescribeExtendedPartitionUnion: after partition evolution,
// DESCRIBE EXTENDED's _partition is the struct of every spec's fields in
// field id order (seed 004: months then years), void fields left out.
func TestDescribeExtendedPartitionUnion(t *testing.T) {
	s, _, _ := newWriteSession(t)
	partitionRow := func() string {
		t.Helper()
		for _, r := range queryRows(t, s, "DESCRIBE EXTENDED orders") {
			if strings.HasPrefix(r, "_partition\t") {
				return r
			}
		}
		t.Fatal("no _partition row")
		return ""
	}
	for _, step := range []struct{ sql, want string }{
		{"CREATE TABLE orders (id int, ts timestamp, cat string) USING iceberg PARTITIONED BY (months(ts))",
			"_partition\tstruct<ts_month:int>\t"},
		{"ALTER TABLE orders REPLACE PARTITION FIELD months(ts) WITH years(ts)",
			"_partition\tstruct<ts_month:int,ts_year:int>\t"},
		{"ALTER TABLE orders ADD PARTITION FIELD bucket(4, id)",
			"_partition\tstruct<ts_month:int,ts_year:int,id_bucket_4:int>\t"},
		{"ALTER TABLE orders DROP PARTITION FIELD years(ts)",
			"_partition\tstruct<ts_month:int,ts_year:int,id_bucket_4:int>\t"},
	} {
		run(t, s, step.sql)
		if got := partitionRow(); got != step.want {
			t.Errorf("after %s:\n got %q\nwant %q", step.sql, got, step.want)
		}
	}
}
