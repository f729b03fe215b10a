package scan

import (
	"strconv"

	"github.com/icegate/icegate/engine/scan/orcfile"
)

// orcIDAttribute is the type attribute Iceberg writers store field ids in.
const orcIDAttribute = "iceberg.id"

// orcNode is a node of an ORC file's type tree with the Iceberg field id
// assigned to it (from iceberg.id, a name mapping, or names).
type orcNode struct {
	t        *orcfile.Type
	name     string
	id       int
	children []*orcNode
}

// buildORCNode wraps t and its descendants; hasIDs is set when any node
// carries an Iceberg id.
func buildORCNode(name string, t *orcfile.Type, hasIDs *bool) *orcNode {
	n := &orcNode{t: t, name: name}
	if s, ok := t.Attributes[orcIDAttribute]; ok {
		if id, err := strconv.Atoi(s); err == nil {
			n.id = id
			*hasIDs = true
		}
	}
	for i, c := range t.Children {
		cname := ""
		if t.Kind == orcfile.Struct {
			cname = t.Names[i]
		}
		n.children = append(n.children, buildORCNode(cname, c, hasIDs))
	}
	return n
}

func (n *orcNode) fieldName() string { return n.name }
func (n *orcNode) setID(id int)      { n.id = id }

func (n *orcNode) structChildren() []fileField {
	if n.t.Kind != orcfile.Struct {
		return nil
	}
	out := make([]fileField, len(n.children))
	for i, c := range n.children {
		out[i] = c
	}
	return out
}

func (n *orcNode) listElement() fileField {
	if n.t.Kind != orcfile.List {
		return nil
	}
	return n.children[0]
}

func (n *orcNode) mapKeyValue() (fileField, fileField) {
	if n.t.Kind != orcfile.Map {
		return nil, nil
	}
	return n.children[0], n.children[1]
}

// childByID returns the index of the struct child with Iceberg id id, or -1.
func (n *orcNode) childByID(id int) int {
	for i, c := range n.children {
		if id != 0 && c.id == id {
			return i
		}
	}
	return -1
}
