package syscat

import (
	"context"
	"sort"
	"strconv"
	"strings"
)

// routines and parameters: the built-in functions, as pg_proc lists them
// (ProcInfo: the functions icegate has and those pg_type's rows name).

// specificName is nameconcatoid(proname, oid): a routine's unique name.
func specificName(p *ProcInfo) string {
	return p.Name + "_" + strconv.FormatUint(uint64(p.OID), 10)
}

// languageNames are pg_language's names by OID.
var languageNames = map[uint32]string{12: "internal", 13: "c", 14: "sql"}

func languageName(oid uint32) string {
	if n, ok := languageNames[oid]; ok {
		return n
	}
	return strconv.FormatUint(uint64(oid), 10)
}

// builtinRoutines returns the built-in functions ordered by OID.
func builtinRoutines() []*ProcInfo {
	out := make([]*ProcInfo, 0, len(procsByOID))
	for _, p := range procsByOID {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

// routineRowsFrom computes routines from the functions procs lists.
func routineRowsFrom(procs func() []*ProcInfo) infoRowsFunc {
	return func(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
		for i, p := range procs() {
			if i%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			var routineType, dataType, udtCatalog, udtSchema, udtName, dtd, nullCall any
			switch p.Kind {
			case 'f':
				routineType = "FUNCTION"
			case 'p':
				routineType = "PROCEDURE"
			}
			if p.Kind != 'p' {
				dataType = dataTypeOf(p.RetType)
				udtCatalog, udtSchema, udtName = s.Database, "pg_catalog", udtNameOf(p.RetType)
				dtd = "0"
				nullCall = yesNo(p.Strict)
			}
			lang := languageName(p.Lang)
			body := "EXTERNAL"
			if lang == "sql" {
				body = "SQL"
			}
			var external any
			if lang == "c" {
				external = p.Src
			}
			rb.add("specific_catalog", s.Database, "specific_schema", "pg_catalog",
				"specific_name", specificName(p), "routine_catalog", s.Database,
				"routine_schema", "pg_catalog", "routine_name", p.Name, "routine_type", routineType,
				"data_type", dataType, "type_udt_catalog", udtCatalog, "type_udt_schema", udtSchema,
				"type_udt_name", udtName, "dtd_identifier", dtd, "routine_body", body,
				"routine_definition", p.Src, "external_name", external,
				"external_language", strings.ToUpper(lang), "parameter_style", "GENERAL",
				"is_deterministic", yesNo(p.Volatile == 'i'), "sql_data_access", "MODIFIES",
				"is_null_call", nullCall, "schema_level_routine", "YES",
				"max_dynamic_result_sets", card(0), "security_type", "INVOKER",
				"as_locator", "NO", "is_udt_dependent", "NO")
		}
		return nil
	}
}

// parameterModes spells proargmodes as parameter_mode.
var parameterModes = map[string]string{"i": "IN", "o": "OUT", "b": "INOUT", "v": "IN", "t": "OUT"}

// procArgTypes is proallargtypes when set, else proargtypes.
func procArgTypes(p *ProcInfo) []uint32 {
	if p.AllArgTypes != nil {
		return p.AllArgTypes
	}
	return p.ArgTypes
}

// parameterRowsFrom computes parameters from the functions procs lists.
// parameter_default is NULL: PostgreSQL shows the default's expression,
// which the built-in rows do not carry.
func parameterRowsFrom(procs func() []*ProcInfo) infoRowsFunc {
	return func(ctx context.Context, s *Snapshot, rb *rowBuilder) error {
		for i, p := range procs() {
			if i%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			for n, t := range procArgTypes(p) {
				mode := "IN"
				if n < len(p.ArgModes) {
					mode = parameterModes[p.ArgModes[n]]
				}
				var name any
				if n < len(p.ArgNames) && p.ArgNames[n] != "" {
					name = p.ArgNames[n]
				}
				rb.add("specific_catalog", s.Database, "specific_schema", "pg_catalog",
					"specific_name", specificName(p), "ordinal_position", card(n+1),
					"parameter_mode", mode, "is_result", "NO", "as_locator", "NO",
					"parameter_name", name, "data_type", dataTypeOf(t),
					"udt_catalog", s.Database, "udt_schema", "pg_catalog", "udt_name", udtNameOf(t),
					"dtd_identifier", strconv.Itoa(n+1))
			}
		}
		return nil
	}
}
