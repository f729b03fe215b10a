package ddl

import (
	"slices"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/plan"
)

// SchemaEdit is a schema being changed by ALTER TABLE: a deep copy of the
// table's current schema, the ids it hands out, and what the table's
// partition spec and sort order need to keep.
type SchemaEdit struct {
	meta    *catalog.TableMetadata
	schema  *catalog.Schema
	IDs     *IDCounter // last column id so far
	Changed bool
	Table   string             // for messages
	Ident   catalog.Identifier // the table's
	// sameRows: the edit holds for the rows as they are (SET NOT NULL
	// checked them): the commit requires main not to have moved.
	sameRows bool
}

func NewSchemaEdit(t *catalog.Table) *SchemaEdit {
	m := t.Metadata
	cur := m.CurrentSchema()
	s := &catalog.Schema{IdentifierFieldIDs: slices.Clone(cur.IdentifierFieldIDs), Fields: cloneFields(cur.Fields)}
	return &SchemaEdit{meta: m, schema: s, IDs: &IDCounter{N: m.LastColumnID}, Table: t.Ident.Name, Ident: t.Ident}
}

func cloneFields(fs []catalog.NestedField) []catalog.NestedField {
	out := slices.Clone(fs)
	for i := range out {
		out[i].Type = cloneType(out[i].Type)
	}
	return out
}

func cloneType(t catalog.Type) catalog.Type {
	switch t := t.(type) {
	case *catalog.StructType:
		return &catalog.StructType{Fields: cloneFields(t.Fields)}
	case *catalog.ListType:
		c := *t
		c.Element = cloneType(t.Element)
		return &c
	case *catalog.MapType:
		c := *t
		c.Key, c.Value = cloneType(t.Key), cloneType(t.Value)
		return &c
	case *catalog.PrimitiveType:
		c := *t
		return &c
	}
	return t
}

// lookup finds a column by name: a top-level name as written, or a path
// "a.b" into struct columns. It returns the slice holding the field and
// its index, or nil.
func (e *SchemaEdit) lookup(name string) (*[]catalog.NestedField, int) {
	if i := fieldIndex(e.schema.Fields, name); i >= 0 {
		return &e.schema.Fields, i
	}
	parts := strings.Split(name, ".")
	fs := &e.schema.Fields
	for k, p := range parts {
		i := fieldIndex(*fs, p)
		if i < 0 {
			return nil, -1
		}
		if k == len(parts)-1 {
			return fs, i
		}
		st, ok := (*fs)[i].Type.(*catalog.StructType)
		if !ok {
			return nil, -1
		}
		fs = &st.Fields
	}
	return nil, -1
}

func fieldIndex(fs []catalog.NestedField, name string) int {
	for i := range fs {
		if fs[i].Name == name {
			return i
		}
	}
	return -1
}

func UndefinedColumn(name string) error {
	return pgerr.New(pgerr.UndefinedColumn, "column \"%s\" does not exist", name)
}

// parentOf returns the field list a new column name goes into: the top
// level, or the struct a dotted name's prefix names.
func (e *SchemaEdit) parentOf(name string) (*[]catalog.NestedField, string, error) {
	k := strings.LastIndexByte(name, '.')
	if k < 0 {
		return &e.schema.Fields, name, nil
	}
	fs, i := e.lookup(name[:k])
	if fs == nil {
		return &e.schema.Fields, name, nil // a top-level name with a dot
	}
	st, ok := (*fs)[i].Type.(*catalog.StructType)
	if !ok {
		return nil, "", pgerr.New(pgerr.DatatypeMismatch, "column \"%s\" is not a struct: cannot add field \"%s\"", name[:k], name[k+1:])
	}
	return &st.Fields, name[k+1:], nil
}

// Add adds a column; f.ID and the ids inside f.Type come from e.ids.
// It returns false when the column exists and ifNotExists is set.
func (e *SchemaEdit) Add(name string, f catalog.NestedField, ifNotExists bool) (bool, error) {
	fs, leaf, err := e.parentOf(name)
	if err != nil {
		return false, err
	}
	if fieldIndex(*fs, leaf) >= 0 {
		if ifNotExists {
			return false, nil
		}
		return false, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", name, e.Table)
	}
	f.Name = leaf
	*fs = append(*fs, f)
	e.Changed = true
	return true, nil
}

