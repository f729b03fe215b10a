package catalog

import "fmt"

// PartitionResultType returns the type of a partition field's values: the
// result type of its transform applied to the source column's type in
// schema (identity, truncate and void keep the source type; bucket, year,
// month, day and hour give int).
func PartitionResultType(f PartitionField, schema *Schema) (*PrimitiveType, error) {
	src := schema.FindField(f.SourceID)
	if src == nil {
		return nil, fmt.Errorf("partition field %s: source column %d not in schema %d: %w", f.Name, f.SourceID, schema.ID, ErrDataInvalid)
	}
	st := Primitive(src.Type)
	if st == nil {
		return nil, fmt.Errorf("partition field %s: source column %d is %s: %w", f.Name, f.SourceID, src.Type, ErrDataInvalid)
	}
	switch f.Transform.Name {
	case "identity", "void":
		return st, nil
	case "truncate":
		switch st.ID {
		case TInt, TLong, TDecimal, TString, TBinary:
			return st, nil
		}
	case "bucket":
		switch st.ID {
		case TInt, TLong, TDecimal, TDate, TTime, TTimestamp, TTimestamptz, TTimestampNs, TTimestamptzNs, TString, TUUID, TFixed, TBinary:
			return &PrimitiveType{ID: TInt}, nil
		}
	case "year", "month", "day":
		switch st.ID {
		case TDate, TTimestamp, TTimestamptz, TTimestampNs, TTimestamptzNs:
			return &PrimitiveType{ID: TInt}, nil
		}
	case "hour":
		switch st.ID {
		case TTimestamp, TTimestamptz, TTimestampNs, TTimestamptzNs:
			return &PrimitiveType{ID: TInt}, nil
		}
	default:
		return nil, fmt.Errorf("partition transform %s: %w", f.Transform, ErrUnsupported)
	}
	return nil, fmt.Errorf("partition transform %s of %s: %w", f.Transform, st, ErrDataInvalid)
}

// PartitionType returns the result types of spec's fields over schema.
func PartitionType(spec *PartitionSpec, schema *Schema) ([]*PrimitiveType, error) {
	out := make([]*PrimitiveType, len(spec.Fields))
	for i, f := range spec.Fields {
		t, err := PartitionResultType(f, schema)
		if err != nil {
			return nil, fmt.Errorf("spec %d: %w", spec.ID, err)
		}
		out[i] = t
	}
	return out, nil
}
