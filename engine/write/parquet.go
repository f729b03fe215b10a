package write

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
)

// chunkRows is how many rows go to the column writers at a time: pages are
// cut between chunks, so this bounds how far a page overshoots its size.
const chunkRows = 1024

// parquetFile is one Parquet data file being written.
type parquetFile struct {
	path      string
	partition []any
	out       io.WriteCloser
	counter   *countingWriter
	pw        *parquet.Writer
	columns   []*parquet.ColumnWriter
	layout    *tableLayout
	opts      fileOptions
	metrics   []columnMetrics
	rows      int64
	rowGroup  int64 // Size() of the writer when the current row group began
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func newParquetFile(path string, out io.WriteCloser, layout *tableLayout, opts fileOptions, modes []metricsMode, partition []any) *parquetFile {
	f := &parquetFile{path: path, partition: partition, out: out, counter: &countingWriter{w: out}, layout: layout, opts: opts}
	f.pw = parquet.NewWriter(f.counter, opts.writerOptions(layout.schema)...)
	f.columns = f.pw.ColumnWriters()
	f.metrics = make([]columnMetrics, len(layout.leaves))
	for i := range f.metrics {
		f.metrics[i].mode = modes[i]
	}
	return f
}

// write appends the rows sel of the batch columns cols.
func (f *parquetFile) write(cols []arrow.Array, sel []int) error {
	for len(sel) > 0 {
		chunk := sel[:min(len(sel), chunkRows)]
		sel = sel[len(chunk):]
		for k, n := range f.layout.fields {
			if err := shred(n, cols[k], chunk); err != nil {
				return err
			}
			for _, l := range n.leaves {
				f.metrics[l.col].observe(l, l.vals)
				if _, err := f.columns[l.col].WriteRowValues(l.vals); err != nil {
					return fmt.Errorf("write column %q of %s: %w", l.name, f.path, err)
				}
			}
		}
		f.rows += int64(len(chunk))
		if size := f.pw.Size(); size-f.rowGroup >= f.opts.rowGroupBytes {
			if err := f.pw.Flush(); err != nil {
				return fmt.Errorf("write row group of %s: %w", f.path, err)
			}
			f.rowGroup = f.pw.Size()
		}
	}
	return nil
}

// size is the estimated size of the file so far (written bytes plus the
// buffered row group, before compression).
func (f *parquetFile) size() int64 { return f.pw.Size() }

// close writes the footer and returns the file's DataFile.
func (f *parquetFile) close(specID int) (*catalog.DataFile, error) {
	if err := f.pw.Close(); err != nil {
		f.out.Close()
		return nil, fmt.Errorf("write footer of %s: %w", f.path, err)
	}
	if err := f.out.Close(); err != nil {
		return nil, fmt.Errorf("close %s: %w", f.path, err)
	}
	df := &catalog.DataFile{
		Content:         catalog.ContentData,
		Path:            f.path,
		Format:          catalog.FormatParquet,
		SpecID:          specID,
		Partition:       f.partition,
		RecordCount:     f.rows,
		FileSizeInBytes: f.counter.n,
		ColumnSizes:     map[int]int64{},
		ValueCounts:     map[int]int64{},
		NullValueCounts: map[int]int64{},
		NaNValueCounts:  map[int]int64{},
		LowerBounds:     map[int][]byte{},
		UpperBounds:     map[int][]byte{},
	}
	meta := f.pw.File().Metadata()
	for _, rg := range meta.RowGroups {
		for i, cc := range rg.Columns {
			if i >= len(f.layout.leaves) {
				break
			}
			if f.metrics[i].mode.counts {
				df.ColumnSizes[f.layout.leaves[i].id] += cc.MetaData.TotalCompressedSize
			}
		}
		if len(rg.Columns) > 0 {
			md := rg.Columns[0].MetaData
			start := md.DataPageOffset
			if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
				start = md.DictionaryPageOffset
			}
			df.SplitOffsets = append(df.SplitOffsets, start)
		}
	}
	fileMetrics(df, f.layout.leaves, f.metrics)
	return df, nil
}

// abort closes the output without a footer.
func (f *parquetFile) abort() { f.out.Close() }
