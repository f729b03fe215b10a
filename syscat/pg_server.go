package syscat

import (
	"context"
	"time"
)

// The server-wide relations: the one database icegate serves, the one
// role every session acts as, the tablespaces, the settings and the
// session itself.

// Tablespace OIDs, as PostgreSQL assigns them.
const (
	DefaultTablespaceOID uint32 = 1663 // pg_default
	GlobalTablespaceOID  uint32 = 1664 // pg_global
)

// DatabaseCollation is the database's collation and ctype (datcollate,
// datctype): icegate compares text by code point, as C.UTF-8 does.
const DatabaseCollation = "C.UTF-8"

func databaseFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	w.add("oid", DatabaseOID, "datname", s.Database, "datdba", BootstrapSuperuserOID, "encoding", int32(6),
		"datlocprovider", "c", "datallowconn", true, "datconnlimit", int32(-1), "datfrozenxid", uint32(1),
		"datminmxid", uint32(1), "dattablespace", DefaultTablespaceOID,
		"datcollate", DatabaseCollation, "datctype", DatabaseCollation, "datacl", databaseACL(s))
	for _, db := range s.OtherDatabases {
		w.add("oid", ObjectOID(KindDatabase, db), "datname", db, "datdba", BootstrapSuperuserOID, "encoding", int32(6),
			"datlocprovider", "c", "datallowconn", true, "datconnlimit", int32(-1), "datfrozenxid", uint32(1),
			"datminmxid", uint32(1), "dattablespace", DefaultTablespaceOID,
			"datcollate", DatabaseCollation, "datctype", DatabaseCollation)
	}
	return nil
}

// rolesFill lists the session's user as the bootstrap superuser (OID 10),
// which owns every object icegate lists.
func rolesFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	if s.Access != nil {
		accessRolesFill(s, w)
		return nil
	}
	w.add("rolname", s.User, "rolsuper", true, "rolinherit", true, "rolcreaterole", true,
		"rolcreatedb", true, "rolcanlogin", true, "rolreplication", false, "rolconnlimit", int32(-1),
		"rolpassword", "********", "rolbypassrls", false, "oid", BootstrapSuperuserOID)
	// The role that owns public, as in PostgreSQL 15: it cannot log in.
	w.add("rolname", "pg_database_owner", "rolsuper", false, "rolinherit", true, "rolcreaterole", false,
		"rolcreatedb", false, "rolcanlogin", false, "rolreplication", false, "rolconnlimit", int32(-1),
		"rolpassword", "********", "rolbypassrls", false, "oid", PgDatabaseOwnerOID)
	return nil
}

func userFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	if s.Access != nil {
		accessUserFill(s, w) // access_authid.go
		return nil
	}
	w.add("usename", s.User, "usesysid", BootstrapSuperuserOID, "usecreatedb", true, "usesuper", true,
		"userepl", false, "usebypassrls", false, "passwd", "********")
	return nil
}

func tablespaceFill(_ context.Context, _ *Snapshot, w *rowWriter) error {
	w.add("oid", DefaultTablespaceOID, "spcname", "pg_default", "spcowner", BootstrapSuperuserOID)
	w.add("oid", GlobalTablespaceOID, "spcname", "pg_global", "spcowner", BootstrapSuperuserOID)
	return nil
}

func settingsFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, st := range s.Settings {
		var enumVals any
		if len(st.EnumVals) > 0 {
			enumVals = st.EnumVals
		}
		w.add("name", st.Name, "setting", st.Setting, "unit", nullIfEmpty(st.Unit),
			"category", st.Category, "short_desc", st.Description, "context", st.Context,
			"vartype", st.Vartype, "source", st.Source, "enumvals", enumVals,
			"boot_val", st.BootVal, "reset_val", st.ResetVal, "pending_restart", false)
	}
	return nil
}

// statActivityFill lists the server's sessions (Sessions), or the
// session itself.
func statActivityFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	sessions := s.Sessions
	if len(sessions) == 0 {
		sessions = []SessionInfo{s.Session}
	}
	for _, si := range sessions {
		user, state := si.User, si.State
		if user == "" {
			user = s.User
		}
		if state == "" {
			state = "active"
		}
		db, datid := s.Database, DatabaseOID
		if si.Database != "" && si.Database != s.Database {
			db, datid = si.Database, ObjectOID(KindDatabase, si.Database)
		}
		if si.Hidden {
			w.add("datid", datid, "datname", db, "pid", si.PID, "usesysid", BootstrapSuperuserOID,
				"usename", user, "application_name", si.ApplicationName, "query", "<insufficient privilege>",
				"backend_type", "client backend")
			continue
		}
		var xactStart any
		if state != "idle" {
			xactStart = nullIfZero(si.QueryStart)
			if !si.XactStart.IsZero() {
				xactStart = si.XactStart
			}
		}
		stateChange := si.StateChange
		if stateChange.IsZero() {
			stateChange = si.QueryStart
		}
		w.add("datid", datid, "datname", db, "pid", si.PID, "usesysid", BootstrapSuperuserOID,
			"usename", user, "application_name", si.ApplicationName, "client_addr", nullIfEmpty(si.ClientAddr),
			"client_port", clientPort(si), "backend_start", nullIfZero(si.BackendStart),
			"xact_start", xactStart, "query_start", nullIfZero(si.QueryStart),
			"state_change", nullIfZero(stateChange), "state", state, "query", si.Query,
			"backend_type", "client backend")
	}
	return nil
}

// clientPort is pg_stat_activity.client_port: -1 for a Unix socket, NULL
// when unknown.
func clientPort(si SessionInfo) any {
	if si.ClientPort == 0 {
		return nil
	}
	return si.ClientPort
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullIfZero(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// statDatabaseFill lists the database with one backend, the session, and
// no counters.
func statDatabaseFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	zero := int64(0)
	pairs := []any{"datid", DatabaseOID, "datname", s.Database, "numbackends", int32(1)}
	for _, c := range []string{"xact_commit", "xact_rollback", "blks_read", "blks_hit", "tup_returned",
		"tup_fetched", "tup_inserted", "tup_updated", "tup_deleted", "conflicts", "temp_files", "temp_bytes",
		"deadlocks", "sessions", "sessions_abandoned", "sessions_fatal", "sessions_killed"} {
		pairs = append(pairs, c, zero)
	}
	for _, c := range []string{"blk_read_time", "blk_write_time", "session_time", "active_time", "idle_in_transaction_time"} {
		pairs = append(pairs, c, float64(0))
	}
	w.add(pairs...)
	return nil
}

// databaseACL is the session's database's datacl: NULL (the default)
// unless GRANT or REVOKE changed it.
func databaseACL(s *Snapshot) any {
	if s.Access == nil || s.Access.DatabaseACL == nil {
		return nil
	}
	return s.Access.DatabaseACL
}
