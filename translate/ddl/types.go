package ddl

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// DefElemString is the value of an option as text.
func DefElemString(d *pg.DefElem) string {
	if d.Arg == nil {
		return "true"
	}
	switch a := d.Arg.Node.(type) {
	case *pg.Node_String_:
		return a.String_.Sval
	case *pg.Node_Integer:
		return strconv.Itoa(int(a.Integer.Ival))
	case *pg.Node_Float:
		return a.Float.Fval
	case *pg.Node_Boolean:
		return strconv.FormatBool(a.Boolean.Boolval)
	case *pg.Node_TypeName:
		var parts []string
		for _, n := range a.TypeName.Names {
			parts = append(parts, n.GetString_().GetSval())
		}
		return strings.Join(parts, ".")
	case *pg.Node_AConst:
		if sv := a.AConst.GetSval(); sv != nil {
			return sv.Sval
		}
		if iv := a.AConst.GetIval(); iv != nil {
			return strconv.Itoa(int(iv.Ival))
		}
	}
	return ""
}

// IDCounter hands out field ids for a new schema (CreateTable replaces
// them with fresh ones; they only need to be unique here).
type IDCounter struct{ N int }

func (c *IDCounter) Next() int { c.N++; return c.N }

// IcebergTypeOf maps a column's type as PostgreSQL parsed it (or a
// placeholder of the dialect pass) to an Iceberg type (DESIGN.md section 3).
func IcebergTypeOf(tn *pg.TypeName, x *parse.DDLExtras, ids *IDCounter) (catalog.Type, error) {
	var names []string
	for _, n := range tn.Names {
		names = append(names, n.GetString_().GetSval())
	}
	name := names[len(names)-1]
	if x != nil && strings.HasPrefix(name, "@") {
		if st := x.Types[name]; st != nil {
			return sparkIceberg(st, x.Spark, ids)
		}
	}
	if len(names) > 1 && names[0] != "pg_catalog" {
		return nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", strings.Join(names, ".")).WithPosition(tn.Location + 1)
	}
	var mods []int
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			return nil, pgerr.New(pgerr.SyntaxError, "type modifiers must be simple constants or identifiers")
		}
		mods = append(mods, int(c.GetIval().Ival))
	}
	// Spark's spellings were replaced by placeholders: what PostgreSQL
	// parsed has PostgreSQL's meaning (timestamp without time zone).
	st := &parse.SparkType{Name: name, Args: mods, Loc: tn.Location}
	t, err := sparkIceberg(st, false, ids)
	if err != nil {
		return nil, err
	}
	if len(tn.ArrayBounds) > 0 {
		for range tn.ArrayBounds {
			t = &catalog.ListType{ElementID: ids.Next(), Element: t}
		}
	}
	return t, nil
}

func Prim(id catalog.TypeID) *catalog.PrimitiveType { return &catalog.PrimitiveType{ID: id} }

