package syscat

import (
	"context"
	"fmt"
)

// rowWriter collects the rows of one catalog relation, each set by column
// name: a column a row does not set is NULL, or its type's zero value when
// the column is NOT NULL (attnotnull), as PostgreSQL's catalogs hold
// false, 0 and empty vectors where an object has nothing to say.
type rowWriter struct {
	t    *Table
	pos  map[string]int
	zero []any
	rows [][]any
	err  error
}

func newRowWriter(t *Table) *rowWriter {
	w := &rowWriter{t: t, pos: make(map[string]int, len(t.Columns)), zero: make([]any, len(t.Columns))}
	for i, c := range t.Columns {
		w.pos[c.Name] = i
		if c.NotNull {
			w.zero[i] = zeroOf(c.Type)
		}
	}
	return w
}

// add appends a row from name, value pairs.
func (w *rowWriter) add(pairs ...any) {
	row := append([]any(nil), w.zero...)
	for i := 0; i+1 < len(pairs); i += 2 {
		name, _ := pairs[i].(string)
		p, ok := w.pos[name]
		if !ok {
			if w.err == nil {
				w.err = fmt.Errorf("%s has no column %q", w.t.Name, pairs[i])
			}
			continue
		}
		row[p] = pairs[i+1]
	}
	w.rows = append(w.rows, row)
}

// zeroOf is the value a NOT NULL column of type oid holds when a row sets
// none.
func zeroOf(oid uint32) any {
	switch oid {
	case tBool:
		return false
	case tInt2:
		return int16(0)
	case tInt4:
		return int32(0)
	case tInt8:
		return int64(0)
	case tFloat4:
		return float32(0)
	case tFloat8:
		return float64(0)
	case tInt2Vector, tInt2Arr:
		return []int16{}
	case tOIDVector, tOIDArr:
		return []uint32{}
	}
	if isOIDFamily(oid) {
		return uint32(0)
	}
	return ""
}

// fillFunc computes a relation's rows into w.
type fillFunc func(ctx context.Context, s *Snapshot, w *rowWriter) error

// rowsOf makes a Table.Rows function from a fillFunc.
func rowsOf(t *Table, fill fillFunc) func(context.Context, *Snapshot) ([][]any, error) {
	return func(ctx context.Context, s *Snapshot) ([][]any, error) {
		w := newRowWriter(t)
		if err := fill(ctx, s, w); err != nil {
			return nil, err
		}
		if w.err != nil {
			return nil, w.err
		}
		return w.rows, nil
	}
}

// builtinFill lists the generated rows of the built-in objects.
func builtinFill(name string) fillFunc {
	return func(_ context.Context, _ *Snapshot, w *rowWriter) error {
		w.rows = append(w.rows, builtinRows[name]...)
		return nil
	}
}

// emptyFill is the fill of a relation icegate has no objects for.
func emptyFill(context.Context, *Snapshot, *rowWriter) error { return nil }
