package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/internal/pgerr"
)

// fixtureFacts are the facts of tables.json the metadata tables must agree
// with.
type fixtureFacts struct {
	Snapshots   int64 `json:"snapshots"`
	PerSnapshot []struct {
		SnapshotID   int64            `json:"snapshot_id"`
		LiveFiles    map[string]int64 `json:"live_files"`
		RecordCounts map[string]int64 `json:"record_counts"`
	} `json:"per_snapshot"`
	LiveFiles    map[string]int64 `json:"current_live_files"`
	RecordCounts map[string]int64 `json:"current_record_counts"`
}

func loadFixtureFacts(t *testing.T) map[string]fixtureFacts {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixturesRoot(t), "iceberg", "tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	var facts map[string]fixtureFacts
	if err := json.Unmarshal(data, &facts); err != nil {
		t.Fatal(err)
	}
	return facts
}

func deleteFiles(m map[string]int64) int64 {
	return m["position_delete"] + m["equality_delete"] + m["deletion_vector"]
}

// TestMetadataTablesAgreeWithFixtures checks, on every fixture table, that
// the metadata tables count what tables.json records: snapshots, live
// data and delete files and their records per snapshot (through time
// travel), partitions, manifests and position deletes.
func TestMetadataTablesAgreeWithFixtures(t *testing.T) {
	facts := loadFixtureFacts(t)
	names := make([]string, 0, len(facts))
	for n := range facts {
		if _, err := os.Stat(filepath.Join(fixturesRoot(t), "iceberg", n, "metadata")); err == nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) < 100 {
		t.Fatalf("only %d fixture tables", len(names))
	}
	s := newTestSession(t)
	ctx := context.Background()
	for _, name := range names {
		f := facts[name]
		// The dotted spelling: ns.t$kind costs a namespace listing to learn
		// that no table has that name, which over 104 tables is slow.
		tbl := "iceberg." + name
		type check struct {
			q    string
			want int64
		}
		checks := []check{
			{"SELECT count(*) FROM " + tbl + ".snapshots", f.Snapshots},
			{"SELECT count(*) FROM " + tbl + ".files", f.LiveFiles["data"] + deleteFiles(f.LiveFiles)},
			{"SELECT count(*) FROM " + tbl + ".data_files", f.LiveFiles["data"]},
			{"SELECT count(*) FROM " + tbl + ".delete_files", deleteFiles(f.LiveFiles)},
			{"SELECT count(*) FROM " + tbl + ".entries WHERE status <> 2 AND data_file->>'content' = '0'", f.LiveFiles["data"]},
			{"SELECT coalesce(sum(record_count), 0)::bigint AS count FROM " + tbl + ".data_files", f.RecordCounts["data"]},
			{"SELECT coalesce(sum(file_count), 0)::bigint AS count FROM " + tbl + ".partitions", f.LiveFiles["data"]},
			{"SELECT coalesce(sum(record_count), 0)::bigint AS count FROM " + tbl + ".partitions", f.RecordCounts["data"]},
			{"SELECT coalesce(sum(position_delete_file_count + equality_delete_file_count), 0)::bigint AS count FROM " + tbl + ".partitions",
				deleteFiles(f.LiveFiles)},
		}
		if n := f.LiveFiles["position_delete"] + f.LiveFiles["deletion_vector"]; n > 0 {
			checks = append(checks, check{"SELECT count(*) FROM " + tbl + ".position_deletes",
				f.RecordCounts["position_delete"] + f.RecordCounts["deletion_vector"]})
		}
		for _, ps := range f.PerSnapshot {
			if len(ps.LiveFiles) == 0 {
				continue // its manifest list is missing (fixtures README, quirk 7)
			}
			at := fmt.Sprintf(" VERSION AS OF %d", ps.SnapshotID)
			checks = append(checks,
				check{"SELECT count(*) FROM " + tbl + ".data_files" + at, ps.LiveFiles["data"]},
				check{"SELECT count(*) FROM " + tbl + ".delete_files FOR SYSTEM_VERSION AS OF " + fmt.Sprint(ps.SnapshotID), deleteFiles(ps.LiveFiles)},
				check{"SELECT coalesce(sum(record_count), 0)::bigint AS count FROM " + tbl + ".data_files" + at, ps.RecordCounts["data"]})
		}
		for _, c := range checks {
			got, err := runCount(ctx, t, s, c.q)
			if err != nil {
				t.Errorf("%s: %v (%s)", c.q, err, pgerr.Code(err))
				continue
			}
			if got != c.want {
				t.Errorf("%s: %d, want %d", c.q, got, c.want)
			}
		}
	}
}

