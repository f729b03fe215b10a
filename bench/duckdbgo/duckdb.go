package duckdbgo

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" driver
)

// DuckDB is an in-memory DuckDB database whose views are the tables of an
// icegate warehouse, read from their Parquet data files.
type DuckDB struct {
	db   *sql.DB
	conn *sql.Conn
}

// OpenDuckDB opens an in-memory DuckDB at threads threads and creates, for
// every table of files (DataFiles' output), a view over read_parquet of its
// files.
func OpenDuckDB(ctx context.Context, files map[string][]string, threads int) (*DuckDB, error) {
	db, err := sql.Open("duckdb", fmt.Sprintf("?threads=%d", threads))
	if err != nil {
		return nil, fmt.Errorf("open DuckDB: %w", err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to DuckDB: %w", err)
	}
	d := &DuckDB{db: db, conn: conn}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		paths := files[name]
		if len(paths) == 0 {
			d.Close()
			return nil, fmt.Errorf("table %s has no data files", name)
		}
		quoted := make([]string, len(paths))
		for i, p := range paths {
			quoted[i] = "'" + strings.ReplaceAll(p, "'", "''") + "'"
		}
		view := `CREATE VIEW "` + strings.ReplaceAll(name, `"`, `""`) + `" AS SELECT * FROM read_parquet([` + strings.Join(quoted, ", ") + `])`
		if _, err := conn.ExecContext(ctx, view); err != nil {
			d.Close()
			return nil, fmt.Errorf("DuckDB view %s: %w", name, err)
		}
	}
	return d, nil
}

// LimitMemory sets DuckDB's memory_limit (for example 4GB) and the
// directory it spills to past it.
func (d *DuckDB) LimitMemory(ctx context.Context, limit, tempDir string) error {
	q := "SET memory_limit = '" + strings.ReplaceAll(limit, "'", "''") + "'; SET temp_directory = '" +
		strings.ReplaceAll(tempDir, "'", "''") + "'"
	if _, err := d.conn.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("DuckDB memory limit %s: %w", limit, err)
	}
	return nil
}

// Version returns DuckDB's version string.
func (d *DuckDB) Version(ctx context.Context) (string, error) {
	var v string
	if err := d.conn.QueryRowContext(ctx, "SELECT version()").Scan(&v); err != nil {
		return "", fmt.Errorf("DuckDB version: %w", err)
	}
	return v, nil
}

// Threads returns DuckDB's current thread setting.
func (d *DuckDB) Threads(ctx context.Context) (int, error) {
	var n int
	if err := d.conn.QueryRowContext(ctx, "SELECT current_setting('threads')").Scan(&n); err != nil {
		return 0, fmt.Errorf("DuckDB threads: %w", err)
	}
	return n, nil
}

// Drain runs query and reads every row, returning how many there were.
func (d *DuckDB) Drain(ctx context.Context, query string) (int, error) {
	rows, err := d.conn.QueryContext(ctx, query)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}

// Answer runs query and returns its rows in Answer's form.
func (d *DuckDB) Answer(ctx context.Context, query string) (Answer, error) {
	rows, err := d.conn.QueryContext(ctx, query)
	if err != nil {
		return Answer{}, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Columns: cols, Rows: [][]any{}}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return Answer{}, err
		}
		for i, v := range vals {
			if vals[i], err = duckValue(v); err != nil {
				return Answer{}, fmt.Errorf("column %s: %w", cols[i], err)
			}
		}
		a.Rows = append(a.Rows, vals)
	}
	return a, rows.Err()
}

// Close closes the connection and the database.
func (d *DuckDB) Close() error {
	err := d.conn.Close()
	if cerr := d.db.Close(); err == nil {
		err = cerr
	}
	return err
}
