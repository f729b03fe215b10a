package translate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestCountAllFixtures runs SELECT count(*) and SELECT * over every fixture
// table through the whole statement path (names, binding, planning, scan,
// aggregate) and compares the counts with tables.json. A table whose files
// need a reader icegate lacks must fail with 0A000, not with a wrong count.
func TestCountAllFixtures(t *testing.T) {
	root := fixturesRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "iceberg", "tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tables map[string]struct {
		Expected *int64 `json:"expected_rows_current"`
	}
	if err := json.Unmarshal(data, &tables); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	sort.Strings(names)
	s := newTestSession(t)
	ctx := context.Background()
	unsupported := 0
	for _, name := range names {
		want := tables[name].Expected
		if want == nil {
			continue // no agreed row count for this table
		}
		ref := "iceberg." + name
		if _, err := os.Stat(filepath.Join(root, "iceberg", name, "metadata")); err != nil {
			// The table lives one level down (impala__iceberg_multiple_storage_locations
			// keeps sibling data folders): a nested namespace.
			sub, _ := filepath.Glob(filepath.Join(root, "iceberg", name, "*", "metadata"))
			if len(sub) != 1 {
				t.Errorf("%s: no metadata directory", name)
				continue
			}
			ref = `"iceberg.` + name + `".` + filepath.Base(filepath.Dir(sub[0]))
		}
		for _, q := range []string{"SELECT count(*) FROM " + ref, "SELECT * FROM " + ref} {
			n, err := runCount(ctx, t, s, q)
			if err != nil {
				if pgerr.Code(err) == pgerr.FeatureNotSupported {
					unsupported++
					t.Logf("%s: %v", q, err)
					continue
				}
				t.Errorf("%s: %v (%s)", q, err, pgerr.Code(err))
				continue
			}
			if n != *want {
				t.Errorf("%s: %d rows, want %d", q, n, *want)
			}
		}
	}
	t.Logf("%d queries were 0A000", unsupported)
}

// runCount runs q, checks that its batches carry the Arrow types its
// columns' OIDs promise, and returns count(*)'s value, or the number of rows for
// other queries.
func runCount(ctx context.Context, t *testing.T, s *session, q string) (int64, error) {
	stmts, err := s.Prepare(ctx, q, nil)
	if err != nil {
		return 0, err
	}
	rows, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n, count int64
	for {
		b, err := rows.Next(ctx)
		if err != nil {
			return 0, err
		}
		if b == nil {
			break
		}
		checkWireTypes(t, q, stmts[0].Columns(), b)
		if b.NumCols() == 1 && stmts[0].Columns()[0].Name == "count" {
			count = b.Column(0).(interface{ Value(int) int64 }).Value(0)
		}
		n += b.NumRows()
	}
	if stmts[0].Columns()[0].Name == "count" && len(stmts[0].Columns()) == 1 {
		return count, nil
	}
	return n, nil
}
