package regtype

import (
	"math"
	"slices"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/parse"
)

// regNumber reads the all-digits form every reg* type accepts ('1259'),
// and "-", PostgreSQL's spelling of OID 0.
func regNumber(s string) (uint32, bool) {
	if s == "-" {
		return 0, true
	}
	if s == "" {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return uint32(n), true
}

// SplitQualifiedName splits a dotted name as PostgreSQL's
// stringToQualifiedNameList does: parts around "." with surrounding
// blanks trimmed; a double-quoted part keeps its case (and "" stands for
// one quote), an unquoted one folds to lower case. An empty part or an
// unterminated quote is 42602.
func SplitQualifiedName(s string) ([]string, error) {
	bad := pgerr.New(pgerr.InvalidName, "invalid name syntax")
	var parts []string
	i := 0
	skipBlanks := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f' || s[i] == '\v') {
			i++
		}
	}
	for {
		skipBlanks()
		var part string
		if i < len(s) && s[i] == '"' {
			var sb strings.Builder
			i++
			closed := false
			for i < len(s) {
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						sb.WriteByte('"')
						i += 2
						continue
					}
					i++
					closed = true
					break
				}
				sb.WriteByte(s[i])
				i++
			}
			if !closed || sb.Len() == 0 {
				return nil, bad
			}
			part = sb.String()
		} else {
			start := i
			for i < len(s) && s[i] != '.' && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r' {
				i++
			}
			if i == start {
				return nil, bad
			}
			part = parse.ASCIILower(s[start:i])
		}
		parts = append(parts, part)
		skipBlanks()
		if i == len(s) {
			return parts, nil
		}
		if s[i] != '.' {
			return nil, bad
		}
		i++
	}
}

// regclassIn resolves a relation name to its OID: qualified, or through
// the search path (pg_catalog first).
func regclassIn(snap *syscat.Snapshot, s string) (uint32, error) {
	if n, ok := regNumber(s); ok {
		return n, nil
	}
	parts, err := SplitQualifiedName(s)
	if err != nil {
		return 0, err
	}
	switch len(parts) {
	case 1:
		for _, ns := range snap.EffectiveSearchPath(true) {
			if oid := regclassLookup(snap, ns, parts[0]); oid != 0 {
				return oid, nil
			}
		}
		return 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", parts[0])
	case 2:
		return regclassIn2(snap, parts[0], parts[1])
	case 3:
		if parts[0] == snap.Database {
			return regclassIn2(snap, parts[1], parts[2])
		}
		// An Iceberg namespace of two levels is one schema "a.b".
		if snap.Namespace(parts[0]+"."+parts[1]) != nil {
			return regclassIn2(snap, parts[0]+"."+parts[1], parts[2])
		}
		return 0, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: \"%s\"", strings.Join(parts, "."))
	}
	return 0, pgerr.New(pgerr.SyntaxError, "improper relation name (too many dotted names): %s", strings.Join(parts, "."))
}

func regclassIn2(snap *syscat.Snapshot, schema, name string) (uint32, error) {
	if snap.Namespace(schema) == nil {
		return 0, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema)
	}
	oid := regclassLookup(snap, schema, name)
	if oid == 0 {
		return 0, pgerr.New(pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", schema, name)
	}
	return oid, nil
}

// regclassLookup finds the relation schema.name among the tables and views
// and their indexes (the primary key's, <table>_pkey, and those CREATE
// INDEX kept); 0 when there is none.
func regclassLookup(snap *syscat.Snapshot, schema, name string) uint32 {
	if r := snap.Relation(schema, name); r != nil {
		return r.OID
	}
	if r, ix := snap.IndexByName(schema, name); r != nil {
		return syscat.IndexOID(r, *ix)
	}
	return 0
}

// regclassOut prints a relation OID as regclassout does: the name of the
// table, view or primary-key index, qualified when the search path does
// not find it, quoted when needed; an OID no relation has (a constraint's,
// say) as its number.
func regclassOut(snap *syscat.Snapshot, oid uint32) string {
	if oid == 0 {
		return "-"
	}
	if r := snap.RelationByOID(oid); r != nil {
		if snap.Visible(r) {
			return QuoteIdent(r.Name)
		}
		return QuoteIdent(r.Namespace) + "." + QuoteIdent(r.Name)
	}
	if r, ix := snap.IndexByOID(oid); r != nil {
		name := ix.Name
		if VisibleAs(snap, r.Namespace, name) {
			return QuoteIdent(name)
		}
		return QuoteIdent(r.Namespace) + "." + QuoteIdent(name)
	}
	return strconv.FormatUint(uint64(oid), 10)
}

