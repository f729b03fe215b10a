package main

import (
	"context"
	"encoding/json"
	"fmt"
	"go/format"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// icegateTypes are the types icegate computes with: a function or operator
// is listed when its argument and result types are all among these (or
// their arrays).
var icegateTypes = []string{
	"bool", "bytea", "char", "name", "int8", "int2", "int4", "text", "oid", "json", "float4", "float8",
	"unknown", "bpchar", "varchar", "date", "time", "timestamp", "timestamptz", "interval", "numeric",
	"uuid", "jsonb", "regclass", "regtype", "regproc", "regprocedure", "regoper", "regnamespace",
	"regrole", "int2vector", "oidvector", "xid", "cid", "tid", "pg_node_tree", "aclitem", "inet",
	"any", "anyelement", "anyarray", "anynonarray", "anycompatible", "anycompatiblearray",
	"anycompatiblenonarray", "void", "record", "cstring", "internal",
}

// operatorNames are the operators the binder accepts.
var operatorNames = []string{
	"+", "-", "*", "/", "%", "^", "@", "~", "=", "<>", "<", "<=", ">", ">=", "||",
	"~~", "!~~", "~~*", "!~~*", "!~", "~*", "!~*", "&", "|", "#", "<<", ">>",
	"->", "->>", "#>", "#>>", "@>", "<@", "&&", "?", "?|", "?&",
}

// catalog is one catalog whose built-in rows are generated.
type catalog struct {
	name  string
	where string // the condition on alias x: $1 the allowed type OIDs, $2 the operator names
	order string
}

// typeCond picks PostgreSQL's built-in types: base, pseudo, range,
// multirange, enum and domain types of pg_catalog and their arrays (not the
// catalogs' row types).
const typeCond = `(x.typnamespace = 11 AND x.typtype IN ('b','p','r','m','e','d')
	AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_type e WHERE e.oid = x.typelem AND e.typtype = 'c'))
	OR (x.typnamespace = 'information_schema'::pg_catalog.regnamespace AND (x.typtype = 'd'
	OR EXISTS (SELECT 1 FROM pg_catalog.pg_type e WHERE e.oid = x.typelem AND e.typtype = 'd')))`

// operatorCond picks the operators icegate has: $2 their names, $1 the
// allowed types.
const operatorCond = `x.oprname = ANY($2) AND x.oprresult = ANY($1)
	AND (x.oprleft = 0 OR x.oprleft = ANY($1)) AND (x.oprright = 0 OR x.oprright = ANY($1))`

// languageCond picks the built-in languages (internal, c, sql), not the
// procedural ones extensions install.
const languageCond = "NOT x.lanispl"

// collationCond picks the collations PostgreSQL itself defines, not the
// ones initdb imports from the operating system.
const collationCond = "x.oid IN (100, 950, 951) OR x.collname = 'ucs_basic'"

// The catalogs generated before pg_proc: their regproc columns say which
// functions pg_proc must list besides the named ones.
var catalogs = []catalog{
	{"pg_type", typeCond, "x.oid"},
	{"pg_am", "true", "x.oid"},
	{"pg_range", "true", "x.rngtypid"},
	{"pg_language", languageCond, "x.oid"},
	{"pg_collation", collationCond, "x.oid"},
	{"pg_operator", operatorCond, "x.oid"},
	{"pg_opclass", "x.opcmethod = 403 AND x.opcdefault AND x.opcintype = ANY($1)", "x.oid"},
	{"pg_opfamily", `x.oid IN (SELECT opcfamily FROM pg_catalog.pg_opclass
		WHERE opcmethod = 403 AND opcdefault AND opcintype = ANY($1))`, "x.oid"},
	{"pg_cast", "x.castsource = ANY($1) AND x.casttarget = ANY($1)", "x.oid"},
	{"pg_conversion", "true", "x.oid"},
}

// procRefColumns are the columns of the generated catalogs that name a
// function by OID.
var procRefColumns = map[string]bool{
	"typinput": true, "typoutput": true, "typreceive": true, "typsend": true, "typmodin": true,
	"typmodout": true, "typanalyze": true, "typsubscript": true, "amhandler": true,
	"rngcanonical": true, "rngsubdiff": true, "lanplcallfoid": true, "laninline": true,
	"lanvalidator": true, "oprcode": true, "oprrest": true, "oprjoin": true, "castfunc": true,
	"aggtransfn": true, "aggfinalfn": true, "aggcombinefn": true, "aggserialfn": true,
	"aggdeserialfn": true, "aggmtransfn": true, "aggminvtransfn": true, "aggmfinalfn": true,
}

type builtinData struct {
	rows map[string][][]string // Go literals, per catalog
}

// readBuiltins reads the built-in rows of each generated catalog.
func readBuiltins(ctx context.Context, conn *pgx.Conn, shapes []*shape, names []string) (*builtinData, error) {
	byName := map[string]*shape{}
	for _, s := range shapes {
		byName[s.name] = s
	}
	allowed, err := allowedTypes(ctx, conn)
	if err != nil {
		return nil, err
	}
	d := &builtinData{rows: map[string][][]string{}}
	procs := map[uint32]bool{}
	for _, c := range catalogs {
		s := byName[c.name]
		rows, refs, err := readRows(ctx, conn, s, c.where, c.order, allowed, operatorNames)
		if err != nil {
			return nil, err
		}
		d.rows[c.name] = rows
		for _, p := range refs {
			procs[p] = true
		}
	}
	named, err := namedProcs(ctx, conn, names, allowed)
	if err != nil {
		return nil, err
	}
	for _, p := range named {
		procs[p] = true
	}
	// The aggregates among them, and the functions they are made of.
	namedList := make([]int64, len(named))
	for i, p := range named {
		namedList[i] = int64(p)
	}
	rows, refs, err := readRows(ctx, conn, byName["pg_aggregate"], "x.aggfnoid = ANY($1)", "x.aggfnoid", namedList)
	if err != nil {
		return nil, err
	}
	d.rows["pg_aggregate"] = rows
	for _, p := range refs {
		procs[p] = true
	}
	var procList []int64
	for p := range procs {
		if p != 0 {
			procList = append(procList, int64(p))
		}
	}
	sort.Slice(procList, func(i, j int) bool { return procList[i] < procList[j] })
	rows, _, err = readRows(ctx, conn, byName["pg_proc"], "x.oid = ANY($1)", "x.oid", procList)
	if err != nil {
		return nil, err
	}
	d.rows["pg_proc"] = rows
	rows, _, err = readRows(ctx, conn, byName["pg_description"], `x.objsubid = 0 AND (
		(x.classoid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND x.objoid = ANY($3))
		OR (x.classoid = 'pg_catalog.pg_type'::pg_catalog.regclass AND x.objoid IN (SELECT x.oid FROM pg_catalog.pg_type x WHERE `+typeCond+`))
		OR (x.classoid = 'pg_catalog.pg_operator'::pg_catalog.regclass AND x.objoid IN (SELECT x.oid FROM pg_catalog.pg_operator x WHERE `+operatorCond+`))
		OR (x.classoid = 'pg_catalog.pg_am'::pg_catalog.regclass)
		OR (x.classoid = 'pg_catalog.pg_language'::pg_catalog.regclass AND x.objoid IN (SELECT x.oid FROM pg_catalog.pg_language x WHERE `+languageCond+`))
		OR (x.classoid = 'pg_catalog.pg_collation'::pg_catalog.regclass AND x.objoid IN (SELECT x.oid FROM pg_catalog.pg_collation x WHERE `+collationCond+`)))`,
		"x.classoid, x.objoid", allowed, operatorNames, procList)
	if err != nil {
		return nil, err
	}
	d.rows["pg_description"] = rows
	return d, nil
}

// allowedTypes returns the OIDs of icegateTypes and their array types.
func allowedTypes(ctx context.Context, conn *pgx.Conn) ([]int64, error) {
	rows, err := conn.Query(ctx, `
SELECT oid::int8 FROM pg_catalog.pg_type WHERE typnamespace = 11 AND typname = ANY($1)
UNION SELECT typarray::int8 FROM pg_catalog.pg_type WHERE typnamespace = 11 AND typname = ANY($1) AND typarray <> 0
ORDER BY 1`, icegateTypes)
	if err != nil {
		return nil, fmt.Errorf("read allowed types: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("read allowed types: %w", err)
	}
	return out, nil
}

// namedProcs returns the OIDs of the functions called one of names whose
// argument and result types icegate has.
func namedProcs(ctx context.Context, conn *pgx.Conn, names []string, allowed []int64) ([]uint32, error) {
	rows, err := conn.Query(ctx, `
SELECT p.oid::int8 FROM pg_catalog.pg_proc p
WHERE p.pronamespace = 11 AND p.proname = ANY($1) AND p.prokind <> 'p' AND p.prorettype = ANY($2)
  AND p.proargtypes::oid[] <@ $2::oid[]
ORDER BY 1`, names, allowed)
	if err != nil {
		return nil, fmt.Errorf("read named functions: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("read named functions: %w", err)
	}
	out := make([]uint32, len(ids))
	for i, id := range ids {
		out[i] = uint32(id)
	}
	return out, nil
}

// Type OIDs the generator formats specially.
const (
	oidBool       = 16
	oidInt2       = 21
	oidInt4       = 23
	oidInt8       = 20
	oidFloat4     = 700
	oidFloat8     = 701
	oidInt2Vector = 22
	oidOIDVector  = 30
	oidInt2Array  = 1005
	oidOIDArray   = 1028
)

// oidFamily are the types whose values are uint32 in syscat's rows.
var oidFamily = map[uint32]bool{26: true, 24: true, 28: true, 29: true, 2202: true, 2203: true,
	2204: true, 2205: true, 2206: true, 4089: true, 4096: true, 3734: true, 3769: true, 4191: true}

// textArrays are the array types whose values are []string.
var textArrays = map[uint32]bool{1009: true, 1003: true, 1002: true, 1034: true, 1015: true}

// readRows reads the rows of one catalog as Go literals, and the function
// OIDs its procRefColumns hold.
func readRows(ctx context.Context, conn *pgx.Conn, s *shape, where, order string, args ...any) ([][]string, []uint32, error) {
	var sel []string
	for _, c := range s.columns {
		col := "x." + pgx.Identifier{c.name}.Sanitize()
		switch {
		case oidFamily[c.typ] && c.typ != 28 && c.typ != 29: // reg* types print as numbers
			sel = append(sel, col+"::pg_catalog.oid::pg_catalog.text")
		case c.typ == oidInt2Array || c.typ == oidOIDArray || textArrays[c.typ]:
			sel = append(sel, "pg_catalog.to_json("+col+")::pg_catalog.text")
		default:
			sel = append(sel, col+"::pg_catalog.text")
		}
	}
	// Pass the parameters the condition uses ($1, $2...).
	for len(args) > 0 && !strings.Contains(where, "$"+strconv.Itoa(len(args))) {
		args = args[:len(args)-1]
	}
	q := fmt.Sprintf("SELECT %s FROM pg_catalog.%s x WHERE %s ORDER BY %s", strings.Join(sel, ", "), s.name, where, order)
	rows, err := conn.Query(ctx, q, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", s.name, err)
	}
	defer rows.Close()
	var out [][]string
	var refs []uint32
	for rows.Next() {
		vals := make([]*string, len(s.columns))
		dst := make([]any, len(vals))
		for i := range vals {
			dst[i] = &vals[i]
		}
		if err := rows.Scan(dst...); err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", s.name, err)
		}
		lits := make([]string, len(vals))
		for i, v := range vals {
			c := s.columns[i]
			lit, err := goLiteral(c.typ, v)
			if err != nil {
				return nil, nil, fmt.Errorf("%s.%s: %w", s.name, c.name, err)
			}
			lits[i] = lit
			if procRefColumns[c.name] && v != nil {
				n, _ := strconv.ParseUint(*v, 10, 32)
				refs = append(refs, uint32(n))
			}
		}
		out = append(out, lits)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", s.name, err)
	}
	return out, refs, nil
}

// goLiteral renders one value (its text form, or JSON for arrays) as the
// Go value syscat's rows hold for a column of type typ.
func goLiteral(typ uint32, v *string) (string, error) {
	if v == nil {
		return "nil", nil
	}
	s := *v
	switch {
	case typ == oidBool:
		return strconv.FormatBool(s == "true"), nil
	case typ == oidInt2:
		return "int16(" + s + ")", nil
	case typ == oidInt4:
		return "int32(" + s + ")", nil
	case typ == oidInt8:
		return "int64(" + s + ")", nil
	case typ == oidFloat4:
		return "float32(" + s + ")", nil
	case typ == oidFloat8:
		return "float64(" + s + ")", nil
	case oidFamily[typ]:
		return "uint32(" + s + ")", nil
	case typ == oidInt2Vector:
		return "[]int16{" + strings.Join(strings.Fields(s), ", ") + "}", nil
	case typ == oidOIDVector:
		return "[]uint32{" + strings.Join(strings.Fields(s), ", ") + "}", nil
	case typ == oidInt2Array || typ == oidOIDArray:
		// int2 elements come as JSON numbers, oid elements as strings.
		var xs []json.RawMessage
		if err := json.Unmarshal([]byte(s), &xs); err != nil {
			return "", fmt.Errorf("decode %s: %w", s, err)
		}
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = strings.Trim(string(x), `"`)
		}
		if typ == oidInt2Array {
			return "[]int16{" + strings.Join(parts, ", ") + "}", nil
		}
		return "[]uint32{" + strings.Join(parts, ", ") + "}", nil
	case textArrays[typ]:
		var xs []string
		if err := json.Unmarshal([]byte(s), &xs); err != nil {
			return "", fmt.Errorf("decode %s: %w", s, err)
		}
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = strconv.Quote(x)
		}
		return "[]string{" + strings.Join(parts, ", ") + "}", nil
	}
	return strconv.Quote(s), nil
}

// generated lists the catalogs of builtins_gen.go in the order written.
func generated() []string {
	out := []string{}
	for _, c := range catalogs {
		out = append(out, c.name)
	}
	return append(out, "pg_aggregate", "pg_proc", "pg_description")
}

func renderBuiltins(shapes []*shape, d *builtinData) string {
	var b strings.Builder
	b.WriteString("package syscat\n\n")
	b.WriteString("// builtinRows are PostgreSQL 15's rows for the built-in objects icegate\n")
	b.WriteString("// lists, per catalog, one value per column in the order of pgShapes.\n")
	b.WriteString("var builtinRows = map[string][][]any{\n")
	for _, name := range generated() {
		fmt.Fprintf(&b, "\t%q: {\n", name)
		for _, r := range d.rows[name] {
			b.WriteString("\t\t{" + strings.Join(r, ", ") + "},\n")
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return b.String()
	}
	return string(src)
}
