package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// fixture is one entry of testdata/iceberg/tables.json, with the
// facts the tests use.
type fixture struct {
	Folder            string      `json:"-"`
	CurrentMetadata   string      `json:"current_metadata"`
	CurrentSnapshotID json.Number `json:"current_snapshot_id"`
	// ExpectedRows is nil where the fixtures do not know the count.
	ExpectedRows      *int64   `json:"expected_rows_current"`
	ExpectedRowsBasis *string  `json:"expected_rows_basis"`
	Answers           []string `json:"answers"`
	// PerSnapshot describes every snapshot of the table, oldest first.
	PerSnapshot []snapshotFacts `json:"per_snapshot"`
}

// snapshotFacts is what tables.json knows of one snapshot.
type snapshotFacts struct {
	SnapshotID   json.Number      `json:"snapshot_id"`
	TotalRecords *string          `json:"total_records"`
	RecordCounts map[string]int64 `json:"record_counts"`
	// RowsAfterDeletes is the snapshot's row count with its deletes
	// applied; nil when it has no deletes (then TotalRecords) or when
	// the fixtures do not know it.
	RowsAfterDeletes *int64 `json:"rows_after_deletes"`
}

// expectedRows is the snapshot's row count, or false when unknown.
func (s snapshotFacts) expectedRows() (int64, bool) {
	if s.RowsAfterDeletes != nil {
		return *s.RowsAfterDeletes, true
	}
	for kind := range s.RecordCounts {
		if kind != "data" {
			return 0, false // deletes whose effect the fixtures do not record
		}
	}
	if s.TotalRecords == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(*s.TotalRecords, 10, 64)
	return n, err == nil
}

// loadFixtures reads tables.json under warehouse/iceberg, sorted by folder.
func loadFixtures(t *testing.T, warehouse string) []fixture {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(warehouse, "iceberg", "tables.json"))
	if err != nil {
		t.Fatalf("read tables.json: %v", err)
	}
	var byFolder map[string]fixture
	if err := json.Unmarshal(data, &byFolder); err != nil {
		t.Fatalf("parse tables.json: %v", err)
	}
	out := make([]fixture, 0, len(byFolder))
	for folder, fx := range byFolder {
		fx.Folder = folder
		out = append(out, fx)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Folder < out[j].Folder })
	return out
}

// sqlName is the table's name in SQL. The table normally is the folder in
// namespace "iceberg"; where the current metadata sits one level down
// (folder/<table>/metadata/...), the folder is a nested namespace and the
// table is the directory below it.
func (fx fixture) sqlName() string {
	dir, _, _ := strings.Cut(fx.CurrentMetadata, "/metadata/")
	if strings.HasPrefix(fx.CurrentMetadata, "metadata/") || dir == "" {
		return quoteIdent("iceberg") + "." + quoteIdent(fx.Folder)
	}
	return quoteIdent("iceberg."+fx.Folder) + "." + quoteIdent(dir)
}

func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