// regnamespaceIn resolves a schema name (one identifier).
func regnamespaceIn(snap *syscat.Snapshot, s string) (uint32, error) {
	if n, ok := regNumber(s); ok {
		return n, nil
	}
	parts, err := SplitQualifiedName(s)
	if err != nil {
		return 0, err
	}
	if len(parts) != 1 {
		return 0, pgerr.New(pgerr.InvalidName, "invalid name syntax")
	}
	ns := snap.Namespace(parts[0])
	if ns == nil {
		return 0, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", parts[0])
	}
	return ns.OID, nil
}

func regnamespaceOut(snap *syscat.Snapshot, oid uint32) string {
	if oid == 0 {
		return "-"
	}
	if ns := snap.NamespaceByOID(oid); ns != nil {
		return QuoteIdent(ns.Name)
	}
	return strconv.FormatUint(uint64(oid), 10)
}

// regroleIn resolves a role name: icegate has one role, the session's
// user, which owns everything as PostgreSQL's bootstrap superuser (OID 10).
func regroleIn(snap *syscat.Snapshot, s string) (uint32, error) {
	if n, ok := regNumber(s); ok {
		return n, nil
	}
	parts, err := SplitQualifiedName(s)
	if err != nil {
		return 0, err
	}
	if len(parts) != 1 {
		return 0, pgerr.New(pgerr.InvalidName, "invalid name syntax")
	}
	if parts[0] == snap.User {
		return syscat.BootstrapSuperuserOID, nil
	}
	return 0, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", parts[0])
}

func regroleOut(snap *syscat.Snapshot, oid uint32) string {
	if oid == 0 {
		return "-"
	}
	if oid == syscat.BootstrapSuperuserOID && snap.User != "" {
		return QuoteIdent(snap.User)
	}
	return strconv.FormatUint(uint64(oid), 10)
}

// regprocIn resolves a function name (regproc: one function of that
// name) or a signature (regprocedure: "sum(integer)") among the built-in
// functions, all of which live in pg_catalog.
func regprocIn(snap *syscat.Snapshot, typ uint32, s string) (uint32, error) {
	if n, ok := regNumber(s); ok {
		return n, nil
	}
	text, args := s, ""
	if typ == pgtypes.Regprocedure {
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 {
			return 0, pgerr.New(pgerr.InvalidTextRepresentation, "expected a left parenthesis")
		}
		if end < open || strings.TrimSpace(s[end+1:]) != "" {
			return 0, pgerr.New(pgerr.InvalidTextRepresentation, "expected a right parenthesis")
		}
		text, args = s[:open], s[open+1:end]
	}
	parts, err := SplitQualifiedName(text)
	if err != nil {
		return 0, err
	}
	if len(parts) > 2 {
		return 0, pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(parts, "."))
	}
	if len(parts) == 2 && parts[0] != "pg_catalog" && snap.Namespace(parts[0]) == nil {
		return 0, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", parts[0])
	}
	var procs []*syscat.ProcInfo
	if len(parts) == 1 || parts[0] == "pg_catalog" {
		procs = syscat.ProcsByName(parts[len(parts)-1])
	}
	written := strings.Join(parts, ".")
	if typ != pgtypes.Regprocedure {
		switch len(procs) {
		case 0:
			return 0, pgerr.New(pgerr.UndefinedFunction, "function \"%s\" does not exist", written)
		case 1:
			return procs[0].OID, nil
		}
		return 0, pgerr.New(pgerr.AmbiguousFunction, "more than one function named \"%s\"", written)
	}
	var want []uint32
	if strings.TrimSpace(args) != "" {
		for _, a := range strings.Split(args, ",") {
			oid, err := regtypeIn(strings.TrimSpace(a))
			if err != nil {
				return 0, err
			}
			want = append(want, oid)
		}
	}
	for _, p := range procs {
		if slices.Equal(p.ArgTypes, want) {
			return p.OID, nil
		}
	}
	return 0, pgerr.New(pgerr.UndefinedFunction, "function \"%s(%s)\" does not exist", written, regtypeList(want))
}

// regprocOut prints a function as regprocout (its name) or
// regprocedureout (its name and argument types) does; an OID no built-in
// function has prints as its number.
func regprocOut(typ, oid uint32) string {
	if oid == 0 {
		return "-"
	}
	p := syscat.ProcByOID(oid)
	if p == nil {
		return strconv.FormatUint(uint64(oid), 10)
	}
	if typ == pgtypes.Regprocedure {
		return QuoteIdent(p.Name) + "(" + regtypeList(p.ArgTypes) + ")"
	}
	return QuoteIdent(p.Name)
}

// regtypeList prints argument types as regprocedure does: "text,integer".
func regtypeList(oids []uint32) string {
	names := make([]string, len(oids))
	for i, o := range oids {
		names[i] = regtypeOut(o)
	}
	return strings.Join(names, ",")
}

