package translate

import (
	"fmt"
	"io/fs"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// TestCatalogErrorCodes maps each kind of catalog error to the SQLSTATE a
// PostgreSQL client expects for a table or a schema.
func TestCatalogErrorCodes(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("catalog call: %w", err) }
	for _, tc := range []struct {
		err  error
		kind objectKind
		code string
	}{
		{wrap(catalog.ErrNotFound), kindTable, pgerr.UndefinedTable},
		{wrap(catalog.ErrNotFound), kindSchema, pgerr.InvalidSchemaName},
		{wrap(catalog.ErrAlreadyExists), kindTable, pgerr.DuplicateTable},
		{wrap(catalog.ErrAlreadyExists), kindSchema, pgerr.DuplicateSchema},
		{wrap(catalog.ErrNotEmpty), kindSchema, pgerr.DependentObjectsStillExist},
		{wrap(catalog.ErrCommitConflict), kindTable, pgerr.SerializationFailure},
		{wrap(catalog.ErrUnsupported), kindTable, pgerr.FeatureNotSupported},
		{wrap(catalog.ErrDataInvalid), kindTable, pgerr.InvalidParameterValue},
		{wrap(&fs.PathError{Op: "open", Path: "/wh/ns/t/metadata/v2.metadata.json", Err: fs.ErrPermission}), kindTable, pgerr.InsufficientPrivilege},
		{wrap(fs.ErrClosed), kindTable, pgerr.IOError},
	} {
		if got := pgerr.Code(catalogError(tc.err, tc.kind, "ns.t")); got != tc.code {
			t.Errorf("catalogError(%v, kind %d) = %s, want %s", tc.err, tc.kind, got, tc.code)
		}
	}
}
