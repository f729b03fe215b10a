package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fixture is one entry of ../shared/fixtures/iceberg/tables.json, with the
// facts the tests use.
type fixture struct {
	Folder            string      `json:"-"`
	CurrentMetadata   string      `json:"current_metadata"`
	CurrentSnapshotID json.Number `json:"current_snapshot_id"`
	// ExpectedRows is nil where the fixtures do not know the count.
	ExpectedRows      *int64   `json:"expected_rows_current"`
	ExpectedRowsBasis *string  `json:"expected_rows_basis"`
	Answers           []string `json:"answers"`
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
