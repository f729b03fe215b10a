package restmsg

import (
	"encoding/json"
	"fmt"

	"github.com/icegate/icegate/catalog"
)

// The types below carry catalog values inside messages; their JSON is the
// catalog's metadata JSON. A nil value is JSON null (and null decodes to
// nil).

// TableMetadata is whole table metadata.
type TableMetadata struct{ *catalog.TableMetadata }

func (m TableMetadata) MarshalJSON() ([]byte, error) {
	if m.TableMetadata == nil {
		return []byte("null"), nil
	}
	return catalog.MarshalMetadataCompact(m.TableMetadata)
}

func (m *TableMetadata) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		m.TableMetadata = nil
		return nil
	}
	v, err := catalog.ParseMetadata(b)
	m.TableMetadata = v
	return err
}

// ViewMetadata is whole view metadata.
type ViewMetadata struct{ *catalog.ViewMetadata }

func (m ViewMetadata) MarshalJSON() ([]byte, error) {
	if m.ViewMetadata == nil {
		return []byte("null"), nil
	}
	return catalog.MarshalViewMetadata(m.ViewMetadata)
}

func (m *ViewMetadata) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		m.ViewMetadata = nil
		return nil
	}
	v, err := catalog.ParseViewMetadata(b)
	m.ViewMetadata = v
	return err
}

// Schema is a table or view schema.
type Schema struct{ *catalog.Schema }

func (s Schema) MarshalJSON() ([]byte, error) {
	if s.Schema == nil {
		return []byte("null"), nil
	}
	return catalog.MarshalSchemaJSON(s.Schema)
}

func (s *Schema) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		s.Schema = nil
		return nil
	}
	o, err := openObject("schema", b)
	if err != nil {
		return err
	}
	if err := o.check(shape{arrays: []string{"fields"}, optInts: []string{"schema-id"}}); err != nil {
		return err
	}
	v, err := catalog.ParseSchemaJSON(b)
	s.Schema = v
	return err
}

// PartitionSpec is a partition spec; its spec-id and field ids may be
// missing (the protocol's unbound spec of a new table).
type PartitionSpec struct{ *catalog.PartitionSpec }

func (s PartitionSpec) MarshalJSON() ([]byte, error) {
	if s.PartitionSpec == nil {
		return []byte("null"), nil
	}
	return catalog.MarshalSpecJSON(s.PartitionSpec)
}

func (s *PartitionSpec) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		s.PartitionSpec = nil
		return nil
	}
	o, err := openObject("partition spec", b)
	if err != nil {
		return err
	}
	if err := o.check(shape{optInts: []string{"spec-id"}}); err != nil {
		return err
	}
	if err := checkElems(o, "fields", shape{ints: []string{"source-id"}, optInts: []string{"field-id"}, strs: []string{"name", "transform"}}); err != nil {
		return err
	}
	v, err := catalog.ParseSpecJSON(b)
	s.PartitionSpec = v
	return err
}

// SortOrder is a sort order.
type SortOrder struct{ *catalog.SortOrder }

func (s SortOrder) MarshalJSON() ([]byte, error) {
	if s.SortOrder == nil {
		return []byte("null"), nil
	}
	return catalog.MarshalSortOrderJSON(s.SortOrder)
}

func (s *SortOrder) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		s.SortOrder = nil
		return nil
	}
	o, err := openObject("sort order", b)
	if err != nil {
		return err
	}
	if err := o.check(shape{ints: []string{"order-id"}}); err != nil {
		return err
	}
	if err := checkElems(o, "fields", shape{ints: []string{"source-id"}, strs: []string{"transform", "direction", "null-order"}}); err != nil {
		return err
	}
	v, err := catalog.ParseSortOrderJSON(b)
	s.SortOrder = v
	return err
}

// ViewVersion is one version of a view.
type ViewVersion struct{ *catalog.ViewVersion }

func (v ViewVersion) MarshalJSON() ([]byte, error) {
	if v.ViewVersion == nil {
		return []byte("null"), nil
	}
	return catalog.MarshalViewVersionJSON(v.ViewVersion)
}

func (v *ViewVersion) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		v.ViewVersion = nil
		return nil
	}
	o, err := openObject("view version", b)
	if err != nil {
		return err
	}
	if err := o.check(shape{ints: []string{"version-id", "timestamp-ms", "schema-id"}, objs: []string{"summary"}, arrays: []string{"representations"}}); err != nil {
		return err
	}
	vv, err := catalog.ParseViewVersionJSON(b)
	v.ViewVersion = vv
	return err
}

// rawList is a JSON array of raw elements that is [] when empty.
func rawList(n int) []json.RawMessage { return make([]json.RawMessage, 0, n) }

func elemErr(what string, i int, err error) error {
	return fmt.Errorf("%s[%d]: %w", what, i, err)
}
