package write

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// ImportParquet adds a plain Parquet file (one no Iceberg writer made, as
// add_files takes them) to a table's files: it checks that the file's
// columns fit schema by name (a table column present in the file has a
// Parquet type that reads as the column's type; a required column is
// there), copies the file from the local path src to the written path dst
// through out, and returns the data file to commit (record count and size;
// no column metrics). Columns in fromPartition (field ids of identity
// partition sources) may be missing from the file, as Hive-style
// partitioned files lack them: readers take their values from the
// partition tuple, which the caller sets. A failed or cancelled copy
// removes what it wrote.
func ImportParquet(ctx context.Context, src string, out catalog.OutputIO, dst string, schema *catalog.Schema, fromPartition map[int]bool) (_ *catalog.DataFile, err error) {
	f, err := os.Open(src)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.UndefinedFile, "could not open file \"%s\": %v", src, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.IOError, "could not stat file \"%s\": %v", src, err)
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.InvalidParameterValue, "file \"%s\" is not a Parquet file: %v", src, err)
	}
	if err := checkImportSchema(src, pf.Schema().Fields(), schema.Fields, fromPartition); err != nil {
		return nil, err
	}
	w, err := out.Create(ctx, dst)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			out.Remove(context.WithoutCancel(ctx), dst)
		}
	}()
	n, err := io.Copy(w, io.NewSectionReader(&ctxReaderAt{ctx: ctx, r: f}, 0, st.Size()))
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	return &catalog.DataFile{Content: catalog.ContentData, Path: dst, Format: catalog.FormatParquet,
		Partition: []any{}, RecordCount: pf.NumRows(), FileSizeInBytes: n}, nil
}

// ctxReaderAt stops a copy when its context ends.
type ctxReaderAt struct {
	ctx context.Context
	r   io.ReaderAt
}

func (c *ctxReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.ReadAt(p, off)
}

// checkImportSchema matches a file's top-level columns to the table's by
// name, as the scan does for files without field ids.
func checkImportSchema(src string, file []parquet.Field, table []catalog.NestedField, fromPartition map[int]bool) error {
	for _, col := range table {
		var pf parquet.Field
		for _, f := range file {
			if f.Name() == col.Name {
				pf = f
				break
			}
		}
		if pf == nil {
			for _, f := range file {
				if strings.EqualFold(f.Name(), col.Name) {
					pf = f
					break
				}
			}
		}
		if pf == nil {
			if col.Required && col.InitialDefault == nil && !fromPartition[col.ID] {
				return pgerr.New(pgerr.NotNullViolation, "file \"%s\" has no column \"%s\", which the table requires", src, col.Name)
			}
			continue
		}
		if !parquetFits(pf, col.Type) {
			return pgerr.New(pgerr.DatatypeMismatch, "column \"%s\" of file \"%s\" cannot be read as %s", pf.Name(), src, col.Type).
				WithDetail("The file's column is %s.", describeParquetField(pf))
		}
	}
	return nil
}

func describeParquetField(f parquet.Field) string {
	if !f.Leaf() {
		return "a group"
	}
	if lt := f.Type().LogicalType(); lt != nil {
		return fmt.Sprintf("%s (%s)", f.Type().Kind(), lt)
	}
	return f.Type().Kind().String()
}

// parquetFits reports whether a Parquet column reads as the Iceberg type t.
func parquetFits(f parquet.Field, t catalog.Type) bool {
	p, ok := t.(*catalog.PrimitiveType)
	if !ok {
		return !f.Leaf()
	}
	if !f.Leaf() {
		return p.ID == catalog.TVariant
	}
	k := f.Type().Kind()
	switch p.ID {
	case catalog.TBoolean:
		return k == parquet.Boolean
	case catalog.TInt, catalog.TDate:
		return k == parquet.Int32
	case catalog.TLong, catalog.TTime:
		return k == parquet.Int64 || k == parquet.Int32
	case catalog.TFloat:
		return k == parquet.Float
	case catalog.TDouble:
		return k == parquet.Double || k == parquet.Float
	case catalog.TDecimal:
		return k == parquet.Int32 || k == parquet.Int64 || k == parquet.FixedLenByteArray || k == parquet.ByteArray
	case catalog.TTimestamp, catalog.TTimestamptz, catalog.TTimestampNs, catalog.TTimestamptzNs:
		return k == parquet.Int64 || k == parquet.Int96
	case catalog.TString:
		return k == parquet.ByteArray
	case catalog.TBinary:
		return k == parquet.ByteArray || k == parquet.FixedLenByteArray
	case catalog.TUUID, catalog.TFixed:
		return k == parquet.FixedLenByteArray
	}
	return true
}
