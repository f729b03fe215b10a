package scan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// nestedColumn reads a struct, list or map column: it reads the level
// entries of every projected leaf, assembles each row into a Go value
// (catalog/value.go shapes) and appends it. This is the correct but slower
// path; flat columns use flatReader directly.
type nestedColumn struct {
	root   *pqNode
	typ    catalog.Type
	leaves map[int]leafReader // by leaf column index
	order  []int
	first  map[*pqNode]int   // first planned leaf under a node
	under  map[*pqNode][]int // planned leaves under a node
	rows   map[int][][]leafEntry
	// variants holds the metadata and value leaves of variant nodes.
	variants map[*pqNode][2]int
}

func newNestedColumn(t catalog.Type, n *pqNode) (*nestedColumn, error) {
	c := &nestedColumn{
		root:   n,
		typ:    t,
		leaves: map[int]leafReader{},
		first:  map[*pqNode]int{},
		under:  map[*pqNode][]int{},
		rows:   map[int][][]leafEntry{},

		variants: map[*pqNode][2]int{},
	}
	if err := c.plan(t, n, nil); err != nil {
		return nil, err
	}
	return c, nil
}

// plan creates the leaf readers a read type needs and records, for each
// node on the way, which planned leaves sit under it.
func (c *nestedColumn) plan(t catalog.Type, n *pqNode, path []*pqNode) error {
	path = append(path, n)
	addLeaf := func(leaf *pqNode, r leafReader) {
		r.cursor().maxDef = byte(leaf.maxDef)
		c.leaves[leaf.leaf] = r
		c.order = append(c.order, leaf.leaf)
		for _, p := range path {
			if _, ok := c.first[p]; !ok {
				c.first[p] = leaf.leaf
			}
			c.under[p] = append(c.under[p], leaf.leaf)
		}
		if leaf != n {
			c.first[leaf] = leaf.leaf
			c.under[leaf] = append(c.under[leaf], leaf.leaf)
		}
	}
	if p := catalog.Primitive(t); p != nil && p.ID == catalog.TVariant {
		meta, val, err := variantLeaves(n)
		if err != nil {
			return err
		}
		for _, leaf := range []*pqNode{meta, val} {
			r, err := newLeafReader(leaf, &catalog.PrimitiveType{ID: catalog.TBinary})
			if err != nil {
				return err
			}
			addLeaf(leaf, r)
		}
		c.variants[n] = [2]int{meta.leaf, val.leaf}
		return nil
	}
	if n.shape == pqVariant {
		return fmt.Errorf("parquet column %q is a variant, the table says %s", n.name, t)
	}
	switch t := t.(type) {
	case *catalog.PrimitiveType:
		if n.shape != pqPrimitive {
			return fmt.Errorf("parquet column %q is a group, the table says %s", n.name, t)
		}
		r, err := newLeafReader(n, t)
		if err != nil {
			return err
		}
		addLeaf(n, r)
	case *catalog.StructType:
		if n.shape != pqStruct {
			return fmt.Errorf("parquet column %q is not a struct, the table says %s", n.name, t)
		}
		found := false
		for _, f := range t.Fields {
			if ch := n.childByID(f.ID); ch != nil {
				if err := c.plan(f.Type, ch, path); err != nil {
					return err
				}
				found = true
			}
		}
		if !found {
			// No projected field is in the file: read one leaf for the
			// struct's presence only.
			leaf := n.leaves(nil)[0]
			addLeaf(leaf, newLevelsOnly())
		}
	case *catalog.ListType:
		if n.shape != pqList {
			return fmt.Errorf("parquet column %q is not a list, the table says %s", n.name, t)
		}
		if err := c.plan(t.Element, n.element, path); err != nil {
			return err
		}
	case *catalog.MapType:
		if n.shape != pqMap {
			return fmt.Errorf("parquet column %q is not a map, the table says %s", n.name, t)
		}
		if err := c.plan(t.Key, n.key, path); err != nil {
			return err
		}
		if err := c.plan(t.Value, n.value, path); err != nil {
			return err
		}
	}
	return nil
}

func newLevelsOnly() leafReader {
	return newFlat(func(_ encoding.Values, count int, dst []struct{}) ([]struct{}, error) {
		return append(dst[:0], make([]struct{}, count)...), nil
	}, true, func(array.Builder, []struct{}, []bool) {})
}

func (c *nestedColumn) startRowGroup(rg parquet.RowGroup) {
	chunks := rg.ColumnChunks()
	for i, r := range c.leaves {
		r.start(chunks[i].Pages())
	}
}

func (c *nestedColumn) close() {
	for _, r := range c.leaves {
		r.close()
	}
}

