package scan

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/twmb/avro/ocf"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
)

// avroReader reads an Avro data file record by record into Arrow builders.
type avroReader struct {
	path     string
	rd       *ocf.Reader
	fields   []readField
	nodes    []*avroNode // nil where the file lacks the field
	builders []array.Builder
	opts     readOptions
	pos      int64
	done     bool
}

func openAvro(path string, f catalog.File, fields []readField, opts readOptions) (fileReader, error) {
	rd, err := ocf.NewReader(io.NewSectionReader(f, 0, f.Size()))
	if err != nil {
		return nil, fmt.Errorf("open avro file %s: %w", path, err)
	}
	hasIDs := false
	root := buildAvroNode("", 0, rd.Schema().Root(), &hasIDs)
	if root.shape != avroRecord {
		rd.Close()
		return nil, fmt.Errorf("avro file %s: top-level schema is %s, not a record", path, root.node.Type)
	}
	var schemaFields []catalog.NestedField
	for _, rf := range fields {
		schemaFields = append(schemaFields, rf.field)
	}
	assignIDs(root.structChildren(), hasIDs, opts.mapping, schemaFields)
	r := &avroReader{path: path, rd: rd, fields: fields, opts: opts}
	for _, rf := range fields {
		r.nodes = append(r.nodes, root.childByID(rf.field.ID))
		r.builders = append(r.builders, array.NewBuilder(opts.mem, engine.ArrowType(rf.field.Type)))
	}
	return r, nil
}

func (r *avroReader) next(ctx context.Context, n int) ([]arrow.Array, int64, int, error) {
	if r.done {
		return nil, r.pos, 0, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, 0, err
	}
	rows := 0
	for rows < n {
		if rows%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, 0, 0, err
			}
		}
		var rec any
		if err := r.rd.Decode(&rec); err != nil {
			if errors.Is(err, io.EOF) {
				r.done = true
				break
			}
			return nil, 0, 0, fmt.Errorf("read avro file %s: %w", r.path, err)
		}
		m, ok := rec.(map[string]any)
		if !ok {
			return nil, 0, 0, fmt.Errorf("avro file %s: record decoded as %T", r.path, rec)
		}
		for i, node := range r.nodes {
			if node == nil {
				continue
			}
			v, err := avroValue(m[node.name], r.fields[i].field.Type, node)
			if err != nil {
				return nil, 0, 0, fmt.Errorf("avro file %s: column %q: %w", r.path, r.fields[i].field.Name, err)
			}
			if err := appendValue(r.builders[i], r.fields[i].field.Type, v); err != nil {
				return nil, 0, 0, fmt.Errorf("avro file %s: column %q: %w", r.path, r.fields[i].field.Name, err)
			}
		}
		rows++
	}
	if rows == 0 {
		return nil, r.pos, 0, nil
	}
	out := make([]arrow.Array, len(r.fields))
	for i, node := range r.nodes {
		if node != nil {
			out[i] = r.builders[i].NewArray()
			continue
		}
		a, err := constantArray(r.opts.mem, r.fields[i].field.Type, r.fields[i].missing, rows)
		if err != nil {
			releaseAll(out)
			return nil, 0, 0, fmt.Errorf("avro file %s: column %q: %w", r.path, r.fields[i].field.Name, err)
		}
		out[i] = a
	}
	pos := r.pos
	r.pos += int64(rows)
	return out, pos, rows, nil
}

func (r *avroReader) close() error {
	for _, b := range r.builders {
		b.Release()
	}
	r.builders = nil
	return r.rd.Close()
}
