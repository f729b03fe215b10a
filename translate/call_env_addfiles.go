package translate

// Warehouse is the warehouse directory of the session's catalog, for
// procedures that read files from it (add_files); false when the catalog
// has none on this machine.
func (e *callEnv) Warehouse() (string, bool) {
	mc, ok := e.sess.writableCatalog()
	if !ok {
		return "", false
	}
	r, ok := underWriteCatalog(mc).(interface{ Root() string })
	if !ok {
		return "", false
	}
	return r.Root(), true
}
