package duckdbgo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Which Parquet files DuckDB reads. With FilesOwn (the default, the fair
// comparison) DuckDB reads files it wrote itself from the rows of
// icegate's tables, with its own defaults for row groups, encodings and
// compression; with FilesIcegate it reads icegate's data files directly.
const (
	FilesOwn     = "own"
	FilesIcegate = "icegate"
)

// ParseFilesMode reads the value of ICEGATE_BENCH_DUCKDB_FILES ("" is
// FilesOwn).
func ParseFilesMode(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", FilesOwn:
		return FilesOwn, nil
	case FilesIcegate:
		return FilesIcegate, nil
	}
	return "", fmt.Errorf("ICEGATE_BENCH_DUCKDB_FILES=%q: want %s or %s", s, FilesOwn, FilesIcegate)
}

// OwnFiles gives every table of files (DataFiles' output) one Parquet
// file that DuckDB writes into dir with
//
//	COPY (SELECT * FROM read_parquet([icegate's files])) TO 'dir/NAME.parquet' (FORMAT parquet)
//
// and DuckDB's defaults otherwise, and returns the new files by table. A
// table's file is written once: dir keeps, beside it, the list of the
// icegate files it was written from (NAME.sources), and a later call
// whose list is the same reuses it. Writing goes to a temporary name
// renamed when complete, so an interrupted run leaves no partial file
// behind under the final name. logf reports each table written or reused.
func OwnFiles(ctx context.Context, files map[string][]string, dir string, threads int, logf func(string, ...any)) (map[string][]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("directory for DuckDB's files: %w", err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var db *sql.DB
	var conn *sql.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
		if db != nil {
			db.Close()
		}
	}()
	out := make(map[string][]string, len(files))
	for _, name := range names {
		paths := files[name]
		if len(paths) == 0 {
			return nil, fmt.Errorf("table %s has no data files", name)
		}
		if strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
			return nil, fmt.Errorf("table name %q cannot name a file", name)
		}
		target := filepath.Join(dir, name+".parquet")
		sourcesPath := filepath.Join(dir, name+".sources")
		sources := strings.Join(paths, "\n") + "\n"
		out[name] = []string{target}
		if old, err := os.ReadFile(sourcesPath); err == nil && string(old) == sources {
			if _, err := os.Stat(target); err == nil {
				logf("DuckDB's own file for %s: reused %s", name, target)
				continue
			}
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w", sourcesPath, err)
		}
		if conn == nil {
			var err error
			if db, err = sql.Open("duckdb", fmt.Sprintf("?threads=%d", threads)); err != nil {
				return nil, fmt.Errorf("open DuckDB: %w", err)
			}
			if conn, err = db.Conn(ctx); err != nil {
				return nil, fmt.Errorf("connect to DuckDB: %w", err)
			}
		}
		// The old list goes first: a crash between the two writes below
		// leaves a file without its list, which the next run rewrites.
		if err := os.Remove(sourcesPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("remove %s: %w", sourcesPath, err)
		}
		tmp := target + ".tmp"
		quoted := make([]string, len(paths))
		for i, p := range paths {
			quoted[i] = quote(p)
		}
		copySQL := "COPY (SELECT * FROM read_parquet([" + strings.Join(quoted, ", ") + "])) TO " + quote(tmp) + " (FORMAT parquet)"
		if _, err := conn.ExecContext(ctx, copySQL); err != nil {
			os.Remove(tmp)
			return nil, fmt.Errorf("DuckDB: write %s's rows to %s: %w", name, tmp, err)
		}
		if err := os.Rename(tmp, target); err != nil {
			return nil, fmt.Errorf("DuckDB's file for %s: %w", name, err)
		}
		if err := os.WriteFile(sourcesPath, []byte(sources), 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", sourcesPath, err)
		}
		logf("DuckDB's own file for %s: wrote %s from %d icegate files", name, target, len(paths))
	}
	return out, nil
}

// quote is s as an SQL string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
