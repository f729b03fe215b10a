package write

import (
	"fmt"
	"hash/maphash"
	"io"
	"slices"

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
	// groupRows, pageRows: rows in the current row group and data page.
	groupRows, pageRows int64
	// groupRowLimit: rows a row group may hold at most (0: no limit), so
	// that bloom filters stay within their byte limit.
	groupRowLimit int64
	// pending: the first batches (retained), held until encodingSampleRows
	// rows (pendingRows) have come or the file closes.
	pending     []pendingBatch
	pendingRows int
	// pendingBytes estimates the held rows' size in memory, which size
	// reports until the writer opens (so target-file-size still rolls a
	// file of fewer rows than the sample).
	pendingBytes int64
}

// pendingBatch is rows sel of a batch's columns.
type pendingBatch struct {
	cols []arrow.Array
	sel  []int
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
	f.groupRowLimit = opts.bloomRowLimit()
	f.metrics = make([]columnMetrics, len(layout.leaves))
	for i := range f.metrics {
		f.metrics[i].mode = modes[i]
	}
	return f
}

// start chooses the file's encodings from its first rows, the pending
// batches (chooseEncodings), opens the Parquet writer and writes them.
func (f *parquetFile) start() error {
	defer f.releasePending()
	if f.pendingRows >= encodingMinSample {
		seed := maphash.MakeSeed()
		samplers := make([]*valueSampler, len(f.layout.leaves))
		values := make([]int, len(f.layout.leaves))
		for i, leaf := range f.layout.leaves {
			if f.layout.chooses(leaf) {
				samplers[i] = newValueSampler(seed)
			}
		}
		for _, b := range f.pending {
			for k, fn := range f.layout.fields {
				if err := shred(fn, b.cols[k], b.sel); err != nil {
					return err
				}
				for _, leaf := range fn.leaves {
					values[leaf.col] += len(leaf.vals)
					if p := samplers[leaf.col]; p != nil {
						p.add(leaf.vals)
					}
				}
			}
		}
		samples := make([]valueSample, len(samplers))
		for i, p := range samplers {
			if p != nil {
				samples[i] = p.sample()
			}
		}
		l, err := f.layout.chooseEncodings(f.pendingRows, samples, values, f.opts.rowGroupBytes, f.opts.dictBytes)
		if err != nil {
			return err
		}
		f.layout = l
	}
	f.open()
	for _, b := range f.pending {
		if err := f.writeRows(b.cols, b.sel); err != nil {
			return err
		}
	}
	return nil
}

// releasePending releases the batches held for the sample.
func (f *parquetFile) releasePending() {
	for _, b := range f.pending {
		for _, c := range b.cols {
			c.Release()
		}
	}
	f.pending, f.pendingRows, f.pendingBytes = nil, 0, 0
}

// open opens the Parquet writer with the file's layout.
func (f *parquetFile) open() {
	f.pw = parquet.NewWriter(f.counter, f.opts.writerOptions(f.layout.schema, f.layout.leaves)...)
	f.columns = f.pw.ColumnWriters()
}

// write appends the rows sel of the batch columns cols. A data page ends
// after pageRowLimit rows in every column (so the offset index of each
// column can locate a row within pageRowLimit rows, and readers skipping
// pages by the column index decode little), and a row group when its
// size passes rowGroupBytes or its rows groupRowLimit.
//
// Until encodingSampleRows rows (or encodingSampleBatches batches) have
// come, the batches are held (the file's encodings are chosen from them).
func (f *parquetFile) write(cols []arrow.Array, sel []int) error {
	if f.pw != nil {
		return f.writeRows(cols, sel)
	}
	if len(sel) == 0 {
		return nil
	}
	for _, c := range cols {
		c.Retain()
	}
	f.pending = append(f.pending, pendingBatch{cols: slices.Clone(cols), sel: slices.Clone(sel)})
	f.pendingRows += len(sel)
	f.pendingBytes += heldBytes(cols, len(sel))
	// A file of a partitioned write may get a few rows of each batch: it
	// holds at most encodingSampleBatches of them, not whole batches
	// without bound.
	if f.pendingRows < encodingSampleRows && len(f.pending) < encodingSampleBatches {
		return nil
	}
	return f.start()
}

// writeRows writes the rows sel of cols to the open Parquet writer.
func (f *parquetFile) writeRows(cols []arrow.Array, sel []int) error {
	for len(sel) > 0 {
		n := int64(min(len(sel), chunkRows))
		if f.opts.pageRowLimit > 0 {
			n = min(n, f.opts.pageRowLimit-f.pageRows)
		}
		if f.groupRowLimit > 0 {
			n = min(n, f.groupRowLimit-f.groupRows)
		}
		chunk := sel[:n]
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
		f.rows += n
		f.groupRows += n
		f.pageRows += n
		if size := f.pw.Size(); size-f.rowGroup >= f.opts.rowGroupBytes ||
			(f.groupRowLimit > 0 && f.groupRows >= f.groupRowLimit) {
			if err := f.pw.Flush(); err != nil {
				return fmt.Errorf("write row group of %s: %w", f.path, err)
			}
			f.rowGroup = f.pw.Size()
			f.groupRows, f.pageRows = 0, 0
			continue
		}
		if f.opts.pageRowLimit > 0 && f.pageRows >= f.opts.pageRowLimit {
			for i, c := range f.columns {
				if err := c.Flush(); err != nil {
					return fmt.Errorf("write page of column %q of %s: %w", f.layout.leaves[i].name, f.path, err)
				}
			}
			f.pageRows = 0
		}
	}
	return nil
}

// size is the estimated size of the file so far (written bytes plus the
// buffered row group, before compression).
func (f *parquetFile) size() int64 {
	if f.pw == nil {
		return f.pendingBytes // the first rows are held
	}
	return f.pw.Size()
}

// heldBytes estimates the memory of n rows of the batch columns cols: each
// column's buffers in the share n is of its rows.
func heldBytes(cols []arrow.Array, n int) int64 {
	var total int64
	for _, c := range cols {
		if c.Len() == 0 {
			continue
		}
		total += dataBytes(c.Data()) * int64(n) / int64(c.Len())
	}
	return total
}

// dataBytes is the size of an array's buffers and its children's.
func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	return n
}

// close writes the footer and returns the file's DataFile.
func (f *parquetFile) close(specID int) (*catalog.DataFile, error) {
	if f.pw == nil {
		if err := f.start(); err != nil {
			f.out.Close()
			return nil, err
		}
	}
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
func (f *parquetFile) abort() {
	f.releasePending()
	f.out.Close()
}
