package metatable

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/engine/scan"
)

// The reserved field ids of a position-delete file's columns.
const (
	posDeleteFilePathID = 2147483546
	posDeletePosID      = 2147483545
	posDeleteRowID      = 2147483544
)

// posDeleteSchema is the schema a position-delete file is read with:
// file_path, pos and the optional row, a struct of the table's columns
// (rowSchema) that some writers fill with the deleted row's values.
func posDeleteSchema(rowSchema *catalog.Schema) *catalog.Schema {
	fields := []catalog.NestedField{
		{ID: posDeleteFilePathID, Name: "file_path", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TString}},
		{ID: posDeletePosID, Name: "pos", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
	}
	if rowSchema != nil && len(rowSchema.Fields) > 0 {
		fields = append(fields, catalog.NestedField{ID: posDeleteRowID, Name: "row", Type: &catalog.StructType{Fields: rowSchema.Fields}})
	}
	return &catalog.Schema{Fields: fields}
}

// positionDeletesRows lists every position the snapshot's live
// position-delete files and deletion vectors delete: the data file, the
// position, the deleted row's values where the delete file stores them
// (row, as jsonb; NULL for deletion vectors and files without it), the
// partition and spec of the delete file and the delete file's path.
func positionDeletesRows(ctx context.Context, src *Source) ([][]any, error) {
	mfs, err := src.snapshotManifests(ctx, src.Snapshot)
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
	withPart := src.Has("partition")
	var rows [][]any
	for _, df := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		part := ""
		if withPart {
			part = src.partitionJSON(df.SpecID, df.Partition)
		}
		emit := func(path string, pos int64, row any) {
			r := []any{path, pos, row}
			if withPart {
				r = append(r, part)
			}
			rows = append(rows, append(r, int32(df.SpecID), df.Path))
		}
		if strings.EqualFold(string(df.Format), string(catalog.FormatPuffin)) {
			err = src.readDeletionVector(ctx, df, emit)
		} else {
			err = src.readPositions(ctx, df, func(path string, pos int64, row any) { emit(path, pos, row) })
		}
		if err != nil {
			return nil, fmt.Errorf("read position deletes %s: %w", df.Path, err)
		}
	}
	return rows, nil
}

// readDeletionVector lists the positions a deletion vector (a blob of a
// Puffin file, format 3) deletes from the data file it references.
func (s *Source) readDeletionVector(ctx context.Context, df *catalog.DataFile, fn func(path string, pos int64, row any)) error {
	if df.ReferencedDataFile == nil {
		return fmt.Errorf("deletion vector %s names no data file", df.Path)
	}
	target := &catalog.DataFile{Path: *df.ReferencedDataFile, Content: catalog.ContentData}
	pos, err := scan.DeletedPositions(ctx, s.Table, catalog.FileScanTask{File: target, Deletes: []*catalog.DataFile{df}})
	if err != nil {
		return err
	}
	for _, p := range pos {
		fn(*df.ReferencedDataFile, p, nil)
	}
	return nil
}

// readPositions reads a position-delete file through the table scan, as
// if it were a data file with the reserved columns. row is the deleted
// row as jsonb text, or nil where the file does not store it.
func (s *Source) readPositions(ctx context.Context, df *catalog.DataFile, fn func(path string, pos int64, row any)) error {
	f := *df
	f.Content = catalog.ContentData
	f.Partition = nil
	f.SpecID = 0
	task := catalog.FileScanTask{File: &f, Spec: &catalog.PartitionSpec{}}
	schema := posDeleteSchema(s.schema())
	ids := make([]int, len(schema.Fields))
	for i, fl := range schema.Fields {
		ids[i] = fl.ID
	}
	op := scan.New(engine.ScanSpec{Table: s.Table, Tasks: []catalog.FileScanTask{task}, Schema: schema, FieldIDs: ids},
		scan.Options{Alloc: expr.Allocator(ctx), Parallelism: 1})
	defer op.Close()
	if err := op.Open(ctx); err != nil {
		return err
	}
	var toJSON *expr.Program
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
		rows := make([]any, b.NumRows())
		if b.NumCols() > 2 {
			if toJSON == nil {
				p, err := rowJSONProgram(b.Schema())
				if err != nil {
					return err
				}
				toJSON = &p
			}
			if err := rowTexts(ctx, *toJSON, b, rows); err != nil {
				return err
			}
		}
		for i := range rows {
			fn(paths.Value(i), pos.Value(i), rows[i])
		}
	}
}

// rowTexts fills out with the jsonb text of each row of the batch's row
// column (nil where it is NULL).
func rowTexts(ctx context.Context, toJSON expr.Program, b arrow.RecordBatch, out []any) error {
	js, err := toJSON.Eval(ctx, b)
	if err != nil {
		return fmt.Errorf("render row as jsonb: %w", err)
	}
	defer js.Release()
	structs := b.Column(2)
	for i := range out {
		if !structs.IsNull(i) && !js.IsNull(i) {
			out[i] = string(expr.AppendText(nil, js, i, time.UTC))
		}
	}
	return nil
}

// rowJSONProgram compiles to_jsonb(row) over a batch of posDeleteSchema.
func rowJSONProgram(in *arrow.Schema) (expr.Program, error) {
	t := in.Field(2).Type
	r, err := expr.Resolve("to_jsonb", []arrow.DataType{t})
	if err != nil {
		return expr.Program{}, fmt.Errorf("to_jsonb of %s: %w", t, err)
	}
	return expr.Compile(&expr.Call{Fn: "to_jsonb", Args: []expr.Expr{&expr.Col{Idx: 2, Name: "row", T: t}}, T: r.Result}, in)
}

func positionColumns(b arrow.RecordBatch) (*array.String, *array.Int64, error) {
	paths, ok1 := b.Column(0).(*array.String)
	pos, ok2 := b.Column(1).(*array.Int64)
	if !ok1 || !ok2 {
		return nil, nil, fmt.Errorf("position delete columns are %s and %s", b.Column(0).DataType(), b.Column(1).DataType())
	}
	return paths, pos, nil
}
