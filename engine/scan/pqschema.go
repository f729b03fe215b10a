package scan

import (
	"fmt"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// pqShape says how a Parquet schema node maps onto Iceberg's type shapes.
type pqShape int

const (
	pqPrimitive pqShape = iota
	pqStruct
	pqList
	pqMap
	pqVariant
)

// pqNode is a node of a Parquet file's schema, with the levels needed to
// decode it and the Iceberg field id assigned to it (from the file's
// field_id, a name mapping, or names).
type pqNode struct {
	elem     *format.SchemaElement
	name     string
	id       int
	shape    pqShape
	children []*pqNode
	// element (list), key and value (map): the nodes carrying the ids.
	element, key, value *pqNode
	// repeated is the repeated node of a list or map (the one whose
	// repetition level separates elements).
	repeated *pqNode
	leaf     int // leaf column index; -1 for groups
	maxDef   int // definition level when this node is present
	maxRep   int
	optional bool
}

// leaves appends the leaf columns under n.
func (n *pqNode) leaves(dst []*pqNode) []*pqNode {
	if n.leaf >= 0 {
		return append(dst, n)
	}
	for _, c := range n.children {
		dst = c.leaves(dst)
	}
	return dst
}

// buildPqSchema turns the flat, depth-first schema of a Parquet footer into a
// tree. It returns the top-level fields and whether any node has a field id.
func buildPqSchema(elems []format.SchemaElement) ([]*pqNode, bool, error) {
	if len(elems) == 0 {
		return nil, false, fmt.Errorf("parquet schema is empty")
	}
	pos := 1
	leaf := 0
	hasIDs := false
	var build func(def, rep int) (*pqNode, error)
	build = func(def, rep int) (*pqNode, error) {
		if pos >= len(elems) {
			return nil, fmt.Errorf("parquet schema is truncated")
		}
		e := &elems[pos]
		pos++
		n := &pqNode{elem: e, name: e.Name, id: int(e.FieldID), leaf: -1}
		if e.FieldID != 0 {
			hasIDs = true
		}
		switch e.RepetitionType.V {
		case format.Optional:
			def++
			n.optional = true
		case format.Repeated:
			def++
			rep++
		}
		n.maxDef, n.maxRep = def, rep
		nc := int(e.NumChildren.V)
		if !e.NumChildren.Valid || nc == 0 && e.Type.Valid {
			n.leaf = leaf
			leaf++
			n.shape = pqPrimitive
			return n, nil
		}
		for range nc {
			c, err := build(def, rep)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, c)
		}
		if err := classify(n); err != nil {
			return nil, err
		}
		return n, nil
	}
	root := &elems[0]
	var top []*pqNode
	for range int(root.NumChildren.V) {
		n, err := build(0, 0)
		if err != nil {
			return nil, false, err
		}
		top = append(top, n)
	}
	return top, hasIDs, nil
}

// classify sets the shape of a group node from its annotations, following
// the Parquet LogicalTypes backward-compatibility rules for lists and maps.
func classify(n *pqNode) error {
	e := n.elem
	lt := e.LogicalType.Value
	ct, hasCT := e.ConvertedType.V, e.ConvertedType.Valid
	switch {
	case isLogical[*format.VariantType](lt):
		n.shape = pqVariant
	case isLogical[*format.ListType](lt) || hasCT && ct == deprecated.List:
		if len(n.children) != 1 || n.children[0].elem.RepetitionType.V != format.Repeated {
			return fmt.Errorf("parquet list %q has no single repeated child", n.name)
		}
		r := n.children[0]
		n.shape, n.repeated = pqList, r
		if r.leaf < 0 && len(r.children) == 1 && r.name != "array" && r.name != n.name+"_tuple" {
			n.element = r.children[0]
		} else {
			n.element = r
		}
	case isLogical[*format.MapType](lt) || hasCT && ct == deprecated.Map ||
		hasCT && ct == deprecated.MapKeyValue && e.RepetitionType.V != format.Repeated:
		if len(n.children) != 1 || len(n.children[0].children) != 2 {
			return fmt.Errorf("parquet map %q is not a repeated key/value group", n.name)
		}
		r := n.children[0]
		n.shape, n.repeated = pqMap, r
		n.key, n.value = r.children[0], r.children[1]
	default:
		n.shape = pqStruct
		for _, c := range n.children {
			if c.elem.RepetitionType.V == format.Repeated {
				return fmt.Errorf("parquet group %q has an unannotated repeated field %q", n.name, c.name)
			}
		}
	}
	return nil
}

func isLogical[T format.LogicalTypeValue](v format.LogicalTypeValue) bool {
	_, ok := v.(T)
	return ok
}

func (n *pqNode) fieldName() string { return n.name }
func (n *pqNode) setID(id int)      { n.id = id }

func (n *pqNode) structChildren() []fileField {
	if n.shape != pqStruct {
		return nil
	}
	out := make([]fileField, len(n.children))
	for i, c := range n.children {
		out[i] = c
	}
	return out
}

func (n *pqNode) listElement() fileField {
	if n.shape != pqList {
		return nil
	}
	return n.element
}

func (n *pqNode) mapKeyValue() (fileField, fileField) {
	if n.shape != pqMap {
		return nil, nil
	}
	return n.key, n.value
}

// childByID returns the struct child with Iceberg id id, or nil.
func (n *pqNode) childByID(id int) *pqNode {
	for _, c := range n.children {
		if c.id == id && id != 0 {
			return c
		}
	}
	return nil
}
