package write

import (
	"fmt"
	"os"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// ParquetSchema infers the Iceberg schema of a plain Parquet file's
// top-level columns (for snapshot, which makes a table of such files):
// its physical and logical types read as the scan reads them, optional
// columns nullable. Field ids are 1, 2, ... (a created table gets fresh
// ones). Nested columns are refused with 0A000, naming the column.
func ParquetSchema(path string) (*catalog.Schema, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.UndefinedFile, "could not open file \"%s\": %v", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.IOError, "could not stat file \"%s\": %v", path, err)
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.InvalidParameterValue, "file \"%s\" is not a Parquet file: %v", path, err)
	}
	elems := pf.Metadata().Schema
	if len(elems) == 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "file \"%s\" has no schema", path)
	}
	s := &catalog.Schema{}
	for i := 1; i < len(elems); i++ {
		e := &elems[i]
		if e.NumChildren.Valid && e.NumChildren.V > 0 || e.RepetitionType.Valid && e.RepetitionType.V == format.Repeated {
			return nil, pgerr.NotYet(fmt.Sprintf("a table of Parquet files with nested columns (\"%s\" of \"%s\")", e.Name, path))
		}
		t, err := icebergTypeOf(e)
		if err != nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "column \"%s\" of file \"%s\": %v", e.Name, path, err)
		}
		s.Fields = append(s.Fields, catalog.NestedField{ID: len(s.Fields) + 1, Name: e.Name, Type: t,
			Required: e.RepetitionType.Valid && e.RepetitionType.V == format.Required})
	}
	if len(s.Fields) == 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "file \"%s\" has no columns", path)
	}
	return s, nil
}

// icebergTypeOf is the Iceberg type a Parquet leaf column reads as.
func icebergTypeOf(e *format.SchemaElement) (catalog.Type, error) {
	prim := func(id catalog.TypeID) (catalog.Type, error) { return &catalog.PrimitiveType{ID: id}, nil }
	conv := deprecated.ConvertedType(-1)
	if e.ConvertedType.Valid {
		conv = e.ConvertedType.V
	}
	if !e.Type.Valid {
		return nil, fmt.Errorf("no physical type")
	}
	switch lt := e.LogicalType.Value.(type) {
	case *format.DecimalType:
		return &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: int(lt.Precision), Scale: int(lt.Scale)}, nil
	case *format.TimestampType:
		if _, nanos := lt.Unit.Value.(*format.NanoSeconds); nanos {
			return nil, fmt.Errorf("nanosecond timestamps are not supported yet")
		}
		if lt.IsAdjustedToUTC {
			return prim(catalog.TTimestamptz)
		}
		return prim(catalog.TTimestamp)
	case *format.IntType:
		if !lt.IsSigned && lt.BitWidth >= 32 {
			return nil, fmt.Errorf("unsigned %d-bit integers are not supported", lt.BitWidth)
		}
	}
	if conv == deprecated.Decimal && e.Precision.Valid {
		return &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: int(e.Precision.V), Scale: int(e.Scale.V)}, nil
	}
	switch e.Type.V {
	case format.Boolean:
		return prim(catalog.TBoolean)
	case format.Int32:
		if _, ok := e.LogicalType.Value.(*format.DateType); ok || conv == deprecated.Date {
			return prim(catalog.TDate)
		}
		if conv == deprecated.TimeMillis {
			return nil, fmt.Errorf("millisecond times are not supported")
		}
		if conv == deprecated.Uint32 {
			return nil, fmt.Errorf("unsigned 32-bit integers are not supported")
		}
		return prim(catalog.TInt)
	case format.Int64:
		switch conv {
		case deprecated.TimestampMillis, deprecated.TimestampMicros:
			return prim(catalog.TTimestamptz)
		case deprecated.Uint64:
			return nil, fmt.Errorf("unsigned 64-bit integers are not supported")
		}
		if _, ok := e.LogicalType.Value.(*format.TimeType); ok || conv == deprecated.TimeMicros {
			return prim(catalog.TTime)
		}
		return prim(catalog.TLong)
	case format.Int96:
		// Spark's and Impala's legacy timestamps: instants.
		return prim(catalog.TTimestamptz)
	case format.Float:
		return prim(catalog.TFloat)
	case format.Double:
		return prim(catalog.TDouble)
	case format.ByteArray:
		switch e.LogicalType.Value.(type) {
		case *format.StringType, *format.EnumType, *format.JsonType:
			return prim(catalog.TString)
		}
		if conv == deprecated.UTF8 || conv == deprecated.Enum || conv == deprecated.Json {
			return prim(catalog.TString)
		}
		return prim(catalog.TBinary)
	case format.FixedLenByteArray:
		if _, ok := e.LogicalType.Value.(*format.UUIDType); ok {
			return prim(catalog.TUUID)
		}
		return &catalog.PrimitiveType{ID: catalog.TFixed, Length: int(e.TypeLength.V)}, nil
	}
	return nil, fmt.Errorf("physical type %v is not supported", e.Type.V)
}
