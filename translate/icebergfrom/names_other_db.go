package icebergfrom

import (
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/metatable"
	"github.com/icegate/icegate/translate/parse"
)

// OtherDatabase is the error for a three-part name whose first part is
// not this catalog: ns.missing.snapshots (three parts, no '$': the first
// is the namespace) names a metadata table of a table that is not there
// (one that is there is bound before any lookup gets here), so it is
// 42P01 naming that table; anything else is a reference to another
// database (0A000), also a four-part name whose first part is another
// catalog (other.ns.t.snapshots).
func OtherDatabase(tn parse.TableName) error {
	if base, kind, ok := SplitMetaName(tn); ok && base.Catalog == "" && metatable.ByName(kind) != nil {
		return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", base.Written)
	}
	return pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: \"%s\"", tn.Written)
}
