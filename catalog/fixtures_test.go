package catalog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

// fixtureTable is the part of a tables.json entry the tests check.
type fixtureTable struct {
	FormatVersion       int              `json:"format_version"`
	CurrentMetadata     string           `json:"current_metadata"`
	CurrentSnapshotID   *int64           `json:"current_snapshot_id"`
	CurrentLiveFiles    map[string]int   `json:"current_live_files"`
	CurrentRecordCounts map[string]int64 `json:"current_record_counts"`
	PathPrefixes        []string         `json:"path_prefixes"`
	PerSnapshot         []struct {
		SnapshotID     int64            `json:"snapshot_id"`
		SequenceNumber int64            `json:"sequence_number"`
		LiveFiles      map[string]int   `json:"live_files"`
		RecordCounts   map[string]int64 `json:"record_counts"`
	} `json:"per_snapshot"`
}

func loadFixtureTables(t testing.TB) map[string]fixtureTable {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]fixtureTable
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("tables.json lists %d tables", len(out))
	}
	return out
}

// fixtureIdent names a fixture folder in a catalog rooted at the fixtures'
// parent directory (namespace "iceberg").
func fixtureIdent(folder string, ft fixtureTable) Identifier {
	if rel := filepath.Dir(filepath.Dir(ft.CurrentMetadata)); rel != "." {
		// The table sits one level down inside its fixture folder.
		return Identifier{Namespace: []string{"iceberg", folder}, Name: rel}
	}
	return Identifier{Namespace: []string{"iceberg"}, Name: folder}
}
