package translate

import (
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/caterr"
)

// objectKind says what a catalog call was about (caterr.Kind).
type objectKind = caterr.Kind

const (
	kindTable  = caterr.Table
	kindSchema = caterr.Schema
)

// catalogError converts an error of a catalog call into the PostgreSQL
// error a client expects (caterr.Convert).
func catalogError(err error, kind objectKind, name string) error {
	return caterr.Convert(err, kind, name)
}

// mutableCatalog returns the session's catalog as a MutableCatalog, or the
// error for a statement that writes into a read-only one.
func (s *session) mutableCatalog(what string) (catalog.MutableCatalog, error) {
	if err := s.readOnlyError(what); err != nil {
		return nil, err
	}
	mc, ok := s.writableCatalog()
	if !ok {
		return nil, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute %s: catalog \"%s\" is read-only", what, s.cat.Name())
	}
	return mc, nil
}
