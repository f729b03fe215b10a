package write

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// avroSchemaJSON is the Avro schema of an Iceberg schema, per the spec's
// Avro appendix: a record named "table" whose fields carry "field-id";
// optional fields are unions with null first (default null); lists are
// arrays with "element-id"; maps with string keys are Avro maps with
// "key-id" and "value-id", other maps arrays of key/value records with
// logicalType "map"; decimals are fixed of the precision's minimal size,
// uuid fixed(16), times and timestamps micros (nanos for the _ns types,
// timestamps with "adjust-to-utc").
func avroSchemaJSON(s *catalog.Schema) (string, error) {
	b := &avroSchemaBuilder{named: map[string]bool{}}
	fields, err := b.fields(s.Fields)
	if err != nil {
		return "", err
	}
	out, err := json.Marshal(map[string]any{"type": "record", "name": "table", "fields": fields})
	if err != nil {
		return "", fmt.Errorf("avro schema: %w", err)
	}
	return string(out), nil
}

// avroSchemaBuilder remembers the named types (fixed, records) already
// defined: Avro allows a name once, later uses refer to it by name.
type avroSchemaBuilder struct {
	named map[string]bool
}

func (b *avroSchemaBuilder) fields(fs []catalog.NestedField) ([]any, error) {
	out := make([]any, 0, len(fs))
	for _, f := range fs {
		t, err := b.typ(f.Type, f.ID)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", f.Name, err)
		}
		field := map[string]any{"name": avroName(f.Name), "field-id": f.ID}
		if f.Required {
			field["type"] = t
		} else {
			field["type"] = []any{"null", t}
			field["default"] = nil
		}
		if f.Doc != "" {
			field["doc"] = f.Doc
		}
		out = append(out, field)
	}
	return out, nil
}

func (b *avroSchemaBuilder) optional(t any, required bool) any {
	if required {
		return t
	}
	return []any{"null", t}
}

// typ is the Avro schema of an Iceberg type; id is the field id of the
// field holding it (names nested records).
func (b *avroSchemaBuilder) typ(t catalog.Type, id int) (any, error) {
	switch t := t.(type) {
	case *catalog.PrimitiveType:
		return b.primitive(t)
	case *catalog.StructType:
		name := fmt.Sprintf("r%d", id)
		fields, err := b.fields(t.Fields)
		if err != nil {
			return nil, err
		}
		if b.named[name] {
			return name, nil
		}
		b.named[name] = true
		return map[string]any{"type": "record", "name": name, "fields": fields}, nil
	case *catalog.ListType:
		elem, err := b.typ(t.Element, t.ElementID)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": b.optional(elem, t.ElementRequired), "element-id": t.ElementID}, nil
	case *catalog.MapType:
		key, err := b.typ(t.Key, t.KeyID)
		if err != nil {
			return nil, err
		}
		val, err := b.typ(t.Value, t.ValueID)
		if err != nil {
			return nil, err
		}
		val = b.optional(val, t.ValueRequired)
		if p := catalog.Primitive(t.Key); p != nil && p.ID == catalog.TString {
			return map[string]any{"type": "map", "values": val, "key-id": t.KeyID, "value-id": t.ValueID}, nil
		}
		name := fmt.Sprintf("k%d_v%d", t.KeyID, t.ValueID)
		rec := any(name)
		if !b.named[name] {
			b.named[name] = true
			rec = map[string]any{"type": "record", "name": name, "fields": []any{
				map[string]any{"name": "key", "type": key, "field-id": t.KeyID},
				map[string]any{"name": "value", "type": val, "field-id": t.ValueID},
			}}
		}
		return map[string]any{"type": "array", "logicalType": "map", "items": rec}, nil
	}
	return nil, pgerr.Unsupported("writing a column of type %s to Avro", t)
}

func (b *avroSchemaBuilder) primitive(p *catalog.PrimitiveType) (any, error) {
	fixed := func(name string, size int, extra map[string]any) any {
		if b.named[name] {
			return name
		}
		b.named[name] = true
		m := map[string]any{"type": "fixed", "name": name, "size": size}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	switch p.ID {
	case catalog.TBoolean:
		return "boolean", nil
	case catalog.TInt:
		return "int", nil
	case catalog.TLong:
		return "long", nil
	case catalog.TFloat:
		return "float", nil
	case catalog.TDouble:
		return "double", nil
	case catalog.TDecimal:
		if p.Precision > 38 {
			break
		}
		return fixed(fmt.Sprintf("decimal_%d_%d", p.Precision, p.Scale), decimalFixedLength(p.Precision),
			map[string]any{"logicalType": "decimal", "precision": p.Precision, "scale": p.Scale}), nil
	case catalog.TDate:
		return map[string]any{"type": "int", "logicalType": "date"}, nil
	case catalog.TTime:
		return map[string]any{"type": "long", "logicalType": "time-micros"}, nil
	case catalog.TTimestamp, catalog.TTimestamptz:
		return map[string]any{"type": "long", "logicalType": "timestamp-micros", "adjust-to-utc": p.ID == catalog.TTimestamptz}, nil
	case catalog.TTimestampNs, catalog.TTimestamptzNs:
		return map[string]any{"type": "long", "logicalType": "timestamp-nanos", "adjust-to-utc": p.ID == catalog.TTimestamptzNs}, nil
	case catalog.TString:
		return "string", nil
	case catalog.TUUID:
		return fixed("uuid_fixed", 16, map[string]any{"logicalType": "uuid"}), nil
	case catalog.TFixed:
		return fixed(fmt.Sprintf("fixed_%d", p.Length), p.Length, nil), nil
	case catalog.TBinary:
		return "bytes", nil
	}
	return nil, pgerr.Unsupported("writing a column of type %s to Avro", p)
}

// avroName makes an Iceberg column name a valid Avro name: a leading digit
// gets a "_" before it, any other character outside [A-Za-z0-9_] becomes
// "_x" and its code point in upper-case hex. Readers find columns by field
// id, so the name only has to be valid.
func avroName(name string) string {
	var sb strings.Builder
	for i, r := range name {
		switch {
		case r == '_' || r < unicode.MaxASCII && (unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)):
			sb.WriteRune(r)
		case i == 0 && unicode.IsDigit(r):
			sb.WriteByte('_')
			sb.WriteRune(r)
		default:
			fmt.Fprintf(&sb, "_x%X", r)
		}
	}
	if sb.Len() == 0 {
		return "_"
	}
	return sb.String()
}