// sparkIceberg maps a type name (PostgreSQL's internal names, their SQL
// spellings, or Spark's) to an Iceberg type. spark gives TIMESTAMP and
// FLOAT Spark's meaning.
func sparkIceberg(st *parse.SparkType, spark bool, ids *IDCounter) (catalog.Type, error) {
	switch st.Name {
	case "bool", "boolean":
		return Prim(catalog.TBoolean), nil
	case "int2", "smallint", "short", "int4", "int", "integer", "byte", "tinyint":
		return Prim(catalog.TInt), nil
	case "int8", "bigint", "long":
		return Prim(catalog.TLong), nil
	case "float4", "real":
		return Prim(catalog.TFloat), nil
	case "float":
		if spark || (len(st.Args) == 1 && st.Args[0] <= 24) {
			return Prim(catalog.TFloat), nil
		}
		return Prim(catalog.TDouble), nil
	case "float8", "double":
		return Prim(catalog.TDouble), nil
	case "numeric", "decimal", "dec":
		switch len(st.Args) {
		case 0:
			if spark {
				return &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 10, Scale: 0}, nil
			}
			return nil, pgerr.Unsupported("numeric without precision and scale in an Iceberg table").
				WithHint("Iceberg decimals have a fixed precision and scale: write numeric(P,S), P at most 38.")
		default:
			p, s := st.Args[0], 0
			if len(st.Args) > 1 {
				s = st.Args[1]
			}
			if p < 1 || p > 38 {
				return nil, pgerr.Unsupported("numeric precision %d in an Iceberg table", p).WithHint("Iceberg decimals hold 1 to 38 digits.")
			}
			if s < 0 || s > p {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "NUMERIC scale %d must be between 0 and precision %d", s, p)
			}
			return &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: p, Scale: s}, nil
		}
	case "text", "varchar", "bpchar", "char", "character", "character varying", "string", "json", "jsonb", "name":
		return Prim(catalog.TString), nil
	case "bytea", "binary":
		return Prim(catalog.TBinary), nil
	case "date":
		return Prim(catalog.TDate), nil
	case "time":
		return Prim(catalog.TTime), nil
	case "timestamp":
		if spark {
			return Prim(catalog.TTimestamptz), nil
		}
		return Prim(catalog.TTimestamp), nil
	case "timestamp_ntz":
		return Prim(catalog.TTimestamp), nil
	case "timestamptz", "timestamp_ltz":
		return Prim(catalog.TTimestamptz), nil
	case "uuid":
		return Prim(catalog.TUUID), nil
	case "array":
		e, err := sparkIceberg(st.Elem, spark, ids)
		if err != nil {
			return nil, err
		}
		return &catalog.ListType{ElementID: ids.Next(), Element: e}, nil
	case "map":
		k, err := sparkIceberg(st.Key, spark, ids)
		if err != nil {
			return nil, err
		}
		v, err := sparkIceberg(st.Val, spark, ids)
		if err != nil {
			return nil, err
		}
		return &catalog.MapType{KeyID: ids.Next(), Key: k, ValueID: ids.Next(), Value: v}, nil
	case "struct":
		out := &catalog.StructType{}
		seen := map[string]bool{}
		for _, f := range st.Fields {
			if seen[f.Name] {
				return nil, pgerr.New(pgerr.DuplicateColumn, "field \"%s\" specified more than once in a struct", f.Name)
			}
			seen[f.Name] = true
			ft, err := sparkIceberg(f.T, spark, ids)
			if err != nil {
				return nil, err
			}
			out.Fields = append(out.Fields, catalog.NestedField{ID: ids.Next(), Name: f.Name, Type: ft, Required: f.NotNull, Doc: f.Comment})
		}
		return out, nil
	case "interval":
		// Stored as the struct of its parts, the PostgreSQL type recorded
		// (RecordedTypeOf).
		if len(st.Args) > 0 {
			return nil, pgerr.Unsupported("interval with fields or a precision in an Iceberg table").WithPosition(st.Loc + 1)
		}
		return engine.IntervalPartsType(ids.Next), nil
	case "serial", "serial4", "serial8", "bigserial", "smallserial", "serial2", "money", "timetz",
		"inet", "cidr", "macaddr", "macaddr8", "bit", "varbit", "xml", "oid", "point", "line", "box", "tsvector",
		"tsquery", "int4range", "int8range", "numrange", "tsrange", "tstzrange", "daterange", "void", "variant":
		return nil, pgerr.Unsupported("type %s in an Iceberg table", st.Name).WithPosition(st.Loc + 1)
	}
	return nil, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", st.Name).WithPosition(st.Loc + 1)
}

// PartitionSpecOf binds partition items to the columns of schema.
func PartitionSpecOf(items []parse.PartitionItem, schema *catalog.Schema) (*catalog.PartitionSpec, error) {
	if len(items) == 0 {
		return nil, nil
	}
	spec := &catalog.PartitionSpec{}
	names := map[string]bool{}
	for i, it := range items {
		var src *catalog.NestedField
		for k := range schema.Fields {
			if schema.Fields[k].Name == it.Column {
				src = &schema.Fields[k]
			}
		}
		if src == nil {
			for k := range schema.Fields {
				if strings.EqualFold(schema.Fields[k].Name, it.Column) {
					src = &schema.Fields[k]
				}
			}
		}
		srcName := ""
		if src == nil && strings.Contains(it.Column, ".") {
			// A field of a struct column: st.a.
			src, srcName = FindColumnPath(schema.Fields, it.Column)
		}
		if src == nil {
			return nil, pgerr.New(pgerr.UndefinedColumn, "partition column \"%s\" does not exist", it.Column)
		}
		if srcName == "" {
			srcName = src.Name
		}
		tr, suffix, err := transformOf(it)
		if err != nil {
			return nil, err
		}
		if err := transformApplies(tr, src); err != nil {
			return nil, err
		}
		name := srcName
		if suffix != "" {
			name += "_" + suffix
		}
		if names[name] {
			return nil, pgerr.New(pgerr.InvalidTableDefinition, "partition field \"%s\" specified more than once", name)
		}
		names[name] = true
		spec.Fields = append(spec.Fields, catalog.PartitionField{SourceID: src.ID, FieldID: 1000 + i, Name: name, Transform: tr})
	}
	return spec, nil
}

