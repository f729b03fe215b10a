package catalog

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

// loadFixture loads a fixture table through a Filesystem catalog rooted at
// the fixtures' parent directory.
func loadFixture(t testing.TB, folder string) *Table {
	t.Helper()
	fx := fixtures.Dir(t)
	cat, err := NewFilesystem("fixtures", filepath.Dir(fx), nil)
	if err != nil {
		t.Fatal(err)
	}
	ft := loadFixtureTables(t)[folder]
	tbl, err := cat.LoadTable(context.Background(), fixtureIdent(folder, ft))
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// planCurrent plans the current snapshot of tbl.
func planCurrent(t testing.TB, tbl *Table) []FileScanTask {
	t.Helper()
	tasks, err := PlanFiles(context.Background(), tbl, tbl.Metadata.CurrentSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}
