package scan

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
)

// listColumn reads a top-level list of primitives straight into a list
// builder from the element column's levels, without assembling rows.
type listColumn struct {
	node *pqNode
	leaf leafReader
}

// flatList reports whether list type t over node n is a top-level list
// whose element is a primitive leaf.
func flatList(t *catalog.ListType, n *pqNode) bool {
	p := catalog.Primitive(t.Element)
	return n.shape == pqList && n.maxRep == 0 && p != nil && p.ID != catalog.TVariant &&
		n.element.shape == pqPrimitive && n.element.maxRep == 1 && n.element.leaf >= 0
}

func newListColumn(t *catalog.ListType, n *pqNode) (*listColumn, error) {
	r, err := newLeafReader(n.element, catalog.Primitive(t.Element))
	if err != nil {
		return nil, err
	}
	r.cursor().maxDef = byte(n.element.maxDef)
	return &listColumn{node: n, leaf: r}, nil
}

func (c *listColumn) startRowGroup(rg parquet.RowGroup) {
	c.leaf.start(rg.ColumnChunks()[c.node.element.leaf].Pages())
}

func (c *listColumn) close() { c.leaf.close() }

func (c *listColumn) read(b array.Builder, n int) error {
	if err := c.leaf.readList(b.(*array.ListBuilder), n, c.node.maxDef, c.node.repeated.maxDef); err != nil {
		return fmt.Errorf("column %q: %w", c.node.name, err)
	}
	return nil
}

// readList appends the next n rows of a list of primitives to lb: a row
// starts at repetition level 0; below listDef the list is NULL, below
// elemDef it is empty; an element is NULL below the leaf's own level.
// Runs of non-null elements are appended at once.
func (r *flatReader[T]) readList(lb *array.ListBuilder, n int, listDef, elemDef int) error {
	c := &r.cur
	vb := lb.ValueBuilder()
	got := 0
	started := false
	runFrom, runLen := 0, 0
	flush := func() {
		if runLen > 0 {
			r.appendTo(vb, r.vals[runFrom:runFrom+runLen], nil)
			runLen = 0
		}
	}
	for {
		if c.page == nil || c.i >= c.n {
			flush() // the page's values go away with it
			if err := r.loadPage(); err != nil {
				if errors.Is(err, io.EOF) {
					if started {
						got++
					}
					if got < n {
						return fmt.Errorf("column chunk ended %d rows early: %w", n-got, io.ErrUnexpectedEOF)
					}
					return nil
				}
				return err
			}
			continue
		}
		var rep byte
		if len(c.reps) > 0 {
			rep = c.reps[c.i]
		}
		def := c.maxDef
		if len(c.defs) > 0 {
			def = c.defs[c.i]
		}
		if rep == 0 {
			if started {
				got++
				started = false
			}
			if got == n {
				flush()
				return nil
			}
			started = true
			flush()
			if int(def) < listDef {
				lb.AppendNull()
				c.i++
				continue
			}
			lb.Append(true)
			if int(def) < elemDef {
				c.i++
				continue
			}
		}
		if def == c.maxDef {
			if runLen == 0 {
				runFrom = c.d
			}
			runLen++
			c.d++
		} else {
			flush()
			vb.AppendNull()
		}
		c.i++
	}
}
