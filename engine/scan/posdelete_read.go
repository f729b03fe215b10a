package scan

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// ReadPositionDeletes reads one position delete file of tbl (Parquet or
// Avro; not a deletion vector): the deleted positions of each data file it
// names, ascending, keyed by the data file's path resolved through the
// table's FileIO (the written path when it does not resolve). Rewriting
// delete files (rewrite_position_delete_files) reads them through it.
func ReadPositionDeletes(ctx context.Context, tbl *catalog.Table, df *catalog.DataFile) (map[string][]int64, error) {
	if df.Content != catalog.ContentPositionDelete || strings.EqualFold(string(df.Format), string(catalog.FormatPuffin)) {
		return nil, fmt.Errorf("read position deletes: %s is no position delete file", df.Path)
	}
	r, err := newScanRun(engine.ScanSpec{Table: tbl, Schema: tbl.Metadata.CurrentSchema()},
		Options{Alloc: memory.DefaultAllocator, BatchSize: DefaultBatchSize})
	if err != nil {
		return nil, err
	}
	pd, err := r.loadPositionDeletes(ctx, df)
	if err != nil {
		return nil, err
	}
	return pd, nil
}