// regtypeIn resolves a type name as PostgreSQL's parser reads one
// ('integer', 'character varying', 'varchar(10)', '_int4', 'int4[]',
// 'pg_catalog.text'); the typmod is not part of the OID.
func regtypeIn(s string) (uint32, error) {
	if n, ok := regNumber(s); ok {
		return n, nil
	}
	tn, err := parseTypeNameText(s)
	if err != nil {
		return 0, err
	}
	var names []string
	for _, n := range tn.Names {
		names = append(names, n.GetString_().GetSval())
	}
	missing := pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", strings.TrimSpace(s))
	if len(names) == 0 || len(names) > 2 || len(names) == 2 && names[0] != "pg_catalog" {
		return 0, missing
	}
	oid := regTypeByName(names[len(names)-1])
	if oid == 0 {
		return 0, missing
	}
	if len(tn.ArrayBounds) > 0 {
		if oid = regArrayOf(oid); oid == 0 {
			return 0, missing
		}
	}
	return oid, nil
}

// parseTypeNameText parses the text of a type name with PostgreSQL's
// grammar (which turns integer into pg_catalog.int4, character varying
// into pg_catalog.varchar...).
func parseTypeNameText(s string) (*pg.TypeName, error) {
	bad := pgerr.New(pgerr.SyntaxError, "invalid type name \"%s\"", s)
	if strings.ContainsAny(s, ";") {
		return nil, bad
	}
	res, err := pg.Parse("SELECT NULL::" + s)
	if err != nil || len(res.Stmts) != 1 {
		return nil, bad
	}
	sel := res.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || len(sel.TargetList) != 1 || sel.FromClause != nil || sel.WhereClause != nil ||
		sel.SortClause != nil || sel.LimitCount != nil || sel.Op != pg.SetOperation_SETOP_NONE {
		return nil, bad
	}
	rt := sel.TargetList[0].GetResTarget()
	if rt == nil || rt.Name != "" {
		return nil, bad
	}
	tc := rt.Val.GetTypeCast()
	if tc == nil || tc.Arg.GetAConst() == nil || !tc.Arg.GetAConst().Isnull {
		return nil, bad
	}
	return tc.TypeName, nil
}

// regTypeByName finds a type by its pg_type name (int4, _int4, bpchar,
// "char"): the system catalog's list, then the types icegate computes.
func regTypeByName(name string) uint32 {
	if t := syscat.TypeByName(name); t != nil {
		return t.OID
	}
	if strings.HasPrefix(name, "_") {
		if elem := regTypeByName(name[1:]); elem != 0 {
			return regArrayOf(elem)
		}
		return 0
	}
	return regTypnames[name]
}

// regArrayOf is the array type of elem.
func regArrayOf(elem uint32) uint32 {
	if t := syscat.TypeByOID(elem); t != nil && t.Array != 0 {
		return t.Array
	}
	if arr := pgtypes.ArrayOf(elem); arr != 0 {
		return arr
	}
	for arr, e := range regMoreArrays {
		if e == elem {
			return arr
		}
	}
	return 0
}

// regMoreArrays are array types (array OID -> element OID) that package
// pgtypes does not list, for when the system catalog's type list lacks
// them.
var regMoreArrays = map[uint32]uint32{
	1015: pgtypes.Varchar, 1014: pgtypes.BPChar, 1187: pgtypes.Interval, 199: pgtypes.JSON,
	1006: pgtypes.Int2Vector, 1013: pgtypes.OIDVector, 1008: pgtypes.Regproc, 1011: pgtypes.XID,
	2210: pgtypes.Regclass, 2211: pgtypes.Regtype, 4090: pgtypes.Regnamespace, 4097: pgtypes.Regrole,
}

// regTypnames are the pg_type names of the types package pgtypes knows,
// for when the system catalog's type list lacks one.
var regTypnames = map[string]uint32{
	"bool": pgtypes.Bool, "bytea": pgtypes.Bytea, "char": pgtypes.Char, "name": pgtypes.Name,
	"int8": pgtypes.Int8, "int2": pgtypes.Int2, "int4": pgtypes.Int4, "text": pgtypes.Text,
	"oid": pgtypes.OID, "json": pgtypes.JSON, "float4": pgtypes.Float4, "float8": pgtypes.Float8,
	"unknown": pgtypes.Unknown, "bpchar": pgtypes.BPChar, "varchar": pgtypes.Varchar,
	"date": pgtypes.Date, "time": pgtypes.Time, "timestamp": pgtypes.Timestamp,
	"timestamptz": pgtypes.Timestamptz, "interval": pgtypes.Interval, "numeric": pgtypes.Numeric,
	"uuid": pgtypes.UUID, "jsonb": pgtypes.JSONB, "regclass": pgtypes.Regclass,
	"regtype": pgtypes.Regtype, "void": pgtypes.Void, "record": pgtypes.Record,
	"int2vector": pgtypes.Int2Vector, "regproc": pgtypes.Regproc, "tid": pgtypes.TID,
	"xid": pgtypes.XID, "cid": pgtypes.CID, "oidvector": pgtypes.OIDVector,
	"pg_node_tree": pgtypes.PgNodeTree, "inet": pgtypes.Inet, "aclitem": pgtypes.Aclitem,
	"regprocedure": pgtypes.Regprocedure, "regoper": pgtypes.Regoper, "anyarray": pgtypes.Anyarray,
	"pg_lsn": pgtypes.PgLsn, "regnamespace": pgtypes.Regnamespace, "regrole": pgtypes.Regrole,
}

