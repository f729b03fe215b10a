package syscat

import (
	"sort"
	"strings"
	"time"
)

// Snapshot is what the catalog relations and functions are computed from:
// one session's view of the warehouse at the start of a statement. translate
// fills the exported fields and calls Index; the methods look objects up.
type Snapshot struct {
	Database string
	// OtherDatabases are the server's other catalogs (pg_database lists
	// them beside Database).
	OtherDatabases []string
	User           string
	ServerVersion  string // server_version: PGVersion unless a test says otherwise
	// SearchPath is the session's search_path, as set ("$user" included).
	SearchPath []string
	// Namespaces are the warehouse's namespaces, Relations its tables and
	// views (any order; Index sorts them).
	Namespaces []*Namespace
	Relations  []*Relation
	// Enums are the warehouse's enum types (pg_type, pg_enum).
	Enums    []*Enum
	Settings []Setting
	Session  SessionInfo
	// Sessions are every session of the server for pg_stat_activity (the
	// calling one included); empty: Session alone.
	Sessions []SessionInfo
	// Procedures are the CALLs running in the server's sessions, for
	// pg_stat_progress_procedure.
	Procedures []ProcedureProgress
	// Copies are the COPY statements running in the server's sessions,
	// for pg_stat_progress_copy.
	Copies []CopyProgress
	// PreparedStatements are the session's, for pg_prepared_statements.
	PreparedStatements []PreparedStatement
	// Access are the roles and privileges (access.go); nil: the session's
	// user alone, who owns everything.
	Access *Access

	nsByName  map[string]*Namespace
	nsByOID   map[uint32]*Namespace
	relByName map[[2]string]*Relation
	relByOID  map[uint32]*Relation
	system    []*Relation
}

// Namespace is a schema: an Iceberg namespace (levels joined by ".") or
// one of the built-in schemas.
type Namespace struct {
	Name    string
	OID     uint32
	Comment string
	System  bool // pg_catalog, information_schema
}

// Relation is a table or view of pg_class.
type Relation struct {
	Namespace string
	Name      string
	OID       uint32
	Kind      byte // 'r' table, 'v' view
	Columns   []Attribute
	Comment   string
	// ViewDef is a view's query text (Kind 'v').
	ViewDef string
	// Reads are the relations a view's query names, as (namespace, name)
	// pairs; pg_depend records the view's dependence on those that exist.
	Reads [][2]string
	// PrimaryKey lists the attnums (1-based) of the table's identifier
	// fields, in order: served as a primary key (pg_index, pg_constraint,
	// information_schema.table_constraints).
	PrimaryKey []int16
	// Indexes are the indexes CREATE INDEX kept (indexes.go); the primary
	// key's is not among them.
	Indexes []Index
	// PartitionKey is the partition spec as PostgreSQL-like text
	// ("bucket(16, id), day(ts)"), "" when unpartitioned.
	PartitionKey string
	// Rows, Bytes and Files come from the current snapshot's summary; -1
	// when unknown.
	Rows, Bytes, Files int64
	Properties         map[string]string
	Location           string
	LastUpdated        time.Time
	// System is true for the relations of pg_catalog and
	// information_schema (Table set).
	System bool
	Table  *Table
	// Sequence describes a sequence (Kind 'S'; pg_sequence.go).
	Sequence *Sequence
}

// Attribute is a column of a relation.
type Attribute struct {
	Name    string
	Type    uint32 // PostgreSQL type OID
	Typmod  int32  // -1 when none
	NotNull bool
	Comment string
	// Default is the column's default as SQL text, "" when none.
	Default string
	// Identity is pg_attribute.attidentity: 'a' GENERATED ALWAYS, 'd' BY
	// DEFAULT, 0 for other columns.
	Identity byte
	// Sequence is the sequence (a qualified SQL name) an identity or
	// serial column takes its values from, "" for other columns.
	Sequence string
	// NDims is pg_attribute.attndims: the number of dimensions an array
	// column declares (0: 1 for an array type, else 0).
	NDims int32
}

// Setting is one row of pg_settings / SHOW ALL.
type Setting struct {
	Name, Setting, Unit, Category, Description, Context, Vartype, Source string
	BootVal, ResetVal                                                    string
	EnumVals                                                             []string
}

// ProcedureProgress is one running CALL: its session, the procedure, the
// table it works on, when it started and the last progress it reported.
type ProcedureProgress struct {
	PID       int32
	User      string
	Procedure string // "expire_snapshots"
	Namespace string // the table's schema and name ("" when none)
	Table     string
	Started   time.Time
	Phase     string // the last progress message ("" before the first)
}

// CopyProgress is one running COPY: its session, the table (empty for
// COPY (query) TO), "COPY FROM" or "COPY TO", and the bytes and rows it
// has processed.
type CopyProgress struct {
	PID              int32
	Database         string
	Namespace, Table string
	Command          string
	Bytes, Tuples    int64
}

