// Command migrate is the client matrix's golang-migrate scenario (see
// ../README.md): github.com/golang-migrate/migrate/v4 with its pgx/v5
// driver runs the migrations of migrations/ in a schema of their own (the
// connection's search_path), as a service does at start: up migrations
// creating tables with serial ids and defaults, one in an explicit
// transaction block, a sequence and ALTER COLUMN SET DEFAULT; its
// schema_migrations table; its pg_advisory_lock locking, waited on while
// another session holds the lock; a failed migration leaving the version
// dirty (and its CREATE TABLE rolled back), Force, and down to nothing. It
// connects with the PG* variables and passes against PostgreSQL 15 too.
package main

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	pgxmigrate "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	_ "github.com/jackc/pgx/v5/stdlib"
)

//go:embed migrations/*.sql
var migrations embed.FS

const schema = "gomigrate"

var nilCtx = context.Background()

var failures int

// step runs one step and prints ok or FAIL; without ICEGATE_CLIENTS_ALL the
// first failure ends the scenario.
func step(name string, fn func() error) {
	if err := fn(); err != nil {
		fmt.Printf("FAIL %s: %v\n", name, err)
		failures++
		if os.Getenv("ICEGATE_CLIENTS_ALL") == "" {
			os.Exit(1)
		}
		return
	}
	fmt.Printf("ok   %s\n", name)
}

// newMigrate opens a migrate instance over a pool of its own whose
// sessions have search_path set to the scenario's schema.
func newMigrate(dsn string) (*migrate.Migrate, error) {
	db, err := sql.Open("pgx", dsn+" search_path="+schema)
	if err != nil {
		return nil, err
	}
	drv, err := pgxmigrate.WithInstance(db, &pgxmigrate.Config{})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("driver: %w", err)
	}
	src, err := iofs.New(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", drv)
	if err != nil {
		return nil, err
	}
	m.LockTimeout = 5 * time.Second
	return m, nil
}

// wantVersion checks m's version and dirty flag and the one row of
// schema_migrations.
func wantVersion(m *migrate.Migrate, admin *sql.DB, version uint, dirty bool) error {
	v, d, err := m.Version()
	if err != nil {
		return fmt.Errorf("Version: %w", err)
	}
	if v != version || d != dirty {
		return fmt.Errorf("Version %d dirty %v, want %d dirty %v", v, d, version, dirty)
	}
	var rows []string
	r, err := admin.Query(`SELECT version, dirty FROM ` + schema + `.schema_migrations`)
	if err != nil {
		return err
	}
	defer r.Close()
	for r.Next() {
		var ver int64
		var dir bool
		if err := r.Scan(&ver, &dir); err != nil {
			return err
		}
		rows = append(rows, fmt.Sprintf("%d/%v", ver, dir))
	}
	if err := r.Err(); err != nil {
		return err
	}
	if want := fmt.Sprintf("%d/%v", version, dirty); len(rows) != 1 || rows[0] != want {
		return fmt.Errorf("schema_migrations holds %v, want [%s]", rows, want)
	}
	return nil
}

