package catalog

import (
	"fmt"
	"reflect"
	"slices"
)

// AddSchema adds a schema. LastColumnID is the table's new last-column-id
// (0: the highest field id of the schema or the current value). The schema
// gets the next free schema id unless an identical schema exists already.
type AddSchema struct {
	Schema       *Schema
	LastColumnID int
}

func (AddSchema) Action() string { return "add-schema" }

func (u AddSchema) apply(b *MetadataBuilder) error {
	if u.Schema == nil {
		return invalidUpdate(u.Action(), "no schema")
	}
	ids, err := fieldIDs(u.Schema)
	if err != nil {
		return invalidUpdate(u.Action(), "%v", err)
	}
	maxID := 0
	for id := range ids {
		maxID = max(maxID, id)
	}
	last := u.LastColumnID
	if last == 0 {
		last = max(maxID, b.m.LastColumnID)
	}
	if last < b.m.LastColumnID {
		return invalidUpdate(u.Action(), "last-column-id %d is below the table's %d", last, b.m.LastColumnID)
	}
	if maxID > last {
		return invalidUpdate(u.Action(), "field id %d is above last-column-id %d", maxID, last)
	}
	for _, id := range u.Schema.IdentifierFieldIDs {
		if _, ok := ids[id]; !ok {
			return invalidUpdate(u.Action(), "identifier field %d is not in the schema", id)
		}
	}
	b.m.LastColumnID = last
	for _, s := range b.m.Schemas {
		if reflect.DeepEqual(s.Fields, u.Schema.Fields) && slices.Equal(s.IdentifierFieldIDs, u.Schema.IdentifierFieldIDs) {
			b.lastSchema = s.ID
			return nil
		}
	}
	id := 0
	for _, s := range b.m.Schemas {
		id = max(id, s.ID+1)
	}
	s := *u.Schema
	s.ID = id
	b.m.Schemas = append(slices.Clone(b.m.Schemas), &s)
	b.lastSchema = id
	return nil
}

// fieldIDs returns every field id of s (nested ones included), failing on
// duplicates.
func fieldIDs(s *Schema) (map[int]struct{}, error) {
	ids := map[int]struct{}{}
	add := func(id int) error {
		if id <= 0 {
			return fmt.Errorf("field id %d is not positive", id)
		}
		if _, dup := ids[id]; dup {
			return fmt.Errorf("field id %d is used twice", id)
		}
		ids[id] = struct{}{}
		return nil
	}
	var walkType func(t Type) error
	walkFields := func(fs []NestedField) error {
		for _, f := range fs {
			if err := add(f.ID); err != nil {
				return err
			}
			if err := walkType(f.Type); err != nil {
				return err
			}
		}
		return nil
	}
	walkType = func(t Type) error {
		switch t := t.(type) {
		case *StructType:
			return walkFields(t.Fields)
		case *ListType:
			if err := add(t.ElementID); err != nil {
				return err
			}
			return walkType(t.Element)
		case *MapType:
			if err := add(t.KeyID); err != nil {
				return err
			}
			if err := add(t.ValueID); err != nil {
				return err
			}
			if err := walkType(t.Key); err != nil {
				return err
			}
			return walkType(t.Value)
		case nil:
			return fmt.Errorf("field without a type")
		}
		return nil
	}
	return ids, walkFields(s.Fields)
}

// SetCurrentSchema makes a schema current (LastAdded: the one just added).
type SetCurrentSchema struct{ SchemaID int }

func (SetCurrentSchema) Action() string { return "set-current-schema" }

func (u SetCurrentSchema) apply(b *MetadataBuilder) error {
	id := u.SchemaID
	if id == LastAdded {
		if b.lastSchema < 0 {
			return invalidUpdate(u.Action(), "no schema was added")
		}
		id = b.lastSchema
	}
	if b.m.SchemaByID(id) == nil {
		return invalidUpdate(u.Action(), "no schema %d", id)
	}
	b.m.CurrentSchemaID = id
	return nil
}

// AddSpec adds a partition spec. Fields with FieldID 0 get the next
// partition field ids; an identical existing spec is reused.
type AddSpec struct{ Spec *PartitionSpec }

func (AddSpec) Action() string { return "add-spec" }

