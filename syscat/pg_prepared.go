package syscat

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/internal/pgtypes"
)

// PreparedStatement is one of the session's prepared statements, for
// pg_prepared_statements: SQL PREPARE's (FromSQL) or the protocol's named
// ones.
type PreparedStatement struct {
	Name       string
	Statement  string
	Prepared   time.Time
	ParamTypes []uint32
	FromSQL    bool
}

// preparedStatementsFill lists the session's prepared statements.
func preparedStatementsFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, p := range s.PreparedStatements {
		w.add("name", p.Name, "statement", p.Statement, "prepare_time", p.Prepared, "parameter_types", regtypeArray(p.ParamTypes),
			"from_sql", p.FromSQL, "generic_plans", int64(0), "custom_plans", int64(0))
	}
	return nil
}

// regtypeArray is the text of a regtype[] of oids, as PostgreSQL prints it:
// {integer,"timestamp without time zone"}.
func regtypeArray(oids []uint32) string {
	parts := make([]string, len(oids))
	for i, o := range oids {
		n := pgtypes.TypeName(o)
		if n == "" {
			n = "-"
			if o != 0 {
				n = strconv.FormatUint(uint64(o), 10)
			}
		}
		if n == "" || strings.ContainsAny(n, ` ,"{}\`) {
			n = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(n) + `"`
		}
		parts[i] = n
	}
	return "{" + strings.Join(parts, ",") + "}"
}
