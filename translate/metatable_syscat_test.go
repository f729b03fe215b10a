package translate

import (
	"context"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/metatable"
)

// TestMetadataTablesInCatalog checks that iceberg.list_metadata_tables
// lists each table's metadata tables as views of the table's schema in
// pg_class, pg_attribute and information_schema, and that they are left
// out by default.
func TestMetadataTablesInCatalog(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	const tbl = "lithium__partition_evolution" // partitioned: its files tables have partition
	kinds := int64(len(metatable.All))
	counts := []struct {
		q    string
		want int64
		// offCode is the SQLSTATE with the option off ("": a count of 0).
		offCode string
	}{
		{"SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'iceberg' AND c.relname LIKE '" + tbl + "$%' AND c.relkind = 'v'", kinds, ""},
		{"SELECT count(*) FROM information_schema.tables WHERE table_schema = 'iceberg' AND table_name = '" + tbl + "$snapshots' AND table_type = 'VIEW'", 1, ""},
		{"SELECT count(*) FROM information_schema.tables WHERE table_schema = 'iceberg' AND table_type = 'BASE TABLE' AND table_name LIKE '%$%'", 0, ""},
		{"SELECT count(*) FROM pg_attribute WHERE attrelid = 'iceberg.\"" + tbl + "$snapshots\"'::regclass AND attnum > 0", int64(len(metatable.SnapshotsColumns)), pgerr.UndefinedTable},
		{"SELECT count(*) FROM information_schema.columns WHERE table_name = '" + tbl + "$files' AND column_name IN ('partition', 'readable_metrics')", 2, ""},
		{"SELECT count(*) FROM information_schema.columns WHERE table_name = 'lithium__deletion_vectors$files' AND column_name = 'partition'", 0, ""},
		{"SELECT count(*) FROM pg_class WHERE relname = '" + tbl + "$refs' AND obj_description(oid, 'pg_class') LIKE 'Iceberg metadata table refs of %'", 1, ""},
		{"SELECT count(*) FROM pg_views WHERE viewname = '" + tbl + "$history' AND definition LIKE '%FROM iceberg.\"" + tbl + "$history\"%'", 1, ""},
	}
	for _, c := range counts {
		got, err := runCount(ctx, t, s, c.q)
		if c.offCode != "" {
			if pgerr.Code(err) != c.offCode {
				t.Errorf("default (not listed): %s: %v, want %s", c.q, err, c.offCode)
			}
			continue
		}
		if err != nil || got != 0 {
			t.Errorf("default (not listed): %s: %d, %v, want 0", c.q, got, err)
		}
	}
	if out := queryOutput(t, s, &datadriven.Case{Input: "SET iceberg.list_metadata_tables = on"}); strings.Contains(out, "error") {
		t.Fatal(out)
	}
	for _, c := range counts {
		got, err := runCount(ctx, t, s, c.q)
		if err != nil {
			t.Errorf("%s: %v (%s)", c.q, err, pgerr.Code(err))
			continue
		}
		if got != c.want {
			t.Errorf("%s: %d, want %d", c.q, got, c.want)
		}
	}
	// The name the catalog lists reads the metadata table.
	if got, err := runCount(ctx, t, s, `SELECT count(*) FROM iceberg."`+tbl+`$snapshots"`); err != nil || got != 3 {
		t.Errorf("listed name: %d, %v", got, err)
	}
	out := queryOutput(t, s, &datadriven.Case{Input: "SHOW iceberg.list_metadata_tables"})
	if want := "iceberg.list_metadata_tables:text\tsource:text\ntrue\tsession\n"; !strings.HasPrefix(out, want) {
		t.Errorf("SHOW:\n%s", out)
	}
}