func (c *nestedColumn) read(b array.Builder, n int) error {
	for _, i := range c.order {
		rows, err := c.leaves[i].readEntries(n, c.rows[i][:0], true)
		if err != nil {
			return fmt.Errorf("column %q: %w", c.root.name, err)
		}
		if len(rows) != n {
			return fmt.Errorf("column %q: read %d rows, want %d", c.root.name, len(rows), n)
		}
		c.rows[i] = rows
	}
	ents := make(map[int][]leafEntry, len(c.order))
	for r := range n {
		for _, i := range c.order {
			ents[i] = c.rows[i][r]
		}
		v, err := c.assemble(c.typ, c.root, ents)
		if err != nil {
			return fmt.Errorf("column %q: %w", c.root.name, err)
		}
		if err := appendValue(b, c.typ, v); err != nil {
			return fmt.Errorf("column %q: %w", c.root.name, err)
		}
	}
	return nil
}

// assemble builds the value of node n (read as t) from the level entries of
// one instance of n, per leaf.
func (c *nestedColumn) assemble(t catalog.Type, n *pqNode, ents map[int][]leafEntry) (any, error) {
	fl, ok := c.first[n]
	if !ok {
		return nil, fmt.Errorf("no leaf planned under %q", n.name)
	}
	es := ents[fl]
	if len(es) == 0 {
		return nil, fmt.Errorf("no level entries for %q", n.name)
	}
	first := es[0]
	if int(first.def) < n.maxDef {
		return nil, nil
	}
	switch t := t.(type) {
	case *catalog.PrimitiveType:
		if lv, ok := c.variants[n]; ok {
			meta, ok1 := ents[lv[0]][0].val.([]byte)
			val, ok2 := ents[lv[1]][0].val.([]byte)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("variant %q lacks its metadata or value", n.name)
			}
			s, err := variantJSON(meta, val)
			if err != nil {
				return nil, fmt.Errorf("variant %q: %w", n.name, err)
			}
			return s, nil
		}
		return first.val, nil
	case *catalog.StructType:
		m := make(map[int]any, len(t.Fields))
		for _, f := range t.Fields {
			ch := n.childByID(f.ID)
			if ch == nil {
				m[f.ID] = f.InitialDefault
				continue
			}
			v, err := c.assemble(f.Type, ch, ents)
			if err != nil {
				return nil, err
			}
			m[f.ID] = v
		}
		return m, nil
	case *catalog.ListType:
		parts, err := c.split(n, ents)
		if err != nil || parts == nil {
			return []any{}, err
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			if out[i], err = c.assemble(t.Element, n.element, p); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *catalog.MapType:
		parts, err := c.split(n, ents)
		if err != nil || parts == nil {
			return catalog.MapValue{}, err
		}
		mv := catalog.MapValue{Keys: make([]any, len(parts)), Values: make([]any, len(parts))}
		for i, p := range parts {
			if mv.Keys[i], err = c.assemble(t.Key, n.key, p); err != nil {
				return nil, err
			}
			if mv.Values[i], err = c.assemble(t.Value, n.value, p); err != nil {
				return nil, err
			}
		}
		return mv, nil
	}
	return nil, fmt.Errorf("unknown type %s", t)
}

// split cuts the entries of a list or map instance into its elements (an
// element starts where the repetition level equals the repeated node's).
// It returns nil for an empty list or map.
func (c *nestedColumn) split(n *pqNode, ents map[int][]leafEntry) ([]map[int][]leafEntry, error) {
	r := n.repeated
	first := ents[c.first[n]][0]
	if int(first.def) < r.maxDef {
		return nil, nil
	}
	var parts []map[int][]leafEntry
	for _, leaf := range c.under[n] {
		es := ents[leaf]
		k := 0
		start := 0
		for i := 1; i <= len(es); i++ {
			if i == len(es) || int(es[i].rep) == r.maxRep {
				if k == len(parts) {
					parts = append(parts, map[int][]leafEntry{})
				}
				parts[k][leaf] = es[start:i]
				k++
				start = i
			}
		}
	}
	for _, p := range parts {
		if len(p) != len(c.under[n]) {
			return nil, fmt.Errorf("leaves under %q disagree on element count", n.name)
		}
	}
	return parts, nil
}

// variantLeaves returns the metadata and value leaves of an unshredded
// variant group.
func variantLeaves(n *pqNode) (meta, val *pqNode, err error) {
	if n.shape != pqStruct && n.shape != pqVariant {
		return nil, nil, fmt.Errorf("parquet column %q is not a variant group", n.name)
	}
	for _, c := range n.children {
		switch c.name {
		case "metadata":
			meta = c
		case "value":
			val = c
		case "typed_value":
			return nil, nil, pgerr.Unsupported("reading shredded variant column %q", n.name)
		}
	}
	if meta == nil || val == nil || meta.leaf < 0 || val.leaf < 0 {
		return nil, nil, fmt.Errorf("parquet column %q is not a variant group (metadata, value)", n.name)
	}
	return meta, val, nil
}
