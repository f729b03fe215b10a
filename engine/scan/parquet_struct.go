package scan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
)

// structColumn reads a struct whose projected fields are primitives or
// structs of them (no lists, maps or variants below): every leaf is read by
// a flat reader straight into the struct builder's child, and the struct's
// validity comes from the definition levels of one of its leaves.
type structColumn struct {
	node     *pqNode
	typ      *catalog.StructType
	children []structChild
	presence leafReader // the leaf whose levels give the validity
	// presenceFrom is the nested struct that reads the presence leaf (its
	// defs are that leaf's levels), or nil when the leaf is a direct child.
	presenceFrom *structColumn
	defs         []byte
	valid        []bool
}

// structChild is one field of a structColumn: a leaf, a nested struct, or
// a constant (the field is missing from the file).
type structChild struct {
	leaf     leafReader
	leafNode *pqNode
	sub      *structColumn
	field    catalog.NestedField
}

// flatStruct reports whether the read type t of node n has only
// primitives and structs where the file has the fields.
func flatStruct(t *catalog.StructType, n *pqNode) bool {
	if n.shape != pqStruct || n.maxRep > 0 {
		return false
	}
	for _, f := range t.Fields {
		ch := n.childByID(f.ID)
		if ch == nil {
			continue
		}
		switch ft := f.Type.(type) {
		case *catalog.PrimitiveType:
			if ft.ID == catalog.TVariant || ch.shape != pqPrimitive {
				return false
			}
		case *catalog.StructType:
			if !flatStruct(ft, ch) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func newStructColumn(t *catalog.StructType, n *pqNode) (*structColumn, error) {
	c := &structColumn{node: n, typ: t}
	for _, f := range t.Fields {
		ch := n.childByID(f.ID)
		sc := structChild{field: f}
		switch {
		case ch == nil:
		case ch.shape == pqPrimitive:
			r, err := newLeafReader(ch, catalog.Primitive(f.Type))
			if err != nil {
				return nil, err
			}
			r.cursor().maxDef = byte(ch.maxDef)
			sc.leaf, sc.leafNode = r, ch
			if c.presence == nil {
				c.presence = r
			}
		default:
			sub, err := newStructColumn(f.Type.(*catalog.StructType), ch)
			if err != nil {
				return nil, err
			}
			sc.sub = sub
			if c.presence == nil {
				c.presence, c.presenceFrom = sub.presence, sub
			}
		}
		c.children = append(c.children, sc)
	}
	if c.presence == nil {
		// No projected field is in the file: read one leaf's levels.
		leaf := n.leaves(nil)[0]
		r := newLevelsOnly()
		r.cursor().maxDef = byte(leaf.maxDef)
		c.children = append(c.children, structChild{leaf: r, leafNode: leaf})
		c.presence = r
	}
	return c, nil
}

func (c *structColumn) startRowGroup(rg parquet.RowGroup) {
	chunks := rg.ColumnChunks()
	for _, ch := range c.children {
		switch {
		case ch.leaf != nil:
			ch.leaf.start(chunks[ch.leafNode.leaf].Pages())
		case ch.sub != nil:
			ch.sub.startRowGroup(rg)
		}
	}
}

func (c *structColumn) close() {
	for _, ch := range c.children {
		switch {
		case ch.leaf != nil:
			ch.leaf.close()
		case ch.sub != nil:
			ch.sub.close()
		}
	}
}

func (c *structColumn) read(b array.Builder, n int) error {
	sb := b.(*array.StructBuilder)
	c.defs = c.defs[:0]
	if c.presenceFrom == nil {
		c.presence.sinkDefs(&c.defs)
		defer c.presence.sinkDefs(nil)
	}
	fi := 0
	for _, ch := range c.children {
		switch {
		case ch.sub != nil:
			if err := ch.sub.read(sb.FieldBuilder(fi), n); err != nil {
				return err
			}
		case ch.leaf != nil && ch.leafNode != nil && ch.field.Type == nil:
			// levels-only presence leaf: no builder of its own
			if err := ch.leaf.read(nil, n); err != nil {
				return fmt.Errorf("field %q: %w", c.node.name, err)
			}
			continue
		case ch.leaf != nil:
			if err := ch.leaf.read(sb.FieldBuilder(fi), n); err != nil {
				return fmt.Errorf("field %q.%q: %w", c.node.name, ch.field.Name, err)
			}
		default:
			fb := sb.FieldBuilder(fi)
			if ch.field.InitialDefault == nil {
				fb.AppendNulls(n)
			} else {
				for range n {
					if err := appendValue(fb, ch.field.Type, ch.field.InitialDefault); err != nil {
						return fmt.Errorf("field %q.%q: %w", c.node.name, ch.field.Name, err)
					}
				}
			}
		}
		fi++
	}
	if c.presenceFrom != nil {
		c.defs = append(c.defs, c.presenceFrom.defs...)
	}
	if len(c.defs) != n {
		return fmt.Errorf("struct %q: %d levels for %d rows", c.node.name, len(c.defs), n)
	}
	if cap(c.valid) < n {
		c.valid = make([]bool, n)
	}
	valid := c.valid[:n]
	for i, d := range c.defs {
		valid[i] = int(d) >= c.node.maxDef
	}
	sb.AppendValues(valid)
	return nil
}
