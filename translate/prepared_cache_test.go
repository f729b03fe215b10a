package translate

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
)

// TestPreparedPointSeesChanges executes a prepared point query between
// changes to its table, which the backend's column and footer caches
// must never hide: rows appended in new files, rows deleted, rows
// overwritten, and the table dropped and created again under its name
// with other rows of the same shape (and so files of much the same size).
func TestPreparedPointSeesChanges(t *testing.T) {
	ctx := context.Background()
	cat, err := catalog.NewFilesystem("icegate", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	be, err := NewBackend(cat, Options{}).NewSession(ctx, StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	s := be.(*session)
	for _, q := range []string{"CREATE SCHEMA ns", "CREATE TABLE ns.t (id bigint, v text)",
		"INSERT INTO ns.t SELECT g, 'a' || g FROM generate_series(1, 1000) g"} {
		if err := runAll(s, q); err != nil {
			t.Fatal(err)
		}
	}
	stmts, err := s.Prepare(ctx, "SELECT id, v FROM ns.t WHERE id = $1 ORDER BY v", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := stmts[0]
	get := func(id int) string {
		t.Helper()
		p := fmt.Sprint(id)
		rows, err := st.Execute(ctx, []*string{&p})
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		for {
			b, err := rows.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
			v := b.Column(1).(*array.String)
			for i := range int(b.NumRows()) {
				got = append(got, v.Value(i))
			}
		}
		return strings.Join(got, ",")
	}
	steps := []struct {
		sql  string // run before the lookups ("" for none)
		want map[int]string
	}{
		{"", map[int]string{7: "a7", 1000: "a1000", 1001: ""}},
		{"", map[int]string{7: "a7", 1000: "a1000", 1001: ""}}, // from the caches
		{"INSERT INTO ns.t SELECT g, 'b' || g FROM generate_series(1001, 1002) g", map[int]string{7: "a7", 1001: "b1001"}},
		{"INSERT INTO ns.t VALUES (7, 'c7')", map[int]string{7: "a7,c7", 1002: "b1002"}},
		{"DELETE FROM ns.t WHERE v = 'a7'", map[int]string{7: "c7", 8: "a8"}},
		{"UPDATE ns.t SET v = 'd8' WHERE id = 8", map[int]string{7: "c7", 8: "d8"}},
		{"DROP TABLE ns.t", nil},
		{"CREATE TABLE ns.t (id bigint, v text)", map[int]string{7: "", 8: ""}},
		{"INSERT INTO ns.t SELECT g, 'e' || g FROM generate_series(1, 1000) g", map[int]string{7: "e7", 8: "e8", 1001: ""}},
	}
	for i, step := range steps {
		if step.sql != "" {
			if err := runAll(s, step.sql); err != nil {
				t.Fatalf("step %d: %s: %v", i, step.sql, err)
			}
		}
		for id, want := range step.want {
			if got := get(id); got != want {
				t.Errorf("step %d (%s): id %d: got %q, want %q", i, step.sql, id, got, want)
			}
		}
	}
	if s.backend.footers.Len() == 0 {
		t.Errorf("no footer cached")
	}
}

// TestCachedEqualityLookup compares queries whose integer equality or IN
// the scan answers through the cached columns' index with the same
// queries written so that it cannot (the column inside an expression),
// over a table with duplicates, nulls, several files, deleted rows and
// positions read back through _pos.
func TestCachedEqualityLookup(t *testing.T) {
	ctx := context.Background()
	cat, err := catalog.NewFilesystem("icegate", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	be, err := NewBackend(cat, Options{}).NewSession(ctx, StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		t.Fatal(err)
	}
	s := be.(*session)
	for _, q := range []string{"CREATE SCHEMA ns",
		"CREATE TABLE ns.t (id bigint, k int, v text) TBLPROPERTIES ('write.delete.mode'='merge-on-read')",
		"INSERT INTO ns.t SELECT g % 300, CASE WHEN g % 7 = 0 THEN NULL ELSE g % 50 END, 'a' || g FROM generate_series(1, 2000) g",
		"INSERT INTO ns.t SELECT g, g, 'b' || g FROM generate_series(250, 350) g",
		"DELETE FROM ns.t WHERE v IN ('a5', 'a305', 'b260')"} {
		if err := runAll(s, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	query := func(sql string) string {
		t.Helper()
		stmts, err := s.Prepare(ctx, sql, nil)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		rows, err := stmts[0].Execute(ctx, nil)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		defer rows.Close()
		var out []string
		for {
			b, err := rows.Next(ctx)
			if err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			if b == nil {
				break
			}
			for i := range int(b.NumRows()) {
				var row []string
				for c := range int(b.NumCols()) {
					row = append(row, b.Column(c).ValueStr(i))
				}
				out = append(out, strings.Join(row, "|"))
			}
		}
		return strings.Join(out, "\n")
	}
	for _, c := range []struct{ fast, slow string }{
		{"id = 5", "id + 0 = 5"},
		{"id = 260", "id + 0 = 260"},
		{"id = 1000", "id + 0 = 1000"},
		{"id = -1", "id + 0 = -1"},
		{"k = 7", "k + 0 = 7"},
		{"k = 300", "k + 0 = 300"},
		{"id IN (5, 299, 300, 5)", "id + 0 IN (5, 299, 300)"},
		{"k IN (1, 2)", "k + 0 IN (1, 2)"},
		{"id = 5 AND k = 5", "id + 0 = 5 AND k + 0 = 5"},
		{"id = 300 AND v > 'a'", "id + 0 = 300 AND v > 'a'"},
	} {
		for _, cols := range []string{"id, k, v", "v, _pos, _file LIKE '%.parquet'"} {
			fast := query("SELECT " + cols + " FROM ns.t WHERE " + c.fast + " ORDER BY v")
			for range 2 { // the second time from the cached index
				if got := query("SELECT " + cols + " FROM ns.t WHERE " + c.fast + " ORDER BY v"); got != fast {
					t.Errorf("%s: differs when repeated", c.fast)
				}
			}
			if slow := query("SELECT " + cols + " FROM ns.t WHERE " + c.slow + " ORDER BY v"); fast != slow {
				t.Errorf("WHERE %s (%s):\n%s\nwant (WHERE %s)\n%s", c.fast, cols, fast, c.slow, slow)
			}
		}
	}
	if s.backend.columns.Len() == 0 {
		t.Errorf("no column cached")
	}
}
