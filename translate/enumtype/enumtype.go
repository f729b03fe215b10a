package enumtype

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// LabelsProp is the property of an enum type's table holding its labels
// as a JSON array, in declaration order.
const LabelsProp = "icegate.enum"

// maxLabel is PostgreSQL's NAMEDATALEN-1: the longest label, in bytes.
const maxLabel = 63

// Is reports whether t is an enum type's table.
func Is(t *catalog.Table) bool {
	return t != nil && t.Metadata != nil && t.Metadata.Properties[LabelsProp] != ""
}

// Labels reads an enum type's labels from its table.
func Labels(t *catalog.Table) ([]string, error) {
	return Decode(t.Metadata.Properties[LabelsProp])
}

// Decode reads the value of LabelsProp.
func Decode(v string) ([]string, error) {
	var labels []string
	if err := json.Unmarshal([]byte(v), &labels); err != nil {
		return nil, fmt.Errorf("enum labels %q: %w", v, err)
	}
	return labels, nil
}

// Encode is the value of LabelsProp for labels.
func Encode(labels []string) string {
	js, _ := json.Marshal(labels)
	return string(js)
}

// CheckLabel refuses a label PostgreSQL would: empty or over 63 bytes.
func CheckLabel(l string) error {
	if l == "" || len(l) > maxLabel {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid enum label \"%s\"", l).
			WithDetail("Labels must be %d bytes or less.", maxLabel)
	}
	return nil
}

// New checks the labels of CREATE TYPE name AS ENUM (labels).
func New(labels []string) error {
	for i, l := range labels {
		if err := CheckLabel(l); err != nil {
			return err
		}
		if slices.Contains(labels[:i], l) {
			return pgerr.New(pgerr.UniqueViolation, "duplicate key value violates unique constraint \"pg_enum_typid_label_index\"").
				WithDetail("Key (enumtypid, enumlabel)=(%s) already exists.", l)
		}
	}
	return nil
}

// TableSpec is the table of a new enum type.
func TableSpec(labels []string) catalog.TableSpec {
	return catalog.TableSpec{
		Schema: &catalog.Schema{Fields: []catalog.NestedField{
			{ID: 1, Name: "enumlabel", Type: &catalog.PrimitiveType{ID: catalog.TString}},
		}},
		Properties: map[string]string{LabelsProp: Encode(labels)},
	}
}

// AddValue is ALTER TYPE typ ADD VALUE [IF NOT EXISTS] v [BEFORE|AFTER
// neighbor]: the new labels, or changed false when v exists and
// ifNotExists (PostgreSQL then notices and skips).
func AddValue(typ string, labels []string, v string, ifNotExists bool, neighbor string, before bool) (out []string, changed bool, err error) {
	if err := CheckLabel(v); err != nil {
		return nil, false, err
	}
	if slices.Contains(labels, v) {
		if ifNotExists {
			return labels, false, nil
		}
		return nil, false, pgerr.New(pgerr.DuplicateObject, "enum label \"%s\" already exists", v)
	}
	at := len(labels)
	if neighbor != "" {
		i := slices.Index(labels, neighbor)
		if i < 0 {
			return nil, false, pgerr.New(pgerr.InvalidParameterValue, "\"%s\" is not an existing enum label", neighbor)
		}
		at = i
		if !before {
			at = i + 1
		}
	}
	out = slices.Insert(slices.Clone(labels), at, v)
	return out, true, nil
}

// RenameValue is ALTER TYPE typ RENAME VALUE from TO to.
func RenameValue(labels []string, from, to string) ([]string, error) {
	if err := CheckLabel(to); err != nil {
		return nil, err
	}
	i := slices.Index(labels, from)
	if i < 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "\"%s\" is not an existing enum label", from)
	}
	if slices.Contains(labels, to) {
		return nil, pgerr.New(pgerr.DuplicateObject, "enum label \"%s\" already exists", to)
	}
	out := slices.Clone(labels)
	out[i] = to
	return out, nil
}

// Check is the input of a label for an enum type named typ: 22P02 when
// v is not one of its labels.
func Check(typ string, labels []string, v string) error {
	if !slices.Contains(labels, v) {
		return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input value for enum %s: \"%s\"", typ, v)
	}
	return nil
}
