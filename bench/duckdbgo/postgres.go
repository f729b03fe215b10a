package duckdbgo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/bench/tpch"
)

// Postgres is the third engine: a PostgreSQL database holding the TPC-H
// tables with their keys and indexes (pgschema.go), queried over pgx on one
// connection with at most threads processes per query (the leader and
// threads-1 parallel workers) and a statement timeout.
type Postgres struct {
	dsn     string
	threads int
	timeout time.Duration
	conn    *pgx.Conn
}

// pgQueryCanceled is PostgreSQL's SQLSTATE for a statement that ran past
// statement_timeout.
const pgQueryCanceled = "57014"

// OpenPostgres connects to dsn and sets the session up for the benchmark.
func OpenPostgres(ctx context.Context, dsn string, threads int, timeout time.Duration) (*Postgres, error) {
	p := &Postgres{dsn: dsn, threads: threads, timeout: timeout}
	if err := p.connect(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// connect opens the connection (again, after one a timeout closed) and
// sets max_parallel_workers_per_gather and statement_timeout.
func (p *Postgres) connect(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, p.dsn)
	if err != nil {
		return fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	set := fmt.Sprintf("SET max_parallel_workers_per_gather = %d; SET statement_timeout = %d",
		max(p.threads-1, 0), p.timeout.Milliseconds())
	if _, err := conn.Exec(ctx, set); err != nil {
		conn.Close(ctx)
		return fmt.Errorf("PostgreSQL session settings: %w", err)
	}
	p.conn = conn
	return nil
}

// Version returns PostgreSQL's version string.
func (p *Postgres) Version(ctx context.Context) (string, error) {
	var v string
	if err := p.conn.QueryRow(ctx, "SHOW server_version").Scan(&v); err != nil {
		return "", fmt.Errorf("PostgreSQL version: %w", err)
	}
	return v, nil
}

// Counts returns the row count of each of the eight TPC-H tables the
// database holds; a table it lacks is absent from the map.
func (p *Postgres) Counts(ctx context.Context) (map[string]int64, error) {
	counts := map[string]int64{}
	for _, t := range tpch.Tables {
		var exists bool
		if err := p.conn.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", t.Name).Scan(&exists); err != nil {
			return nil, fmt.Errorf("look for PostgreSQL table %s: %w", t.Name, err)
		}
		if !exists {
			continue
		}
		var n int64
		if err := p.conn.QueryRow(ctx, "SELECT count(*) FROM "+t.Name).Scan(&n); err != nil {
			return nil, fmt.Errorf("count PostgreSQL table %s: %w", t.Name, err)
		}
		counts[t.Name] = n
	}
	return counts, nil
}

// Load makes the database hold the TPC-H tables at scale factor sf with
// want rows each (icegate's counts of the same tables). When every table
// already has its count it does nothing and returns false; otherwise it
// drops the eight tables, creates them, streams the generator's rows
// through COPY FROM STDIN, adds the keys and indexes, and runs VACUUM
// ANALYZE, logging each step's time with logf.
func (p *Postgres) Load(ctx context.Context, sf float64, want map[string]int64, logf func(string, ...any)) (bool, error) {
	have, err := p.Counts(ctx)
	if err != nil {
		return false, err
	}
	if sameCounts(have, want) {
		logf("PostgreSQL already holds scale factor %v (%d lineitem rows): not loaded again", sf, have["lineitem"])
		return false, nil
	}
	if _, err := p.conn.Exec(ctx, "SET statement_timeout = 0; SET maintenance_work_mem = '256MB'"); err != nil {
		return false, fmt.Errorf("PostgreSQL load settings: %w", err)
	}
	start := time.Now()
	for i := len(tpch.Tables) - 1; i >= 0; i-- { // referencing tables first
		if _, err := p.conn.Exec(ctx, "DROP TABLE IF EXISTS "+tpch.Tables[i].Name+" CASCADE"); err != nil {
			return false, fmt.Errorf("drop PostgreSQL table %s: %w", tpch.Tables[i].Name, err)
		}
	}
	for _, t := range tpch.Tables {
		if err := p.copyTable(ctx, t, sf, want[t.Name], logf); err != nil {
			return false, err
		}
	}
	steps := append(append(append([]string{}, pgPrimaryKeys...), pgForeignKeys...), pgIndexes...)
	names := make([]string, len(tpch.Tables))
	for i, t := range tpch.Tables {
		names[i] = t.Name
	}
	steps = append(steps, "VACUUM ANALYZE "+strings.Join(names, ", "))
	for _, s := range steps {
		t0 := time.Now()
		if _, err := p.conn.Exec(ctx, s); err != nil {
			return false, fmt.Errorf("PostgreSQL %s: %w", s, err)
		}
		logf("PostgreSQL %s: %v", s, time.Since(t0).Round(time.Millisecond))
	}
	if _, err := p.conn.Exec(ctx, "RESET maintenance_work_mem; "+fmt.Sprintf("SET statement_timeout = %d", p.timeout.Milliseconds())); err != nil {
		return false, fmt.Errorf("PostgreSQL session settings: %w", err)
	}
	logf("PostgreSQL scale factor %v loaded, keyed, indexed and analyzed in %v", sf, time.Since(start).Round(time.Millisecond))
	return true, nil
}

// copyTable creates t and fills it with COPY FROM STDIN from the
// generator, checking that it received want rows.
func (p *Postgres) copyTable(ctx context.Context, t tpch.Table, sf float64, want int64, logf func(string, ...any)) error {
	if _, err := p.conn.Exec(ctx, "CREATE TABLE "+t.Name+" ("+t.Columns+")"); err != nil {
		return fmt.Errorf("create PostgreSQL table %s: %w", t.Name, err)
	}
	start := time.Now()
	pr, pw := io.Pipe()
	go func() {
		_, _, err := tpch.WriteTable(pw, t, sf, tpch.Text)
		pw.CloseWithError(err)
	}()
	tag, err := p.conn.PgConn().CopyFrom(ctx, pr, "COPY "+t.Name+" FROM STDIN")
	pr.CloseWithError(io.ErrClosedPipe) // unblocks the generator after a failed COPY
	if err != nil {
		return fmt.Errorf("COPY PostgreSQL table %s: %w", t.Name, err)
	}
	if tag.RowsAffected() != want {
		return fmt.Errorf("COPY PostgreSQL table %s: %d rows, icegate's has %d", t.Name, tag.RowsAffected(), want)
	}
	logf("PostgreSQL scale factor %v: copied %s (%d rows) in %v", sf, t.Name, tag.RowsAffected(), time.Since(start).Round(time.Millisecond))
	return nil
}

// sameCounts reports whether have holds every table of want with its
// count.
func sameCounts(have, want map[string]int64) bool {
	if len(want) != len(tpch.Tables) {
		return false
	}
	for name, n := range want {
		if h, ok := have[name]; !ok || h != n {
			return false
		}
	}
	return true
}

// Drain runs query and reads every row (undecoded), as icegate's timed
// runs do.
func (p *Postgres) Drain(ctx context.Context, query string) (int, error) {
	var n int
	err := p.run(ctx, func(ctx context.Context) (err error) {
		n, err = DrainPg(ctx, p.conn, query)
		return err
	})
	return n, err
}

// Answer runs query and returns its rows in Answer's form.
func (p *Postgres) Answer(ctx context.Context, query string) (Answer, error) {
	var a Answer
	err := p.run(ctx, func(ctx context.Context) (err error) {
		a, err = AnswerPg(ctx, p.conn, query)
		return err
	})
	return a, err
}

// run runs f on the connection, reconnecting first if an earlier query
// left it closed. The server's statement_timeout ends a long query and
// keeps the connection; a deadline a minute later is the fallback should
// the server not answer, and closes it.
func (p *Postgres) run(ctx context.Context, f func(context.Context) error) error {
	if p.conn.IsClosed() {
		if err := p.connect(ctx); err != nil {
			return err
		}
	}
	qctx, cancel := context.WithTimeout(ctx, p.timeout+time.Minute)
	defer cancel()
	err := f(qctx)
	if IsTimeout(err) {
		return fmt.Errorf("%w: %w", ErrTimeout, err)
	}
	return err
}

// ErrTimeout marks a PostgreSQL query that ran past the benchmark's
// timeout.
var ErrTimeout = errors.New("PostgreSQL timeout")

// IsTimeout reports whether err is a statement cancelled by
// statement_timeout, or a deadline that passed.
func IsTimeout(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == pgQueryCanceled
	}
	return errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err)
}

// Close closes the connection.
func (p *Postgres) Close(ctx context.Context) error {
	return p.conn.Close(ctx)
}