// transformOf maps a transform as written (Spark's plural names too) to
// the spec's transform and the suffix of its partition field's name.
func transformOf(it parse.PartitionItem) (catalog.Transform, string, error) {
	noParam := func(name, suffix string) (catalog.Transform, string, error) {
		if it.HasParam {
			return catalog.Transform{}, "", pgerr.New(pgerr.InvalidParameterValue, "partition transform %s takes no parameter", it.Transform)
		}
		return catalog.Transform{Name: name}, suffix, nil
	}
	switch it.Transform {
	case "identity":
		return noParam("identity", "")
	case "years", "year":
		return noParam("year", "year")
	case "months", "month":
		return noParam("month", "month")
	case "days", "day", "date":
		return noParam("day", "day")
	case "hours", "hour", "date_hour":
		return noParam("hour", "hour")
	case "void":
		return noParam("void", "null")
	case "bucket", "truncate":
		if !it.HasParam || it.Param <= 0 {
			return catalog.Transform{}, "", pgerr.New(pgerr.InvalidParameterValue, "partition transform %s needs a positive parameter: %s(N, column)", it.Transform, it.Transform)
		}
		suffix := "bucket"
		if it.Transform == "truncate" {
			suffix = "trunc"
		}
		return catalog.Transform{Name: it.Transform, Param: it.Param}, suffix, nil
	}
	return catalog.Transform{}, "", pgerr.New(pgerr.InvalidParameterValue, "unknown partition transform \"%s\"", it.Transform).
		WithHint("Transforms are identity, years, months, days, hours, bucket(N, col), truncate(W, col) and void.")
}

// transformApplies checks a transform against its source column's type.
func transformApplies(tr catalog.Transform, src *catalog.NestedField) error {
	p := catalog.Primitive(src.Type)
	if p == nil {
		return pgerr.New(pgerr.InvalidTableDefinition, "cannot partition by %s of column \"%s\" of type %s", tr, src.Name, src.Type)
	}
	ok := true
	switch tr.Name {
	case "year", "month", "day":
		ok = p.ID == catalog.TDate || p.ID == catalog.TTimestamp || p.ID == catalog.TTimestamptz || p.ID == catalog.TTimestampNs || p.ID == catalog.TTimestamptzNs
	case "hour":
		ok = p.ID == catalog.TTimestamp || p.ID == catalog.TTimestamptz || p.ID == catalog.TTimestampNs || p.ID == catalog.TTimestamptzNs
	case "bucket":
		ok = p.ID != catalog.TBoolean && p.ID != catalog.TFloat && p.ID != catalog.TDouble
	case "truncate":
		ok = p.ID == catalog.TInt || p.ID == catalog.TLong || p.ID == catalog.TDecimal || p.ID == catalog.TString || p.ID == catalog.TBinary
	}
	if !ok {
		return pgerr.New(pgerr.InvalidTableDefinition, "cannot partition by %s of column \"%s\" of type %s", tr, src.Name, src.Type)
	}
	return nil
}

// NestedArrayType is the Iceberg type of a column of array type t whose
// values have the Arrow type at, nested lists one per dimension: lists of
// lists of the element's type.
func NestedArrayType(t plan.Type, at arrow.DataType, next func() int) (catalog.Type, error) {
	d, _ := expr.ArrayLeaf(at)
	it, err := IcebergTypeOfPG(plan.Type{OID: pgtypes.ElemOf(t.OID), Typmod: -1}, "", next)
	if err != nil {
		return nil, err
	}
	for range d {
		it = &catalog.ListType{ElementID: next(), Element: it}
	}
	return it, nil
}

// IcebergTypeOfPG is the Iceberg type a query's result column of
// PostgreSQL type t becomes in CREATE TABLE AS. next numbers the fields of
// an interval's struct (nil: an interval is refused).
func IcebergTypeOfPG(t plan.Type, name string, next func() int) (catalog.Type, error) {
	if p, s, ok := t.NumericPS(); ok {
		return &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: p, Scale: s}, nil
	}
	switch t.OID {
	case plan.TBool.OID:
		return Prim(catalog.TBoolean), nil
	case plan.TInt2.OID, plan.TInt4.OID:
		return Prim(catalog.TInt), nil
	case plan.TInt8.OID:
		return Prim(catalog.TLong), nil
	case plan.TFloat4.OID:
		return Prim(catalog.TFloat), nil
	case plan.TFloat8.OID:
		return Prim(catalog.TDouble), nil
	case pgtypes.Text, pgtypes.Unknown, pgtypes.Varchar, pgtypes.BPChar, pgtypes.Name, pgtypes.JSON, pgtypes.JSONB:
		return Prim(catalog.TString), nil
	case plan.TBytea.OID:
		return Prim(catalog.TBinary), nil
	case plan.TUUID.OID:
		return Prim(catalog.TUUID), nil
	case plan.TDate.OID:
		return Prim(catalog.TDate), nil
	case plan.TTime.OID:
		return Prim(catalog.TTime), nil
	case plan.TTimestamp.OID:
		return Prim(catalog.TTimestamp), nil
	case plan.TTimestamptz.OID:
		return Prim(catalog.TTimestamptz), nil
	case plan.TInterval.OID:
		if next != nil {
			return engine.IntervalPartsType(next), nil
		}
	case plan.TNumeric.OID:
		return nil, pgerr.Unsupported("column \"%s\" of type numeric without precision and scale in CREATE TABLE AS", name).
			WithHint("Cast it to numeric(P,S).")
	}
	return nil, pgerr.Unsupported("column \"%s\" of type %s in CREATE TABLE AS", name, t)
}
