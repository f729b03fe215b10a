package syscat

import (
	"context"
	"time"
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

// regtypeArray is a regtype[] of oids: the OIDs, which queries print as
// the types' names (PostgreSQL's {integer,"timestamp without time zone"}).
func regtypeArray(oids []uint32) []int64 {
	out := make([]int64, len(oids))
	for i, o := range oids {
		out[i] = int64(o)
	}
	return out
}
