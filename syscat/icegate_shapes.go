package syscat

import "context"

// icegateShapes are the pg_catalog relations icegate has beyond
// PostgreSQL's (pgShapes), with OIDs in a range PostgreSQL 15 leaves
// unused.
var icegateShapes = []shape{
	// pg_stat_progress_procedure lists the CALLs running in every session,
	// as pg_stat_progress_vacuum lists VACUUMs: what runs, on which table,
	// since when, and the last progress it reported (the NOTICE lines the
	// caller sees).
	{"pg_stat_progress_procedure", 12900, 'v', []Column{{"pid", tInt4, false}, {"datid", tOID, false},
		{"datname", tName, false}, {"usename", tName, false}, {"relid", tOID, false}, {"table_name", tText, false},
		{"procedure", tText, false}, {"started", tTimestamp, false}, {"phase", tText, false}}},
}

// copyProgressFill lists the running COPY statements: relid 0 for COPY
// (query) TO, bytes_total 0 (a stream's size is unknown, as PostgreSQL
// reports for STDIN), no rows excluded (COPY FROM has no WHERE here).
func copyProgressFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, c := range s.Copies {
		relid := uint32(0)
		if c.Table != "" {
			if r := s.Relation(c.Namespace, c.Table); r != nil {
				relid = r.OID
			}
		}
		db, datid := s.Database, DatabaseOID
		if c.Database != "" && c.Database != s.Database {
			db, datid = c.Database, ObjectOID(KindDatabase, c.Database)
		}
		w.add("pid", c.PID, "datid", datid, "datname", db, "relid", relid, "command", c.Command, "type", "PIPE",
			"bytes_processed", c.Bytes, "bytes_total", int64(0), "tuples_processed", c.Tuples, "tuples_excluded", int64(0))
	}
	return nil
}

func procedureProgressFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, p := range s.Procedures {
		var relid, table any
		if p.Table != "" {
			table = p.Namespace + "." + p.Table
			if r := s.Relation(p.Namespace, p.Table); r != nil {
				relid = r.OID
			}
		}
		w.add("pid", p.PID, "datid", DatabaseOID, "datname", s.Database, "usename", p.User, "relid", relid,
			"table_name", table, "procedure", p.Procedure, "started", nullIfZero(p.Started), "phase", nullIfEmpty(p.Phase))
	}
	return nil
}