func (u AddSpec) apply(b *MetadataBuilder) error {
	if u.Spec == nil {
		return invalidUpdate(u.Action(), "no spec")
	}
	spec := &PartitionSpec{Fields: slices.Clone(u.Spec.Fields)}
	for _, s := range b.m.PartitionSpecs {
		if sameSpecFields(s.Fields, spec.Fields) {
			b.lastSpec = s.ID
			return nil
		}
	}
	last := b.m.LastPartitionID
	names := map[string]bool{}
	ids := map[int]bool{}
	for i := range spec.Fields {
		f := &spec.Fields[i]
		if f.FieldID == 0 {
			last++
			f.FieldID = last
		}
		if ids[f.FieldID] {
			return invalidUpdate(u.Action(), "partition field id %d is used twice", f.FieldID)
		}
		ids[f.FieldID] = true
		last = max(last, f.FieldID)
		if f.Name == "" || names[f.Name] {
			return invalidUpdate(u.Action(), "partition field name %q is empty or used twice", f.Name)
		}
		names[f.Name] = true
		if err := b.checkSource(f.SourceID, f.Transform); err != nil {
			return invalidUpdate(u.Action(), "partition field %q: %v", f.Name, err)
		}
	}
	b.m.LastPartitionID = last
	for _, s := range b.m.PartitionSpecs {
		spec.ID = max(spec.ID, s.ID+1)
	}
	b.m.PartitionSpecs = append(slices.Clone(b.m.PartitionSpecs), spec)
	b.lastSpec = spec.ID
	return nil
}

// sameSpecFields reports whether two specs partition alike: same sources,
// transforms and names (and same field ids where the new spec gives them).
func sameSpecFields(have, want []PartitionField) bool {
	if len(have) != len(want) {
		return false
	}
	for i := range have {
		h, w := have[i], want[i]
		if h.SourceID != w.SourceID || h.Transform != w.Transform || h.Name != w.Name || (w.FieldID != 0 && w.FieldID != h.FieldID) {
			return false
		}
	}
	return true
}

// checkSource checks that a partition or sort field's source column exists
// in the current schema and the transform is known.
func (b *MetadataBuilder) checkSource(sourceID int, tr Transform) error {
	if _, err := ParseTransform(tr.String()); err != nil {
		return err
	}
	cur := b.m.CurrentSchema()
	if cur == nil {
		return fmt.Errorf("no current schema")
	}
	f := cur.FindField(sourceID)
	if f == nil {
		return fmt.Errorf("source column %d is not in the current schema", sourceID)
	}
	if Primitive(f.Type) == nil {
		return fmt.Errorf("source column %d is not of a primitive type", sourceID)
	}
	return nil
}

// SetDefaultSpec makes a spec the default (LastAdded: the one just added).
type SetDefaultSpec struct{ SpecID int }

func (SetDefaultSpec) Action() string { return "set-default-spec" }

func (u SetDefaultSpec) apply(b *MetadataBuilder) error {
	id := u.SpecID
	if id == LastAdded {
		if b.lastSpec < 0 {
			return invalidUpdate(u.Action(), "no spec was added")
		}
		id = b.lastSpec
	}
	if b.m.SpecByID(id) == nil {
		return invalidUpdate(u.Action(), "no spec %d", id)
	}
	b.m.DefaultSpecID = id
	return nil
}

// AddSortOrder adds a sort order; the unsorted order is always id 0 and an
// identical existing order is reused.
type AddSortOrder struct{ SortOrder *SortOrder }

func (AddSortOrder) Action() string { return "add-sort-order" }

func (u AddSortOrder) apply(b *MetadataBuilder) error {
	if u.SortOrder == nil {
		return invalidUpdate(u.Action(), "no sort order")
	}
	order := &SortOrder{Fields: slices.Clone(u.SortOrder.Fields)}
	for _, f := range order.Fields {
		if f.Direction != "asc" && f.Direction != "desc" {
			return invalidUpdate(u.Action(), "direction %q", f.Direction)
		}
		if f.NullOrder != "nulls-first" && f.NullOrder != "nulls-last" {
			return invalidUpdate(u.Action(), "null order %q", f.NullOrder)
		}
		if err := b.checkSource(f.SourceID, f.Transform); err != nil {
			return invalidUpdate(u.Action(), "%v", err)
		}
	}
	for _, o := range b.m.SortOrders {
		if (len(o.Fields) == 0 && len(order.Fields) == 0) || reflect.DeepEqual(o.Fields, order.Fields) {
			b.lastOrder = o.ID
			return nil
		}
	}
	if len(order.Fields) > 0 {
		order.ID = 1
		for _, o := range b.m.SortOrders {
			order.ID = max(order.ID, o.ID+1)
		}
	}
	b.m.SortOrders = append(slices.Clone(b.m.SortOrders), order)
	b.lastOrder = order.ID
	return nil
}

// SetDefaultSortOrder makes a sort order the default (LastAdded: the one
// just added).
type SetDefaultSortOrder struct{ SortOrderID int }

func (SetDefaultSortOrder) Action() string { return "set-default-sort-order" }

func (u SetDefaultSortOrder) apply(b *MetadataBuilder) error {
	id := u.SortOrderID
	if id == LastAdded {
		if b.lastOrder < 0 {
			return invalidUpdate(u.Action(), "no sort order was added")
		}
		id = b.lastOrder
	}
	found := false
	for _, o := range b.m.SortOrders {
		found = found || o.ID == id
	}
	if !found {
		return invalidUpdate(u.Action(), "no sort order %d", id)
	}
	b.m.DefaultSortOrderID = id
	return nil
}
