package catalog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// fixturesDir returns the shared Iceberg fixtures directory, found from the
// module root (the directory holding go.mod).
func fixturesDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("module root not found")
		}
		dir = parent
	}
	fx := filepath.Join(dir, "..", "shared", "fixtures", "iceberg")
	if _, err := os.Stat(filepath.Join(fx, "tables.json")); err != nil {
		t.Fatalf("fixtures not found at %s: %v", fx, err)
	}
	return fx
}

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
	data, err := os.ReadFile(filepath.Join(fixturesDir(t), "tables.json"))
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