// drop removes a column; false when it is missing and missingOk is set.
func (e *SchemaEdit) Drop(name string, missingOk bool) (bool, error) {
	fs, i := e.lookup(name)
	if fs == nil {
		if missingOk {
			return false, nil
		}
		return false, UndefinedColumn(name)
	}
	f := (*fs)[i]
	gone := map[int]bool{}
	collectIDs(f, gone)
	if spec := e.meta.SpecByID(e.meta.DefaultSpecID); spec != nil {
		for _, pf := range spec.Fields {
			if gone[pf.SourceID] && pf.Transform.Name != "void" {
				return false, pgerr.New(pgerr.InvalidTableDefinition, "cannot drop column \"%s\": the table is partitioned by %s of it", name, pf.Transform).
					WithHint("Drop the partition field first (ALTER TABLE ... DROP PARTITION FIELD).")
			}
		}
	}
	for _, o := range e.meta.SortOrders {
		if o.ID != e.meta.DefaultSortOrderID {
			continue
		}
		for _, sf := range o.Fields {
			if gone[sf.SourceID] {
				return false, pgerr.New(pgerr.InvalidTableDefinition, "cannot drop column \"%s\": the table's sort order uses it", name)
			}
		}
	}
	for _, id := range e.schema.IdentifierFieldIDs {
		if gone[id] {
			return false, pgerr.New(pgerr.InvalidTableDefinition, "cannot drop column \"%s\": it is an identifier field of the table", name).
				WithHint("Drop the identifier fields first (ALTER TABLE ... DROP IDENTIFIER FIELDS).")
		}
	}
	if fs == &e.schema.Fields && len(*fs) == 1 {
		return false, pgerr.Unsupported("dropping the last column of a table")
	}
	*fs = slices.Delete(*fs, i, i+1)
	e.Changed = true
	return true, nil
}

// collectIDs adds the field id of f and of everything nested in it.
func collectIDs(f catalog.NestedField, into map[int]bool) {
	into[f.ID] = true
	var walk func(t catalog.Type)
	walk = func(t catalog.Type) {
		switch t := t.(type) {
		case *catalog.StructType:
			for _, c := range t.Fields {
				collectIDs(c, into)
			}
		case *catalog.ListType:
			into[t.ElementID] = true
			walk(t.Element)
		case *catalog.MapType:
			into[t.KeyID], into[t.ValueID] = true, true
			walk(t.Key)
			walk(t.Value)
		}
	}
	walk(f.Type)
}

// rename renames a column (the last part of a path).
func (e *SchemaEdit) Rename(name, to string) error {
	fs, i := e.lookup(name)
	if fs == nil {
		return UndefinedColumn(name)
	}
	if fieldIndex(*fs, to) >= 0 {
		return pgerr.New(pgerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", to, e.Table)
	}
	(*fs)[i].Name = to
	e.Changed = true
	return nil
}

// retype changes a column's type: only the promotions Iceberg allows.
func (e *SchemaEdit) Retype(name string, to catalog.Type) error {
	fs, i := e.lookup(name)
	if fs == nil {
		return UndefinedColumn(name)
	}
	f := &(*fs)[i]
	from := catalog.Primitive(f.Type)
	want := catalog.Primitive(to)
	bad := func() error {
		return pgerr.New(pgerr.DatatypeMismatch, "cannot change column \"%s\" from %s to %s", name, plan.TypeOfIceberg(f.Type), plan.TypeOfIceberg(to)).
			WithDetail("Iceberg allows only integer to bigint, real to double precision and numeric(P,S) to numeric(P2,S) with P2 > P.")
	}
	if sameShape(f.Type, to) {
		return nil // an array or struct restated as it is
	}
	if from == nil || want == nil {
		return bad()
	}
	if *from == *want {
		return nil
	}
	ok := false
	switch {
	case from.ID == catalog.TInt && want.ID == catalog.TLong,
		from.ID == catalog.TFloat && want.ID == catalog.TDouble:
		ok = true
	case from.ID == catalog.TDecimal && want.ID == catalog.TDecimal:
		ok = want.Scale == from.Scale && want.Precision > from.Precision
	}
	if !ok {
		return bad()
	}
	f.Type = want
	e.Changed = true
	return nil
}

// sameShape reports whether a and b are the same type, the ids of nested
// fields aside (a type written in ALTER COLUMN TYPE gets fresh ones).
func sameShape(a, b catalog.Type) bool {
	switch a := a.(type) {
	case *catalog.PrimitiveType:
		b, ok := b.(*catalog.PrimitiveType)
		return ok && *a == *b
	case *catalog.ListType:
		b, ok := b.(*catalog.ListType)
		return ok && a.ElementRequired == b.ElementRequired && sameShape(a.Element, b.Element)
	case *catalog.MapType:
		b, ok := b.(*catalog.MapType)
		return ok && a.ValueRequired == b.ValueRequired && sameShape(a.Key, b.Key) && sameShape(a.Value, b.Value)
	case *catalog.StructType:
		b, ok := b.(*catalog.StructType)
		if !ok || len(a.Fields) != len(b.Fields) {
			return false
		}
		for i := range a.Fields {
			x, y := a.Fields[i], b.Fields[i]
			if x.Name != y.Name || x.Required != y.Required || !sameShape(x.Type, y.Type) {
				return false
			}
		}
		return true
	}
	return false
}

// dropNotNull makes a required column optional.
func (e *SchemaEdit) DropNotNull(name string) error {
	fs, i := e.lookup(name)
	if fs == nil {
		return UndefinedColumn(name)
	}
	f := &(*fs)[i]
	if slices.Contains(e.schema.IdentifierFieldIDs, f.ID) {
		return pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" is an identifier field of the table: it stays NOT NULL", name)
	}
	if f.Required {
		f.Required = false
		e.Changed = true
	}
	return nil
}

