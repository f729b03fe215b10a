// Package conf loads icegate's configuration: the file icegate.yaml, ICEGATE_*
// environment variables and command-line flags, through viper, with flags
// over environment over file over defaults. Load validates every value and
// fails with an error that names the offending key.
package conf

import "time"

// Config is the validated server configuration.
type Config struct {
	// Listen is the TCP address to serve (key "listen", default
	// "127.0.0.1:5433").
	Listen string
	// Warehouse is the root directory of the embedded filesystem catalog
	// (key "warehouse", default "./warehouse"). It need not exist when
	// empty; icegate never writes into it just to read.
	Warehouse string
	// CatalogName is the name of the embedded catalog (key "catalog.name",
	// default "icegate"): the database clients connect to, and the first
	// part of three-part names.
	CatalogName string
	// Catalogs are the catalogs served, each as the database of its name
	// (key "catalogs": a map from name to the catalog's properties, with
	// Iceberg's property names). Without the key, one filesystem catalog
	// called CatalogName over Warehouse; with it, that catalog too when
	// warehouse or catalog.name is set.
	Catalogs []Catalog
	// PathPrefixes maps prefixes of paths written in metadata (for example
	// "s3://bucket/warehouse/") to local directories (key "paths.prefixes").
	// Paths not covered resolve by their tail under the table's directory.
	PathPrefixes map[string]string
	// TLS, when both files are set, enables TLS (keys "tls.cert", "tls.key").
	TLSCert string
	TLSKey  string
	// Users are the configured logins with SCRAM-SHA-256 verifiers (key
	// "users": a list of {name, scram}). Never plaintext passwords.
	Users []User
	// Password is the password of the built-in user "icegate", from the
	// environment variable ICEGATE_PASSWORD only (never from a file).
	Password string
	// MaxConnections bounds concurrent client connections (key
	// "max_connections", default 100).
	MaxConnections int
	// MaxMessageSize bounds one client protocol message (Query, Parse,
	// Bind, CopyData...) in bytes (key "max_message_size", default 1 GiB,
	// PostgreSQL's limit). A larger message ends its connection.
	MaxMessageSize int
	// AuthenticationTimeout bounds how long a client may take from
	// connecting to being authenticated (key "authentication_timeout",
	// default 1 minute, PostgreSQL's; 1s to 10min). Past it the connection
	// is closed.
	AuthenticationTimeout time.Duration
	// MaxStatementMem is the most any session may set statement_mem to,
	// in bytes (key "max_statement_mem": a number of bytes or a size with
	// a unit, "8GB"). 0, the default, leaves the choice to the server: a
	// quarter of the machine's (or the cgroup's) memory.
	MaxStatementMem int64
	// TempDirectory is where statements whose sorts, aggregations and
	// joins pass statement_mem write their temporary files (key
	// "temp_directory", flag --temp-directory). Empty, the default, is
	// icegate-temp under the OS temporary directory ($TMPDIR or /tmp).
	// Each server process uses a subdirectory of its own and removes, when
	// it starts, those that ended processes left.
	TempDirectory string
	// RolesDirectory is where the roles store keeps its versions (key
	// roles.directory): empty for the default catalog's warehouse's
	// .icegate/roles, RolesOff for none.
	RolesDirectory string
	// LogLevel is debug, info, warn or error (key "log.level", default info).
	LogLevel string
	// RESTListen, when set, is the TCP address where the served catalogs
	// are also served over the Iceberg REST catalog protocol (key
	// "rest.listen", flag --rest-listen; off by default). It uses the TLS
	// settings and the logins of the PostgreSQL port.
	RESTListen string
	// RESTVendCredentials lets REST clients that ask for vended
	// credentials receive an object-store catalog's s3.* credentials with
	// the tables they load (key "rest.vend-credentials", default false).
	RESTVendCredentials bool

	// Monitoring and statement logging (conf/monitoring.go).
	Monitoring
	// Access holds the access rules and TLS requirements (keys access.*,
	// tls.required, tls.ca).
	Access Access

	// Operations (ops.go).

	// ShutdownDrainTimeout is how long SIGTERM lets running statements
	// finish before it cancels them (key "shutdown.drain-timeout", default
	// 30s; 0 cancels at once, as SIGINT does).
	ShutdownDrainTimeout time.Duration
	// AuditFile, when set, is the append-only JSON-lines audit log (key
	// "audit.file"; off by default).
	AuditFile string
	// AuditFsync is when the audit log is synced to disk (key
	// "audit.fsync"): "commit" (default) after every record of a change
	// or a login, "always" after every record, "never" leaves it to the
	// OS.
	AuditFsync string
}

// Catalog is one catalog of the "catalogs" key.
type Catalog struct {
	Name string
	// Type is CatalogHadoop (a warehouse directory, today's filesystem
	// catalog) or CatalogSQL (tables listed in a database, in the schema
	// of Iceberg's JDBC catalog).
	Type string
	// Properties are the catalog's other keys as written: warehouse,
	// uri, jdbc.user, jdbc.password, ...
	Properties map[string]string
}

// CacheBytes is the size limit of the local cache of a catalog's objects
// (its property s3.cache.max-bytes; DefaultCacheBytes when unset).
func (c Catalog) CacheBytes() int64 {
	v := c.Properties[PropCacheMaxBytes]
	if v == "" {
		return DefaultCacheBytes
	}
	n, err := parseSize(PropCacheMaxBytes, v)
	if err != nil {
		return DefaultCacheBytes
	}
	return n
}

// The properties of a catalog on an object store that are icegate's own
// (the others are Iceberg's: s3.endpoint, s3.access-key-id, ...).
const (
	// PropCacheDir is the directory of the local cache of objects read
	// (default: a new temporary directory, removed at exit).
	PropCacheDir = "s3.cache.directory"
	// PropCacheMaxBytes bounds that cache (0: no cache).
	PropCacheMaxBytes = "s3.cache.max-bytes"
	// DefaultCacheBytes is the cache's bound when none is set: 4 GB.
	DefaultCacheBytes = 4 << 30
)

// Catalog types.
const (
	CatalogHadoop = "hadoop"
	CatalogSQL    = "sql"
	// CatalogREST is a catalog served by an Iceberg REST catalog server
	// (uri); its warehouse, when set, names the server's warehouse.
	CatalogREST = "rest"
)

// User is a configured login.
type User struct {
	Name string
	// SCRAM is the stored verifier in PostgreSQL's pg_authid format:
	// SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>.
	SCRAM string
}
