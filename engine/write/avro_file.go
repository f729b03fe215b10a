package write

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/twmb/avro"
	"github.com/twmb/avro/ocf"

	"github.com/icegate/icegate/catalog"
)

// avroBlockBytes is the encoded size at which a block of records is
// compressed and written.
const avroBlockBytes = 1 << 20

// avroLayout is what every Avro data file of a table shares: the schema
// (its JSON text and parsed form) and the encoders of the top-level fields.
type avroLayout struct {
	text   string
	schema *avro.Schema
	encs   []avroEncoder
}

func newAvroLayout(s *catalog.Schema) (*avroLayout, error) {
	text, err := avroSchemaJSON(s)
	if err != nil {
		return nil, err
	}
	parsed, err := avro.Parse(text, avro.WithLaxNames(nil))
	if err != nil {
		return nil, fmt.Errorf("avro schema of the table: %w", err)
	}
	l := &avroLayout{text: text, schema: parsed}
	for _, f := range s.Fields {
		e, err := newAvroEncoder(f.Type, f.Name, f.Required)
		if err != nil {
			return nil, err
		}
		l.encs = append(l.encs, e)
	}
	return l, nil
}

// avroFile is one Avro data file being written. Its metrics are the
// Parquet writer's (value, null and NaN counts, bounds) computed from the
// same shredded leaf values; Avro files have no column sizes.
type avroFile struct {
	path      string
	partition []any
	out       io.WriteCloser
	counter   *countingWriter
	ow        *ocf.Writer
	avro      *avroLayout
	layout    *tableLayout
	metrics   []columnMetrics
	rows      int64
	buf       []byte
	pending   int64 // encoded bytes not yet written out in a block
	lastN     int64 // counter.n when pending was last reset
}

func newAvroFile(path string, out io.WriteCloser, al *avroLayout, layout *tableLayout, opts fileOptions,
	modes []metricsMode, partition []any) (*avroFile, error) {
	f := &avroFile{path: path, partition: partition, out: out, counter: &countingWriter{w: out},
		avro: al, layout: layout}
	codec, err := opts.avroCodec()
	if err != nil {
		return nil, err
	}
	f.ow, err = ocf.NewWriter(f.counter, al.schema, ocf.WithCodec(codec), ocf.WithSchema(al.text),
		ocf.WithBlockBytes(avroBlockBytes))
	if err != nil {
		return nil, fmt.Errorf("create avro file %s: %w", path, err)
	}
	f.lastN = f.counter.n
	f.metrics = make([]columnMetrics, len(layout.leaves))
	for i := range f.metrics {
		f.metrics[i].mode = modes[i]
	}
	return f, nil
}

func (f *avroFile) write(cols []arrow.Array, sel []int) error {
	for len(sel) > 0 {
		chunk := sel[:min(len(sel), chunkRows)]
		sel = sel[len(chunk):]
		for k, n := range f.layout.fields {
			if err := shred(n, cols[k], chunk); err != nil {
				return err
			}
			for _, l := range n.leaves {
				f.metrics[l.col].observe(l, l.vals)
			}
		}
		for _, i := range chunk {
			buf := f.buf[:0]
			var err error
			for k, enc := range f.avro.encs {
				if buf, err = enc(buf, cols[k], i); err != nil {
					return err
				}
			}
			f.buf = buf
			if _, err := f.ow.Write(buf); err != nil {
				return fmt.Errorf("write avro file %s: %w", f.path, err)
			}
			if f.counter.n != f.lastN { // the block holding this record went out
				f.lastN, f.pending = f.counter.n, 0
			} else {
				f.pending += int64(len(buf))
			}
		}
		f.rows += int64(len(chunk))
	}
	return nil
}

func (f *avroFile) size() int64 { return f.counter.n + f.pending }

func (f *avroFile) close(specID int) (*catalog.DataFile, error) {
	if err := f.ow.Close(); err != nil {
		f.out.Close()
		return nil, fmt.Errorf("finish %s: %w", f.path, err)
	}
	if err := f.out.Close(); err != nil {
		return nil, fmt.Errorf("close %s: %w", f.path, err)
	}
	df := &catalog.DataFile{
		Content:         catalog.ContentData,
		Path:            f.path,
		Format:          catalog.FormatAvro,
		SpecID:          specID,
		Partition:       f.partition,
		RecordCount:     f.rows,
		FileSizeInBytes: f.counter.n,
		ValueCounts:     map[int]int64{},
		NullValueCounts: map[int]int64{},
		NaNValueCounts:  map[int]int64{},
		LowerBounds:     map[int][]byte{},
		UpperBounds:     map[int][]byte{},
	}
	fileMetrics(df, f.layout.leaves, f.metrics)
	return df, nil
}

func (f *avroFile) abort() {
	f.ow.Close()
	f.out.Close()
}
