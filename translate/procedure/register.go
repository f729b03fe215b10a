package procedure

import (
	"context"
	"strconv"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// register_table(table, metadata_file) makes a table of a metadata file
// that lies in the warehouse (a table directory copied in from elsewhere):
// the catalog's RegisterTable, through the Env's optional RegisterTable.
// It returns Spark's columns: the current snapshot and the table's total
// records and data files by that snapshot's summary.

// registrar is the Env's optional method register_table needs.
type registrar interface {
	RegisterTable(ctx context.Context, name, metadataFile string) (*catalog.Table, error)
}

func registerProcedures() []*Procedure {
	return []*Procedure{{
		Name:   "register_table",
		Params: []Param{tableParam, {Name: "metadata_file", Type: String, Required: true}},
		Columns: []pgtypes.Column{int8Column("current_snapshot_id"), int8Column("total_records_count"),
			int8Column("total_data_files_count")},
		Run: registerTable,
	}}
}

func registerTable(ctx context.Context, env Env, args Args) ([][]any, error) {
	r, ok := env.(registrar)
	if !ok {
		return nil, pgerr.NotYet("register_table with this catalog")
	}
	table, _ := args.String("table")
	file, _ := args.String("metadata_file")
	t, err := r.RegisterTable(ctx, table, file)
	if err != nil {
		return nil, err
	}
	snap := t.Metadata.CurrentSnapshot()
	if snap == nil {
		return [][]any{{nil, int64(0), int64(0)}}, nil
	}
	count := func(key string) any {
		v, err := strconv.ParseInt(snap.Summary[key], 10, 64)
		if err != nil {
			return nil
		}
		return v
	}
	return [][]any{{snap.SnapshotID, count("total-records"), count("total-data-files")}}, nil
}
