package conf

import (
	"fmt"
	"sort"
	"strings"
)

// EnvPrefix starts every environment variable conf reads.
const EnvPrefix = "ICEGATE_"

// EnvVars maps each environment variable to the key it sets. ICEGATE_PASSWORD
// is the only source of the built-in user's password. ICEGATE_PATHS_PREFIXES
// holds comma-separated FROM=TO pairs and replaces the file's map as a whole.
var EnvVars = map[string]string{
	"ICEGATE_LISTEN":                 keyListen,
	"ICEGATE_WAREHOUSE":              keyWarehouse,
	"ICEGATE_CATALOG_NAME":           keyCatalogName,
	"ICEGATE_PATHS_PREFIXES":         keyPathPrefixes,
	"ICEGATE_TLS_CERT":               keyTLSCert,
	"ICEGATE_TLS_KEY":                keyTLSKey,
	"ICEGATE_PASSWORD":               keyPassword,
	"ICEGATE_MAX_CONNECTIONS":        keyMaxConnections,
	"ICEGATE_MAX_MESSAGE_SIZE":       keyMaxMessageSize,
	"ICEGATE_AUTHENTICATION_TIMEOUT": keyAuthTimeout,
	"ICEGATE_LOG_LEVEL":              keyLogLevel,
	"ICEGATE_MAX_STATEMENT_MEM":      keyMaxStmtMem,
	"ICEGATE_TEMP_DIRECTORY":         keyTempDirectory,
	"ICEGATE_ROLES_DIRECTORY":        keyRolesDirectory,
	"ICEGATE_REST_LISTEN":            keyRESTListen,
	"ICEGATE_REST_VEND_CREDENTIALS":  keyRESTVend,

	"ICEGATE_HTTP_LISTEN":                keyHTTPListen,
	"ICEGATE_LOG_STATEMENT":              keyLogStatement,
	"ICEGATE_LOG_MIN_DURATION_STATEMENT": keyLogMinDuration,

	// Access rules and TLS requirements.
	"ICEGATE_ACCESS_HBA_FILE": keyAccessHBAFile,
	"ICEGATE_TLS_REQUIRED":    keyTLSRequired,
	"ICEGATE_TLS_CA":          keyTLSCA,
	// operations (ops.go)
	"ICEGATE_SHUTDOWN_DRAIN_TIMEOUT": keyShutdownDrain,
	"ICEGATE_AUDIT_FILE":             keyAuditFile,
	"ICEGATE_AUDIT_FSYNC":            keyAuditSync,
}

// harnessVariable reports whether an ICEGATE_* name belongs to the test
// and benchmark harnesses (ICEGATE_TEST_*, ICEGATE_BENCH_*, ICEGATE_PGDIFF_*,
// and the S3 test server's ICEGATE_VERSITYGW and ICEGATE_REQUIRE_S3, which
// CI exports for the whole run), which the server ignores.
func harnessVariable(name string) bool {
	for _, p := range []string{EnvPrefix + "TEST_", EnvPrefix + "BENCH_", EnvPrefix + "PGDIFF_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return name == EnvPrefix+"VERSITYGW" || name == EnvPrefix+"REQUIRE_S3"
}

// readEnv returns the ICEGATE_* variables of env ("NAME=value" entries) by
// the key they set. An ICEGATE_* variable conf does not know is an error, so
// a misspelt name does not go unnoticed.
func readEnv(env []string) (map[string]string, error) {
	out := make(map[string]string)
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, EnvPrefix) || harnessVariable(name) {
			continue
		}
		key, ok := EnvVars[name]
		if !ok {
			return nil, fmt.Errorf("conf: environment %s: unknown variable (known: %s)", name, knownEnv())
		}
		out[key] = value
	}
	return out, nil
}

func knownEnv() string {
	names := make([]string, 0, len(EnvVars))
	for n := range EnvVars {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// parsePrefixPairs reads "FROM=TO,FROM=TO" as written in
// ICEGATE_PATHS_PREFIXES.
func parsePrefixPairs(s string) (map[string]string, error) {
	out := make(map[string]string)
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		from, to, ok := strings.Cut(pair, "=")
		if !ok || from == "" || to == "" {
			return nil, fmt.Errorf("conf: %s: %q is not FROM=TO", keyPathPrefixes, pair)
		}
		out[from] = to
	}
	return out, nil
}