// SetNotNull keeps a required column required (what ORMs restate when
// they sync a model). An optional column is 0A000 here (Spark's ALTER
// COLUMN): PostgreSQL's SET NOT NULL checks the rows first
// (RequireChecked).
func (e *SchemaEdit) SetNotNull(name string) error {
	optional, err := e.Optional(name)
	if err != nil || !optional {
		return err
	}
	return pgerr.Unsupported("ALTER COLUMN ... SET NOT NULL").
		WithHint("Iceberg cannot make an optional column required: existing data files may hold nulls.")
}

// Optional reports whether top-level column name is optional.
func (e *SchemaEdit) Optional(name string) (bool, error) {
	fs, i := e.lookup(name)
	if fs == nil {
		return false, UndefinedColumn(name)
	}
	return !(*fs)[i].Required, nil
}

// RequireChecked makes optional column name required once the caller has
// read every row of the table's current snapshot and found no NULL in it:
// the commit then requires main to be at that snapshot still, so that no
// row written since can hold one.
func (e *SchemaEdit) RequireChecked(name string) error {
	fs, i := e.lookup(name)
	if fs == nil {
		return UndefinedColumn(name)
	}
	if !(*fs)[i].Required {
		(*fs)[i].Required = true
		e.Changed = true
		e.sameRows = true
	}
	return nil
}

// setDoc sets a column's comment ("" removes it).
func (e *SchemaEdit) SetDoc(name, doc string) error {
	fs, i := e.lookup(name)
	if fs == nil {
		return UndefinedColumn(name)
	}
	if (*fs)[i].Doc != doc {
		(*fs)[i].Doc = doc
		e.Changed = true
	}
	return nil
}

// requirements are what a concurrent change of the schema must not have
// touched for this edit to commit.
func (e *SchemaEdit) Requirements() []catalog.Requirement {
	reqs := []catalog.Requirement{
		catalog.AssertTableUUID{UUID: e.meta.TableUUID},
		catalog.AssertCurrentSchemaID{SchemaID: e.meta.CurrentSchemaID},
		catalog.AssertLastAssignedFieldID{LastAssignedFieldID: e.meta.LastColumnID},
	}
	if e.sameRows {
		reqs = append(reqs, catalog.AssertRefSnapshotID{Ref: "main", SnapshotID: e.meta.CurrentSnapshotID})
	}
	return reqs
}

func (e *SchemaEdit) Updates() []catalog.Update {
	return []catalog.Update{
		catalog.AddSchema{Schema: e.schema, LastColumnID: e.IDs.N},
		catalog.SetCurrentSchema{SchemaID: catalog.LastAdded},
	}
}

// move moves a column to the front of its struct (after == "") or right
// after the column after, which must be in the same struct.
func (e *SchemaEdit) move(name, after string) error {
	fs, i := e.lookup(name)
	if fs == nil {
		return UndefinedColumn(name)
	}
	f := (*fs)[i]
	rest := slices.Delete(slices.Clone(*fs), i, i+1)
	at := 0
	if after != "" {
		afs, j := e.lookup(after)
		if afs == nil {
			return UndefinedColumn(after)
		}
		if afs != fs {
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot move column \"%s\" after \"%s\": they are in different structs", name, after)
		}
		if after == name || (*afs)[j].Name == f.Name {
			return pgerr.New(pgerr.InvalidTableDefinition, "cannot move column \"%s\" after itself", name)
		}
		at = fieldIndex(rest, (*afs)[j].Name) + 1
	}
	*fs = slices.Insert(rest, at, f)
	e.Changed = true
	return nil
}
