package conf

import (
	"github.com/spf13/pflag"
)

// Flag names of the settings a command line may override.
const (
	FlagConfig         = "config"
	FlagListen         = "listen"
	FlagWarehouse      = "warehouse"
	FlagCatalogName    = "catalog-name"
	FlagTLSCert        = "tls-cert"
	FlagTLSKey         = "tls-key"
	FlagMaxConnections = "max-connections"
	FlagAuthTimeout    = "authentication-timeout"
	FlagLogLevel       = "log-level"
	FlagRESTListen     = "rest-listen"
	FlagTempDirectory  = "temp-directory"

	FlagHTTPListen = "http-listen"
)

// flagKeys maps each flag to the key it sets.
var flagKeys = map[string]string{
	FlagListen:         keyListen,
	FlagWarehouse:      keyWarehouse,
	FlagCatalogName:    keyCatalogName,
	FlagTLSCert:        keyTLSCert,
	FlagTLSKey:         keyTLSKey,
	FlagMaxConnections: keyMaxConnections,
	FlagAuthTimeout:    keyAuthTimeout,
	FlagLogLevel:       keyLogLevel,
	FlagRESTListen:     keyRESTListen,
	FlagTempDirectory:  keyTempDirectory,

	FlagHTTPListen: keyHTTPListen,
}

// AddFlags defines the configuration flags on fs. Their defaults are empty:
// only flags the user sets override the other layers, and the real defaults
// live in Load.
func AddFlags(fs *pflag.FlagSet) {
	fs.String(FlagConfig, "", "configuration file (default ./"+DefaultFile+" when present)")
	fs.String(FlagListen, "", "TCP address to serve, host:port (default "+DefaultListen+")")
	fs.String(FlagWarehouse, "", "root directory of the filesystem catalog (default "+DefaultWarehouse+")")
	fs.String(FlagCatalogName, "", "catalog name: the database clients connect to (default "+DefaultCatalogName+")")
	fs.String(FlagTLSCert, "", "TLS certificate file (PEM); needs --tls-key")
	fs.String(FlagTLSKey, "", "TLS private key file (PEM); needs --tls-cert")
	fs.Int(FlagMaxConnections, 0, "maximum concurrent client connections (default 100)")
	fs.String(FlagAuthTimeout, "", "longest time from connecting to authenticated, as seconds or with a unit (ms, s, min, h) (default 1min)")
	fs.String(FlagRESTListen, "", "TCP address to serve the catalogs over the Iceberg REST catalog protocol, host:port (default: off)")
	fs.String(FlagTempDirectory, "", "directory of temporary files of statements larger than statement_mem (default icegate-temp under the OS temporary directory)")
	fs.String(FlagHTTPListen, "", "TCP address of the monitoring endpoints /metrics, /healthz and /readyz, host:port (default: off)")
	fs.String(FlagLogLevel, "", "log level: debug, info, warn or error (default "+DefaultLogLevel+")")
}

// readFlags returns the values of the flags the user set, by key. Flags not
// defined on fs are ignored, so a command may define only some of them.
func readFlags(fs *pflag.FlagSet) map[string]string {
	out := make(map[string]string)
	if fs == nil {
		return out
	}
	for name, key := range flagKeys {
		f := fs.Lookup(name)
		if f != nil && f.Changed {
			out[key] = f.Value.String()
		}
	}
	return out
}

// configFlag returns the value of --config when fs defines it.
func configFlag(fs *pflag.FlagSet) string {
	if fs == nil {
		return ""
	}
	if f := fs.Lookup(FlagConfig); f != nil {
		return f.Value.String()
	}
	return ""
}
