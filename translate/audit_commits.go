package translate

import (
	"context"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/audit"
)

// recordCommit tells the audit log, when the statement's context carries
// its collector, which snapshot a data change committed to the table t
// (on branch, "" for main).
func recordCommit(ctx context.Context, id catalog.Identifier, t *catalog.Table, branch string) {
	var snap int64
	if t != nil && t.Metadata != nil {
		if ref, ok := t.Metadata.Refs[branch]; branch != "" && ok {
			snap = ref.SnapshotID
		} else if cur := t.Metadata.CurrentSnapshot(); cur != nil {
			snap = cur.SnapshotID
		}
	}
	audit.RecordCommit(ctx, strings.Join(append(append([]string{}, id.Namespace...), id.Name), "."), snap)
}
