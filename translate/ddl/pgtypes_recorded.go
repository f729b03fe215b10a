package ddl

import (
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// RecordedTypeOf is the PostgreSQL type a column declared as tn keeps in
// the table's metadata (plan.PGTypesProperty) when Iceberg lacks it: json,
// jsonb, smallint, character varying[(n)], character(n). ok is false for
// the types Iceberg has, arrays and Spark's spellings.
func RecordedTypeOf(tn *pg.TypeName, it catalog.Type) (plan.Type, bool, error) {
	if tn != nil && len(tn.ArrayBounds) >= 1 {
		// varchar(n)[], char(n)[], json[]: lists of strings with the
		// element's type recorded as an array type, its length the typmod.
		elem := &pg.TypeName{Names: tn.Names, Typmods: tn.Typmods, Typemod: tn.Typemod, Location: tn.Location}
		if et, ok, err := RecordedTypeOf(elem, plan.ListLeaf(it)); err != nil {
			return et, false, err
		} else if ok && (et.OID == pgtypes.Varchar || et.OID == pgtypes.BPChar || et.OID == pgtypes.JSON || et.OID == pgtypes.Interval) {
			at := plan.Type{OID: pgtypes.ArrayOf(et.OID), Typmod: et.Typmod}
			return at, plan.Recordable(at, it), nil
		}
	}
	if tn != nil && len(tn.ArrayBounds) >= 2 {
		// int[][]: nested lists, recorded as the element's array type
		// so that icegate reads them back as arrays of that many
		// dimensions (plan.ArrayDims).
		if d := plan.ArrayDims(it); d >= 2 {
			t := plan.TypeOfIceberg(plan.ListLeaf(it))
			if arr := pgtypes.ArrayOf(t.OID); arr != 0 {
				at := plan.Type{OID: arr, Typmod: -1}
				return at, plan.Recordable(at, it), nil
			}
		}
		return plan.Type{}, false, nil
	}
	t, ok := recordedTypeOf(tn)
	if !ok {
		return t, false, nil
	}
	if t.OID == pgtypes.Varchar || t.OID == pgtypes.BPChar {
		if n := len(tn.Typmods); n > 1 {
			return t, false, pgerr.New(pgerr.SyntaxError, "invalid type modifier").WithPosition(tn.Location + 1)
		}
		if len(tn.Typmods) == 1 {
			name := map[uint32]string{pgtypes.Varchar: "varchar", pgtypes.BPChar: "char"}[t.OID]
			if n := t.Typmod - 4; n < 1 {
				return t, false, pgerr.New(pgerr.InvalidParameterValue, "length for type %s must be at least 1", name).WithPosition(tn.Location + 1)
			} else if n > 10485760 {
				return t, false, pgerr.New(pgerr.InvalidParameterValue, "length for type %s cannot exceed 10485760", name).WithPosition(tn.Location + 1)
			}
		}
	}
	return t, plan.Recordable(t, it), nil
}

func recordedTypeOf(tn *pg.TypeName) (plan.Type, bool) {
	if tn == nil || len(tn.ArrayBounds) > 0 || len(tn.Names) == 0 {
		return plan.Type{}, false
	}
	names := tn.Names
	if len(names) > 2 || len(names) == 2 && names[0].GetString_().GetSval() != "pg_catalog" {
		return plan.Type{}, false
	}
	name := names[len(names)-1].GetString_().GetSval()
	mod := int32(-1)
	if len(tn.Typmods) == 1 {
		if c := tn.Typmods[0].GetAConst(); c != nil && c.GetIval() != nil {
			mod = c.GetIval().Ival
		}
	}
	var t plan.Type
	switch name {
	case "json":
		t = plan.Type{OID: pgtypes.JSON, Typmod: -1}
	case "jsonb":
		t = plan.TJSONB
	case "int2", "smallint":
		t = plan.TInt2
	case "interval":
		t = plan.TInterval
	case "varchar":
		t = plan.Type{OID: pgtypes.Varchar, Typmod: -1}
		if len(tn.Typmods) > 0 {
			t.Typmod = mod + 4
		}
	case "bpchar":
		if mod < 0 && len(names) == 2 {
			mod = 1 // char, character: character(1)
		}
		t = plan.Type{OID: pgtypes.BPChar, Typmod: -1}
		if mod >= 0 || len(tn.Typmods) > 0 {
			t.Typmod = mod + 4
		}
	default:
		return plan.Type{}, false
	}
	return t, true
}

// FreshRecorded returns the entries of rec under the field ids of a fresh
// schema (ids maps old to new, catalog.FreshSchema).
func FreshRecorded(rec map[int]plan.Type, ids map[int]int) map[int]plan.Type {
	out := make(map[int]plan.Type, len(rec))
	for id, t := range rec {
		if n, ok := ids[id]; ok {
			out[n] = t
		}
	}
	return out
}

// RecordedTypeOfSpark is RecordedTypeOf for a column type written in
// Spark's DDL (tn a placeholder of the dialect pass, resolved through x):
// smallint (short), varchar(n) and char(n), which Spark keeps as such too,
// and json and jsonb as PostgreSQL writes them.
func RecordedTypeOfSpark(tn *pg.TypeName, x *parse.DDLExtras, it catalog.Type) (plan.Type, bool) {
	if x == nil || tn == nil || len(tn.Names) == 0 {
		return plan.Type{}, false
	}
	st := x.Types[tn.Names[len(tn.Names)-1].GetString_().GetSval()]
	if st == nil {
		return plan.Type{}, false
	}
	t, ok := sparkRecorded(st)
	return t, ok && plan.Recordable(t, it)
}

// sparkRecorded is the PostgreSQL type a Spark type keeps in the table's
// metadata, if any: array<varchar(n)> (char(n), json) is varchar(n)[].
func sparkRecorded(st *parse.SparkType) (plan.Type, bool) {
	if st.Name == "array" && st.Elem != nil {
		et, ok := sparkRecorded(st.Elem)
		if !ok || et.OID != pgtypes.Varchar && et.OID != pgtypes.BPChar && et.OID != pgtypes.JSON {
			return plan.Type{}, false
		}
		return plan.Type{OID: pgtypes.ArrayOf(et.OID), Typmod: et.Typmod}, true
	}
	var t plan.Type
	switch {
	case st.Name == "smallint" || st.Name == "short":
		t = plan.TInt2
	case (st.Name == "varchar" || st.Name == "char" || st.Name == "character") && len(st.Args) == 1 && st.Args[0] >= 1 && st.Args[0] <= 10485760:
		t = plan.Type{OID: pgtypes.Varchar, Typmod: int32(st.Args[0] + 4)}
		if st.Name != "varchar" {
			t.OID = pgtypes.BPChar
		}
	case st.Name == "json":
		t = plan.Type{OID: pgtypes.JSON, Typmod: -1}
	case st.Name == "jsonb":
		t = plan.TJSONB
	default:
		return plan.Type{}, false
	}
	return t, true
}