// regtypeOut prints a type OID as format_type(oid, NULL) does.
func regtypeOut(oid uint32) string {
	if oid == 0 {
		return "-"
	}
	if name := pgtypes.TypeName(oid); name != "" {
		return name
	}
	if elem, ok := regMoreArrays[oid]; ok {
		return regtypeOut(elem) + "[]"
	}
	t := syscat.TypeByOID(oid)
	if t == nil {
		return strconv.FormatUint(uint64(oid), 10)
	}
	if t.Elem != 0 && strings.HasPrefix(t.Name, "_") {
		return regtypeOut(t.Elem) + "[]"
	}
	return QuoteIdent(t.Name)
}

// QuoteIdent quotes an identifier as quote_ident does: unless it is
// lower-case letters, digits and underscores not starting with a digit,
// and not a keyword other than an unreserved one.
func QuoteIdent(s string) string {
	plain := s != ""
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			plain = false
			break
		}
	}
	if plain {
		if res, err := pg.Scan(s); err == nil && len(res.Tokens) == 1 {
			k := res.Tokens[0].KeywordKind
			plain = k == pg.KeywordKind_NO_KEYWORD || k == pg.KeywordKind_UNRESERVED_KEYWORD
		}
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// RelationOfIndex finds the table of the index with OID oid (its primary
// key's or one CREATE INDEX kept).
func RelationOfIndex(snap *syscat.Snapshot, oid uint32) *syscat.Relation {
	r, _ := snap.IndexByOID(oid)
	return r
}

// VisibleAs reports whether name, living in schema ns, is the first
// relation of that name on the search path.
func VisibleAs(snap *syscat.Snapshot, ns, name string) bool {
	for _, p := range snap.EffectiveSearchPath(true) {
		if p == ns {
			return true
		}
		if snap.Relation(p, name) != nil {
			return false
		}
	}
	return false
}

// Int64 reads an integer row value.
func Int64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int16:
		return int64(x), true
	case uint32:
		return int64(x), true
	}
	return 0, false
}

// FuncName names the input or output function of typ as PostgreSQL
// does (regclassin, regtypeout...).
func FuncName(typ uint32, dir string) string {
	name := pgtypes.TypeName(typ)
	if name == "" {
		name = "oid"
	}
	return name + dir
}

// In reads the text form of a value of the object identifier type typ.
func In(snap *syscat.Snapshot, typ uint32, s string) (uint32, error) {
	switch typ {
	case pgtypes.Regclass:
		return regclassIn(snap, s)
	case pgtypes.Regtype:
		return regtypeIn(s)
	case pgtypes.Regnamespace:
		return regnamespaceIn(snap, s)
	case pgtypes.Regrole:
		return regroleIn(snap, s)
	case pgtypes.Regproc, pgtypes.Regprocedure:
		return regprocIn(snap, typ, s)
	case pgtypes.Regoper:
		if n, ok := regNumber(s); ok {
			return n, nil
		}
		return 0, pgerr.Unsupported("regoper input of an operator name")
	}
	return oidIn(typ, s)
}

// oidIn reads an oid (or xid, cid) as oidin does: a decimal number, blanks
// around it allowed, negative numbers wrapping to 32 bits.
func oidIn(typ uint32, s string) (uint32, error) {
	t := strings.TrimSpace(s)
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, pgtypes.TypeName(typ))
		}
		return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", pgtypes.TypeName(typ), s)
	}
	if n < math.MinInt32 || n > math.MaxUint32 {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, pgtypes.TypeName(typ))
	}
	return uint32(n), nil
}

// Out prints an OID of type typ.
func Out(snap *syscat.Snapshot, typ, oid uint32) string {
	switch typ {
	case pgtypes.Regclass:
		return regclassOut(snap, oid)
	case pgtypes.Regtype:
		return regtypeOut(oid)
	case pgtypes.Regnamespace:
		return regnamespaceOut(snap, oid)
	case pgtypes.Regrole:
		return regroleOut(snap, oid)
	case pgtypes.Regproc, pgtypes.Regprocedure:
		return regprocOut(typ, oid)
	}
	return strconv.FormatUint(uint64(oid), 10)
}
