package conf

import "time"

// Configuration keys as written in icegate.yaml.
const (
	keyListen         = "listen"
	keyWarehouse      = "warehouse"
	keyCatalogName    = "catalog.name"
	keyPathPrefixes   = "paths.prefixes"
	keyCatalogs       = "catalogs"
	keyTLSCert        = "tls.cert"
	keyTLSKey         = "tls.key"
	keyUsers          = "users"
	keyPassword       = "password"
	keyMaxConnections = "max_connections"
	keyMaxMessageSize = "max_message_size"
	keyAuthTimeout    = "authentication_timeout"
	keyMaxStmtMem     = "max_statement_mem"
	keyTempDirectory  = "temp_directory"
	keyLogLevel       = "log.level"
	keyRESTListen     = "rest.listen"
	keyRESTVend       = "rest.vend-credentials"
)

// Operations: shutdown and the audit log (ops.go).
const (
	keyShutdownDrain = "shutdown.drain-timeout"
	keyAuditFile     = "audit.file"
	keyAuditSync     = "audit.fsync"
)

// Monitoring and statement logging keys (conf/monitoring.go).
const (
	keyHTTPListen     = "http.listen"
	keyLogStatement   = "log.statement"
	keyLogMinDuration = "log.min_duration_statement"
)

// Roles and privileges (package roles).
const (
	// keyRolesDirectory is the directory of the roles store; empty: the
	// default catalog's warehouse directory's .icegate/roles; "off": no
	// roles, every user may do everything.
	keyRolesDirectory = "roles.directory"
	// RolesOff turns the roles store off.
	RolesOff = "off"
)

// Defaults for keys that have one.
const (
	DefaultListen         = "127.0.0.1:5433"
	DefaultWarehouse      = "./warehouse"
	DefaultCatalogName    = "icegate"
	DefaultMaxConnections = 100
	// DefaultMaxMessageSize is PostgreSQL's limit on one protocol
	// message: 1 GiB.
	DefaultMaxMessageSize = 1 << 30
	DefaultLogLevel       = "info"
	// DefaultAuthenticationTimeout is PostgreSQL's authentication_timeout
	// default.
	DefaultAuthenticationTimeout = time.Minute
	// DefaultFile is the configuration file read when no --config is given
	// and it exists in the working directory.
	DefaultFile = "icegate.yaml"
)

// minMaxMessageSize is the smallest max_message_size: every message that is
// not data (Sync, Execute, Describe...) must fit.
const minMaxMessageSize = 10000

// fileKeys are the scalar or list keys a configuration file may set.
// paths.prefixes is a map whose own keys are free-form.
var fileKeys = map[string]bool{
	keyListen:         true,
	keyWarehouse:      true,
	keyCatalogName:    true,
	keyTLSCert:        true,
	keyTLSKey:         true,
	keyUsers:          true,
	keyMaxConnections: true,
	keyMaxMessageSize: true,
	keyAuthTimeout:    true,
	keyMaxStmtMem:     true,
	keyTempDirectory:  true,
	keyLogLevel:       true,
	keyRESTListen:     true,
	keyRESTVend:       true,
	// operations (ops.go)
	keyShutdownDrain: true,
	keyAuditFile:     true,
	keyAuditSync:     true,

	keyHTTPListen:     true,
	keyLogStatement:   true,
	keyLogMinDuration: true,

	keyRolesDirectory: true,
}

// authentication_timeout's range, PostgreSQL's: 1 second to 10 minutes.
const (
	minAuthTimeout = time.Second
	maxAuthTimeout = 10 * time.Minute
)

// LogLevels are the accepted values of log.level.
var LogLevels = []string{"debug", "info", "warn", "error"}
