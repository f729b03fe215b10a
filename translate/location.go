package translate

import (
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// locationError is the error for a CREATE TABLE LOCATION the catalog does
// not take (catalog.ErrUnsupported): a URI of object storage is outside
// the warehouse (42501, with the reason); a directory of the warehouse
// other than the table's own is 0A000. A location outside the warehouse's
// directory is the catalog's 42501 already.
func locationError(err error, ct *createTable) error {
	loc := ct.spec.Location
	if i := strings.Index(loc, "://"); i > 0 && !strings.EqualFold(loc[:i], "file") {
		return pgerr.Wrap(err, pgerr.InsufficientPrivilege, "location \"%s\" of table \"%s\" is outside the warehouse", loc, ct.name).
			WithDetail("Object storage (%s://) is not supported yet: the catalog keeps tables in its warehouse directory.", strings.ToLower(loc[:i])).
			WithHint("Leave LOCATION out: the table then lives in the directory of its schema.")
	}
	return pgerr.Wrap(err, pgerr.FeatureNotSupported, "LOCATION '%s' is not supported: tables live at their default location in the warehouse", loc).
		WithHint("The location of table %s is the directory %s of its schema's directory; leave LOCATION out or name that one.", ct.name, ct.id.Name)
}