// SessionInfo describes the session for pg_stat_activity.
type SessionInfo struct {
	PID             int32
	User            string // "" for the snapshot's User
	State           string // pg_stat_activity.state; "" for active
	ApplicationName string
	ClientAddr      string
	ClientPort      int32
	BackendStart    time.Time
	Query           string
	// QueryStart is when the current statement started (query_start,
	// xact_start and state_change of pg_stat_activity); zero when unknown.
	QueryStart time.Time
	// Database is the session's database; "" for the snapshot's.
	Database string
	// XactStart and StateChange, when set, are pg_stat_activity's
	// xact_start and state_change (else QueryStart stands for both).
	XactStart, StateChange time.Time
	// Hidden is set when the reader may not see what the session does
	// (PostgreSQL's rule: another role's session, read by a role that is
	// neither a superuser nor a member of pg_read_all_stats): its query is
	// "<insufficient privilege>" and its state, addresses and times NULL.
	Hidden bool
}

// Index sorts the snapshot's objects, adds the built-in schemas and the
// catalog relations themselves, and builds the lookup maps. Call it once
// after filling the exported fields.
func (s *Snapshot) Index() {
	s.Namespaces = append(s.Namespaces,
		&Namespace{Name: "pg_catalog", OID: PgCatalogOID, System: true, Comment: "system catalog schema"},
		&Namespace{Name: "information_schema", OID: InformationSchemaOID, System: true})
	sort.Slice(s.Namespaces, func(i, j int) bool { return s.Namespaces[i].Name < s.Namespaces[j].Name })
	s.nsByName = make(map[string]*Namespace, len(s.Namespaces))
	s.nsByOID = make(map[uint32]*Namespace, len(s.Namespaces))
	for _, n := range s.Namespaces {
		if n.OID == 0 {
			n.OID = NamespaceOID(n.Name)
		}
		s.nsByName[n.Name] = n
		s.nsByOID[n.OID] = n
	}
	s.system = s.system[:0]
	for _, t := range Tables() {
		r := &Relation{Namespace: t.Schema, Name: t.Name, OID: t.OID, Kind: t.Kind, System: true, Table: t, Rows: -1, Bytes: -1, Files: -1}
		for _, c := range t.Columns {
			r.Columns = append(r.Columns, Attribute{Name: c.Name, Type: c.Type, Typmod: -1, NotNull: c.NotNull})
		}
		s.system = append(s.system, r)
	}
	s.Relations = append(s.Relations, s.system...)
	sort.Slice(s.Relations, func(i, j int) bool {
		a, b := s.Relations[i], s.Relations[j]
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	s.relByName = make(map[[2]string]*Relation, len(s.Relations))
	s.relByOID = make(map[uint32]*Relation, len(s.Relations))
	for _, r := range s.Relations {
		if r.OID == 0 {
			r.OID = ObjectOID(KindRelation, r.Namespace, r.Name)
		}
		s.relByName[[2]string{r.Namespace, r.Name}] = r
		s.relByOID[r.OID] = r
	}
}

// Namespace returns the schema called name, or nil.
func (s *Snapshot) Namespace(name string) *Namespace { return s.nsByName[name] }

// NamespaceByOID returns the schema with OID oid, or nil.
func (s *Snapshot) NamespaceByOID(oid uint32) *Namespace { return s.nsByOID[oid] }

// Relation returns the relation schema.name, or nil.
func (s *Snapshot) Relation(schema, name string) *Relation {
	return s.relByName[[2]string{schema, name}]
}

// RelationByOID returns the relation with OID oid, or nil.
func (s *Snapshot) RelationByOID(oid uint32) *Relation { return s.relByOID[oid] }

// EffectiveSearchPath returns the schemas unqualified names are looked up
// in, in order, as current_schemas(true) lists them: pg_catalog first
// (unless the path names it elsewhere), then the path's schemas that exist
// ("$user" as the user's name).
func (s *Snapshot) EffectiveSearchPath(includeImplicit bool) []string {
	var out []string
	explicitCatalog := false
	for _, p := range s.SearchPath {
		if strings.TrimSpace(p) == "pg_catalog" {
			explicitCatalog = true
		}
	}
	if includeImplicit && !explicitCatalog {
		out = append(out, "pg_catalog")
	}
	for _, p := range s.SearchPath {
		p = strings.TrimSpace(p)
		if p == "$user" {
			p = s.User
		}
		if s.nsByName[p] != nil {
			out = append(out, p)
		}
	}
	return out
}

// Visible reports whether r is found by its unqualified name: no relation
// of the same name sits in a schema earlier on the search path
// (pg_table_is_visible).
func (s *Snapshot) Visible(r *Relation) bool {
	for _, ns := range s.EffectiveSearchPath(true) {
		if ns == r.Namespace {
			return true
		}
		if s.Relation(ns, r.Name) != nil {
			return false
		}
	}
	return false
}
