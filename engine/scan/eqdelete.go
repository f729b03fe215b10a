package scan

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// equalityDeletes is the content of one equality-delete file: the field ids
// compared and the set of deleted keys (NULL equals NULL, as the spec says).
type equalityDeletes struct {
	ids  []int
	keys map[string]struct{}
}

// equalityField returns the field an equality id names: from the read
// schema, else from any schema of the table (a column dropped since).
func (s *scanRun) equalityField(id int) (catalog.NestedField, error) {
	top := func(sc *catalog.Schema) (catalog.NestedField, bool) {
		for _, f := range sc.Fields {
			if f.ID == id {
				return f, true
			}
		}
		return catalog.NestedField{}, false
	}
	if f, ok := top(s.spec.Schema); ok {
		return f, nil
	}
	if s.spec.Schema.FindField(id) != nil {
		return catalog.NestedField{}, pgerr.Unsupported("equality deletes on nested field %d", id)
	}
	if s.spec.Table != nil && s.spec.Table.Metadata != nil {
		for i := len(s.spec.Table.Metadata.Schemas) - 1; i >= 0; i-- {
			if f, ok := top(s.spec.Table.Metadata.Schemas[i]); ok {
				return f, nil
			}
		}
	}
	return catalog.NestedField{}, fmt.Errorf("equality delete field id %d is in no schema of the table", id)
}

func (s *scanRun) loadEqualityDeletes(ctx context.Context, df *catalog.DataFile) (*equalityDeletes, error) {
	if len(df.EqualityIDs) == 0 {
		return nil, fmt.Errorf("equality delete file %s has no equality ids", df.Path)
	}
	v, err := s.cache.get(ctx, "eq:"+df.Path, func() (any, error) {
		fields := make([]readField, len(df.EqualityIDs))
		for i, id := range df.EqualityIDs {
			f, err := s.equalityField(id)
			if err != nil {
				return nil, fmt.Errorf("equality deletes %s: %w", df.Path, err)
			}
			fields[i] = readField{field: f}
		}
		r, f, err := s.openFile(ctx, df, fields, fileShard{}, nil)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		defer r.close()
		out := &equalityDeletes{ids: df.EqualityIDs, keys: map[string]struct{}{}}
		var key []byte
		for {
			cols, _, n, err := r.next(ctx, s.batchSize)
			if err != nil {
				return nil, s.fileError(df, fmt.Errorf("read equality deletes: %w", err))
			}
			if n == 0 {
				break
			}
			for i := range n {
				key, err = rowKey(key[:0], cols, i)
				if err != nil {
					releaseAll(cols)
					return nil, s.fileError(df, fmt.Errorf("equality deletes: %w", err))
				}
				out.keys[string(key)] = struct{}{}
			}
			releaseAll(cols)
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*equalityDeletes), nil
}

// mark sets del[j] for each row j of cols (the equality columns, in ids
// order) whose key is deleted, skipping rows already deleted, and returns
// how many it set. key is scratch space kept across calls.
func (e *equalityDeletes) mark(cols []arrow.Array, del []bool, key *[]byte) (int, error) {
	n := 0
	for j := range del {
		if del[j] {
			continue
		}
		k, err := rowKey((*key)[:0], cols, j)
		if err != nil {
			return 0, err
		}
		*key = k
		if _, ok := e.keys[string(k)]; ok {
			del[j] = true
			n++
		}
	}
	return n, nil
}

// rowKey appends an encoding of row i of cols that is equal for equal
// values (NULL equal to NULL) and distinct otherwise.
func rowKey(dst []byte, cols []arrow.Array, i int) ([]byte, error) {
	for _, c := range cols {
		if c.IsNull(i) {
			dst = append(dst, 0)
			continue
		}
		dst = append(dst, 1)
		switch a := c.(type) {
		case *array.Boolean:
			if a.Value(i) {
				dst = append(dst, 1)
			} else {
				dst = append(dst, 0)
			}
		case *array.Int32:
			dst = binary.LittleEndian.AppendUint32(dst, uint32(a.Value(i)))
		case *array.Int64:
			dst = binary.LittleEndian.AppendUint64(dst, uint64(a.Value(i)))
		case *array.Float32:
			dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(a.Value(i)))
		case *array.Float64:
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(a.Value(i)))
		case *array.Date32:
			dst = binary.LittleEndian.AppendUint32(dst, uint32(a.Value(i)))
		case *array.Time64:
			dst = binary.LittleEndian.AppendUint64(dst, uint64(a.Value(i)))
		case *array.Timestamp:
			dst = binary.LittleEndian.AppendUint64(dst, uint64(a.Value(i)))
		case *array.Decimal128:
			v := a.Value(i)
			dst = binary.LittleEndian.AppendUint64(dst, v.LowBits())
			dst = binary.LittleEndian.AppendUint64(dst, uint64(v.HighBits()))
		case *array.String:
			s := a.Value(i)
			dst = binary.AppendUvarint(dst, uint64(len(s)))
			dst = append(dst, s...)
		case *array.Binary:
			b := a.Value(i)
			dst = binary.AppendUvarint(dst, uint64(len(b)))
			dst = append(dst, b...)
		case *array.FixedSizeBinary:
			dst = append(dst, a.Value(i)...)
		default:
			return nil, pgerr.Unsupported("equality deletes on columns of type %s", c.DataType())
		}
	}
	return dst, nil
}
