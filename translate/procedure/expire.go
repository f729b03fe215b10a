package procedure

import (
	"context"
	"fmt"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// expireProcedures are Spark's expire_snapshots and remove_orphan_files
// (orphans.go). The format work (which snapshots go, which files only they
// reached, what a live writer is writing) is catalog's: catalog/expire.go
// and catalog/orphans.go.
func expireProcedures() []*Procedure {
	return []*Procedure{expireSnapshots(), removeOrphanFiles()}
}

// expireSnapshots is
//
//	CALL system.expire_snapshots(table, older_than, retain_last,
//	    max_concurrent_deletes, stream_results, snapshot_ids,
//	    clean_expired_metadata)
//
// older_than and retain_last default to the table's
// history.expire.max-snapshot-age-ms (5 days) and
// history.expire.min-snapshots-to-keep (1). stream_results changes how
// Spark collects the files to delete; here it changes nothing.
func expireSnapshots() *Procedure {
	return &Procedure{
		Name: "expire_snapshots",
		Params: []Param{
			tableParam,
			{Name: "older_than", Type: Timestamp},
			{Name: "retain_last", Type: Int},
			{Name: "max_concurrent_deletes", Type: Int},
			{Name: "stream_results", Type: Bool},
			{Name: "snapshot_ids", Type: LongList},
			{Name: "clean_expired_metadata", Type: Bool},
		},
		Columns: []pgtypes.Column{
			int8Column("deleted_data_files_count"),
			int8Column("deleted_position_delete_files_count"),
			int8Column("deleted_equality_delete_files_count"),
			int8Column("deleted_manifest_files_count"),
			int8Column("deleted_manifest_lists_count"),
			int8Column("deleted_statistics_files_count"),
		},
		Run: runExpireSnapshots,
	}
}

func runExpireSnapshots(ctx context.Context, env Env, args Args) ([][]any, error) {
	name, _ := args.String("table")
	o := catalog.ExpireOptions{Now: env.Now()}
	if t, ok := args.Time("older_than"); ok {
		o.OlderThan = t
	}
	if n, ok := args.Long("retain_last"); ok {
		if n < 1 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "retain_last must be at least 1, not %d", n)
		}
		o.RetainLast = int(n)
	}
	workers, err := concurrentDeletes(args)
	if err != nil {
		return nil, err
	}
	o.MaxConcurrentDeletes = workers
	o.SnapshotIDs, _ = args.LongList("snapshot_ids")
	o.CleanExpiredMetadata, _ = args.Bool("clean_expired_metadata")
	tbl, mc, err := env.Table(ctx, name)
	if err != nil {
		return nil, err
	}
	o.Progress = func(msg string) { env.Notice(ctx, msg) }
	res, err := catalog.ExpireSnapshots(ctx, mc, tbl.Ident, o)
	if err != nil {
		return nil, err
	}
	if len(res.RemovedRefs) > 0 {
		env.Notice(ctx, fmt.Sprintf("removed refs older than their max-ref-age-ms: %v", res.RemovedRefs))
	}
	return [][]any{{res.DeletedDataFiles, res.DeletedPositionDeleteFiles, res.DeletedEqualityDeleteFiles,
		res.DeletedManifests, res.DeletedManifestLists, res.DeletedStatisticsFiles}}, nil
}

// concurrentDeletes is the max_concurrent_deletes argument, 0 when absent.
func concurrentDeletes(args Args) (int, error) {
	n, ok := args.Long("max_concurrent_deletes")
	if !ok {
		return 0, nil
	}
	if n < 1 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "max_concurrent_deletes must be above 0, not %d", n)
	}
	return int(min(n, 64)), nil
}
