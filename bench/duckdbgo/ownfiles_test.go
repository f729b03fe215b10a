package duckdbgo

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseFilesMode(t *testing.T) {
	for _, c := range []struct {
		in, want string
		err      bool
	}{
		{"", FilesOwn, false},
		{"own", FilesOwn, false},
		{" Icegate ", FilesIcegate, false},
		{"theirs", "", true},
	} {
		got, err := ParseFilesMode(c.in)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("ParseFilesMode(%q) = %q, %v; want %q, error %v", c.in, got, err, c.want, c.err)
		}
	}
}

// TestOwnFiles writes two Parquet files as a table's data files, has
// DuckDB copy them into its own file, and checks the rows, the reuse of
// the file while the sources stay the same and its rewrite when they
// change.
func TestOwnFiles(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	write := func(name string, lo, hi int) string {
		p := filepath.Join(src, name)
		q := fmt.Sprintf("COPY (SELECT range AS k, 'v' || range AS s, DATE '1994-01-01' + range::int AS d FROM range(%d, %d)) TO %s (FORMAT parquet)", lo, hi, quote(p))
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b, c := write("a.parquet", 0, 100), write("b.parquet", 100, 250), write("c.parquet", 250, 300)
	dir := filepath.Join(t.TempDir(), "own")
	var logs []string
	logf := func(f string, args ...any) { logs = append(logs, fmt.Sprintf(f, args...)) }
	check := func(files map[string][]string, rows, sum int64) {
		t.Helper()
		if len(files["t"]) != 1 || files["t"][0] != filepath.Join(dir, "t.parquet") {
			t.Fatalf("files %v, want one file t.parquet in %s", files, dir)
		}
		var n, s int64
		var ds string
		q := "SELECT count(*), sum(k), min(d)::text FROM read_parquet(" + quote(files["t"][0]) + ")"
		if err := db.QueryRowContext(ctx, q).Scan(&n, &s, &ds); err != nil {
			t.Fatal(err)
		}
		if n != rows || s != sum || ds != "1994-01-01" {
			t.Errorf("own file holds %d rows summing to %d from %s, want %d rows summing to %d from 1994-01-01", n, s, ds, rows, sum)
		}
	}
	files, err := OwnFiles(ctx, map[string][]string{"t": {a, b}}, dir, 1, logf)
	if err != nil {
		t.Fatal(err)
	}
	check(files, 250, 249*250/2)
	before, err := os.Stat(files["t"][0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OwnFiles(ctx, map[string][]string{"t": {a, b}}, dir, 1, logf); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(files["t"][0])
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) || !strings.Contains(logs[len(logs)-1], "reused") {
		t.Errorf("the same sources wrote the file again: %v", logs)
	}
	files, err = OwnFiles(ctx, map[string][]string{"t": {a, b, c}}, dir, 1, logf)
	if err != nil {
		t.Fatal(err)
	}
	check(files, 300, 299*300/2)
	if _, err := os.Stat(files["t"][0] + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("the temporary file remains: %v", err)
	}
}
