package sysfunc

import (
	"maps"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
)

// pg_export_snapshot() shares a transaction's snapshot with other sessions
// (pg_dump -j, logical replication tools). icegate's snapshots are per
// session and per table, so it says plainly that it cannot.

func addSnapshotFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"pg_export_snapshot": {Bind: bindExportSnapshot},
	})
}

func bindExportSnapshot(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 0); err != nil {
		return bind.Bound{}, err
	}
	return bind.Bound{}, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported, "pg_export_snapshot is not supported").
		WithDetail("icegate cannot share a transaction's snapshot with other sessions.").
		WithHint("Run pg_dump without -j (parallel jobs need a shared snapshot)."), c.Loc())
}