// tables lists the base tables of the scenario's schema.
func tables(admin *sql.DB) (string, error) {
	r, err := admin.Query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`, schema)
	if err != nil {
		return "", err
	}
	defer r.Close()
	var names []string
	for r.Next() {
		var n string
		if err := r.Scan(&n); err != nil {
			return "", err
		}
		names = append(names, n)
	}
	return strings.Join(names, ","), r.Err()
}

func main() {
	dsn := fmt.Sprintf("host=%s port=%s user=%s dbname=%s sslmode=disable", os.Getenv("PGHOST"), os.Getenv("PGPORT"), os.Getenv("PGUSER"), os.Getenv("PGDATABASE"))
	var admin *sql.DB
	step("connect and create the schema", func() (err error) {
		if admin, err = sql.Open("pgx", dsn); err != nil {
			return err
		}
		for _, q := range []string{
			`DROP TABLE IF EXISTS ` + schema + `.orders, ` + schema + `.users, ` + schema + `.audit, ` + schema + `.schema_migrations`,
			`DROP SEQUENCE IF EXISTS ` + schema + `.invoice_no`,
			`CREATE SCHEMA IF NOT EXISTS ` + schema,
		} {
			if _, err := admin.Exec(q); err != nil && !strings.Contains(err.Error(), "3F000") {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		return nil
	})
	var m *migrate.Migrate
	step("open: creates schema_migrations in the search_path schema", func() (err error) {
		if m, err = newMigrate(dsn); err != nil {
			return err
		}
		if got, err := tables(admin); err != nil || got != "schema_migrations" {
			return fmt.Errorf("tables %q (%v)", got, err)
		}
		if _, _, err := m.Version(); !errors.Is(err, migrate.ErrNilVersion) {
			return fmt.Errorf("Version of a fresh schema: %v", err)
		}
		return nil
	})
	step("Steps(2): serial, defaults, a transaction block with DDL and DML", func() error {
		if err := m.Steps(2); err != nil {
			return err
		}
		if err := wantVersion(m, admin, 2, false); err != nil {
			return err
		}
		var got []string
		r, err := admin.Query(`SELECT u.id, u.name, u.active, o.id, o.total::text, o.status, o.details->>'source'
			FROM ` + schema + `.users u JOIN ` + schema + `.orders o ON o.user_id = u.id ORDER BY u.id`)
		if err != nil {
			return err
		}
		defer r.Close()
		for r.Next() {
			var uid, oid int64
			var name, total, status, src string
			var active bool
			if err := r.Scan(&uid, &name, &active, &oid, &total, &status, &src); err != nil {
				return err
			}
			got = append(got, fmt.Sprintf("%d %s %v %d %s %s %s", uid, name, active, oid, total, status, src))
		}
		want := "1 ann true 1 9.99 new migration|2 ben true 2 9.99 new migration"
		if s := strings.Join(got, "|"); s != want {
			return fmt.Errorf("got %q, want %q", s, want)
		}
		return r.Err()
	})
	step("pg_advisory_lock: a migration waits for the lock another session holds", func() error {
		var db string
		if err := admin.QueryRow(`SELECT current_database()`).Scan(&db); err != nil {
			return err
		}
		key, err := database.GenerateAdvisoryLockId(db, schema, "schema_migrations")
		if err != nil {
			return err
		}
		conn, err := admin.Conn(nilCtx)
		if err != nil {
			return err
		}
		defer conn.Close()
		m2, err := newMigrate(dsn) // takes and releases the lock once itself
		if err != nil {
			return err
		}
		if _, err := conn.ExecContext(nilCtx, `SELECT pg_advisory_lock($1)`, key); err != nil {
			return err
		}
		m2.LockTimeout = 500 * time.Millisecond
		err = m2.Migrate(3)
		if _, err := conn.ExecContext(nilCtx, `SELECT pg_advisory_unlock($1)`, key); err != nil {
			return err
		}
		if !errors.Is(err, migrate.ErrLockTimeout) {
			return fmt.Errorf("Migrate under another session's lock: %v, want %v", err, migrate.ErrLockTimeout)
		}
		// The waiting pg_advisory_lock gets the lock once it is released;
		// closing m2 ends its session, which releases it.
		time.Sleep(200 * time.Millisecond)
		m2.Close()
		var free bool
		for range 50 {
			if err := conn.QueryRowContext(nilCtx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&free); err != nil {
				return err
			}
			if free {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if !free {
			return fmt.Errorf("the lock stays held after the waiting session ended")
		}
		_, err = conn.ExecContext(nilCtx, `SELECT pg_advisory_unlock($1)`, key)
		return err
	})
	step("Migrate(3): sequence, ADD COLUMN, ALTER COLUMN SET DEFAULT nextval", func() error {
		if err := m.Migrate(3); err != nil {
			return err
		}
		if err := wantVersion(m, admin, 3, false); err != nil {
			return err
		}
		var id, invoice int64
		var status string
		if err := admin.QueryRow(`INSERT INTO `+schema+`.orders (user_id) VALUES ($1) RETURNING id, invoice, status`, 2).Scan(&id, &invoice, &status); err != nil {
			return err
		}
		if id != 3 || invoice != 1000 || status != "open" {
			return fmt.Errorf("new order id %d invoice %d status %s, want 3 1000 open", id, invoice, status)
		}
		return nil
	})
	step("a failing migration leaves the version dirty and its CREATE rolled back", func() error {
		err := m.Up()
		if err == nil || !strings.Contains(err.Error(), "audit_missing") {
			return fmt.Errorf("Up: %v, want the migration's error", err)
		}
		if err := wantVersion(m, admin, 4, true); err != nil {
			return err
		}
		if got, err := tables(admin); err != nil || got != "orders,schema_migrations,users" {
			return fmt.Errorf("tables %q (%v)", got, err)
		}
		var dirty migrate.ErrDirty
		if err := m.Up(); !errors.As(err, &dirty) || dirty.Version != 4 {
			return fmt.Errorf("Up when dirty: %v", err)
		}
		return nil
	})
	step("Force(3) clears the dirty flag", func() error {
		if err := m.Force(3); err != nil {
			return err
		}
		return wantVersion(m, admin, 3, false)
	})
	step("Steps(-1): down one (DROP COLUMN, DROP SEQUENCE)", func() error {
		if err := m.Steps(-1); err != nil {
			return err
		}
		if err := wantVersion(m, admin, 2, false); err != nil {
			return err
		}
		var n int
		if err := admin.QueryRow(`SELECT count(*) FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'orders'`, schema).Scan(&n); err != nil {
			return err
		}
		if n != 5 {
			return fmt.Errorf("orders has %d columns after down, want 5", n)
		}
		var def string
		if err := admin.QueryRow(`SELECT column_default FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'orders' AND column_name = 'status'`, schema).Scan(&def); err != nil {
			return err
		}
		if def != "'new'::text" {
			return fmt.Errorf("status default %q", def)
		}
		return nil
	})
	step("Down: every migration undone", func() error {
		if err := m.Down(); err != nil {
			return err
		}
		if _, _, err := m.Version(); !errors.Is(err, migrate.ErrNilVersion) {
			return fmt.Errorf("Version after Down: %v", err)
		}
		if got, err := tables(admin); err != nil || got != "schema_migrations" {
			return fmt.Errorf("tables %q (%v)", got, err)
		}
		return nil
	})
	step("Up again from nothing stops at the broken one", func() error {
		if err := m.Migrate(3); err != nil {
			return err
		}
		return wantVersion(m, admin, 3, false)
	})
	step("close and drop", func() error {
		if serr, derr := m.Close(); serr != nil || derr != nil {
			return fmt.Errorf("close: %v %v", serr, derr)
		}
		for _, q := range []string{
			`DROP TABLE ` + schema + `.orders, ` + schema + `.users, ` + schema + `.schema_migrations`,
			`DROP SEQUENCE ` + schema + `.invoice_no`,
			`DROP SCHEMA ` + schema,
		} {
			if _, err := admin.Exec(q); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		return admin.Close()
	})
	if failures > 0 {
		os.Exit(1)
	}
}
