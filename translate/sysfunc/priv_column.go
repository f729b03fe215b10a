package sysfunc

import (
	"strings"

	"github.com/icegate/icegate/syscat"
)

// accessHasColumn answers has_column_privilege from the roles store: true
// when role holds any privilege of the list on the table or on the
// column. A server without a store, and system catalogs, answer true.
func accessHasColumn(snap *syscat.Snapshot, role string, r *syscat.Relation, col, list string) bool {
	a := snap.Access
	if a == nil || r.System || a.HasColumn == nil {
		return true
	}
	for _, item := range strings.Split(list, ",") {
		word := strings.TrimSpace(item)
		if i := strings.Index(strings.ToLower(word), " with grant option"); i >= 0 {
			word = strings.TrimSpace(word[:i])
		}
		if a.HasColumn(role, r, col, strings.ToUpper(word)) {
			return true
		}
	}
	return false
}
