package scan

import (
	"context"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// DeletedPositions returns the positions of task.File that the task's
// position-delete files and deletion vectors delete, ascending and without
// repeats. Equality deletes name rows by value, not by position, and are
// ignored. Row-level writers use it to merge a file's existing deletes with
// new ones and to count the rows a file has left.
func DeletedPositions(ctx context.Context, t *catalog.Table, task catalog.FileScanTask) ([]int64, error) {
	s, err := newScanRun(engine.ScanSpec{Table: t}, Options{Alloc: memory.DefaultAllocator, BatchSize: DefaultBatchSize})
	if err != nil {
		return nil, err
	}
	dataPath := s.resolve(task.File.Path)
	var all []int64
	for _, d := range task.Deletes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		switch {
		case strings.EqualFold(string(d.Format), string(catalog.FormatPuffin)):
			l, err := s.loadDeletionVector(ctx, d)
			if err != nil {
				return nil, err
			}
			all = append(all, l...)
		case d.Content == catalog.ContentPositionDelete:
			pd, err := s.loadPositionDeletes(ctx, d)
			if err != nil {
				return nil, err
			}
			all = append(all, pd[dataPath]...)
		}
	}
	slices.Sort(all)
	return slices.Compact(all), nil
}
