package translate

import "github.com/icegate/icegate/catalog"

// Unwrap gives the catalog under the session's write catalog to the
// maintenance procedures that work on a table's files directly
// (remove_orphan_files lists its directory, expire_snapshots deletes what
// it expired): catalog.Wrapper.
func (w *writeCatalog) Unwrap() catalog.MutableCatalog { return w.MutableCatalog }

var _ catalog.Wrapper = (*writeCatalog)(nil)
