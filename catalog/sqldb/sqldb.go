// Package sqldb opens the database of a SQL catalog (catalog.SQL) from the
// uri property as Java's JdbcCatalog and PyIceberg's SqlCatalog spell it:
//
//	jdbc:postgresql://host:port/db?user=u&password=p   (Java)
//	postgresql://u:p@host:port/db, postgresql+psycopg2://...   (PyIceberg, SQLAlchemy)
//	postgres://...   (libpq)
//	jdbc:sqlite:PATH, jdbc:sqlite:file:PATH   (Java)
//	sqlite:///relative/path, sqlite:////absolute/path   (SQLAlchemy)
//	sqlite:// , jdbc:sqlite::memory:   (in memory: for tests)
//
// PostgreSQL is reached through pgx; SQLite through the SQLite library
// compiled in with cgo (icegate needs cgo anyway). Java's jdbc.user and
// jdbc.password properties fill in a PostgreSQL user and password the URI
// lacks. It imports catalog and nothing else of icegate.
package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3" // registers "sqlite3"

	"github.com/icegate/icegate/catalog"
)

// Open opens and pings the database uri names. props are the catalog's
// other properties (jdbc.user, jdbc.password).
func Open(ctx context.Context, uri string, props map[string]string) (*sql.DB, catalog.SQLDialect, error) {
	kind, dsn, err := Parse(uri, props)
	if err != nil {
		return nil, 0, err
	}
	var db *sql.DB
	switch kind {
	case catalog.SQLPostgres:
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			return nil, 0, fmt.Errorf("catalog uri %s: %w", redact(uri), err)
		}
		db = stdlib.OpenDB(*cfg)
	default:
		db, err = sql.Open("sqlite3", dsn)
		if err != nil {
			return nil, 0, fmt.Errorf("catalog uri %s: %w", redact(uri), err)
		}
		if strings.Contains(dsn, ":memory:") {
			// Every connection to :memory: is a database of its own.
			db.SetMaxOpenConns(1)
		}
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, 0, fmt.Errorf("catalog uri %s: %w", redact(uri), err)
	}
	return db, kind, nil
}

// Parse returns the dialect and the driver's connection string of uri.
func Parse(uri string, props map[string]string) (catalog.SQLDialect, string, error) {
	u := strings.TrimSpace(uri)
	lower := strings.ToLower(u)
	switch {
	case strings.HasPrefix(lower, "jdbc:postgresql:"):
		return postgres("postgresql:"+u[len("jdbc:postgresql:"):], props)
	case strings.HasPrefix(lower, "postgresql:"), strings.HasPrefix(lower, "postgres:"):
		return postgres(u, props)
	case strings.HasPrefix(lower, "postgresql+"):
		// SQLAlchemy's dialect+driver: the driver is Python's.
		if i := strings.Index(u, "://"); i > 0 {
			return postgres("postgresql"+u[i:], props)
		}
	case strings.HasPrefix(lower, "jdbc:sqlite:"):
		path := u[len("jdbc:sqlite:"):]
		path = strings.TrimPrefix(path, "file:")
		if path == "" || path == ":memory:" {
			return catalog.SQLite, sqliteDSN(":memory:"), nil
		}
		return catalog.SQLite, sqliteDSN(path), nil
	case strings.HasPrefix(lower, "sqlite:") || strings.HasPrefix(lower, "sqlite+"):
		i := strings.Index(u, "://")
		if i < 0 {
			break
		}
		rest := u[i+3:]
		if j := strings.IndexByte(rest, '?'); j >= 0 {
			rest = rest[:j]
		}
		switch {
		case rest == "" || rest == "/" || rest == "/:memory:":
			return catalog.SQLite, sqliteDSN(":memory:"), nil
		case strings.HasPrefix(rest, "/"):
			// SQLAlchemy: three slashes then a relative path, four for
			// an absolute one.
			return catalog.SQLite, sqliteDSN(rest[1:]), nil
		}
	}
	return 0, "", fmt.Errorf("catalog uri %s: not a PostgreSQL or SQLite database (jdbc:postgresql://, postgresql://, jdbc:sqlite:, sqlite:///)", redact(uri))
}

func postgres(u string, props map[string]string) (catalog.SQLDialect, string, error) {
	parsed, err := url.Parse(u)
	if err != nil {
		return 0, "", fmt.Errorf("catalog uri %s: %w", redact(u), err)
	}
	parsed.Scheme = "postgres"
	q := parsed.Query()
	if parsed.User == nil && q.Get("user") == "" && props["jdbc.user"] != "" {
		q.Set("user", props["jdbc.user"])
	}
	if q.Get("password") == "" && props["jdbc.password"] != "" {
		if _, has := parsed.User.Password(); parsed.User == nil || !has {
			q.Set("password", props["jdbc.password"])
		}
	}
	parsed.RawQuery = q.Encode()
	return catalog.SQLPostgres, parsed.String(), nil
}

// sqliteDSN is the driver's connection string of the database at path:
// writers wait for each other (busy timeout) and take the write lock when
// their transaction begins, so two never deadlock upgrading a read lock.
func sqliteDSN(path string) string {
	if path == ":memory:" {
		return "file::memory:?_busy_timeout=10000&_txlock=immediate"
	}
	return "file:" + path + "?_busy_timeout=10000&_txlock=immediate&_journal_mode=WAL"
}

// redact hides a password in uri.
func redact(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			return u.String()
		}
	}
	if i := strings.Index(strings.ToLower(uri), "password="); i >= 0 {
		end := strings.IndexAny(uri[i:], "&;")
		if end < 0 {
			return uri[:i] + "password=xxxxx"
		}
		return uri[:i] + "password=xxxxx" + uri[i+end:]
	}
	return uri
}
