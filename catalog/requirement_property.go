package catalog

// AssertProperty requires that the table property Key holds Value, or,
// with Absent, that the table has no such property. It is icegate's own
// requirement (the REST catalog has none on properties): a commit that
// advances a value kept in a property (a sequence's state) asserts the
// value it read, so two writers racing from the same value cannot both
// commit. Only catalogs that check requirements themselves (Filesystem)
// can honour it.
type AssertProperty struct {
	Key    string
	Value  string
	Absent bool
}

func (AssertProperty) Kind() string { return "icegate-assert-property" }

func (r AssertProperty) Validate(m *TableMetadata) error {
	if err := requireTable(r.Kind(), m); err != nil {
		return err
	}
	v, ok := m.Properties[r.Key]
	switch {
	case r.Absent && ok:
		return conflict("%s: property %s was set concurrently", r.Kind(), r.Key)
	case !r.Absent && !ok:
		return conflict("%s: property %s is missing", r.Kind(), r.Key)
	case !r.Absent && v != r.Value:
		return conflict("%s: property %s is %q, not %q", r.Kind(), r.Key, v, r.Value)
	}
	return nil
}