// TestMetadataTableSpellings checks the spellings of a metadata table name,
// time travel on one, EXPLAIN, the columns' types and the errors.
func TestMetadataTableSpellings(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	const tbl = "lithium__partition_evolution" // 3 snapshots, specs 0 and 1, 7 data files
	for _, c := range []struct {
		q    string
		want int64
	}{
		{"SELECT count(*) FROM iceberg." + tbl + "$snapshots", 3},
		{`SELECT count(*) FROM iceberg."` + tbl + `$files"`, 7},
		{"SELECT count(*) FROM iceberg." + tbl + ".files", 7},
		{"SELECT count(*) FROM iceberg." + tbl + "$files VERSION AS OF 6593870062034330780", 6},
		{"SELECT count(*) FROM iceberg." + tbl + ".files FOR SYSTEM_VERSION AS OF 5032402648663831776", 0},
		{"SELECT count(*) FROM iceberg." + tbl + "$partitions WHERE spec_id = 1 AND partition->>'c3' = '2'", 1},
		{"SELECT count(*) FROM iceberg." + tbl + "$history WHERE is_current_ancestor", 3},
		{"SELECT count(*) FROM iceberg." + tbl + "$refs WHERE name = 'main' AND type = 'BRANCH'", 1},
		{"SELECT count(*) FROM iceberg." + tbl + "$properties WHERE key = 'write.format.default'", 1},
		{"SELECT count(*) FROM iceberg." + tbl + "$metadata_log_entries", 6},
		{"SELECT count(*) FROM iceberg." + tbl + "$all_manifests", 3},
		{"SELECT count(*) FROM iceberg." + tbl + "$all_entries", 7},
		{"SELECT count(*) FROM iceberg." + tbl + "$snapshots s JOIN iceberg." + tbl + "$entries e ON e.snapshot_id = s.snapshot_id WHERE s.summary->>'added-records' = '6'", 6},
		{"SELECT count(*) FROM iceberg." + tbl + "$files WHERE readable_metrics->'c1'->>'value_count' = '1'", 7},
		{"SELECT count(*) FROM iceberg.impala__iceberg_v2_partitioned_position_deletes$position_deletes", 10},
	} {
		got, err := runCount(ctx, t, s, c.q)
		if err != nil {
			t.Errorf("%s: %v (%s)", c.q, err, pgerr.Code(err))
			continue
		}
		if got != c.want {
			t.Errorf("%s: %d, want %d", c.q, got, c.want)
		}
	}

	out := queryOutput(t, s, &datadriven.Case{Input: "EXPLAIN SELECT file_path FROM iceberg." + tbl + "$data_files VERSION AS OF 6593870062034330780"})
	if !strings.Contains(out, "metadata table iceberg."+tbl+"$data_files at snapshot 6593870062034330780") {
		t.Errorf("EXPLAIN does not show the metadata table:\n%s", out)
	}
	out = queryOutput(t, s, &datadriven.Case{Input: "SELECT * FROM iceberg." + tbl + "$snapshots LIMIT 0"})
	if want := "committed_at:timestamp with time zone\tsnapshot_id:bigint\tparent_id:bigint\toperation:text\tmanifest_list:text\tsummary:jsonb"; !strings.HasPrefix(out, want) {
		t.Errorf("snapshots columns:\n%s\nwant %s", out, want)
	}

	for _, c := range []struct{ q, code, hint string }{
		{"SELECT * FROM iceberg." + tbl + "$nope", pgerr.UndefinedTable, "snapshots"},
		{"SELECT * FROM iceberg." + tbl + ".nope", pgerr.UndefinedTable, "position_deletes"},
		{"SELECT * FROM iceberg.no_such_table$files", pgerr.UndefinedTable, ""},
		{"SELECT * FROM iceberg." + tbl + "$files VERSION AS OF 42", pgerr.InvalidParameterValue, ""},
		{"SELECT * FROM iceberg." + tbl + "$snapshots VERSION AS OF 5032402648663831776", pgerr.FeatureNotSupported, ""},
		// Quirk 7 of the fixtures README: this snapshot's manifest list is missing.
		{"SELECT * FROM iceberg.duckdb__equality_deletes_mytable.files VERSION AS OF 7342794868382145167", pgerr.UndefinedFile, ""},
	} {
		_, err := runCount(ctx, t, s, c.q)
		if pgerr.Code(err) != c.code {
			t.Errorf("%s: %v (%s), want %s", c.q, err, pgerr.Code(err), c.code)
			continue
		}
		if pe := pgerr.As(err); c.hint != "" && (pe == nil || !strings.Contains(pe.Hint, c.hint)) {
			t.Errorf("%s: hint %q does not list %s", c.q, pe.Hint, c.hint)
		}
	}
}
