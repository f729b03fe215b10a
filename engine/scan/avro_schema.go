package scan

import (
	"fmt"

	"github.com/twmb/avro"
)

// avroShape says how an Avro schema node maps onto Iceberg's shapes.
type avroShape int

const (
	avroPrimitive avroShape = iota
	avroRecord
	avroArray
	avroMap      // Avro map: string keys
	avroPairList // Iceberg map with non-string keys: array of key/value records
)

// avroNode is a field of an Avro data file's writer schema with the
// Iceberg field id it carries (field-id, element-id, key-id, value-id
// properties) or that a name mapping or names assign.
type avroNode struct {
	name       string
	id         int
	shape      avroShape
	node       *avro.SchemaNode // the non-null branch
	children   []*avroNode      // record fields
	element    *avroNode        // array element
	key, value *avroNode        // map key and value
}

func (n *avroNode) fieldName() string { return n.name }
func (n *avroNode) setID(id int)      { n.id = id }
func (n *avroNode) structChildren() []fileField {
	if n.shape != avroRecord {
		return nil
	}
	out := make([]fileField, len(n.children))
	for i, c := range n.children {
		out[i] = c
	}
	return out
}
func (n *avroNode) listElement() fileField {
	if n.shape != avroArray {
		return nil
	}
	return n.element
}
func (n *avroNode) mapKeyValue() (fileField, fileField) {
	if n.shape != avroMap && n.shape != avroPairList {
		return nil, nil
	}
	return n.key, n.value
}

func (n *avroNode) childByID(id int) *avroNode {
	for _, c := range n.children {
		if c.id != 0 && c.id == id {
			return c
		}
	}
	return nil
}

func propInt(props map[string]any, key string) (int, bool) {
	switch v := props[key].(type) {
	case int64:
		return int(v), true
	case float64:
		return int(v), true
	case string:
		var n int
		if _, err := fmt.Sscanf(v, "%d", &n); err == nil {
			return n, true
		}
	}
	return 0, false
}

// nonNull returns the non-null branch of a ["null", T] union, or s.
func nonNull(s *avro.SchemaNode) *avro.SchemaNode {
	if s.Type != "union" {
		return s
	}
	for i := range s.Branches {
		if s.Branches[i].Type != "null" {
			return &s.Branches[i]
		}
	}
	return s
}

// buildAvroNode describes schema s of a field called name; hasIDs is set
// when any id property is present.
func buildAvroNode(name string, id int, s *avro.SchemaNode, hasIDs *bool) *avroNode {
	s = nonNull(s)
	n := &avroNode{name: name, id: id, node: s}
	switch s.Type {
	case "record":
		n.shape = avroRecord
		for i := range s.Fields {
			f := &s.Fields[i]
			fid, ok := propInt(f.Props, "field-id")
			if ok {
				*hasIDs = true
			}
			n.children = append(n.children, buildAvroNode(f.Name, fid, &f.Type, hasIDs))
		}
	case "array":
		items := nonNull(s.Items)
		if items.Type == "record" && len(items.Fields) == 2 && s.LogicalType == "map" {
			n.shape = avroPairList
			kid, _ := propInt(items.Fields[0].Props, "field-id")
			vid, _ := propInt(items.Fields[1].Props, "field-id")
			n.key = buildAvroNode("key", kid, &items.Fields[0].Type, hasIDs)
			n.value = buildAvroNode("value", vid, &items.Fields[1].Type, hasIDs)
			break
		}
		n.shape = avroArray
		eid, ok := propInt(s.Props, "element-id")
		if ok {
			*hasIDs = true
		}
		n.element = buildAvroNode("element", eid, s.Items, hasIDs)
	case "map":
		n.shape = avroMap
		kid, _ := propInt(s.Props, "key-id")
		vid, ok := propInt(s.Props, "value-id")
		if ok {
			*hasIDs = true
		}
		n.key = &avroNode{name: "key", id: kid, node: &avro.SchemaNode{Type: "string"}}
		n.value = buildAvroNode("value", vid, s.Values, hasIDs)
	}
	return n
}
