package catalog

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ParseType parses a primitive type as the spec spells it in JSON: "long",
// "decimal(9,2)" or "decimal(9, 2)", "fixed[16]", "timestamp_ns",
// "geometry(srid:4326)", "variant", "unknown"...
func ParseType(s string) (*PrimitiveType, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "boolean":
		return &PrimitiveType{ID: TBoolean}, nil
	case "int", "integer":
		return &PrimitiveType{ID: TInt}, nil
	case "long":
		return &PrimitiveType{ID: TLong}, nil
	case "float":
		return &PrimitiveType{ID: TFloat}, nil
	case "double":
		return &PrimitiveType{ID: TDouble}, nil
	case "date":
		return &PrimitiveType{ID: TDate}, nil
	case "time":
		return &PrimitiveType{ID: TTime}, nil
	case "timestamp":
		return &PrimitiveType{ID: TTimestamp}, nil
	case "timestamptz":
		return &PrimitiveType{ID: TTimestamptz}, nil
	case "timestamp_ns":
		return &PrimitiveType{ID: TTimestampNs}, nil
	case "timestamptz_ns":
		return &PrimitiveType{ID: TTimestamptzNs}, nil
	case "string":
		return &PrimitiveType{ID: TString}, nil
	case "uuid":
		return &PrimitiveType{ID: TUUID}, nil
	case "binary":
		return &PrimitiveType{ID: TBinary}, nil
	case "variant":
		return &PrimitiveType{ID: TVariant}, nil
	case "unknown":
		return &PrimitiveType{ID: TUnknown}, nil
	case "geometry":
		return &PrimitiveType{ID: TGeometry}, nil
	case "geography":
		return &PrimitiveType{ID: TGeography}, nil
	}
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "decimal(") && strings.HasSuffix(s, ")"):
		p, sc, ok := strings.Cut(s[len("decimal("):len(s)-1], ",")
		if !ok {
			return nil, fmt.Errorf("parse type %q: %w", s, ErrDataInvalid)
		}
		prec, err1 := strconv.Atoi(strings.TrimSpace(p))
		scale, err2 := strconv.Atoi(strings.TrimSpace(sc))
		if err1 != nil || err2 != nil || prec <= 0 || prec > 38 || scale < 0 || scale > prec {
			return nil, fmt.Errorf("parse type %q: %w", s, ErrDataInvalid)
		}
		return &PrimitiveType{ID: TDecimal, Precision: prec, Scale: scale}, nil
	case strings.HasPrefix(lower, "fixed[") && strings.HasSuffix(s, "]"):
		n, err := strconv.Atoi(strings.TrimSpace(s[len("fixed[") : len(s)-1]))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("parse type %q: %w", s, ErrDataInvalid)
		}
		return &PrimitiveType{ID: TFixed, Length: n}, nil
	case strings.HasPrefix(lower, "geometry(") && strings.HasSuffix(s, ")"):
		return &PrimitiveType{ID: TGeometry, Param: strings.TrimSpace(s[len("geometry(") : len(s)-1])}, nil
	case strings.HasPrefix(lower, "geography(") && strings.HasSuffix(s, ")"):
		return &PrimitiveType{ID: TGeography, Param: strings.TrimSpace(s[len("geography(") : len(s)-1])}, nil
	}
	return nil, fmt.Errorf("parse type %q: %w", s, ErrDataInvalid)
}

// jsonField is a struct field as metadata JSON writes it.
type jsonField struct {
	ID             int             `json:"id"`
	Name           string          `json:"name"`
	Required       bool            `json:"required"`
	Type           json.RawMessage `json:"type"`
	Doc            string          `json:"doc"`
	InitialDefault json.RawMessage `json:"initial-default"`
	WriteDefault   json.RawMessage `json:"write-default"`
}

// jsonNestedType is a struct, list or map type as metadata JSON writes it.
type jsonNestedType struct {
	Type            string          `json:"type"`
	Fields          []jsonField     `json:"fields"`
	ElementID       int             `json:"element-id"`
	Element         json.RawMessage `json:"element"`
	ElementRequired bool            `json:"element-required"`
	KeyID           int             `json:"key-id"`
	Key             json.RawMessage `json:"key"`
	ValueID         int             `json:"value-id"`
	Value           json.RawMessage `json:"value"`
	ValueRequired   bool            `json:"value-required"`
}

// parseJSONType decodes a type: a JSON string for primitives, an object for
// struct, list and map.
func parseJSONType(raw json.RawMessage) (Type, error) {
	raw = trimJSON(raw)
	if len(raw) == 0 {
		return nil, fmt.Errorf("missing type: %w", ErrDataInvalid)
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("type %s: %w", raw, err)
		}
		return ParseType(s)
	}
	var n jsonNestedType
	if err := json.Unmarshal(raw, &n); err != nil {
		return nil, fmt.Errorf("type %s: %w", raw, err)
	}
	switch n.Type {
	case "struct":
		fields, err := parseJSONFields(n.Fields)
		if err != nil {
			return nil, err
		}
		return &StructType{Fields: fields}, nil
	case "list":
		elem, err := parseJSONType(n.Element)
		if err != nil {
			return nil, fmt.Errorf("list element: %w", err)
		}
		return &ListType{ElementID: n.ElementID, Element: elem, ElementRequired: n.ElementRequired}, nil
	case "map":
		key, err := parseJSONType(n.Key)
		if err != nil {
			return nil, fmt.Errorf("map key: %w", err)
		}
		val, err := parseJSONType(n.Value)
		if err != nil {
			return nil, fmt.Errorf("map value: %w", err)
		}
		return &MapType{KeyID: n.KeyID, Key: key, ValueID: n.ValueID, Value: val, ValueRequired: n.ValueRequired}, nil
	}
	return nil, fmt.Errorf("type %q: %w", n.Type, ErrDataInvalid)
}

func parseJSONFields(in []jsonField) ([]NestedField, error) {
	out := make([]NestedField, 0, len(in))
	for _, jf := range in {
		t, err := parseJSONType(jf.Type)
		if err != nil {
			return nil, fmt.Errorf("field %d %q: %w", jf.ID, jf.Name, err)
		}
		f := NestedField{ID: jf.ID, Name: jf.Name, Required: jf.Required, Type: t, Doc: jf.Doc}
		if f.InitialDefault, err = parseDefault(t, jf.InitialDefault); err != nil {
			return nil, fmt.Errorf("field %d %q initial-default: %w", jf.ID, jf.Name, err)
		}
		if f.WriteDefault, err = parseDefault(t, jf.WriteDefault); err != nil {
			return nil, fmt.Errorf("field %d %q write-default: %w", jf.ID, jf.Name, err)
		}
		out = append(out, f)
	}
	return out, nil
}

func trimJSON(raw json.RawMessage) json.RawMessage {
	return json.RawMessage(strings.TrimSpace(string(raw)))
}
