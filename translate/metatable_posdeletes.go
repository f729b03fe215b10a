package translate

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/internal/pgerr"
)

// The reserved field ids of a position-delete file's columns.
const (
	posDeleteFilePathID = 2147483546
	posDeletePosID      = 2147483545
)

// posDeleteSchema reads a position-delete file's file_path and pos.
var posDeleteSchema = &catalog.Schema{Fields: []catalog.NestedField{
	{ID: posDeleteFilePathID, Name: "file_path", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TString}},
	{ID: posDeletePosID, Name: "pos", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
}}

// positionDeletesRows lists every row of the snapshot's live
// position-delete files: the data file and position each deletes. The
// deleted row's values (the optional row column of the delete file) are
// not read: row is NULL.
func positionDeletesRows(ctx context.Context, src *metaSource) ([][]any, error) {
	mfs, err := src.snapshotManifests(ctx, src.snapshot)
	if err != nil {
		return nil, err
	}
	var files []*catalog.DataFile
	err = src.eachEntry(ctx, mfs, func(m *catalog.Manifest, e *catalog.ManifestEntry) error {
		if e.Status != catalog.StatusDeleted && e.File.Content == catalog.ContentPositionDelete {
			files = append(files, e.File)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	withPart := src.has("partition")
	var rows [][]any
	for _, df := range files {
		if df.Format == catalog.FormatPuffin {
			return nil, pgerr.Unsupported("listing the positions of deletion vectors in position_deletes")
		}
		part := ""
		if withPart {
			part = src.partitionJSON(df.SpecID, df.Partition)
		}
		err := src.readPositions(ctx, df, func(path string, pos int64) {
			row := []any{path, pos, nil}
			if withPart {
				row = append(row, part)
			}
			rows = append(rows, append(row, int32(df.SpecID), df.Path))
		})
		if err != nil {
			return nil, fmt.Errorf("read position deletes %s: %w", df.Path, err)
		}
	}
	return rows, nil
}

// readPositions reads a position-delete file through the table scan,
// as if it were a data file with the two reserved columns.
func (s *metaSource) readPositions(ctx context.Context, df *catalog.DataFile, fn func(path string, pos int64)) error {
	f := *df
	f.Content = catalog.ContentData
	f.Partition = nil
	f.SpecID = 0
	task := catalog.FileScanTask{File: &f, Spec: &catalog.PartitionSpec{}}
	op := scan.New(engine.ScanSpec{Table: s.table, Tasks: []catalog.FileScanTask{task}, Schema: posDeleteSchema,
		FieldIDs: []int{posDeleteFilePathID, posDeletePosID}}, scan.Options{Alloc: expr.Allocator(ctx), Parallelism: 1})
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := op.Next()
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		paths, pos, err := positionColumns(b)
		if err != nil {
			return err
		}
		for i := 0; i < int(b.NumRows()); i++ {
			fn(paths.Value(i), pos.Value(i))
		}
	}
}

func positionColumns(b arrow.RecordBatch) (*array.String, *array.Int64, error) {
	paths, ok1 := b.Column(0).(*array.String)
	pos, ok2 := b.Column(1).(*array.Int64)
	if !ok1 || !ok2 {
		return nil, nil, fmt.Errorf("position delete columns are %s and %s", b.Column(0).DataType(), b.Column(1).DataType())
	}
	return paths, pos, nil
}
