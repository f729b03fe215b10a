package syscat

import (
	"fmt"

	"github.com/icegate/icegate/internal/buildinfo"
)

// The PostgreSQL release icegate presents itself as: the one whose catalogs
// syscat serves (builtins_gen.go and shapes_gen.go are generated from it).
// Everything that names the server's version - the server_version and
// server_version_num settings (ParameterStatus, SHOW, current_setting,
// pg_settings), version(), information_schema's DBMS VERSION - derives
// from these two constants, so clients such as pg_dump, which choose their
// catalog queries by version, see one PostgreSQL everywhere.
const (
	// PGVersion is server_version.
	PGVersion = "15.18"
	// PGVersionNum is server_version_num: major*10000 + minor.
	PGVersionNum = 150018
)

// PGVersionString is what version() returns: PostgreSQL's shape, with
// PGVersion first (clients parse its second word), then icegate's own
// release and commit in the parentheses, where PostgreSQL's builds name
// their distribution.
func PGVersionString() string {
	return fmt.Sprintf("PostgreSQL %s (icegate %s) on x86_64-pc-linux-gnu, compiled by %s, 64-bit",
		PGVersion, buildinfo.String(), buildinfo.GoVersion())
}
