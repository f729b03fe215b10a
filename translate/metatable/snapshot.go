package metatable

import "github.com/icegate/icegate/catalog"

// SnapshotSchema is the schema a snapshot was written with (the current
// one when the snapshot does not say).
func SnapshotSchema(m *catalog.TableMetadata, s *catalog.Snapshot) *catalog.Schema {
	if s.SchemaID != nil {
		if sc := m.SchemaByID(*s.SchemaID); sc != nil {
			return sc
		}
	}
	return m.CurrentSchema()
}
