package wire

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgtypes"
)

// fromJSON builds a one-row Arrow array of dt from the JSON of its row.
func fromJSON(t *testing.T, dt arrow.DataType, row string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader("["+row+"]"))
	if err != nil {
		t.Fatalf("build %s from %s: %v", dt, row, err)
	}
	return arr
}

func jsonText(t *testing.T, text string) arrow.Array {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	b.Append(text)
	return b.NewArray()
}

// jsonbCases are the Arrow values behind the "jsonb" rows of the golden
// file: nested Arrow types (structs, maps, lists) and JSON text columns.
func jsonbCases(t *testing.T) map[string]arrow.Array {
	i64, i32, f64 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Float64
	str := arrow.BinaryTypes.String
	return map[string]arrow.Array{
		"struct_ab": fromJSON(t, arrow.StructOf(
			arrow.Field{Name: "b", Type: arrow.ListOf(i64), Nullable: true},
			arrow.Field{Name: "a", Type: i64, Nullable: true}), `{"b": [1, 2], "a": 1}`),
		"struct_nested": fromJSON(t, arrow.StructOf(
			arrow.Field{Name: "name", Type: str, Nullable: true},
			arrow.Field{Name: "inner", Type: arrow.StructOf(
				arrow.Field{Name: "zz", Type: i32, Nullable: true},
				arrow.Field{Name: "y", Type: arrow.FixedWidthTypes.Boolean, Nullable: true}), Nullable: true},
			arrow.Field{Name: "a", Type: f64, Nullable: true}), `{"name": "x", "inner": {"zz": null, "y": true}, "a": 1.5}`),
		"map_str": fromJSON(t, arrow.MapOf(str, str),
			`[{"key": "k2", "value": "v\"2"}, {"key": "k1", "value": "v\n1"}, {"key": "longer key", "value": "é"}]`),
		"map_int": fromJSON(t, arrow.MapOf(i32, i32),
			`[{"key": 10, "value": 1}, {"key": 2, "value": 2}, {"key": -1, "value": 3}]`),
		"list_int":    fromJSON(t, arrow.ListOf(i64), `[1, null, 3]`),
		"list_struct": fromJSON(t, arrow.ListOf(arrow.StructOf(arrow.Field{Name: "x", Type: f64, Nullable: true})), `[{"x": 1}, {"x": -2.25}]`),
		"empty_obj":   fromJSON(t, arrow.MapOf(str, i32), `[]`),
		"empty_list":  fromJSON(t, arrow.ListOf(i32), `[]`),
		"string":      jsonText(t, `"a\\b\t"`),
		"float":       jsonText(t, `[1e20, 1.5e-07, 0.1, -0.0]`),
		"ctrl":        jsonText(t, `"\u0001x\u001f"`),
	}
}

// arrayCase builds the Arrow list behind an array row of the golden file.
func arrayCase(t *testing.T, kind, key string) (uint32, arrow.Array) {
	mem := memory.DefaultAllocator
	switch kind + "/" + key {
	case "int4[]/a":
		return pgtypes.Int4Array, fromJSON(t, arrow.ListOf(arrow.PrimitiveTypes.Int32), `[1, 2, null]`)
	case "int4[]/empty":
		return pgtypes.Int4Array, fromJSON(t, arrow.ListOf(arrow.PrimitiveTypes.Int32), `[]`)
	case "int4[]/neg":
		return pgtypes.Int4Array, fromJSON(t, arrow.ListOf(arrow.PrimitiveTypes.Int32), `[-1, 0, 2147483647]`)
	case "text[]/plain":
		return pgtypes.TextArray, fromJSON(t, arrow.ListOf(arrow.BinaryTypes.String), `["a", "b", "c"]`)
	case "text[]/quote":
		return pgtypes.TextArray, fromJSON(t, arrow.ListOf(arrow.BinaryTypes.String),
			`["a b", "", null, "NULL", "null", "x\"y", "a,b", "{}", "back\\slash", "é"]`)
	case "text[]/tab":
		return pgtypes.TextArray, fromJSON(t, arrow.ListOf(arrow.BinaryTypes.String), `["tab\tx", "new\nline"]`)
	case "float8[]/a":
		b := array.NewListBuilder(mem, arrow.PrimitiveTypes.Float64)
		vb := b.ValueBuilder().(*array.Float64Builder)
		b.Append(true)
		vb.AppendValues([]float64{1.1, 1e20, math.NaN(), math.Inf(-1)}, nil)
		vb.AppendNull()
		return pgtypes.Float8Array, b.NewArray()
	case "bool[]/a":
		return pgtypes.BoolArray, fromJSON(t, arrow.ListOf(arrow.FixedWidthTypes.Boolean), `[true, false, null]`)
	case "date[]/a":
		return pgtypes.DateArray, fromJSON(t, arrow.ListOf(arrow.FixedWidthTypes.Date32), `[19753, -719163]`)
	case "timestamp[]/a":
		b := array.NewListBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond})
		vb := b.ValueBuilder().(*array.TimestampBuilder)
		b.Append(true)
		vb.Append(1706704496500000)
		vb.AppendNull()
		return pgtypes.TimestampArray, b.NewArray()
	case "timestamptz[]/a":
		b := array.NewListBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
		vb := b.ValueBuilder().(*array.TimestampBuilder)
		b.Append(true)
		vb.Append(1706704496500000)
		return pgtypes.TimestamptzArray, b.NewArray()
	case "numeric[]/a":
		return pgtypes.NumericArray, fromJSON(t, arrow.ListOf(&arrow.Decimal128Type{Precision: 10, Scale: 2}), `["1.00", "-0.05"]`)
	case "bytea[]/a":
		return pgtypes.ByteaArray, fromJSON(t, arrow.ListOf(arrow.BinaryTypes.Binary), `["AP8=", null]`)
	case "uuid[]/a":
		b := array.NewListBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 16})
		vb := b.ValueBuilder().(*array.FixedSizeBinaryBuilder)
		b.Append(true)
		vb.Append(mustHex(t, "a0eebc999c0b4ef8bb6d6bb9bd380a11"))
		return pgtypes.UUIDArray, b.NewArray()
	case "jsonb[]/a":
		return pgtypes.JSONBArray, fromJSON(t, arrow.ListOf(arrow.BinaryTypes.String), `["{\"a\":1}", "[1,2]"]`)
	}
	t.Fatalf("no array case %s/%s", kind, key)
	return 0, nil
}
