package scan

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan/orcfile"
	"github.com/icegate/icegate/internal/pgerr"
)

// orcReader reads an ORC data or delete file stripe by stripe, decoding
// only the projected columns.
type orcReader struct {
	path     string
	of       *orcfile.File
	fields   []readField
	nodes    []*orcNode // nil where the file lacks the field
	cols     []*orcfile.ColumnReader
	builders []array.Builder
	opts     readOptions
	stripe   int   // current stripe, -1 before the first
	left     int64 // rows left in the current stripe
	pos      int64 // file position of the next row
}

func openORC(path string, f catalog.File, fields []readField, opts readOptions) (*orcReader, error) {
	of, err := orcfile.Open(f, f.Size())
	if err != nil {
		return nil, orcError(path, err)
	}
	hasIDs := false
	root := buildORCNode("", of.Root, &hasIDs)
	var schemaFields []catalog.NestedField
	for _, rf := range fields {
		schemaFields = append(schemaFields, rf.field)
	}
	assignIDs(root.structChildren(), hasIDs, opts.mapping, schemaFields)
	r := &orcReader{path: path, of: of, fields: fields, opts: opts, stripe: -1,
		cols: make([]*orcfile.ColumnReader, len(fields))}
	for _, rf := range fields {
		var node *orcNode
		if i := root.childByID(rf.field.ID); i >= 0 {
			node = root.children[i]
		}
		r.nodes = append(r.nodes, node)
		r.builders = append(r.builders, array.NewBuilder(opts.mem, engine.ArrowType(rf.field.Type)))
	}
	return r, nil
}

// orcError turns the decoder's "not supported" into SQLSTATE 0A000.
func orcError(path string, err error) error {
	var u *orcfile.UnsupportedError
	if errors.As(err, &u) {
		return pgerr.Unsupported("%s", u.Error()).WithDetail("File %s.", path)
	}
	return fmt.Errorf("orc file %s: %w", path, err)
}

func (r *orcReader) startStripe() error {
	var types []*orcfile.Type
	for _, n := range r.nodes {
		if n != nil {
			types = append(types, n.t)
		}
	}
	s, err := r.of.Stripe(r.stripe, types)
	if err != nil {
		return err
	}
	for i, n := range r.nodes {
		if n == nil {
			continue
		}
		c, err := s.Column(n.t)
		if err != nil {
			return err
		}
		r.cols[i] = c
	}
	r.left = s.Rows
	if c := r.opts.counters; c != nil { // stripes are read whole: no statistics yet
		c.groups.Add(1)
		c.rows.Add(s.Rows)
	}
	return nil
}

func (r *orcReader) next(ctx context.Context, n int) ([]arrow.Array, int64, int, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, 0, err
	}
	for r.left == 0 {
		if r.stripe+1 >= len(r.of.Stripes) {
			return nil, r.pos, 0, nil
		}
		r.stripe++
		if err := r.startStripe(); err != nil {
			return nil, 0, 0, orcError(r.path, fmt.Errorf("stripe %d: %w", r.stripe, err))
		}
	}
	k := int(min(int64(n), r.left))
	out := make([]arrow.Array, len(r.fields))
	for i, rf := range r.fields {
		if r.nodes[i] == nil {
			a, err := constantArray(r.opts.mem, rf.field.Type, rf.missing, k)
			if err != nil {
				releaseAll(out)
				return nil, 0, 0, fmt.Errorf("orc file %s: column %q: %w", r.path, rf.field.Name, err)
			}
			out[i] = a
			continue
		}
		v, err := r.cols[i].Next(k)
		if err != nil {
			releaseAll(out)
			return nil, 0, 0, orcError(r.path, fmt.Errorf("stripe %d: %w", r.stripe, err))
		}
		b := r.builders[i]
		b.Reserve(k)
		if err := appendORC(b, rf.field.Type, r.nodes[i], v, 0, k); err != nil {
			releaseAll(out)
			return nil, 0, 0, fmt.Errorf("orc file %s: column %q: %w", r.path, rf.field.Name, err)
		}
		out[i] = b.NewArray()
	}
	pos := r.pos
	r.pos += int64(k)
	r.left -= int64(k)
	return out, pos, k, nil
}

func (r *orcReader) close() error {
	for _, b := range r.builders {
		b.Release()
	}
	r.builders = nil
	return r.of.Close()
}
