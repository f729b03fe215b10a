package ddl

// SetWriteDefault sets a column's Iceberg write-default (nil removes it):
// ALTER COLUMN ... SET DEFAULT constant | DROP DEFAULT. The initial default
// (what rows written before the column existed read) stays.
func (e *SchemaEdit) SetWriteDefault(name string, v any) error {
	fs, i := e.lookup(name)
	if fs == nil {
		return UndefinedColumn(name)
	}
	f := &(*fs)[i]
	if f.WriteDefault == nil && v == nil {
		return nil
	}
	f.WriteDefault = v
	e.Changed = true
	return nil
}
