package bind

import (
	"github.com/icegate/icegate/internal/pgerr"
)

// pg_export_snapshot() shares a transaction's snapshot with other sessions
// (pg_dump -j, logical replication tools). icegate's snapshots are per
// session and per table, so it says plainly that it cannot.

func init() {
	registerSysFuncs(map[string]sysFuncDef{
		"pg_export_snapshot": {bind: bindExportSnapshot},
	})
}

func bindExportSnapshot(b *Binder, c *sysCallSite) (Bound, error) {
	if err := b.sysArity(c, 0); err != nil {
		return Bound{}, err
	}
	return Bound{}, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported, "pg_export_snapshot is not supported").
		WithDetail("icegate cannot share a transaction's snapshot with other sessions.").
		WithHint("Run pg_dump without -j (parallel jobs need a shared snapshot)."), c.loc())
}
