package procedure

import (
	"context"
	"strings"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// orphanAge is remove_orphan_files' default: files younger than three days
// are never removed.
const orphanAge = 3 * 24 * time.Hour

// removeOrphanFiles is
//
//	CALL system.remove_orphan_files(table, older_than, location, dry_run,
//	    max_concurrent_deletes, file_list_view, equal_schemes,
//	    equal_authorities, prefix_mismatch_mode)
//
// It lists the files under the table's directory (or location, a
// directory inside it) that no snapshot, ref or metadata file reaches and
// that are older than older_than (default three days ago), and removes
// them unless dry_run; files a live writer recorded stay whatever their age
// (catalog/orphans.go). The listing is always of the local directory, so
// equal_schemes and equal_authorities (which schemes and authorities of
// written paths name the same storage) have nothing to reconcile and
// prefix_mismatch_mode never applies; file_list_view (a Spark view of
// files to check) is not supported.
func removeOrphanFiles() *Procedure {
	return &Procedure{
		Name: "remove_orphan_files",
		Params: []Param{
			tableParam,
			{Name: "older_than", Type: Timestamp},
			{Name: "location", Type: String},
			{Name: "dry_run", Type: Bool, Default: false},
			{Name: "max_concurrent_deletes", Type: Int},
			{Name: "file_list_view", Type: String},
			{Name: "equal_schemes", Type: Map},
			{Name: "equal_authorities", Type: Map},
			{Name: "prefix_mismatch_mode", Type: String},
		},
		Columns: []pgtypes.Column{textColumn("orphan_file_location")},
		Run:     runRemoveOrphanFiles,
	}
}

func runRemoveOrphanFiles(ctx context.Context, env Env, args Args) ([][]any, error) {
	name, _ := args.String("table")
	o := catalog.OrphanOptions{OlderThan: env.Now().Add(-orphanAge)}
	if t, ok := args.Time("older_than"); ok {
		o.OlderThan = t
	}
	o.Location, _ = args.String("location")
	o.DryRun, _ = args.Bool("dry_run")
	workers, err := concurrentDeletes(args)
	if err != nil {
		return nil, err
	}
	o.MaxConcurrentDeletes = workers
	if args.Has("file_list_view") {
		return nil, pgerr.Unsupported("remove_orphan_files with file_list_view (icegate lists the table's directory itself)")
	}
	if m, ok := args.String("prefix_mismatch_mode"); ok {
		switch strings.ToUpper(m) {
		case "ERROR", "IGNORE", "DELETE":
		default:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "prefix_mismatch_mode must be ERROR, IGNORE or DELETE, not \"%s\"", m)
		}
	}
	tbl, mc, err := env.Table(ctx, name)
	if err != nil {
		return nil, err
	}
	files, err := catalog.RemoveOrphanFiles(ctx, mc, tbl.Ident, o)
	if err != nil {
		return nil, err
	}
	rows := make([][]any, len(files))
	for i, f := range files {
		rows[i] = []any{f}
	}
	return rows, nil
}
